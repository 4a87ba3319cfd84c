// playout.hpp — uniformly random play and the state-copy timing harness, used
// by the check tools, tests and benchmarks (GameEnv.playout, clone_benchmark; the
// checked playout of engine/check/ plays the same games). Nothing here is on a training path.
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

// The random stream random_playout (and checked_playout, engine/check/) draws its actions from.
Rng playout_rng(uint64_t seed);
// The whole legal list into `legal` (grown when too small, as random_playout's); returns its length.
int fill_legal_list(const GameState& s, std::vector<int32_t>& legal, MoveCache* moves);

// Mean nanoseconds of one copy of `state`, as (copy-assign into a reused
// GameState, copy-construct a fresh one), over `iterations` copies each.
std::pair<double, double> clone_benchmark(const GameState& state, int iterations);

}  // namespace polyenv
