// heuristic_value.hpp — the engine's greedy evaluation (engine/bots.hpp) as a search
// value in [-1, 1]: the change of a player's evaluation from the search's root,
// squashed. The MCTS player's leaf value, and the az player's when its network asks
// for it (az_net.hpp, leaf_value_mix).
#pragma once
#include <cmath>

#include "../engine/bots.hpp"

namespace polyenv {

// A change of this much from the root maps to tanh(1) ~ 0.76 (a 10-HP warrior is worth 46).
inline constexpr double kHeuristicValueScale = 1000;

// tanh((bot_evaluation(s, player) - base) / scale).
inline double heuristic_value(const GameState& s, int player, double base, double scale = kHeuristicValueScale) {
  return std::tanh((bot_evaluation(s, player) - base) / scale);
}

}  // namespace polyenv
