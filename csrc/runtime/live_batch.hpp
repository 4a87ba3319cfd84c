// live_batch.hpp — LiveBatch: the one owner of a batch of live episodes, for
// every pool and env that holds one (VectorEnv, MctsPool and through it
// SelfPlayPool). It keeps the B games (LiveGame or a type derived from it)
// and everything their lifecycle needs:
//   * the episode sequence (episodes.hpp): the base seed, a reset's bump
//     (seeded: episode 0 of every environment; unseeded: the next one) and
//     starting an environment's current episode;
//   * the fresh ids, given in row order on the caller's thread;
//   * the stale-state-id check of a call's rows;
//   * the worker pool, the per-item worker errors of a parallel call, and the
//     closed / broken state (broken: a call failed on a worker, reset() is
//     required; check_usable refuses every other call until then).
// The owner keeps its own lock and calls these under it; its name appears in
// the protocol messages ("this VectorGameEnv is closed").
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../engine/game.hpp"
#include "episodes.hpp"
#include "live_game.hpp"
#include "worker_pool.hpp"

namespace polyenv {

// The bounds of an owner's base configuration.
struct BatchLimits {
  int max_envs = std::numeric_limits<int>::max();  // the largest num_envs (the int maximum: named as no bound)
  int min_max_actions = 1;                         // the smallest max_actions
};

// The base configuration check every batch owner starts with: num_envs in [1, max_envs], then
// num_threads >= 1, then max_actions >= min_max_actions (InvalidArgument naming the first bad
// value). Returns the threads a pool of the batch's own needs: min(num_threads, num_envs).
int check_batch_config(int num_envs, int num_threads, int max_actions, const BatchLimits& limits);

// What an exception says: its what(), or "unknown exception" for one not derived from std::exception.
std::string message_of(const std::exception_ptr& error);

// The lowest failed item of a parallel call and its exception (error null: no item failed).
struct WorkerFailure {
  int item = -1;
  std::exception_ptr error;
  explicit operator bool() const { return bool(error); }
};

// The part of a LiveBatch that does not depend on the game type: the worker
// pool, the closed / broken state, the base seed and the per-item errors.
class LiveBatchState {
 public:
  // `name` is the owner's Python name (a string literal). Uses `shared` when
  // given, else starts a pool of num_threads of its own.
  LiveBatchState(const char* name, int num_envs, uint64_t seed, std::shared_ptr<WorkerPool> shared,
                 int num_threads);
  LiveBatchState(const LiveBatchState&) = delete;
  LiveBatchState& operator=(const LiveBatchState&) = delete;

  // B, the games of the batch.
  int num_envs() const { return num_envs_; }
  // Threads of the pool (the caller included); kept after close().
  int num_threads() const { return num_threads_; }
  // The seed of the last seeded reset (or of the constructor).
  uint64_t base_seed() const { return base_seed_; }

  // The pool; std::runtime_error "this <name> is closed" once closed.
  WorkerPool& workers() const;
  // The pool for another owner of the same games; null once closed.
  const std::shared_ptr<WorkerPool>& shared_workers() const { return pool_; }

  // Releases the pool (joined unless another owner shares it). Idempotent.
  void close();
  bool closed() const { return closed_.load(); }
  // std::runtime_error "this <name> is closed" once closed.
  void check_open() const;
  // check_open, then std::runtime_error "this <name> must be reset(): ..." while broken.
  void check_usable() const;
  // Marks the batch broken with the reason `where` + the failure's message and rethrows its exception.
  [[noreturn]] void fail(const WorkerFailure& failure, const std::string& where);
  // A reset succeeded: the batch is usable again.
  void clear_broken() { broken_.clear(); }

  // Runs item(i) for every i in [0, n) (n <= num_envs) on the pool in static
  // ranges (WorkerPool::run): an item's exception is kept and the other items
  // still run. Returns the lowest failed item (none: an empty failure).
  template <class F>
  WorkerFailure run(int n, F&& item) {
    workers().run(n, [&](int begin, int end) { guard(begin, end, item); });
    return take_failure(n);
  }
  // run, in balanced chunks of `chunk` items (WorkerPool::run_chunks).
  template <class F>
  WorkerFailure run_chunks(int n, int chunk, F&& item) {
    workers().run_chunks(n, chunk, [&](int begin, int end) { guard(begin, end, item); });
    return take_failure(n);
  }

 protected:
  // Throws StaleState for row `row` (of environment `env`, named when `env_named`).
  [[noreturn]] static void throw_stale(uint64_t given, uint64_t live, int row, int env, bool env_named,
                                       const char* unchanged);

  uint64_t base_seed_ = 0;

 private:
  template <class F>
  void guard(int begin, int end, F& item) {
    for (int i = begin; i < end; ++i) {
      try {
        item(i);
      } catch (...) {
        errors_[size_t(i)] = std::current_exception();
      }
    }
  }
  // The lowest recorded error of [0, n); clears them all.
  WorkerFailure take_failure(int n);

  const char* name_;
  int num_envs_;
  std::shared_ptr<WorkerPool> pool_;
  int num_threads_;
  std::atomic<bool> closed_{false};
  std::string broken_;  // non-empty: a call failed on a worker; reset() required
  std::vector<std::exception_ptr> errors_;  // per item of the running call, all null between calls
};

// The games of the batch (G derives from LiveGame) on the episode sequence of
// `game` and `levels`, which must outlive the batch (the owner's config).
template <class G>
class LiveBatch : public LiveBatchState {
 public:
  // B default games (start them with start_episode), base seed `seed`, the pool as LiveBatchState's.
  LiveBatch(const char* name, const GameConfig& game, const std::vector<Level>& levels, int num_envs, uint64_t seed,
            std::shared_ptr<WorkerPool> shared, int num_threads)
      : LiveBatchState(name, num_envs, seed, std::move(shared), num_threads), game_(game), levels_(levels),
        games_(size_t(num_envs)) {}

  // The games by environment index; range-for visits them in env order.
  size_t size() const { return games_.size(); }
  G& operator[](size_t env) { return games_[env]; }
  const G& operator[](size_t env) const { return games_[env]; }
  auto begin() { return games_.begin(); }
  auto end() { return games_.end(); }
  auto begin() const { return games_.begin(); }
  auto end() const { return games_.end(); }

  // The bump of reset(seed): with a seed the sequence restarts from it (episode 0
  // of every environment), without one every environment moves to its next episode.
  void begin_reset(const uint64_t* seed) {
    if (seed) base_seed_ = *seed;
    for (G& g : games_) g.episode_index = seed ? 0 : g.episode_index + 1;
  }
  // Starts, in g (environment env), its episode g.episode_index of the sequence:
  // its state changed, the player to move is its observer, and both ids are owed
  // (assign_ids). Any thread (one game per thread).
  void start_episode(G& g, int env) const {
    start_episode_game(g.state, game_, levels_, base_seed_, num_envs(), env, g.episode_index);
    g.state_changed();
    g.observer = g.state.current_player;
    g.new_state = g.new_episode = true;
  }
  // An automatic reset or a reset of chosen slots: g moves to its next episode (start it with start_episode).
  static void next_episode(G& g) { g.episode_index++; }

  // Gives the owed ids (LiveGame::assign_ids) of rows [0, rows) in row order on the
  // calling thread, the game of row r being env_of(r); then write(r, game) copies them out.
  template <class EnvOf, class Write>
  void assign_ids(int rows, EnvOf&& env_of, Write&& write) {
    for (int r = 0; r < rows; ++r) {
      G& g = games_[size_t(env_of(r))];
      g.assign_ids();
      write(r, static_cast<const G&>(g));
    }
  }

  // StaleState (and nothing else happens) unless given[r] is the live state id of
  // row r's game for every r in [0, rows): the game of envs[r] (the message names
  // row and env), or of env r when envs is null. The message ends with `unchanged`
  // ("no game was stepped").
  template <class Given>
  void check_state_ids(int rows, const Given& given, const int32_t* envs, const char* unchanged) const {
    for (int r = 0; r < rows; ++r) {
      const uint64_t id = given[r];
      const int env = envs ? envs[r] : r;
      const uint64_t live = games_[size_t(env)].state_id;
      if (id != live) throw_stale(id, live, r, env, envs != nullptr, unchanged);
    }
  }

 private:
  const GameConfig& game_;
  const std::vector<Level>& levels_;
  std::vector<G> games_;
};

}  // namespace polyenv
