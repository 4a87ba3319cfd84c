// episode_source.hpp — where the episodes of one stand-alone live game come
// from (polyenv.GameEnv's native Game), and that game: a generated map, one
// level file or a blank board, each restarted from a seed. Batches of games
// take theirs from the episode sequence of episodes.hpp instead.
#pragma once
#include <cstdint>

#include "../engine/game.hpp"
#include "game_handle.hpp"

namespace polyenv {

struct EpisodeSource {
  enum class Kind : int8_t { kGenerated, kLevel, kBlank };
  Kind kind = Kind::kGenerated;
  GameConfig config;
  Level level;                 // kLevel: the level every episode plays
  int blank_terrain = kPlain;  // kBlank: the board's terrain
  bool blank_revealed = true;  // kBlank: whether every tile starts explored

  // A generated map of `config` per episode (new_game).
  static EpisodeSource generated(GameConfig config);
  // `level` with `config` (its map_size the level's) per episode (setup_game).
  static EpisodeSource of_level(Level level, GameConfig config);
  // A blank board of `terrain` per episode (blank_game).
  static EpisodeSource blank(GameConfig config, int terrain, bool revealed);

  // Starts, in s, this source's game seeded `seed` (the engine's checks apply: InvalidArgument).
  void start(GameState& s, uint64_t seed) const;
};

// A live game that restarts from its own source.
struct SourcedGame : GameHandle {
  EpisodeSource source;
  uint64_t seed = 0;  // the seed of the current episode

  // Starts the source's game seeded `new_seed`: a new episode id, then a new
  // state id (touched), and an empty unbounded journal for its players.
  void new_episode(uint64_t new_seed);
};

}  // namespace polyenv
