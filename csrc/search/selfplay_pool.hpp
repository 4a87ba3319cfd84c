// selfplay_pool.hpp — SelfPlayPool: belief-rooted MCTS self-play (seed 002).
//
// An MctsPool whose trees are never searched from the authoritative games:
// submit_beliefs() validates completed map tokens from the players' own views
// and roots every tree in a detached belief world (belief_world.hpp) with a
// synthetic chance seed; select_leaves() refuses to run until every game has
// a belief root for its live state id. With per-player beliefs every tree
// re-determinizes at actor changes (redeterminize.hpp) from the submitted
// worlds of the next actor. Everything else (budgets, pending leaves, virtual
// loss, backup, root policies, worker pool) is MctsPool's.
//
// Batches add the visible-action history fields (H rows of 12 int32,
// visible_history.hpp) to the live, per-player and leaf batches: the live
// game's events feed each game's GameHistory, its tree's nodes extend it.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "../players/belief_fit.hpp"
#include "belief_world.hpp"
#include "mcts_pool.hpp"
#include "redeterminize.hpp"
#include "visible_history.hpp"

namespace polyenv {

// select_leaves() before every game has a belief root for its live state.
struct BeliefsMissing : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Fields appended to the live (belief request) and leaf batches.
enum HistoryField : int { kHHistory, kHHistoryMask, kHHistoryLength, kNumHistoryFields };
// The all-player belief batch.
enum AllPlayerField : int {
  kAMapTokens, kAState, kABeliefPlayer, kAToPlay, kAEnvId, kAStateId, kAEpisodeId, kAHistory, kAHistoryMask,
  kAHistoryLength, kNumAllPlayerFields,
};

class SelfPlayPool : public MctsPool {
 public:
  // Submission layouts of submit_beliefs().
  enum class Layout : int { kRoot = 0, kPerPlayer = 1, kParticles = 2 };

  // InvalidArgument on a bad config; `workers` as MctsPool's (shared, or nullptr for its own).
  SelfPlayPool(const MctsPoolConfig& cfg, int history, std::shared_ptr<WorkerPool> workers = nullptr);

  int history() const { return history_; }
  std::vector<FieldSpec> belief_specs() const;
  std::vector<FieldSpec> leaf_specs_with_history(int64_t capacity) const;
  std::vector<FieldSpec> all_player_specs() const;

  // Live batches (belief_specs()): MctsPool's, plus the history fields.
  void reset(const uint64_t* seed, const FieldView& out);
  void step(Strided<int32_t> actions, const Strided<uint64_t>* state_ids, const FieldView& out);
  // The current live rows and the last step's results, changing nothing.
  void belief_requests(const FieldView& out);
  void all_player_belief_requests(const FieldView& out);

  // tokens: [B, T, 23] (kRoot, the actor's view), [B, P, T, 23] (kPerPlayer) or
  // [B, P, K, T, 23] (kParticles), int32 row-major. Validates everything
  // (state ids, visible rows, consistency, the actor's legal set) before any
  // tree changes; InvalidArgument / StaleState / PendingLeaves otherwise.
  void submit_beliefs(const uint64_t* state_ids, const int32_t* tokens, Layout layout, int particles);
  // Fits the actor's particles of `tokens` (submit_beliefs' layouts) in place to its live legal
  // list (belief_fit.hpp); other players' particles are left alone. StaleState on a stale id.
  // Returns the number of actor particles that still differ from the live list.
  int fit_beliefs(const uint64_t* state_ids, int32_t* tokens, Layout layout, int particles);

  // MctsPool::select_leaves after checking every game has a belief root (BeliefsMissing).
  int select_leaves(int capacity, const FieldView& out);

  // A hash of the belief roots' bookkeeping plus MctsPool's digest (tests).
  uint64_t belief_digest();
  // Re-determinization counters summed over the trees since the last submission (tests).
  RedeterminizeStats redeterminize_stats();
  // Benchmarks: off keeps later submissions' trees in the actor's world (as the legacy form).
  void set_redeterminize(bool on) { redeterminize_ = on; }
  // Tests: MctsPool::load_live_state, and the game's live histories start empty.
  void load_live_state(int env, const GameState& s);
  // Memory of the history store summed over games (tests, benchmarks).
  struct HistoryMemory {
    int64_t live_entries = 0, tree_entries = 0, tree_nodes = 0, bytes = 0;
  };
  HistoryMemory history_memory();

 protected:
  EventSink* live_event_sink(int env) override;
  void episode_started(int env) override;

 private:
  void record_results(const FieldView& out);
  void write_results(const FieldView& out);
  void write_live_history(const FieldView& out);
  void write_leaf_history(const FieldView& out, int rows);

  int history_ = 0;
  std::vector<GameHistory> histories_;  // per game when history_ > 0
  std::vector<uint64_t> belief_state_id_;  // per game: the state id its tree's belief root answers, 0 none
  // The last step's results per game (belief_requests repeats them).
  std::vector<float> reward_, terminal_values_;
  std::vector<uint8_t> terminated_, action_valid_;
  std::vector<int32_t> winner_;
  // submit scratch (validated roots before they replace the trees)
  std::vector<GameState> roots_;
  std::vector<uint64_t> seeds_;
  // Every submitted particle's built world, [B][P][K], for
  // re-determinization; built into worlds_next_ and swapped in on acceptance.
  std::vector<GameState> worlds_, worlds_next_;
  std::vector<Redeterminizer> redet_;
  bool redeterminize_ = true;
  std::vector<ActorChangeHook*> hooks_;
  std::vector<std::string> problems_;
};

}  // namespace polyenv
