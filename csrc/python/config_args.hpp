// config_args.hpp — the configuration structs that several binding classes take, each with its
// keyword arguments named once (a POLYENV_*_ARGS list, in the order of its conversion's
// parameters) and converted once (the function below it). A binding declares the list where
// the struct's arguments go and passes its parameters to the conversion in the same order.
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <vector>

#include "../engine/game.hpp"
#include "../search/mcts_pool.hpp"

namespace polyenv::python {

// GameConfig: the board side and the rules of a game (Game, VectorEnv, MctsPool, SelfPlayPool).
// POLYENV_GAME_RULE_ARGS alone is for a game whose level gives the board side (Game.from_level,
// describe_level).
#define POLYENV_GAME_RULE_ARGS \
  py::arg("tribes"), py::arg("mode"), py::arg("max_turns"), py::arg("full_observability")
#define POLYENV_GAME_ARGS py::arg("map_size"), POLYENV_GAME_RULE_ARGS

// The engine's make_game_config checks mode and max_turns (engine/game.hpp).
inline GameConfig game_config(int map_size, std::vector<int8_t> tribes, int mode, int max_turns, bool full_obs) {
  return make_game_config(map_size, std::move(tribes), mode, max_turns, full_obs);
}

// MctsPoolConfig: the pool and search settings MctsPool and SelfPlayPool share (their first
// constructor arguments; the levels and root selection follow separately).
#define POLYENV_MCTS_POOL_ARGS                                                                                 \
  py::arg("num_envs"), py::arg("seed"), POLYENV_GAME_ARGS, py::arg("num_threads"), py::arg("max_actions"),   \
      py::arg("require_all_actions"), py::arg("auto_reset"), py::arg("c_puct"), py::arg("max_pending"),        \
      py::arg("virtual_loss"), py::arg("max_nodes"), py::arg("max_bytes")

inline MctsPoolConfig mcts_pool_config(int num_envs, uint64_t seed, int map_size, std::vector<int8_t> tribes,
                                       int mode, int max_turns, bool full_obs, int num_threads, int max_actions,
                                       bool require_all, bool auto_reset, double c_puct, int max_pending,
                                       double virtual_loss, int64_t max_nodes, int64_t max_bytes) {
  MctsPoolConfig cfg;
  cfg.num_envs = num_envs;
  cfg.seed = seed;
  cfg.game = game_config(map_size, std::move(tribes), mode, max_turns, full_obs);
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
