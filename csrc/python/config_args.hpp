// config_args.hpp — the constructor arguments that several binding classes share,
// validated and converted in one place.
#pragma once
#include <cstdint>
#include <vector>

#include "../engine/game.hpp"
#include "../search/mcts_pool.hpp"

namespace polyenv::python {

// The game settings of Game and of every multi-game class (VectorEnv, MctsPool, SelfPlayPool).
inline GameConfig game_config(int map_size, std::vector<int8_t> tribes, int mode, int max_turns, bool full_obs) {
  if (mode != kCapitals && mode != kScore) throw InvalidArgument("mode must be capitals (0) or score (1)");
  if (max_turns < -1) throw InvalidArgument("max_turns must be None or >= 0");
  GameConfig game;
  game.map_size = map_size;
  game.tribes = std::move(tribes);
  game.mode = GameMode(mode);
  game.max_turns = max_turns;
  game.full_observability = full_obs;
  return game;
}

// The pool and search settings MctsPool and SelfPlayPool share.
inline MctsPoolConfig mcts_pool_config(int num_envs, uint64_t seed, GameConfig game, int num_threads,
                                       int max_actions, bool require_all, bool auto_reset, double c_puct,
                                       int max_pending, double virtual_loss, int64_t max_nodes, int64_t max_bytes) {
  MctsPoolConfig cfg;
  cfg.num_envs = num_envs;
  cfg.seed = seed;
  cfg.game = std::move(game);
  cfg.num_threads = num_threads;
  cfg.max_actions = max_actions;
  cfg.require_all_actions = require_all;
  cfg.auto_reset = auto_reset;
  cfg.max_pending_leaves = max_pending;
  cfg.search.c_puct = c_puct;
  cfg.search.virtual_loss = virtual_loss;
  cfg.search.max_nodes = max_nodes;
  cfg.search.max_bytes = max_bytes;
  return cfg;
}

}  // namespace polyenv::python
