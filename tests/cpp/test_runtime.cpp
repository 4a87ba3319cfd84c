// test_runtime.cpp — checks of the runtime layer: move epochs stay unique
// across threads and one MoveCache shared by many states (from several
// threads) never serves a stale reach; the event journal gives the same
// records as a list and as a ring; a worker pool shared by two owners and
// called from inside its own job. Standalone; exits non-zero on failure.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"
#include "engine/ids.hpp"
#include "engine/playout.hpp"
#include "runtime/game_handle.hpp"
#include "runtime/worker_pool.hpp"

using namespace polyenv;

namespace {

std::vector<int32_t> legal_list(const GameState& s, MoveCache* cache) {
  std::vector<int32_t> out(size_t(legal_actions(s, nullptr, 0)) + 64);
  out.resize(size_t(legal_actions(s, out.data(), int(out.size()), cache)));
  return out;
}

// Epochs drawn on several threads (several blocks each) are all distinct and non-zero.
void test_epochs_unique() {
  constexpr int kThreads = 4;
  const int per_thread = int(kMoveEpochBlock) * 2 + 17;
  std::vector<std::vector<uint64_t>> drawn(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      drawn[size_t(t)].reserve(size_t(per_thread));
      for (int i = 0; i < per_thread; ++i) drawn[size_t(t)].push_back(next_move_epoch());
    });
  }
  for (auto& th : threads) th.join();
  std::vector<uint64_t> all;
  for (auto& d : drawn) all.insert(all.end(), d.begin(), d.end());
  all.push_back(next_move_epoch());  // the main thread's block too
  std::sort(all.begin(), all.end());
  CHECK(all.front() != 0);
  CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());
}

// One MoveCache serves states advanced on other threads (epochs from other
// blocks), clones that diverge and games with other seeds, interleaved: every
// cached list must equal the uncached one.
void test_shared_cache() {
  GameConfig cfg;
  cfg.map_size = 11;
  cfg.tribes = {kBardur, kImperius, kOumaji};
  std::vector<GameState> states(6);
  for (size_t i = 0; i < states.size(); ++i) new_game(states[i], cfg, 100 + (i % 3));  // equal pairs of seeds
  MoveCache shared;
  std::vector<int32_t> scratch;
  int mismatches = 0;
  for (int round = 0; round < 120; ++round) {
    // Advance half the states on another thread: their new epochs come from its block.
    std::thread other([&] {
      for (size_t i = 0; i < states.size(); i += 2) {
        if (!states[i].game_over) random_playout(states[i], uint64_t(round * 31 + i), 3, scratch, nullptr, nullptr);
      }
    });
    other.join();
    for (size_t i = 1; i < states.size(); i += 2) {
      if (!states[i].game_over) random_playout(states[i], uint64_t(round * 17 + i), 2, scratch, &shared, nullptr);
    }
    if (round % 4 == 1) states[5] = states[4];  // a clone (equal epoch, equal position) that diverges next round
    for (const GameState& s : states) {
      if (s.game_over) continue;
      if (legal_list(s, &shared) != legal_list(s, nullptr)) ++mismatches;
    }
  }
  CHECK(mismatches == 0);
}

// The case per-state epoch counters would get wrong: a clone and its original
// renew their epochs equally often but change a unit's surroundings
// differently; one cache serving both must still give each its own reach.
void test_clones_with_equal_histories() {
  GameState a;
  blank_game(a, 8, {kBardur, kImperius}, kPlain, kCapitals, -1, 1, true, false);
  edit_place_unit(a, 0, kRider, 27, -1, false, 0, kFresh, -1);
  MoveCache shared;
  legal_list(a, &shared);  // caches the rider's reach for a
  GameState b = a;
  edit_place_unit(a, 1, kWarrior, 63, -1, false, 0, kFresh, -1);  // far away
  edit_place_unit(b, 1, kWarrior, 28, -1, false, 0, kFresh, -1);  // next to the rider
  CHECK(legal_list(a, nullptr) != legal_list(b, nullptr));
  CHECK(legal_list(a, &shared) == legal_list(a, nullptr));
  CHECK(legal_list(b, &shared) == legal_list(b, nullptr));
}

// The same game recorded into an unbounded journal and into a ring of 5: the
// ring holds exactly the last 5 records of each player's list.
void test_journal_ring() {
  GameConfig cfg;
  cfg.map_size = 8;
  GameState a, b;
  new_game(a, cfg, 7);
  b = a;
  EventJournal list, ring;
  list.configure(2, 0);
  ring.configure(2, 5);
  std::vector<int32_t> scratch;
  random_playout(a, 99, 300, scratch, nullptr, &list);
  random_playout(b, 99, 300, scratch, nullptr, &ring);
  for (int p = 0; p < 2; ++p) {
    CHECK(list.kept(p) > 5);
    CHECK(ring.kept(p) == std::min(5, list.kept(p)));
    for (int j = 0; j < ring.kept(p); ++j) {
      const EventRecord& r = ring.record(p, j);
      const EventRecord& l = list.record(p, list.kept(p) - ring.kept(p) + j);
      CHECK(r.sequence == l.sequence && r.features == l.features && r.affected == l.affected &&
            r.affected_mask == l.affected_mask);
    }
  }
  EventJournal copy;
  copy.configure(2, 0);
  copy.load_bytes(list.to_bytes());
  CHECK(copy.to_bytes() == list.to_bytes());
  ring.clear();
  CHECK(ring.kept(0) == 0 && ring.kept(1) == 0);
}

// Two owners share one pool; a job that calls run() again (nested) runs it inline.
void test_shared_pool() {
  auto pool = std::make_shared<WorkerPool>(3);
  std::vector<int> hits(100, 0);
  std::atomic<int> nested_items{0};
  auto owner = [&](int which) {
    for (int rep = 0; rep < 50; ++rep) {
      pool->run(100, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
          if (i % 50 == which) pool->run(7, [&](int b, int e) { nested_items += e - b; });
          if (which == 0) hits[size_t(i)]++;
        }
      });
    }
  };
  std::thread second(owner, 1);
  owner(0);
  second.join();
  CHECK(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 50; }));
  CHECK(nested_items == 2 * 50 * 2 * 7);
}

// run_chunks covers every item exactly once for any chunk size and thread
// count, runs nested calls inline, and rethrows the lowest failing chunk's
// exception after every chunk has run.
void test_run_chunks() {
  for (int threads : {1, 2, 3}) {
    WorkerPool pool(threads);
    for (int chunk : {1, 3, 8, 1000}) {
      for (int rep = 0; rep < 20; ++rep) {
        std::vector<std::atomic<int>> hits(101);
        std::atomic<int> nested{0};
        std::atomic<bool> bounds{true};  // CHECK itself is not thread-safe: checked after the run
        pool.run_chunks(101, chunk, [&](int begin, int end) {
          if (begin % chunk != 0 || end != std::min(101, begin + chunk)) bounds = false;
          for (int i = begin; i < end; ++i) hits[size_t(i)]++;
          if (begin == 0) pool.run_chunks(5, 2, [&](int b, int e) { nested += e - b; });
        });
        CHECK(bounds);
        CHECK(std::all_of(hits.begin(), hits.end(), [](const std::atomic<int>& h) { return h == 1; }));
        CHECK(nested == 5);
      }
    }
    std::atomic<int> ran{0};
    int caught = -1;
    try {
      pool.run_chunks(64, 4, [&](int begin, int end) {
        ran += end - begin;
        if (begin == 40 || begin == 12) throw std::runtime_error(std::to_string(begin));
      });
    } catch (const std::runtime_error& e) {
      caught = std::stoi(e.what());
    }
    CHECK(caught == 12 && ran == 64);
    pool.run(10, [](int, int) {});  // a static job right after a chunked one
  }
}

}  // namespace

int main() {
  test_epochs_unique();
  test_shared_cache();
  test_clones_with_equal_histories();
  test_journal_ring();
  test_shared_pool();
  test_run_chunks();
  if (g_failures) {
    std::fprintf(stderr, "test_runtime: %d of %d checks FAILED\n", g_failures, g_checks);
    return 1;
  }
  std::printf("test_runtime: all %d checks passed\n", g_checks);
  return 0;
}
