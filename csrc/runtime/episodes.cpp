// episodes.cpp — the episode sequence of a batch of live games (episodes.hpp).
#include "episodes.hpp"

namespace polyenv {

int episode_players(const GameConfig& game, const std::vector<Level>& levels) {
  if (game.tribes.empty() && !levels.empty()) return int(levels[0].capital_tiles.size());
  return int(game.tribes.size());
}

void start_episode_game(GameState& s, const GameConfig& game, const std::vector<Level>& levels, uint64_t base_seed,
                        int num_envs, int env, uint64_t episode) {
  const uint64_t index = uint64_t(env) + episode * uint64_t(num_envs);
  if (levels.empty()) {
    new_game(s, game, base_seed + index);
  } else {
    setup_game(s, levels[size_t(index % levels.size())], game, base_seed + index);
  }
}

void check_episodes(const GameConfig& game, const std::vector<Level>& levels) {
  auto fail = [](const std::string& m) { throw InvalidArgument(m); };
  const int n = game.map_size;
  if (n < kMinMapSize || n > kMaxMapSize) {
    fail("map_size " + std::to_string(n) + " is outside [" + std::to_string(kMinMapSize) + ", " +
         std::to_string(kMaxMapSize) + "]");
  }
  const bool level_tribes = game.tribes.empty() && !levels.empty();
  const int players = episode_players(game, levels);
  check_player_count(players);
  for (size_t i = 0; i < levels.size(); ++i) {
    const Level& level = levels[i];
    const std::string name = "level " + std::to_string(i);
    if (level.size != n) {
      fail(name + " is " + std::to_string(level.size) + "x" + std::to_string(level.size) + " but map_size is " +
           std::to_string(n));
    }
    if (int(level.capital_tiles.size()) != players) {
      fail(name + " has " + std::to_string(level.capital_tiles.size()) + " capitals but " +
           (level_tribes ? "level 0 has " : "players names ") + std::to_string(players));
    }
    GameState probe;
    try {
      setup_game(probe, level, game, 0);
    } catch (const InvalidArgument& e) {
      fail(name + ": " + e.what());
    }
  }
}

std::vector<Level> parse_levels(const std::vector<std::string>& texts) {
  std::vector<Level> levels;
  levels.reserve(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    try {
      levels.push_back(parse_level_csv(texts[i]));
    } catch (const InvalidArgument& e) {
      throw InvalidArgument("level " + std::to_string(i) + ": " + e.what());
    }
  }
  return levels;
}

}  // namespace polyenv
