// tree.hpp — SearchTree: one PUCT search tree over GameState values.
//
// Storage is struct-of-arrays per tree: node i and edge j are indices into
// flat vectors (node 0 is the root), so the tree holds no heap object per node
// besides the node's GameState, whose slot is reused by the next search.
// Children are lazy: an edge gets a child node (a copy of its parent's state
// with the edge's action applied) only when PUCT selects it.
//
// Statistics. Edge j of node n keeps N_j visits, W_j (sum of backed-up values
// for n's actor), VL_j in-flight paths and a float32 prior P_j. PUCT picks the
// first edge maximising
//     Q_j + c_puct * P_j * sqrt(N_n + VL_n) / (1 + N_j + VL_j),
//     Q_j = (W_j - virtual_loss * VL_j) / (N_j + VL_j)   (0 when N_j + VL_j = 0)
// where N_n counts the backups through n (its own evaluation included) and VL_n
// the in-flight paths through it. A backup adds, at every node on the path,
// the component of the payoff vector that belongs to that node's actor:
// two-player zero-sum values enter as (v, -v) from the leaf actor's seat, so
// the sign flips exactly where the actor changes (a turn is many actions by one
// player); with more players this is Maxⁿ.
//
// Budgets. A tree admits a node only while it has fewer than max_nodes nodes
// and its accounted bytes plus one node's charge fit in max_bytes (0 disables
// either); otherwise the corresponding exhausted flag is set and the selected
// edge is evaluated as a transient leaf (its state is built for the model row,
// backed up, and not kept). Edges are always stored when a node is expanded.
//
// Actor changes. An optional ActorChangeHook (SelfPlayPool's re-determinization)
// may rewrite a child state whose actor differs from its parent's, right after
// the edge's action was applied; without a hook (MctsPool) nothing changes.
//
// Other selection rules. An optional EdgeSelector (gumbel.hpp's GumbelSearch)
// replaces PUCT's choice at every expanded node; it reads the statistics below
// (including node_raw_value, the node's own evaluation).
//
// Subtree reuse. advance() makes the child reached by a real move the new root,
// keeping (and compacting) its subtree within the budgets, when that child's
// position equals the game's actual next position.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "../engine/events.hpp"
#include "../engine/game.hpp"

namespace polyenv {

// Optional per-node side data kept by a tree's owner (SelfPlayPool's visible
// history): told when the tree is reset and before each new node's action is
// applied; that action's world events follow through EventSink::on_event.
// Its bytes_per_node() are charged to every node of the byte budget.
struct TreeListener : EventSink {
  virtual void on_root() = 0;
  virtual void on_child(int32_t parent, int32_t child) = 0;
  virtual int64_t bytes_per_node() const = 0;
};

struct SearchConfig {
  int num_players = 2;
  double c_puct = 1.5;
  double virtual_loss = 1.0;
  int64_t max_nodes = 20000;        // 0: no node budget
  int64_t max_bytes = 512ll << 20;  // 0: no byte budget
  double dirichlet_alpha = 0;       // > 0: root prior noise
  double dirichlet_fraction = 0.25;
};

// The payoff vector of a finished game: the winner +1, every other player
// -1 / (P - 1); all zero when the game ended without a winner.
void terminal_payoffs(const GameState& s, double* out);

// One selection: the edges from the root to the leaf and the node each leaves.
struct LeafPath {
  std::vector<int32_t> nodes;  // nodes[i] is the parent of edges[i]
  std::vector<int32_t> edges;
  int32_t leaf = -1;           // the leaf node, or -1 for a transient leaf
  int32_t actor = 0;           // the player to move at the leaf
  void clear() {
    nodes.clear();
    edges.clear();
    leaf = -1;
    actor = 0;
  }
};

class SearchTree;

// Chooses the edge a descent follows at an expanded node (instead of PUCT). It
// runs on the tree's thread, must be deterministic, and may keep state of its own.
struct EdgeSelector {
  virtual int32_t select_edge(const SearchTree& tree, int32_t node) = 0;

 protected:
  ~EdgeSelector() = default;
};

// Called when a new child (or transient leaf) `child` has a different actor than
// its parent: `path` holds the edges from the root, the last one leading to
// `child`. It may replace `child` by another state with the same current player
// and game-over flag; it runs on the tree's thread, so it must be deterministic.
struct ActorChangeHook {
  virtual void on_actor_change(const SearchTree& tree, const LeafPath& path, GameState& child) = 0;

 protected:
  ~ActorChangeHook() = default;
};

class SearchTree {
 public:
  enum class Descent : int8_t {
    kLeaf,       // an unevaluated leaf (virtual loss applied along the path)
    kTerminal,   // reached a finished game: its payoffs are already backed up
    kCollision,  // reached a leaf that is already being evaluated: nothing changed
    kDone,       // the root itself is a finished game: nothing to search
  };

  // Starts a new search from `root` (copied). The copy's random stream is
  // reseeded from `seed` so chance events inside the tree never reveal the
  // live game's future draws. Keeps the storage of earlier searches.
  // `hook` (optional, not owned) sees every actor change of this search.
  void reset(const GameState& root, uint64_t seed, const SearchConfig& cfg, ActorChangeHook* hook = nullptr);
  // Attaches a listener (nullptr: none); it applies from the next reset on.
  void set_listener(TreeListener* listener) { listener_ = listener; }
  // Replaces PUCT by `selector` (not owned; nullptr: PUCT) for every later descent.
  void set_selector(EdgeSelector* selector) { selector_ = selector; }

  // What advance() did with the previous search.
  enum class Reuse : int8_t {
    kFresh,         // no reuse: the tree was reset (a listener or hook is attached, or `next` is finished)
    kKept,          // the move's child became the root, with its subtree
    kNoChild,       // the move's edge had no child node (never selected, or no room for it): reset
    kStateDiffers,  // the child's position differs from `next` (the move involved chance): reset
  };
  // After a real move `action` from the root: roots the tree in `next` (the game's
  // position after that move). When the root's edge for `action` has a child node whose
  // position equals `next` apart from the random stream, that child becomes node 0 and
  // its subtree is kept: statistics, priors and states unchanged, nodes and edges
  // renumbered compactly (creation order), other nodes' slots reused later. Nodes are
  // kept in creation order while they fit max_nodes / max_bytes (at the new root's
  // charge); the rest are dropped with their subtrees, their edges keep their statistics.
  // The root's random streams are reseeded from `seed` as reset() does, and Dirichlet
  // noise (if configured) is mixed into the kept root's priors again. Otherwise (and
  // always with a listener or a hook) this is reset(next, seed, config()). Requires no
  // path in flight. Returns what happened.
  Reuse advance(int32_t action, const GameState& next, uint64_t seed);

  // One PUCT descent from the root. For kLeaf the leaf state is leaf_state(path, transient).
  Descent descend(LeafPath& path, GameState& transient);
  const GameState& leaf_state(const LeafPath& path, const GameState& transient) const {
    return path.leaf >= 0 ? states_[size_t(path.leaf)] : transient;
  }

  // Gives the in-flight leaf node `node` one edge per action id (rows in the
  // order listed) with priors softmax(logits[0..n)); at the root, Dirichlet
  // noise is mixed in when configured. Then call backup().
  // logits == nullptr: a uniform prior 1/n (no softmax to compute).
  void expand(int32_t node, const int32_t* ids, int n, const float* logits);
  // Overwrites one edge's prior (the native MCTS player sets its own normalised priors
  // after a uniform expand instead of passing logits through a softmax).
  void set_edge_prior(int32_t e, float prior) { edge_prior_[size_t(e)] = prior; }
  // Removes the path's virtual loss and adds the payoff vector `values` (P entries).
  void backup(const LeafPath& path, const double* values);
  // Removes the path's virtual loss only: the leaf can be selected again.
  void rollback(const LeafPath& path);

  // ---- inspection
  int32_t num_nodes() const { return int32_t(parent_.size()); }
  int64_t bytes() const { return bytes_; }
  bool node_budget_exhausted() const { return node_budget_hit_; }
  bool byte_budget_exhausted() const { return byte_budget_hit_; }
  const SearchConfig& config() const { return cfg_; }
  const GameState& root_state() const { return states_[0]; }
  const GameState& node_state(int32_t node) const { return states_[size_t(node)]; }
  bool expanded(int32_t node) const { return flags_[size_t(node)] & kExpanded; }
  int32_t first_edge(int32_t node) const { return first_edge_[size_t(node)]; }
  int32_t num_edges(int32_t node) const { return num_edges_[size_t(node)]; }
  int32_t node_visits(int32_t node) const { return visits_[size_t(node)]; }
  double node_value_sum(int32_t node) const { return value_[size_t(node)]; }
  // The value of the node's own evaluation for its actor: its first backup that ended
  // at it (0 before one). For an expanded node, value sum = raw value + its edges' sums.
  double node_raw_value(int32_t node) const { return raw_[size_t(node)]; }
  int32_t node_actor(int32_t node) const { return actor_[size_t(node)]; }
  int32_t edge_action(int32_t e) const { return edge_action_[size_t(e)]; }
  int32_t edge_visits(int32_t e) const { return edge_visits_[size_t(e)]; }
  int32_t edge_child(int32_t e) const { return edge_child_[size_t(e)]; }
  float edge_prior(int32_t e) const { return edge_prior_[size_t(e)]; }
  double edge_value_sum(int32_t e) const { return edge_value_[size_t(e)]; }
  int32_t edge_in_flight(int32_t e) const { return edge_vl_[size_t(e)]; }
  int32_t in_flight(int32_t node) const { return vl_[size_t(node)]; }
  // Accounted bytes of one node (without edges) and of one edge.
  int64_t node_charge() const { return kNodeBytes + state_bytes_ + listener_bytes_; }
  static constexpr int64_t kEdgeBytes = 4 + 4 + 4 + 4 + 4 + 8;
  static constexpr int64_t kNodeBytes = 4 + 4 + 4 + 4 + 4 + 8 + 8 + 1 + 1;

 private:
  enum Flag : uint8_t { kExpanded = 1, kTerminal = 2, kInFlight = 4 };
  int32_t select_edge(int32_t node) const;
  bool admit();
  int32_t add_node(int32_t parent, int32_t action);
  void add_virtual_loss(const LeafPath& path, int delta);
  void seed_streams(uint64_t seed);
  void add_root_noise(int n, double* priors);
  int32_t compact(int32_t top, int64_t state_bytes);

  void changed_actor(int32_t parent, const LeafPath& path, GameState& child);

  SearchConfig cfg_;
  ActorChangeHook* hook_ = nullptr;
  EdgeSelector* selector_ = nullptr;
  // nodes
  std::vector<int32_t> parent_, first_edge_, num_edges_, visits_, vl_;
  std::vector<double> value_;  // sum of backed-up values for the node's actor
  std::vector<double> raw_;    // the node's own evaluation (node_raw_value)
  std::vector<int8_t> actor_;
  std::vector<uint8_t> flags_;
  std::vector<GameState> states_;  // by node; slots outlive a search (no reallocation once warm)
  // edges
  std::vector<int32_t> edge_action_, edge_child_, edge_visits_, edge_vl_;
  std::vector<float> edge_prior_;
  std::vector<double> edge_value_;
  Rng noise_rng_;
  std::vector<int32_t> remap_;                         // advance(): old node -> new node, -1 dropped
  std::vector<std::pair<int32_t, int32_t>> moving_;   // advance(): (old first edge, new node) of kept expanded nodes
  TreeListener* listener_ = nullptr;
  int64_t listener_bytes_ = 0;  // the listener's charge per node
  int64_t state_bytes_ = 0;
  int64_t bytes_ = 0;
  bool node_budget_hit_ = false;
  bool byte_budget_hit_ = false;
};

// out[i] = softmax(logits[0, n))[i], computed stably (the largest logit subtracted first).
void softmax(const float* logits, int n, double* out);

}  // namespace polyenv
