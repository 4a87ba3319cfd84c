// playout.hpp — uniformly random play and the state-copy timing harness, used
// by the check tools, tests and benchmarks (GameEnv.playout, checked_playout,
// clone_benchmark). Nothing here is on a training path.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "game.hpp"

namespace polyenv {

struct EventSink;

// Uniform random play (the full legal list rebuilt before every action, move
// cache `moves` when given) to the end or for max_actions actions (< 0: no
// limit). `legal` is the caller's scratch list (grown when needed). `counts`,
// if given, receives the legal-list size of every decision. Returns the
// number of actions applied.
int random_playout(GameState& s, uint64_t seed, int max_actions, std::vector<int32_t>& legal, MoveCache* moves,
                   EventSink* sink, std::vector<int32_t>* counts = nullptr);

// Check mode: random play as random_playout (the production list with the move
// cache), and after every action the list must equal legal_actions_reference
// and the uncached list; after every action the state must equal the same action
// applied to a copy that gives observed ids after checking every unit, and pass
// check_invariants. Returns the number of decisions checked; throws
// std::runtime_error naming the first difference.
int checked_playout(GameState& s, uint64_t seed, int max_actions, std::vector<int32_t>& legal, MoveCache* moves);

// Mean nanoseconds of one copy of `state`, as (copy-assign into a reused
// GameState, copy-construct a fresh one), over `iterations` copies each.
std::pair<double, double> clone_benchmark(const GameState& state, int iterations);

}  // namespace polyenv
