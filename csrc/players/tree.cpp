// tree.cpp — SearchTree (tree.hpp): PUCT selection, lazy children, expansion,
// backup, virtual loss and subtree reuse.
#include "tree.hpp"

#include <algorithm>
#include <cmath>

namespace polyenv {

namespace {

// A uniform double in (0, 1): never 0, so logarithms stay finite.
double open_uniform(Rng& rng) { return (double(rng.next()) + 0.5) * (1.0 / 4294967296.0); }

// Gamma(alpha, 1) by Marsaglia and Tsang (alpha < 1 boosted by U^(1/alpha)).
double gamma_sample(Rng& rng, double alpha) {
  if (alpha < 1) return gamma_sample(rng, alpha + 1) * std::pow(open_uniform(rng), 1.0 / alpha);
  const double d = alpha - 1.0 / 3.0, c = 1.0 / std::sqrt(9 * d);
  for (;;) {
    double x, v;
    do {
      // Box-Muller normal.
      x = std::sqrt(-2 * std::log(open_uniform(rng))) * std::cos(6.283185307179586 * open_uniform(rng));
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = open_uniform(rng);
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

// Bytes of a state's storage (its vectors' capacities included).
template <class T>
int64_t capacity_bytes(const std::vector<T>& v) {
  return int64_t(v.capacity() * sizeof(T));
}
int64_t state_storage_bytes(const GameState& s) {
  return int64_t(sizeof(GameState)) + capacity_bytes(s.tiles) + capacity_bytes(s.units) + capacity_bytes(s.cities) +
         capacity_bytes(s.players) + capacity_bytes(s.explored);
}

}  // namespace

void terminal_payoffs(const GameState& s, double* out) {
  const int P = s.num_players;
  for (int p = 0; p < P; ++p) out[p] = 0;
  if (s.winner < 0) return;
  for (int p = 0; p < P; ++p) out[p] = p == s.winner ? 1.0 : -1.0 / (P - 1);
}

void SearchTree::reset(const GameState& root, uint64_t seed, const SearchConfig& cfg, ActorChangeHook* hook) {
  cfg_ = cfg;
  hook_ = hook;
  for (auto* v : {&parent_, &first_edge_, &num_edges_, &visits_, &vl_, &edge_action_, &edge_child_, &edge_visits_,
                  &edge_vl_}) {
    v->clear();
  }
  value_.clear();
  raw_.clear();
  actor_.clear();
  flags_.clear();
  edge_prior_.clear();
  edge_value_.clear();
  bytes_ = 0;
  node_budget_hit_ = byte_budget_hit_ = false;
  if (states_.empty()) states_.emplace_back();
  states_[0] = root;
  seed_streams(seed);
  // One node's charge: the root's storage, capacities included (every node reserves the same).
  state_bytes_ = state_storage_bytes(root);
  listener_bytes_ = listener_ ? listener_->bytes_per_node() : 0;
  add_node(-1, -1);
  if (listener_) listener_->on_root();
}

void SearchTree::seed_streams(uint64_t seed) {
  uint64_t mix = seed;
  states_[0].rng.seed(splitmix64(mix), 0x5EA7C4);
  noise_rng_.seed(splitmix64(mix), 0xD1C4);
}

int32_t SearchTree::add_node(int32_t parent, int32_t action) {
  const int32_t node = num_nodes();
  if (size_t(node) >= states_.size()) states_.emplace_back();
  GameState& s = states_[size_t(node)];
  if (parent >= 0) {
    const GameState& from = states_[size_t(parent)];
    // Same capacities as the source, so applying actions in this slot never reallocates.
    if (s.units.capacity() < from.units.capacity()) s.units.reserve(from.units.capacity());
    if (s.cities.capacity() < from.cities.capacity()) s.cities.reserve(from.cities.capacity());
    s = from;
    if (listener_) listener_->on_child(parent, node);
    apply_action(s, action, listener_);
  }
  parent_.push_back(parent);
  first_edge_.push_back(0);
  num_edges_.push_back(0);
  visits_.push_back(0);
  vl_.push_back(0);
  value_.push_back(0);
  raw_.push_back(0);
  actor_.push_back(s.current_player);
  flags_.push_back(s.game_over ? kTerminal : 0);
  bytes_ += node_charge();
  return node;
}

void SearchTree::changed_actor(int32_t parent, const LeafPath& path, GameState& child) {
  if (hook_ && !child.game_over && child.current_player != actor_[size_t(parent)]) {
    hook_->on_actor_change(*this, path, child);
  }
}

bool SearchTree::admit() {
  if (cfg_.max_nodes > 0 && num_nodes() >= cfg_.max_nodes) {
    node_budget_hit_ = true;
    return false;
  }
  if (cfg_.max_bytes > 0 && bytes_ + node_charge() > cfg_.max_bytes) {
    byte_budget_hit_ = true;
    return false;
  }
  return true;
}

int32_t SearchTree::select_edge(int32_t node) const {
  const int32_t first = first_edge_[size_t(node)], n = num_edges_[size_t(node)];
  const double sqrt_total = std::sqrt(double(visits_[size_t(node)] + vl_[size_t(node)]));
  const int32_t* visits = edge_visits_.data();
  const int32_t* in_flight = edge_vl_.data();
  const double* value = edge_value_.data();
  const float* prior = edge_prior_.data();
  int32_t best = first;
  double best_score = -INFINITY;
  for (int32_t e = first; e < first + n; ++e) {
    const int32_t inflight = in_flight[e];
    const int32_t count = visits[e] + inflight;
    // Same expression order as the documented formula (the reference search compares exactly).
    // An unvisited edge skips both divisions (x / 1 == x exactly): most edges of a wide node are unvisited.
    const double score = count > 0 ? (value[e] - cfg_.virtual_loss * inflight) / count +
                                         cfg_.c_puct * double(prior[e]) * sqrt_total / (1 + count)
                                   : 0.0 + cfg_.c_puct * double(prior[e]) * sqrt_total;
    if (e == first || score > best_score) {
      best = e;
      best_score = score;
    }
  }
  return best;
}

void SearchTree::add_virtual_loss(const LeafPath& path, int delta) {
  for (size_t i = 0; i < path.edges.size(); ++i) {
    vl_[size_t(path.nodes[i])] += delta;
    edge_vl_[size_t(path.edges[i])] += delta;
  }
}

SearchTree::Descent SearchTree::descend(LeafPath& path, GameState& transient) {
  path.clear();
  if (flags_[0] & kTerminal) return Descent::kDone;
  int32_t node = 0;
  for (;;) {
    const uint8_t flags = flags_[size_t(node)];
    if (flags & kTerminal) {
      path.leaf = node;
      path.actor = actor_[size_t(node)];
      double values[kMaxPlayers];
      terminal_payoffs(states_[size_t(node)], values);
      add_virtual_loss(path, 1);  // backup() removes it again
      backup(path, values);
      return Descent::kTerminal;
    }
    if (!(flags & kExpanded)) {
      if (flags & kInFlight) return Descent::kCollision;
      flags_[size_t(node)] |= kInFlight;
      path.leaf = node;
      path.actor = actor_[size_t(node)];
      add_virtual_loss(path, 1);
      return Descent::kLeaf;
    }
    const int32_t e = selector_ ? selector_->select_edge(*this, node) : select_edge(node);
    path.nodes.push_back(node);
    path.edges.push_back(e);
    int32_t child = edge_child_[size_t(e)];
    if (child < 0) {
      if (!admit()) {
        // Budget reached: evaluate the edge without keeping its node.
        transient = states_[size_t(node)];
        apply_action(transient, edge_action_[size_t(e)]);
        changed_actor(node, path, transient);
        path.leaf = -1;
        path.actor = transient.current_player;
        add_virtual_loss(path, 1);
        if (transient.game_over) {
          double values[kMaxPlayers];
          terminal_payoffs(transient, values);
          backup(path, values);
          return Descent::kTerminal;
        }
        return Descent::kLeaf;
      }
      child = add_node(node, edge_action_[size_t(e)]);
      edge_child_[size_t(e)] = child;
      changed_actor(node, path, states_[size_t(child)]);
    }
    node = child;
  }
}

void SearchTree::expand(int32_t node, const int32_t* ids, int n, const float* logits) {
  const int32_t first = int32_t(edge_action_.size());
  first_edge_[size_t(node)] = first;
  num_edges_[size_t(node)] = n;
  flags_[size_t(node)] |= kExpanded;
  thread_local std::vector<double> priors;
  priors.resize(size_t(n));
  if (logits) {
    softmax(logits, n, priors.data());
  } else {
    std::fill(priors.begin(), priors.end(), 1.0 / n);
  }
  if (node == 0) add_root_noise(n, priors.data());
  const size_t end = size_t(first) + size_t(n);
  edge_action_.insert(edge_action_.end(), ids, ids + n);
  edge_child_.resize(end, -1);
  edge_visits_.resize(end, 0);
  edge_vl_.resize(end, 0);
  edge_value_.resize(end, 0.0);
  edge_prior_.resize(end);
  for (int i = 0; i < n; ++i) edge_prior_[size_t(first) + size_t(i)] = float(priors[size_t(i)]);
  bytes_ += int64_t(n) * kEdgeBytes;
}

// Root noise: Dirichlet(alpha) as normalised Gamma draws, mixed into the n priors (when configured).
void SearchTree::add_root_noise(int n, double* priors) {
  if (!(cfg_.dirichlet_alpha > 0) || n <= 0) return;
  thread_local std::vector<double> draws;
  draws.resize(size_t(n));
  double noise_sum = 0;
  for (int i = 0; i < n; ++i) noise_sum += draws[size_t(i)] = gamma_sample(noise_rng_, cfg_.dirichlet_alpha);
  for (int i = 0; i < n; ++i) {
    priors[i] = (1 - cfg_.dirichlet_fraction) * priors[i] + cfg_.dirichlet_fraction * draws[size_t(i)] / noise_sum;
  }
}

void SearchTree::backup(const LeafPath& path, const double* values) {
  for (size_t i = 0; i < path.edges.size(); ++i) {
    const int32_t n = path.nodes[i], e = path.edges[i];
    const double v = values[actor_[size_t(n)]];
    vl_[size_t(n)] -= 1;
    edge_vl_[size_t(e)] -= 1;
    visits_[size_t(n)] += 1;
    value_[size_t(n)] += v;
    edge_visits_[size_t(e)] += 1;
    edge_value_[size_t(e)] += v;
  }
  if (path.leaf >= 0) {
    const size_t leaf = size_t(path.leaf);
    const double v = values[actor_[leaf]];
    flags_[leaf] &= uint8_t(~kInFlight);
    if (visits_[leaf] == 0) raw_[leaf] = v;
    visits_[leaf] += 1;
    value_[leaf] += v;
  }
}

void SearchTree::rollback(const LeafPath& path) {
  add_virtual_loss(path, -1);
  if (path.leaf >= 0) flags_[size_t(path.leaf)] &= uint8_t(~kInFlight);
}

}  // namespace polyenv

namespace polyenv {

SearchTree::Reuse SearchTree::advance(int32_t action, const GameState& next, uint64_t seed) {
  if (listener_ || hook_ || next.game_over || !expanded(0)) {
    reset(next, seed, cfg_, hook_);
    return listener_ || hook_ || next.game_over ? Reuse::kFresh : Reuse::kNoChild;
  }
  int32_t child = -1;
  for (int32_t e = first_edge_[0]; e < first_edge_[0] + num_edges_[0]; ++e) {
    if (edge_action_[size_t(e)] == action) {
      child = edge_child_[size_t(e)];
      break;
    }
  }
  if (child < 0) {
    reset(next, seed, cfg_, hook_);
    return Reuse::kNoChild;
  }
  // The tree's own random stream never equals the game's: compare the positions without it.
  GameState& kept = states_[size_t(child)];
  kept.rng = next.rng;
  if (!(kept == next)) {
    reset(next, seed, cfg_, hook_);
    return Reuse::kStateDiffers;
  }
  compact(child, state_storage_bytes(next));
  seed_streams(seed);
  if (expanded(0) && cfg_.dirichlet_alpha > 0) {
    const int32_t first = first_edge_[0], n = num_edges_[0];
    thread_local std::vector<double> priors;
    priors.resize(size_t(n));
    for (int32_t i = 0; i < n; ++i) priors[size_t(i)] = double(edge_prior_[size_t(first + i)]);
    add_root_noise(n, priors.data());
    for (int32_t i = 0; i < n; ++i) edge_prior_[size_t(first + i)] = float(priors[size_t(i)]);
  }
  return Reuse::kKept;
}

// Renumbers the subtree under `top` as the whole tree (top becomes node 0), in place:
// nodes in creation order (a parent before its children, so every kept node moves to
// a lower or equal index), edges in the order of their old positions (so every block
// moves down). Nodes stop being kept at the first that does not fit the budgets.
int32_t SearchTree::compact(int32_t top, int64_t state_bytes) {
  const int32_t old_nodes = num_nodes();
  state_bytes_ = state_bytes;
  node_budget_hit_ = byte_budget_hit_ = false;
  remap_.assign(size_t(old_nodes), -1);
  int32_t kept = 0;
  int64_t bytes = 0;
  for (int32_t o = top; o < old_nodes; ++o) {
    if (o != top && remap_[size_t(parent_[size_t(o)])] < 0) continue;  // parents precede children
    const int64_t cost = node_charge() + int64_t(num_edges_[size_t(o)]) * kEdgeBytes;
    if (o != top && cfg_.max_nodes > 0 && kept >= cfg_.max_nodes) {
      node_budget_hit_ = true;
      break;
    }
    if (o != top && cfg_.max_bytes > 0 && bytes + cost > cfg_.max_bytes) {
      byte_budget_hit_ = true;
      break;
    }
    remap_[size_t(o)] = kept++;
    bytes += cost;
  }
  moving_.clear();
  for (int32_t o = top; o < old_nodes; ++o) {
    const int32_t i = remap_[size_t(o)];
    if (i < 0) continue;
    parent_[size_t(i)] = i == 0 ? -1 : remap_[size_t(parent_[size_t(o)])];
    first_edge_[size_t(i)] = first_edge_[size_t(o)];
    num_edges_[size_t(i)] = num_edges_[size_t(o)];
    visits_[size_t(i)] = visits_[size_t(o)];
    vl_[size_t(i)] = 0;
    value_[size_t(i)] = value_[size_t(o)];
    raw_[size_t(i)] = raw_[size_t(o)];
    actor_[size_t(i)] = actor_[size_t(o)];
    flags_[size_t(i)] = uint8_t(flags_[size_t(o)] & ~kInFlight);
    if (i != o) std::swap(states_[size_t(i)], states_[size_t(o)]);
    if (flags_[size_t(i)] & kExpanded) moving_.emplace_back(first_edge_[size_t(i)], i);
  }
  for (auto* v : {&parent_, &first_edge_, &num_edges_, &visits_, &vl_}) v->resize(size_t(kept));
  value_.resize(size_t(kept));
  raw_.resize(size_t(kept));
  actor_.resize(size_t(kept));
  flags_.resize(size_t(kept));
  std::sort(moving_.begin(), moving_.end());
  int32_t edges = 0;
  for (const auto& [from, node] : moving_) {
    const int32_t n = num_edges_[size_t(node)];
    for (int32_t j = 0; j < n; ++j) {  // to <= from: a forward copy never overwrites an unread edge
      const size_t a = size_t(edges + j), b = size_t(from + j);
      edge_action_[a] = edge_action_[b];
      const int32_t c = edge_child_[b];
      edge_child_[a] = c < 0 ? -1 : remap_[size_t(c)];
      edge_visits_[a] = edge_visits_[b];
      edge_vl_[a] = 0;
      edge_prior_[a] = edge_prior_[b];
      edge_value_[a] = edge_value_[b];
    }
    first_edge_[size_t(node)] = edges;
    edges += n;
  }
  for (auto* v : {&edge_action_, &edge_child_, &edge_visits_, &edge_vl_}) v->resize(size_t(edges));
  edge_prior_.resize(size_t(edges));
  edge_value_.resize(size_t(edges));
  bytes_ = int64_t(kept) * node_charge() + int64_t(edges) * kEdgeBytes;
  return kept;
}

void softmax(const float* logits, int n, double* out) {
  double top = -INFINITY, sum = 0;
  for (int i = 0; i < n; ++i) top = std::max(top, double(logits[i]));
  for (int i = 0; i < n; ++i) sum += out[i] = std::exp(double(logits[i]) - top);
  for (int i = 0; i < n; ++i) out[i] /= sum;
}

}  // namespace polyenv
