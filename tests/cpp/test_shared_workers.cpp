// test_shared_workers.cpp — a VectorEnv and a search pool (MctsPool, SelfPlayPool)
// share one WorkerPool in separate phases: the search pool adopts the pool's
// thread count, its games are bit-identical to a pool with its own threads, and
// closing one owner leaves the pool running for the other. Standalone; exits
// non-zero on failure.
#include <cstdio>
#include <memory>
#include <vector>

#include "check.hpp"
#include "search/mcts_pool.hpp"
#include "search/selfplay_pool.hpp"
#include "vector/vector_env.hpp"

using namespace polyenv;

namespace {

// The live games and their trees' sizes (state digests also hash the process-unique ids).
bool same_games(MctsPool& a, MctsPool& b) {
  for (int i = 0; i < a.num_envs(); ++i) {
    if (serialize(a.live_state(i)) != serialize(b.live_state(i))) return false;
    if (a.search_tree(i).num_nodes() != b.search_tree(i).num_nodes()) return false;
    if (a.live_observer(i) != b.live_observer(i)) return false;
  }
  return true;
}

MctsPoolConfig search_config(int threads) {
  MctsPoolConfig cfg;
  cfg.num_envs = 5;
  cfg.seed = 99;
  cfg.game.map_size = 8;
  cfg.num_threads = threads;
  return cfg;
}

void test_vector_env_and_search_pools_share_workers() {
  VectorConfig vcfg;
  vcfg.num_envs = 4;
  vcfg.seed = 3;
  vcfg.game.map_size = 8;
  vcfg.num_threads = 3;
  VectorEnv vec(vcfg);
  const std::shared_ptr<WorkerPool> shared = vec.workers();
  MctsPool own(search_config(1));
  MctsPool borrowed(search_config(1), shared);
  CHECK_EQ(borrowed.num_threads(), 3);
  CHECK(borrowed.shared_workers() == shared);
  CHECK(same_games(own, borrowed));
  SelfPlayPool own_sp(search_config(2), 4);
  SelfPlayPool borrowed_sp(search_config(2), 4, shared);
  CHECK_EQ(borrowed_sp.num_threads(), 3);
  CHECK(same_games(own_sp, borrowed_sp));
  borrowed.close();
  borrowed_sp.close();
  std::vector<int> hits(10, 0);
  shared->run(10, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) hits[size_t(i)]++;
  });
  int total = 0;
  for (int h : hits) total += h;
  CHECK_EQ(total, 10);  // the vector env's pool outlives the search pools that borrowed it
  bool threw = false;
  try {
    borrowed.workers();
  } catch (const std::runtime_error&) {
    threw = true;
  }
  CHECK(threw);
}

}  // namespace

int main() {
  test_vector_env_and_search_pools_share_workers();
  if (g_failures) {
    std::fprintf(stderr, "test_shared_workers: %d of %d checks FAILED\n", g_failures, g_checks);
    return 1;
  }
  std::printf("test_shared_workers: all %d checks passed\n", g_checks);
  return 0;
}
