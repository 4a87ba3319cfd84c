// oracles.hpp — the engine's test oracles (engine/check/, part of the engine library): the plain
// reference enumeration of the legal actions and the checked random playout. They check the fast
// paths and are on no game's path: only engine/check/ itself, the bindings' _core._testing submodule
// (python/game_testing.cpp) and the C++ self-tests (tests/cpp/) include this header
// (cmake/check_layers.cmake). The invariants checker (invariants.cpp here) is declared in game.hpp,
// because loading a state (deserialize) and the token reader validate with it.
#pragma once
#include <cstdint>
#include <vector>

#include "../game.hpp"

namespace polyenv {

// The legal list of legal_actions from a plain enumeration (every candidate id tested with the rule
// predicates, no filters, caches or search windows): slow, for checking legal_actions.
int legal_actions_reference(const GameState& s, int32_t* out, int capacity);

// Check mode: random play as random_playout (the production list with the move
// cache), and after every action the list must equal legal_actions_reference
// and the uncached list; after every action the state must equal the same action
// applied to a copy that gives observed ids after checking every unit, and pass
// check_invariants. Returns the number of decisions checked; throws
// std::runtime_error naming the first difference.
int checked_playout(GameState& s, uint64_t seed, int max_actions, std::vector<int32_t>& legal, MoveCache* moves);

}  // namespace polyenv
