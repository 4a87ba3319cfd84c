// worker_pool.hpp — a persistent pool of worker threads for batched calls.
//
// The threads are created once, by the constructor, and joined by close() (or
// the destructor). run(n, fn) splits the items [0, n) into num_threads()
// static contiguous ranges: range 0 runs on the calling thread, range w on
// worker w. The ranges depend only on n and num_threads(), never on timing, so
// a computation whose items are independent gives bit-identical results for
// any thread count. An exception thrown by fn on any thread is caught there
// and rethrown in the caller once every range has finished (the lowest range's
// exception wins, so the choice is deterministic too). No allocation per run.
//
// run_chunks(n, chunk, fn) balances instead: the chunks of `chunk` items are
// split into num_threads() static parts, each thread takes chunks from its own
// part first (from a counter), then the chunks left in the other parts. So an
// item usually runs on the same thread call after call (its data stays in that
// core's cache), and a thread that is late (woken late on a loaded machine) or
// has slower items is relieved by the others instead of being waited for.
// Which thread runs an item then depends on timing: use it only when items are
// independent and fn keeps nothing per thread that changes results. Its
// exception choice stays deterministic (lowest chunk).
//
// Waiting. Workers sleep on a condition variable between jobs (no spinning
// while the caller is away). The caller, once its own part is done, first
// polls briefly for the workers' last items — usually a few microseconds —
// before it sleeps too: a futex round trip per call costs more than that.
//
// Sharing. Several owners may hold one pool (std::shared_ptr): a vector env
// and a search pool driving the same games in separate phases. Calls of run()
// from different threads take turns (one job at a time). A nested call — run()
// from inside one of this pool's jobs, on a worker or on the caller — cannot
// wait for busy workers, so it runs its ranges one after another on the
// calling thread: the same ranges, the same results, no deadlock. (Nesting
// run() of two different pools inside each other in both directions is not
// supported.)
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

namespace polyenv {

class WorkerPool {
 public:
  // num_threads >= 1 counts the calling thread: num_threads - 1 workers are started.
  explicit WorkerPool(int num_threads)
      : errors_(size_t(num_threads < 1 ? 1 : num_threads)), error_at_(errors_.size(), -1),
        next_(errors_.size()) {
    if (num_threads < 1) throw std::invalid_argument("a worker pool needs at least one thread");
    threads_.reserve(size_t(num_threads - 1));
    for (int w = 1; w < num_threads; ++w) threads_.emplace_back([this, w] { worker_loop(w); });
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool() { close(); }

  // Total threads taking part in run(), the caller included.
  int num_threads() const { return int(errors_.size()); }

  // Stops and joins the workers. Idempotent; run() afterwards throws std::logic_error.
  void close() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stop_) return;
      stop_ = true;
    }
    start_.notify_all();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }

  // Calls fn(begin, end) once per non-empty static range of [0, n) and returns
  // when all ranges are done; rethrows the first exception (lowest range).
  // Concurrent calls take turns; a nested call runs inline (see above).
  template <class F>
  void run(int n, F&& fn) {
    if (n <= 0) return;
    if (running_here() == this) {
      for (int w = 0; w < num_threads(); ++w) {
        int begin, end;
        split(n, num_threads(), w, begin, end);
        if (begin < end) fn(begin, end);
      }
      return;
    }
    using Fn = std::remove_reference_t<F>;
    Job job{[](void* ctx, int begin, int end) { (*static_cast<Fn*>(ctx))(begin, end); }, &fn, n, 0};
    std::lock_guard<std::mutex> turn(run_mutex_);
    dispatch(job);
  }

  // Calls fn(begin, end) once per chunk [k * chunk, min(n, (k + 1) * chunk)),
  // each on whichever thread takes it first (see above); returns when all are
  // done and rethrows the exception of the lowest failing chunk. A nested call
  // runs its chunks in order on the calling thread.
  template <class F>
  void run_chunks(int n, int chunk, F&& fn) {
    if (n <= 0) return;
    if (chunk < 1) chunk = 1;
    if (running_here() == this) {
      for (int begin = 0; begin < n; begin += chunk) fn(begin, std::min(n, begin + chunk));
      return;
    }
    using Fn = std::remove_reference_t<F>;
    Job job{[](void* ctx, int begin, int end) { (*static_cast<Fn*>(ctx))(begin, end); }, &fn, n, chunk};
    std::lock_guard<std::mutex> turn(run_mutex_);
    dispatch(job);
  }

  // The static range [begin, end) of part `w` of `parts` over n items.
  static void split(int n, int parts, int w, int& begin, int& end) {
    begin = int(int64_t(n) * w / parts);
    end = int(int64_t(n) * (w + 1) / parts);
  }

 private:
  struct Job {
    void (*call)(void*, int, int) = nullptr;
    void* ctx = nullptr;
    int n = 0;
    int chunk = 0;  // 0: static ranges (run); else chunks from next_ (run_chunks)
  };

  // The pool whose job the calling thread is running (nullptr: none).
  static const WorkerPool*& running_here() {
    thread_local const WorkerPool* pool = nullptr;
    return pool;
  }

  void run_part(int w) {
    const WorkerPool* outer = running_here();
    running_here() = this;
    if (job_.chunk == 0) {
      int begin, end;
      split(job_.n, num_threads(), w, begin, end);
      if (begin < end) call(w, begin, end);
    } else {
      // Own part first, then the others' leftovers in turn: each item usually
      // runs on the same thread call after call, so its game stays in that
      // core's cache, and a thread that is late or slow is relieved.
      // Parts are whole chunks, so chunk k is [k * chunk, (k + 1) * chunk) on any thread.
      const int parts = num_threads();
      const int chunks = (job_.n + job_.chunk - 1) / job_.chunk;
      for (int k = 0; k < parts; ++k) {
        const int p = (w + k) % parts;
        int first, last;
        split(chunks, parts, p, first, last);
        for (;;) {
          const int c = first + next_[size_t(p)].value.fetch_add(1, std::memory_order_relaxed);
          if (c >= last) break;
          call(w, c * job_.chunk, std::min(job_.n, (c + 1) * job_.chunk));
        }
      }
    }
    running_here() = outer;
  }

  // Runs one range; of the ranges that threw on thread w, the lowest one's exception is kept.
  void call(int w, int begin, int end) {
    try {
      job_.call(job_.ctx, begin, end);
    } catch (...) {
      if (error_at_[size_t(w)] < 0 || begin < error_at_[size_t(w)]) {
        errors_[size_t(w)] = std::current_exception();
        error_at_[size_t(w)] = begin;
      }
    }
  }

  void dispatch(const Job& job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stop_) throw std::logic_error("the worker pool is closed");
      job_ = job;
      for (auto& e : errors_) e = nullptr;
      error_at_.assign(errors_.size(), -1);
      for (PaddedCounter& c : next_) c.value.store(0, std::memory_order_relaxed);
      pending_.store(job.chunk ? 0 : int(threads_.size()), std::memory_order_relaxed);
      open_ = job.chunk != 0;
      ++generation_;
    }
    if (!threads_.empty()) start_.notify_all();
    run_part(0);
    if (job.chunk) {
      // Every chunk is taken: close the job, so that a worker waking only now
      // leaves it alone, and wait just for the workers that joined it.
      std::lock_guard<std::mutex> lock(mutex_);
      open_ = false;
    }
    if (!threads_.empty()) wait_for_workers();
    // The lowest range's exception: part order for static ranges, chunk start for chunks.
    int first = -1;
    for (size_t w = 0; w < errors_.size(); ++w) {
      if (errors_[w] && (first < 0 || error_at_[w] < error_at_[size_t(first)])) first = int(w);
    }
    if (first >= 0) {
      std::exception_ptr e = errors_[size_t(first)];
      for (auto& x : errors_) x = nullptr;
      std::rethrow_exception(e);
    }
  }

  void wait_for_workers() {
    // Poll a little first (the workers' last items usually end within microseconds).
    const auto until = std::chrono::steady_clock::now() + kPoll;
    for (int i = 1;; ++i) {
      if (pending_.load(std::memory_order_acquire) == 0) return;
      if (i % 64 == 0 && std::chrono::steady_clock::now() > until) break;
      cpu_relax();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
  }

  void worker_loop(int w) {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        start_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        // A static range must run (the caller counted this worker in pending_);
        // chunks are joined only while the job is open (a late worker skips it).
        if (job_.chunk) {
          if (!open_) continue;
          pending_.fetch_add(1, std::memory_order_relaxed);
        }
      }
      run_part(w);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        // Taking the lock orders this notify after a sleeping caller's check of pending_.
        { std::lock_guard<std::mutex> lock(mutex_); }
        done_.notify_one();
      }
    }
  }

  std::mutex run_mutex_;  // one job at a time across owners
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  std::vector<std::thread> threads_;
  std::vector<std::exception_ptr> errors_;  // one per range
  std::vector<int> error_at_;               // start of the lowest range that threw on thread w
  Job job_;
  // run_chunks: per part, the offset of its next chunk (one cache line each:
  // the owner bumps its own counter without bouncing the others' lines).
  struct alignas(64) PaddedCounter {
    std::atomic<int> value{0};
  };
  std::vector<PaddedCounter> next_;
  std::atomic<int> pending_{0};             // workers still inside the current job
  bool open_ = false;                       // run_chunks: workers may still join (guarded by mutex_)
  uint64_t generation_ = 0;
  bool stop_ = false;
  static constexpr std::chrono::microseconds kPoll{30};

  static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
};

}  // namespace polyenv
