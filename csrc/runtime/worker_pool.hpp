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
// Sharing. Several owners may hold one pool (std::shared_ptr): a vector env
// and a search pool driving the same games in separate phases. Calls of run()
// from different threads take turns (one job at a time). A nested call — run()
// from inside one of this pool's jobs, on a worker or on the caller — cannot
// wait for busy workers, so it runs its ranges one after another on the
// calling thread: the same ranges, the same results, no deadlock. (Nesting
// run() of two different pools inside each other in both directions is not
// supported.)
#pragma once
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
  explicit WorkerPool(int num_threads) : errors_(size_t(num_threads < 1 ? 1 : num_threads)) {
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
    Job job{[](void* ctx, int begin, int end) { (*static_cast<Fn*>(ctx))(begin, end); }, &fn, n};
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
  };

  // The pool whose job the calling thread is running (nullptr: none).
  static const WorkerPool*& running_here() {
    thread_local const WorkerPool* pool = nullptr;
    return pool;
  }

  void run_part(int w) {
    int begin, end;
    split(job_.n, num_threads(), w, begin, end);
    if (begin >= end) return;
    const WorkerPool* outer = running_here();
    running_here() = this;
    try {
      job_.call(job_.ctx, begin, end);
    } catch (...) {
      errors_[size_t(w)] = std::current_exception();
    }
    running_here() = outer;
  }

  void dispatch(const Job& job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stop_) throw std::logic_error("the worker pool is closed");
      job_ = job;
      for (auto& e : errors_) e = nullptr;
      pending_ = int(threads_.size());
      ++generation_;
    }
    if (!threads_.empty()) start_.notify_all();
    run_part(0);
    if (!threads_.empty()) {
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, [this] { return pending_ == 0; });
    }
    for (auto& e : errors_) {
      if (e) {
        std::exception_ptr first = e;
        for (auto& x : errors_) x = nullptr;
        std::rethrow_exception(first);
      }
    }
  }

  void worker_loop(int w) {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        start_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
      }
      run_part(w);
      bool last;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        last = --pending_ == 0;
      }
      if (last) done_.notify_one();
    }
  }

  std::mutex run_mutex_;  // one job at a time across owners
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  std::vector<std::thread> threads_;
  std::vector<std::exception_ptr> errors_;  // one per range
  Job job_;
  uint64_t generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

}  // namespace polyenv
