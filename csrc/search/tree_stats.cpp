// tree_stats.cpp — MctsPool's statistics (mcts_pool.hpp): every tree's counters
// (search_stats) and one tree's node and edge arrays (tree_size, write_tree), written
// into caller-owned arrays.
#include <string>

#include "mcts_pool.hpp"

namespace polyenv {

void MctsPool::search_stats(const TreeStatsOut& out) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_open();
  for (size_t t = 0; t < games_.size(); ++t) {
    const Game& g = games_[t];
    out.nodes[t] = g.tree.num_nodes();
    out.bytes[t] = g.tree.bytes();
    out.pending[t] = g.pending;
    out.node_budget_exhausted[t] = g.tree.node_budget_exhausted();
    out.byte_budget_exhausted[t] = g.tree.byte_budget_exhausted();
    out.kept_nodes[t] = g.kept_nodes;
    out.reuse[t] = int8_t(g.reuse);
  }
}

TreeSize MctsPool::tree_size(int env) const {
  check_open();
  if (env < 0 || env >= num_envs()) throw InvalidArgument("env " + std::to_string(env) + " is out of range");
  const SearchTree& t = search_tree(env);
  TreeSize size;
  size.nodes = t.num_nodes();
  for (int32_t n = 0; n < t.num_nodes(); ++n) size.edges += t.num_edges(n);
  size.bytes = t.bytes();
  return size;
}

void MctsPool::write_tree(int env, const TreeArraysOut& out) const {
  const SearchTree& t = search_tree(env);
  for (int32_t n = 0; n < t.num_nodes(); ++n) {
    out.first_edge[n] = t.first_edge(n);
    out.num_edges[n] = t.num_edges(n);
    out.visits[n] = t.node_visits(n);
    out.actor[n] = t.node_actor(n);
    out.expanded[n] = t.expanded(n);
    out.value_sum[n] = t.node_value_sum(n);
    out.raw_value[n] = t.node_raw_value(n);
    out.parent[n] = -1;
  }
  for (int32_t n = 0; n < t.num_nodes(); ++n) {
    for (int32_t e = t.first_edge(n); e < t.first_edge(n) + t.num_edges(n); ++e) {
      out.edge_action[e] = t.edge_action(e);
      out.edge_child[e] = t.edge_child(e);
      out.edge_visits[e] = t.edge_visits(e);
      out.edge_prior[e] = t.edge_prior(e);
      out.edge_value_sum[e] = t.edge_value_sum(e);
      if (t.edge_child(e) >= 0) out.parent[t.edge_child(e)] = n;
    }
  }
}

}  // namespace polyenv
