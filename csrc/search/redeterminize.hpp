// redeterminize.hpp — per-player re-determinization at actor changes
// (belief-ISMCTS, seed 002; see docs/selfplay_pool.md, "Re-determinization").
//
// A SelfPlayPool tree starts in the root actor's belief world. When a path
// reaches a node of another actor q, the child state (the "simulated world" S,
// owned by the previous actor a) is replaced by q's own world:
//   1. W = q's belief world of particle k, k = hash(branch) mod K, where the
//      branch hash folds the action ids from the root (stable: it does not
//      depend on threads, batch order or visit counts);
//   2. q's own actions along the path are replayed in W (an action that is not
//      legal in W is skipped), stars other players send q are credited, and
//      every public turn transition (End Turn) is followed, so W reaches the
//      same turn and current player as S;
//   3. W's tokens through q's eyes are merged with S's: a tile that both q and
//      a see in S takes S's content (what q observes of the simulated events),
//      every other tile keeps W's (q's own belief and q's own replayed moves).
//      The result is rebuilt by world_from_tokens from those tokens and q's
//      own knowledge in W, with a chance seed from the branch hash.
// If W cannot follow the path (a diverged replay) or the merge is inconsistent,
// S is kept (counted as a fallback). Only submitted tokens, the players' own
// knowledge and the tree's own simulation enter: never a live game.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "belief_world.hpp"
#include "../players/tree.hpp"

namespace polyenv {

// Counters of one tree's re-determinizations since its beliefs were submitted.
struct RedeterminizeStats {
  int64_t rebuilt = 0;          // actor changes that now use the next actor's own world
  int64_t fallbacks = 0;        // actor changes that kept the simulated world
  int64_t skipped_actions = 0;  // own actions not legal in the rebuilt world (not replayed)
};

// The hook one SelfPlayPool tree uses; `worlds` are that game's P * K built
// particle worlds (player-major), owned by the pool and fixed during a search.
class Redeterminizer final : public ActorChangeHook {
 public:
  void set(const GameState* worlds, int players, int particles, uint64_t salt);
  void on_actor_change(const SearchTree& tree, const LeafPath& path, GameState& child) override;
  const RedeterminizeStats& stats() const { return stats_; }

 private:
  const GameState* worlds_ = nullptr;
  int players_ = 0;
  int particles_ = 0;
  uint64_t salt_ = 0;
  RedeterminizeStats stats_;
};

// The particle of `player` a branch uses: hash(salt, action ids, player) mod K.
uint64_t branch_hash(uint64_t salt, const SearchTree& tree, const LeafPath& path);
int branch_particle(uint64_t branch, int player, int particles);

}  // namespace polyenv
