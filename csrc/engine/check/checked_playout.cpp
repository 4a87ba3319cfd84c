// checked_playout.cpp — the checked random playout (oracles.hpp): random_playout's games, with the
// legal list compared with the reference enumeration and the uncached list, the state with a full
// check of observed ids, and every invariant checked after every action.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "../playout.hpp"
#include "oracles.hpp"

namespace polyenv {

int checked_playout(GameState& s, uint64_t seed, int max_actions, std::vector<int32_t>& legal, MoveCache* moves) {
  Rng rng = playout_rng(seed);
  std::vector<int32_t> reference, uncached, fused(4096);
  int checked = 0;
  while (!s.game_over && (max_actions < 0 || checked < max_actions)) {
    const int total = fill_legal_list(s, legal, moves);
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

}  // namespace polyenv
