// test_gumbel.cpp — checks of the players layer's Gumbel root (gumbel.hpp) used the
// way a native bot uses it, without a pool: a SearchTree with its own evaluator,
// the sequential-halving schedule against mctx's table, the visit counts it
// produces, the improved policy and the final choice; and SearchTree::advance
// (subtree reuse) when the kept subtree no longer fits the byte budget, with a
// listener attached, and the pools' refusal of reuse for belief roots.
// Standalone; exits non-zero on failure.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "check.hpp"
#include "engine/game.hpp"
#include "players/gumbel.hpp"
#include "search/selfplay_pool.hpp"
#include "players/tree.hpp"

using namespace polyenv;

namespace {

GameState start_position(uint64_t seed) {
  GameConfig cfg;
  cfg.map_size = 8;
  cfg.tribes = {kBardur, kImperius};
  GameState s;
  new_game(s, cfg, seed);
  return s;
}

// A deterministic stand-in for a network: logits and a value from the state alone.
double toy_value(const GameState& s) { return std::tanh(0.01 * double((s.actions_applied * 37 + s.tick * 11) % 97 - 48)); }

// Runs `simulations` descents with GumbelSearch g (one path in flight, as a bot would).
void run_search(SearchTree& tree, GumbelSearch& g, int simulations) {
  LeafPath path;
  GameState transient;
  std::vector<int32_t> ids(4096);
  std::vector<float> logits;
  for (int i = 0; i < simulations; ++i) {
    const SearchTree::Descent r = tree.descend(path, transient);
    if (r == SearchTree::Descent::kTerminal) continue;
    if (r != SearchTree::Descent::kLeaf) break;
    const GameState& leaf = tree.leaf_state(path, transient);
    const int n = legal_actions(leaf, ids.data(), int(ids.size()));
    logits.assign(size_t(n), 0.0f);
    for (int j = 0; j < n; ++j) logits[size_t(j)] = float(((ids[size_t(j)] * 2654435761u) % 1000) / 250.0);
    if (path.leaf >= 0) tree.expand(path.leaf, ids.data(), n, logits.data());
    if (path.leaf == 0) g.start(tree);  // optional: the first root selection would start it
    double values[kMaxPlayers];
    const double v = toy_value(leaf);
    values[path.actor] = v;
    values[1 - path.actor] = -v;
    tree.backup(path, values);
  }
}

void test_schedule() {
  HalvingSchedule s;
  // mctx get_sequence_of_considered_visits(4, 16), then its continuation (pairs, 2 rounds per phase).
  s.reset(4, 16);
  const int32_t want[] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7};
  for (int i = 0; i < 20; ++i) CHECK_EQ(s.at(i), want[i]);
  s.reset(16, 32);
  for (int i = 0; i < 16; ++i) CHECK_EQ(s.at(i), 0);
  for (int i = 16; i < 24; ++i) CHECK_EQ(s.at(i), 1);
  for (int i = 24; i < 28; ++i) CHECK_EQ(s.at(i), 2);
  for (int i = 28; i < 32; ++i) CHECK_EQ(s.at(i), 3);
  s.reset(1, 5);
  for (int i = 0; i < 9; ++i) CHECK_EQ(s.at(i), i);
  s.reset(3, 6);  // log2(3) -> 2: rounds max(1, 6 / 6) = 1, then width 2 with rounds 6 / 4 = 1
  const int32_t three[] = {0, 0, 0, 1, 1, 2, 2, 3, 3};
  for (int i = 0; i < 9; ++i) CHECK_EQ(s.at(i), three[i]);
}

// The component on a bare SearchTree: visit counts as sequential halving prescribes,
// the improved policy is a distribution, the choice is among the most visited.
void test_native_search() {
  const GameState root = start_position(3);
  SearchConfig cfg;
  cfg.num_players = 2;
  cfg.virtual_loss = 0;
  cfg.max_nodes = 0;
  cfg.max_bytes = 0;
  GumbelConfig gc;
  gc.num_simulations = 32;
  gc.max_considered = 16;
  SearchTree tree;
  GumbelSearch g;
  g.configure(gc);
  tree.set_selector(&g);
  tree.reset(root, 99, cfg);
  g.begin(1234);
  run_search(tree, g, 33);  // the first evaluates the root
  CHECK(g.started());
  const int32_t n = tree.num_edges(0);
  CHECK(n > 16);
  std::vector<int32_t> visits;
  for (int32_t j = 0; j < n; ++j) visits.push_back(tree.edge_visits(tree.first_edge(0) + j));
  std::sort(visits.rbegin(), visits.rend());
  const int32_t want[] = {4, 4, 4, 4, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1};
  for (int i = 0; i < 16; ++i) CHECK_EQ(visits[size_t(i)], want[i]);
  CHECK_EQ(visits[16], 0);
  std::vector<double> policy(static_cast<size_t>(n));
  g.improved_policy(tree, 0, policy.data());
  double sum = 0;
  for (double p : policy) {
    CHECK(p >= 0 && p <= 1);
    sum += p;
  }
  CHECK(std::fabs(sum - 1) < 1e-12);
  const int32_t e = g.choose_root_edge(tree);
  CHECK(e >= tree.first_edge(0) && e < tree.first_edge(0) + n);
  CHECK_EQ(tree.edge_visits(e), 4);
  CHECK_EQ(g.considered(), 16);
  // The same seed gives the same search; another seed other draws.
  SearchTree again;
  GumbelSearch h;
  h.configure(gc);
  again.set_selector(&h);
  again.reset(root, 99, cfg);
  h.begin(1234);
  run_search(again, h, 33);
  CHECK_EQ(h.choose_root_edge(again), e);
  for (int32_t j = 0; j < n; ++j) CHECK(h.root_gumbel(j) == g.root_gumbel(j));
  h.begin(4321);
  h.start(again);
  bool differs = false;
  for (int32_t j = 0; j < n; ++j) differs |= h.root_gumbel(j) != g.root_gumbel(j);
  CHECK(differs);
  // Reuse: the chosen child's subtree is kept; a new search counts its own visits only.
  const int32_t action = tree.edge_action(e);
  const int32_t child = tree.edge_child(e);
  const int32_t child_visits = tree.node_visits(child);
  GameState next = tree.root_state();
  apply_action(next, action);
  CHECK(tree.advance(action, next, 7) == SearchTree::Reuse::kKept);
  CHECK_EQ(tree.node_visits(0), child_visits);
  g.begin(77);
  run_search(tree, g, 8);
  int32_t fresh = 0;
  for (int32_t j = 0; j < tree.num_edges(0); ++j) fresh += g.search_visits(tree, j);
  CHECK_EQ(fresh, 8);
  CHECK_EQ(tree.node_visits(0), child_visits + 8);
}

// A kept subtree whose nodes cost more at the new root's charge is cut to the byte
// budget (creation order, parents first) and flags it; the search then continues.
void test_advance_prunes_to_the_byte_budget() {
  const GameState root = start_position(5);
  SearchConfig cfg;
  cfg.num_players = 2;
  cfg.max_nodes = 0;
  cfg.max_bytes = 400000;
  SearchTree tree;
  GumbelSearch g;  // PUCT tree: the selector only lends run_search its start() call
  GumbelConfig gc;
  gc.num_simulations = 1;
  g.configure(gc);
  tree.reset(root, 11, cfg);
  g.begin(1);
  run_search(tree, g, 200);
  CHECK(tree.bytes() <= cfg.max_bytes + 4096 * SearchTree::kEdgeBytes);
  // The most visited root edge and the size of its subtree.
  int32_t best = tree.first_edge(0);
  for (int32_t e = best; e < tree.first_edge(0) + tree.num_edges(0); ++e) {
    if (tree.edge_visits(e) > tree.edge_visits(best)) best = e;
  }
  const int32_t child = tree.edge_child(best);
  CHECK(child > 0);
  int32_t subtree = 1;
  std::function<void(int32_t)> mark = [&](int32_t node) {
    for (int32_t e = tree.first_edge(node); e < tree.first_edge(node) + tree.num_edges(node); ++e) {
      if (tree.edge_child(e) >= 0) {
        ++subtree;
        mark(tree.edge_child(e));
      }
    }
  };
  mark(child);
  CHECK(subtree > 4);
  GameState next = tree.node_state(child);
  // Bigger capacities (not part of the position): the subtree costs 1.5x the budget at the new charge.
  const int64_t charge = int64_t(1.5 * double(cfg.max_bytes) / subtree);
  next.units.reserve(next.units.capacity() + size_t(std::max<int64_t>(charge - tree.node_charge(), 0)) / sizeof(Unit) + 1);
  const SearchTree::Reuse r = tree.advance(tree.edge_action(best), next, 12);
  CHECK(r == SearchTree::Reuse::kKept);
  CHECK(tree.num_nodes() < subtree);
  CHECK(tree.num_nodes() >= 1);
  CHECK(tree.bytes() <= cfg.max_bytes);
  CHECK(tree.byte_budget_exhausted());
  for (int32_t n = 0; n < tree.num_nodes(); ++n) {
    for (int32_t e = tree.first_edge(n); e < tree.first_edge(n) + tree.num_edges(n); ++e) {
      CHECK(tree.edge_child(e) < tree.num_nodes());
      CHECK(tree.edge_child(e) < 0 || tree.edge_child(e) > n);
    }
  }
  run_search(tree, g, 50);
  CHECK(tree.node_visits(0) > 50);
}

struct NullListener : TreeListener {
  void on_root() override {}
  void on_child(int32_t, int32_t) override {}
  void on_event(const GameState&, const WorldEvent&) override {}
  int64_t bytes_per_node() const override { return 0; }
};

void test_advance_with_a_listener_resets() {
  const GameState root = start_position(6);
  SearchConfig cfg;
  cfg.num_players = 2;
  SearchTree tree;
  NullListener listener;
  tree.set_listener(&listener);
  GumbelSearch g;
  GumbelConfig gc;
  gc.num_simulations = 1;
  g.configure(gc);
  tree.reset(root, 11, cfg);
  run_search(tree, g, 20);
  const int32_t e = tree.first_edge(0);
  GameState next = root;
  apply_action(next, tree.edge_action(e));
  CHECK(tree.advance(tree.edge_action(e), next, 3) == SearchTree::Reuse::kFresh);
  CHECK_EQ(tree.num_nodes(), 1);
}

void test_selfplay_pool_refuses_reuse() {
  MctsPoolConfig cfg;
  cfg.game.map_size = 8;
  cfg.game.tribes = {kBardur, kImperius};
  cfg.max_actions = 128;
  cfg.reuse_tree = true;
  bool refused = false;
  try {
    SelfPlayPool pool(cfg, 0);
  } catch (const InvalidArgument&) {
    refused = true;
  }
  CHECK(refused);
}

}  // namespace

int main() {
  test_schedule();
  test_native_search();
  test_advance_prunes_to_the_byte_budget();
  test_advance_with_a_listener_resets();
  test_selfplay_pool_refuses_reuse();
  if (g_failures) {
    std::fprintf(stderr, "test_gumbel: %d of %d checks FAILED\n", g_failures, g_checks);
    return 1;
  }
  std::printf("test_gumbel: all %d checks passed\n", g_checks);
  return 0;
}
