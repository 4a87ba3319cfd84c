// mcts_pool.hpp — MctsPool: B live games and one PUCT tree per game, searched
// in batches with the policy/value model outside (seed 002's full-information
// pool). The calls alternate phases on one worker pool:
//   select_leaves  -> one dense leaf row per pending evaluation
//   expand_and_backup(leaf ids, logits, values)
//   root_policy    -> visit counts and a policy over each root's action rows
//   step / step_checked -> advance the live games, new roots
// Every tree is rooted in a copy of its live game (SearchTree::reset), so the
// tree code does not depend on where a root state comes from. With
// root_selection kGumbel every tree's descents follow its GumbelSearch
// (gumbel.hpp) instead of PUCT; with reuse_tree a real move keeps the chosen
// child's subtree (SearchTree::advance) instead of a fresh root.
//
// Leaf ids are invalidated by their backup or cancellation and by a step or
// reset; state ids by a valid step or a reset. Every argument and output
// buffer is validated before anything changes; protocol errors are the
// runtime/errors.hpp types. Results are bit-identical for any thread count:
// work is split per tree / per game, and rows are packed in tree order.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "../engine/game.hpp"
#include "../runtime/buffers.hpp"
#include "../runtime/episodes.hpp"
#include "../runtime/errors.hpp"
#include "../runtime/live_batch.hpp"
#include "../runtime/worker_pool.hpp"
#include "../players/gumbel.hpp"
#include "pool_batch.hpp"
#include "../players/tree.hpp"

namespace polyenv {

enum class RootSelection : int8_t { kPuct = 0, kGumbel = 1 };

struct MctsPoolConfig {
  int num_envs = 1;
  uint64_t seed = 0;
  GameConfig game;
  std::vector<Level> levels;  // empty: generated maps; the episode sequence of runtime/episodes.hpp
  int num_threads = 1;
  int max_actions = 0;  // 0: the action space size (every legal action fits)
  bool require_all_actions = true;
  bool auto_reset = true;
  int max_pending_leaves = 1;  // 1..8 per tree
  SearchConfig search;
  RootSelection root_selection = RootSelection::kPuct;
  // kGumbel's parameters; value_scale and maxvisit_init also shape root_policy's
  // improved policy under PUCT. num_simulations 0: not given (PUCT only).
  GumbelConfig gumbel;
  bool reuse_tree = false;  // a real move keeps the chosen child's subtree (SearchTree::advance)
  bool combat_preview = false;  // attack rows carry the combat preview (damage_dealt / damage_received)
};

// search_stats()'s output: caller-owned arrays of num_envs() entries, one per tree.
struct TreeStatsOut {
  int64_t* nodes = nullptr;
  int64_t* bytes = nullptr;                 // accounted bytes
  int32_t* pending = nullptr;               // leaves in flight
  uint8_t* node_budget_exhausted = nullptr;
  uint8_t* byte_budget_exhausted = nullptr;
  int64_t* kept_nodes = nullptr;  // nodes carried over by the last real move (reuse_tree), 0 for a fresh root
  int8_t* reuse = nullptr;        // SearchTree::Reuse: what the last real move did with the tree
};

// The size of one tree's arrays (tree_size()) and the arrays themselves (write_tree()), caller-owned:
// per node [nodes] parent (-1 for the root and unreached nodes), first_edge, num_edges, visits, actor,
// expanded, value_sum, raw_value; per edge [edges] edge_action, edge_child, edge_visits, edge_prior,
// edge_value_sum.
struct TreeSize {
  int32_t nodes = 0;
  int64_t edges = 0;
  int64_t bytes = 0;  // accounted bytes
};
struct TreeArraysOut {
  int32_t* parent = nullptr;
  int32_t* first_edge = nullptr;
  int32_t* num_edges = nullptr;
  int32_t* visits = nullptr;
  int32_t* actor = nullptr;
  uint8_t* expanded = nullptr;
  double* value_sum = nullptr;
  double* raw_value = nullptr;
  int32_t* edge_action = nullptr;
  int32_t* edge_child = nullptr;
  int32_t* edge_visits = nullptr;
  float* edge_prior = nullptr;
  double* edge_value_sum = nullptr;
};

class MctsPool {
 public:
  static constexpr int kMaxPending = 8;
  static constexpr int kMaxEnvs = 1 << 20;  // leaf ids pack tree * 8 + slot into 24 bits

  // InvalidArgument on a bad config. `workers`: a pool shared with other owners (a VectorEnv driving
  // the same games in another phase), or nullptr for a pool of cfg.num_threads of its own; results are
  // bit-identical for any thread count.
  explicit MctsPool(const MctsPoolConfig& cfg, std::shared_ptr<WorkerPool> workers = nullptr);
  virtual ~MctsPool();
  MctsPool(const MctsPool&) = delete;
  MctsPool& operator=(const MctsPool&) = delete;

  const MctsPoolConfig& config() const { return cfg_; }
  int num_envs() const { return cfg_.num_envs; }
  int num_players() const { return cfg_.search.num_players; }
  int max_actions() const { return cfg_.max_actions; }
  int action_space_size() const { return action_space_size_; }
  int num_threads() const { return games_.num_threads(); }
  PoolDims dims() const { return {cfg_.game.map_size * cfg_.game.map_size, cfg_.max_actions, num_players()}; }

  // Live games. Buffers follow live_specs(B, dims()) and are validated by the caller.
  void reset(const uint64_t* seed, const FieldView& out);
  // Applies actions[i] to game i (after checking every state id when given).
  // Raises PendingLeaves while any leaf is pending.
  void step(Strided<int32_t> actions, const Strided<uint64_t>* state_ids, const FieldView& out);

  // Selects up to `capacity` new leaves (rows packed in tree order); returns the count.
  int select_leaves(int capacity, const FieldView& out);
  // Expands and backs up L leaves: logits [L, A] row-major, values [L] (P = 2,
  // from the leaf's to_play) or [L, P] (global player order). Validates everything first.
  void expand_and_backup(const uint64_t* leaf_ids, int count, const float* logits, const float* values);
  void cancel_leaves(const uint64_t* leaf_ids, int count);
  void abort_search();
  // Root rows of every game: visits and the policy N^(1/T) (T = 0: argmax).
  void root_policy(double temperature, const FieldView& out);
  // Every tree's statistics into `out` (TreeStatsOut); std::runtime_error once closed.
  void search_stats(const TreeStatsOut& out);
  // Tests: the node and edge arrays of tree env. Call both under lock() (the tree must not change in
  // between): tree_size checks the pool is usable (check_open) and env in range (InvalidArgument);
  // write_tree fills arrays of that size.
  TreeSize tree_size(int env) const;
  void write_tree(int env, const TreeArraysOut& out) const;
  // The action ids from the root to a pending leaf (tests: compare with a reference search).
  std::vector<int32_t> leaf_actions(uint64_t leaf_id);
  // Cumulative worker CPU time (ns, summed over threads) in {selection, leaf encoding, expansion + backup}.
  std::array<int64_t, 3> timing();
  // A hash of every game, tree and pending leaf (tests: a rejected call changes nothing).
  uint64_t state_digest();

  void close();
  bool closed() const { return games_.closed(); }

  // ---- hooks for pools that root the trees elsewhere (SelfPlayPool)
  // Writes every game's live row (model fields, env_id, to_play, state/episode
  // ids) without changing a game; the step-result fields are left untouched.
  void observe(const FieldView& out);
  // Roots tree i in roots[i] with chance seed seeds[i] and actor-change hook
  // hooks[i] (SearchTree::reset; hooks may be null: none). Raises PendingLeaves
  // while any leaf is pending; the caller validated the roots.
  void set_roots(const GameState* roots, const uint64_t* seeds, ActorChangeHook* const* hooks = nullptr);
  // Read access to the live games for such a pool (call under its own lock).
  const GameState& live_state(int env) const { return games_[size_t(env)].state; }
  uint64_t live_state_id(int env) const { return games_[size_t(env)].state_id; }
  uint64_t live_episode_id(int env) const { return games_[size_t(env)].episode_id; }
  int live_observer(int env) const { return games_[size_t(env)].observer; }
  int live_pending(int env) const { return games_[size_t(env)].pending; }
  // Tests: replaces game env's live state (new state id, tree rooted in it).
  // PendingLeaves while that tree has pending leaves.
  void load_live_state(int env, const GameState& s);
  // std::runtime_error once closed or while a failed reset()/step() awaits a reset().
  void check_open() const { games_.check_usable(); }
  // StaleState unless state_ids[i] (B ids) is game i's live state id for every game; the message
  // ends with `unchanged` ("no belief was accepted"). Call under lock().
  void check_live_state_ids(const uint64_t* state_ids, const char* unchanged) const {
    games_.check_state_ids(cfg_.num_envs, state_ids, nullptr, unchanged);
  }
  // Per-game event hooks (both called on the worker that owns the game): the
  // sink receiving the live game's world events (nullptr: none), and the
  // start of a new episode in game env.
  virtual EventSink* live_event_sink(int env) { (void)env; return nullptr; }
  virtual void episode_started(int env) { (void)env; }
  // Attaches a listener to tree env (see SearchTree::set_listener).
  void set_tree_listener(int env, TreeListener* listener) { games_[size_t(env)].tree.set_listener(listener); }
  // The tree of game env and the path of a leaf id just issued by select_leaves (unchecked).
  const SearchTree& search_tree(int env) const { return games_[size_t(env)].tree; }
  const LeafPath& issued_path(uint64_t leaf_id) const;
  // The worker pool (one phase at a time: use it under lock()); std::runtime_error once closed.
  WorkerPool& workers() { return games_.workers(); }
  // The same pool for another owner (a VectorEnv over the same games); null once closed.
  const std::shared_ptr<WorkerPool>& shared_workers() const { return games_.shared_workers(); }
  std::recursive_mutex& lock() { return mutex_; }

 private:
  struct Slot {
    uint64_t id = 0;   // 0: free
    LeafPath path;
    GameState transient;         // the leaf state when the budget refused its node
    std::vector<int32_t> ids;    // the leaf's action rows (copied when encoded)
    int32_t rows = 0;
  };
  // A live game of the batch (the runtime's handle: state, move cache, the last
  // live row's legal ids, ids; its episode and observer) plus its tree.
  struct Game : LiveGame {
    SearchTree tree;
    GumbelSearch gumbel;  // the tree's selector under kGumbel; root_policy's improved policy always
    SearchTree::Reuse reuse = SearchTree::Reuse::kFresh;
    int64_t kept_nodes = 0;
    std::vector<double> policy_scratch;
    MoveCache tree_moves;
    std::vector<Slot> slots;
    int pending = 0;
    int quota = 0;       // this select call: leaves it may add
    std::vector<int8_t> fresh;  // slot indices filled by this select call
    int64_t select_ns = 0;  // thread CPU time in descents (selection, cloning, terminal backups)
    int64_t encode_ns = 0;  // thread time encoding leaf rows
    int64_t backup_ns = 0;  // thread time expanding and backing up
    bool overflow = false;
    std::string overflow_message;
  };

  void start_episode(Game& g, int env);
  uint64_t tree_seed(const Game& g, int env) const;
  void root_tree(Game& g, int env);
  void advance_tree(Game& g, int env, int32_t action);
  void write_search_choice(Game& g, int env, const FieldView& out);
  void write_live_row(Game& g, int env, const FieldView& out);
  void write_fresh_ids(const FieldView& out);
  void select_in_tree(Game& g);
  Slot& slot_of(uint64_t id);
  void check_leaf_ids(const uint64_t* leaf_ids, int count);
  template <class F>
  void run_games(F&& fn, bool breaks = false);

  MctsPoolConfig cfg_;
  int action_space_size_ = 0;
  uint64_t select_serial_ = 0;
  // The games, their episode sequence, ids, worker pool and closed / broken state.
  LiveBatch<Game> games_;
  std::vector<int32_t> actions_;     // step scratch
  std::vector<int32_t> leaf_offset_;  // select scratch: first row of each tree
  std::vector<std::vector<int32_t>> by_tree_;  // backup scratch: leaf rows per tree
  std::vector<uint32_t> seen_;        // duplicate-id check, one stamp per slot
  uint32_t seen_stamp_ = 0;
  std::recursive_mutex mutex_;  // recursive: a derived pool holds it across several calls
};

}  // namespace polyenv
