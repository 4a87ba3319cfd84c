// test_runtime.cpp — checks of the runtime layer: move epochs stay unique
// across threads and one MoveCache shared by many states (from several
// threads) never serves a stale reach; the event journal gives the same
// records as a list and as a ring; a worker pool shared by two owners and
// called from inside its own job; a batch of live episodes (LiveBatch: the
// episode sequence, ids in row order, stale ids, worker errors, the broken and
// closed states) and a stand-alone game's episode source. Standalone; exits
// non-zero on failure.
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
#include "runtime/episode_source.hpp"
#include "runtime/errors.hpp"
#include "runtime/game_handle.hpp"
#include "runtime/live_batch.hpp"
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

// What `call` throws as E (empty: nothing, or another type).
template <class E, class F>
std::string thrown(F&& call) {
  try {
    call();
  } catch (const E& e) {
    return e.what();
  } catch (...) {
    return "<another exception>";
  }
  return "";
}

// The base config check names the first bad value and caps the threads at num_envs.
void test_batch_config() {
  const BatchLimits open{}, pool{/*max_envs=*/8, /*min_max_actions=*/0};
  CHECK_EQ(check_batch_config(3, 5, 1, open), 3);
  CHECK_EQ(check_batch_config(8, 2, 0, pool), 2);
  CHECK(thrown<InvalidArgument>([&] { check_batch_config(0, 0, 0, open); }) == "num_envs must be >= 1, got 0");
  CHECK(thrown<InvalidArgument>([&] { check_batch_config(9, 1, 0, pool); }) == "num_envs must be in [1, 8], got 9");
  CHECK(thrown<InvalidArgument>([&] { check_batch_config(1, 0, 0, open); }) == "num_threads must be >= 1, got 0");
  CHECK(thrown<InvalidArgument>([&] { check_batch_config(1, 1, 0, open); }) == "max_actions must be >= 1, got 0");
  CHECK(thrown<InvalidArgument>([&] { check_batch_config(1, 1, -1, pool); }) == "max_actions must be >= 0, got -1");
}

// Episode k of environment i is new_game(seed + i + k * B); ids are given in row
// order; a stale id is named; worker errors are collected (the lowest wins, every
// item runs) and break the batch until clear_broken; close refuses everything.
void test_live_batch() {
  GameConfig cfg;
  cfg.map_size = 8;
  cfg.tribes = {kBardur, kImperius};
  const std::vector<Level> levels;
  constexpr int B = 4;
  LiveBatch<LiveGame> batch("TestBatch", cfg, levels, B, /*seed=*/7, nullptr, /*num_threads=*/2);
  CHECK_EQ(batch.num_threads(), 2);
  auto start_all = [&] {
    const WorkerFailure f = batch.run(B, [&](int i) { batch.start_episode(batch[size_t(i)], i); });
    CHECK(!f);
  };
  auto expect_seeds = [&](uint64_t first) {
    for (int i = 0; i < B; ++i) {
      GameState expected;
      new_game(expected, cfg, first + uint64_t(i));
      CHECK(batch[size_t(i)].state == expected);
      CHECK_EQ(batch[size_t(i)].observer, expected.current_player);
    }
  };
  start_all();
  expect_seeds(7);
  // Fresh ids in the order of the rows (env 2 first), copied out by write.
  const int32_t order[B] = {2, 0, 3, 1};
  std::vector<uint64_t> states(B), episodes(B);
  batch.assign_ids(B, [&](int r) { return order[r]; }, [&](int r, const LiveGame& g) {
    states[size_t(r)] = g.state_id;
    episodes[size_t(r)] = g.episode_id;
  });
  for (int r = 1; r < B; ++r) CHECK(episodes[size_t(r)] > states[size_t(r - 1)] && states[size_t(r)] > episodes[size_t(r)]);
  CHECK(!batch[0].new_state && !batch[0].new_episode);
  // Unseeded: the next episode of each sequence; seeded: episode 0 from the new seed.
  batch.begin_reset(nullptr);
  start_all();
  expect_seeds(7 + B);
  LiveBatch<LiveGame>::next_episode(batch[1]);
  CHECK_EQ(batch[1].episode_index, 2);
  const uint64_t seed = 100;
  batch.begin_reset(&seed);
  CHECK_EQ(batch.base_seed(), 100);
  start_all();
  expect_seeds(100);
  for (LiveGame& g : batch) g.assign_ids();
  // Stale ids: rows named through envs, or the envs themselves.
  std::vector<uint64_t> given(B);
  for (int i = 0; i < B; ++i) given[size_t(i)] = batch[size_t(i)].state_id;
  CHECK(thrown<StaleState>([&] { batch.check_state_ids(B, given.data(), nullptr, "nothing changed"); }).empty());
  given[2] = 5;
  CHECK(thrown<StaleState>([&] { batch.check_state_ids(B, given.data(), nullptr, "nothing changed"); }) ==
        "state id 5 of env 2 is stale: the live state id is " + std::to_string(batch[2].state_id) + "; nothing changed");
  const int32_t envs[2] = {3, 2};
  const uint64_t rows_given[2] = {batch[3].state_id, 5};
  CHECK(thrown<StaleState>([&] { batch.check_state_ids(2, rows_given, envs, "no row ran"); }) ==
        "state id 5 of row 1 (env 2) is stale: the live state id is " + std::to_string(batch[2].state_id) +
            "; no row ran");
  // Worker errors: every item runs, the lowest failure is returned, the slots are cleared.
  for (int chunked = 0; chunked < 2; ++chunked) {
    std::atomic<int> ran{0};
    auto item = [&](int i) {
      ran++;
      if (i == 1 || i == 3) throw std::runtime_error("boom " + std::to_string(i));
    };
    const WorkerFailure f = chunked ? batch.run_chunks(B, 1, item) : batch.run(B, item);
    CHECK(f && f.item == 1 && ran == B);
    CHECK(message_of(f.error) == "boom 1");
    CHECK(!batch.run(B, [](int) {}));
    CHECK(thrown<std::runtime_error>([&] { batch.fail(f, "env 1: "); }) == "boom 1");
  }
  CHECK(thrown<std::runtime_error>([&] { batch.check_usable(); }) ==
        "this TestBatch must be reset(): a previous call failed on a worker (env 1: boom 1)");
  CHECK(thrown<std::runtime_error>([&] { batch.check_open(); }).empty());
  batch.clear_broken();
  CHECK(thrown<std::runtime_error>([&] { batch.check_usable(); }).empty());
  batch.close();
  batch.close();
  CHECK(batch.closed() && !batch.shared_workers() && batch.num_threads() == 2);
  CHECK(thrown<std::runtime_error>([&] { batch.check_usable(); }) == "this TestBatch is closed");
  CHECK(thrown<std::runtime_error>([&] { batch.workers(); }) == "this TestBatch is closed");
}

// A stand-alone game restarts from its source: generated or blank, new ids each episode.
void test_episode_source() {
  GameConfig cfg;
  cfg.map_size = 8;
  cfg.tribes = {kBardur, kImperius};
  SourcedGame g;
  g.source = EpisodeSource::generated(cfg);
  g.new_episode(11);
  GameState expected;
  new_game(expected, cfg, 11);
  CHECK(g.state == expected && g.seed == 11);
  const uint64_t episode = g.episode_id, state = g.state_id;
  CHECK(state > episode);
  g.source = EpisodeSource::blank(cfg, kForest, /*revealed=*/false);
  g.new_episode(12);
  blank_game(expected, cfg.map_size, cfg.tribes, kForest, cfg.mode, cfg.max_turns, 12, false, cfg.full_observability);
  CHECK(g.state == expected && g.episode_id > state && g.state_id > g.episode_id);
  CHECK(g.source.kind == EpisodeSource::Kind::kBlank);
}

}  // namespace

int main() {
  test_epochs_unique();
  test_shared_cache();
  test_clones_with_equal_histories();
  test_journal_ring();
  test_shared_pool();
  test_run_chunks();
  test_batch_config();
  test_live_batch();
  test_episode_source();
  if (g_failures) {
    std::fprintf(stderr, "test_runtime: %d of %d checks FAILED\n", g_failures, g_checks);
    return 1;
  }
  std::printf("test_runtime: all %d checks passed\n", g_checks);
  return 0;
}
