// playout.cpp — random playouts and the clone timing harness (playout.hpp).
#include "playout.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "events.hpp"

namespace polyenv {

namespace {

// The whole legal list into `legal` (grown when too small); returns its length.
int fill_legal(const GameState& s, std::vector<int32_t>& legal, MoveCache* moves) {
  if (legal.empty()) legal.resize(4096);
  int total = legal_actions(s, legal.data(), int(legal.size()), moves);
  if (total > int(legal.size())) {
    legal.resize(size_t(total) * 2);
    total = legal_actions(s, legal.data(), int(legal.size()), moves);
  }
  return total;
}

// apply_action then the whole legal list into `legal` (grown when too small); returns its length.
int apply_and_fill(GameState& s, int32_t id, std::vector<int32_t>& legal, MoveCache* moves, EventSink* sink) {
  int total = apply_action_and_list(s, id, legal.data(), int(legal.size()), moves, sink);
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

}  // namespace

int random_playout(GameState& s, uint64_t seed, int max_actions, std::vector<int32_t>& legal, MoveCache* moves,
                   EventSink* sink, std::vector<int32_t>* counts) {
  Rng rng = playout_rng(seed);
  int applied = 0;
  if (s.game_over || max_actions == 0) return 0;
  int total = fill_legal(s, legal, moves);
  while (!s.game_over && (max_actions < 0 || applied < max_actions)) {
    if (counts) counts->push_back(total);
    total = apply_and_fill(s, legal[rng.below(uint32_t(total))], legal, moves, sink);
    ++applied;
  }
  return applied;
}

int checked_playout(GameState& s, uint64_t seed, int max_actions, std::vector<int32_t>& legal, MoveCache* moves) {
  Rng rng = playout_rng(seed);
  std::vector<int32_t> reference, uncached, fused(4096);
  int checked = 0;
  while (!s.game_over && (max_actions < 0 || checked < max_actions)) {
    const int total = fill_legal(s, legal, moves);
    reference.resize(size_t(legal_actions_reference(s, nullptr, 0)));
    legal_actions_reference(s, reference.data(), int(reference.size()));
    uncached.resize(size_t(legal_actions(s, nullptr, 0)));
    legal_actions(s, uncached.data(), int(uncached.size()));
    for (const auto* other : {&reference, &uncached}) {
      if (int(other->size()) == total && std::equal(other->begin(), other->end(), legal.begin())) continue;
      int i = 0;
      while (i < total && i < int(other->size()) && (*other)[size_t(i)] == legal[size_t(i)]) ++i;
      const int32_t fast_id = i < total ? legal[size_t(i)] : -1;
      const int32_t other_id = i < int(other->size()) ? (*other)[size_t(i)] : -1;
      throw std::runtime_error(std::string("legal list differs from the ") +
                               (other == &reference ? "reference" : "uncached") + " list after " +
                               std::to_string(s.actions_applied) + " actions: " + std::to_string(total) + " vs " +
                               std::to_string(other->size()) + " ids, first difference at position " +
                               std::to_string(i) + " (" + std::to_string(fast_id) + " vs " + std::to_string(other_id) +
                               ": " + describe_action(s, fast_id >= 0 ? fast_id : other_id) + ")");
    }
    // The same action on a copy that gives observed ids after a check of every unit (not only
    // the candidates of s.sightings) must reach the same state, and every invariant must hold.
    GameState full = s;
    full.sightings.all = 1;
    // s takes the fused call (the production playout's): its list must be the settled state's.
    const int32_t id = legal[rng.below(uint32_t(total))];
    const int fused_total = apply_action_and_list(s, id, fused.data(), int(fused.size()), moves);
    apply_action(full, id);
    if (!(s == full)) {
      throw std::runtime_error("observed unit ids after action " + std::to_string(s.actions_applied) +
                               " differ from a check of every unit, or apply_action_and_list from apply_action");
    }
    uncached.resize(size_t(legal_actions(s, nullptr, 0)));
    legal_actions(s, uncached.data(), int(uncached.size()));
    const int shown = std::min(fused_total, int(fused.size()));
    if (fused_total != int(uncached.size()) || !std::equal(fused.begin(), fused.begin() + shown, uncached.begin())) {
      throw std::runtime_error("apply_action_and_list's list after action " + std::to_string(s.actions_applied) +
                               " differs from legal_actions");
    }
    if (std::string problem = check_invariants(s); !problem.empty()) {
      throw std::runtime_error("invariant broken after action " + std::to_string(s.actions_applied) + ": " + problem);
    }
    ++checked;
  }
  return checked;
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
