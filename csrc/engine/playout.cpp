// playout.cpp — random playouts and the clone timing harness (playout.hpp).
#include "playout.hpp"

#include <chrono>

#include "events.hpp"

namespace polyenv {

int fill_legal_list(const GameState& s, std::vector<int32_t>& legal, MoveCache* moves) {
  if (legal.empty()) legal.resize(4096);
  int total = legal_actions(s, legal.data(), int(legal.size()), moves);
  if (total > int(legal.size())) {
    legal.resize(size_t(total) * 2);
    total = legal_actions(s, legal.data(), int(legal.size()), moves);
  }
  return total;
}

Rng playout_rng(uint64_t seed) {
  Rng rng;
  rng.seed(seed, 0x9E37);
  return rng;
}

namespace {

// apply_action then the whole legal list into `legal` (grown when too small); returns its length.
int apply_and_fill(GameState& s, int32_t id, std::vector<int32_t>& legal, MoveCache* moves, EventSink* sink) {
  int total = apply_action_and_list(s, id, legal.data(), int(legal.size()), moves, sink);
  if (total > int(legal.size())) {
    legal.resize(size_t(total) * 2);
    total = legal_actions(s, legal.data(), int(legal.size()), moves);
  }
  return total;
}

}  // namespace

int random_playout(GameState& s, uint64_t seed, int max_actions, std::vector<int32_t>& legal, MoveCache* moves,
                   EventSink* sink, std::vector<int32_t>* counts) {
  Rng rng = playout_rng(seed);
  int applied = 0;
  if (s.game_over || max_actions == 0) return 0;
  int total = fill_legal_list(s, legal, moves);
  while (!s.game_over && (max_actions < 0 || applied < max_actions)) {
    if (counts) counts->push_back(total);
    total = apply_and_fill(s, legal[rng.below(uint32_t(total))], legal, moves, sink);
    ++applied;
  }
  return applied;
}

std::pair<double, double> clone_benchmark(const GameState& state, int iterations) {
  using clock = std::chrono::steady_clock;
  volatile int sink = 0;  // reads one field of every copy, so no copy is optimized away
  GameState reused = state;
  auto t0 = clock::now();
  for (int i = 0; i < iterations; ++i) {
    reused = state;
    sink = sink + reused.tiles.back().terrain;
  }
  auto t1 = clock::now();
  for (int i = 0; i < iterations; ++i) {
    GameState fresh(state);
    sink = sink + fresh.tiles.back().terrain;
  }
  auto t2 = clock::now();
  const double n = iterations > 0 ? double(iterations) : 1.0;
  return {std::chrono::duration<double, std::nano>(t1 - t0).count() / n,
          std::chrono::duration<double, std::nano>(t2 - t1).count() / n};
}

}  // namespace polyenv
