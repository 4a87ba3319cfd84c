// episodes.hpp — which game each episode of a batch of live games plays, for every owner
// of such a batch (VectorEnv, MctsPool and through it SelfPlayPool): episode k of
// environment i is game i + k * num_envs of the sequence, seeded base_seed + that index,
// on a generated map (no levels) or on levels[that index % levels.size()]. Each level must
// fit game.map_size and the tribes; with no tribes every level plays with its own, and all
// levels have the same number of capitals.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "../engine/game.hpp"

namespace polyenv {

// Players per game: the tribes', or with levels and no tribes the levels' capitals.
int episode_players(const GameConfig& game, const std::vector<Level>& levels);

// Every check of an episode sequence (InvalidArgument naming the level): the map size, the
// player count (check_player_count), and every rule setup_game applies to each level, now
// rather than at the episode that first plays it.
void check_episodes(const GameConfig& game, const std::vector<Level>& levels);

// Starts, in `s`, the game of episode `episode` of environment `env` of `num_envs`.
void start_episode_game(GameState& s, const GameConfig& game, const std::vector<Level>& levels, uint64_t base_seed,
                        int num_envs, int env, uint64_t episode);

// Levels parsed from Tribes CSV texts; InvalidArgument naming "level i" for one that does not parse.
std::vector<Level> parse_levels(const std::vector<std::string>& texts);

}  // namespace polyenv
