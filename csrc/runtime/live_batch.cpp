// live_batch.cpp — the game-type-independent part of LiveBatch (live_batch.hpp).
#include "live_batch.hpp"

#include <algorithm>
#include <stdexcept>

#include "errors.hpp"

namespace polyenv {

int check_batch_config(int num_envs, int num_threads, int max_actions, const BatchLimits& limits) {
  auto fail = [](const std::string& m) { throw InvalidArgument(m); };
  if (num_envs < 1 || num_envs > limits.max_envs) {
    fail(limits.max_envs == std::numeric_limits<int>::max()
             ? "num_envs must be >= 1, got " + std::to_string(num_envs)
             : "num_envs must be in [1, " + std::to_string(limits.max_envs) + "], got " + std::to_string(num_envs));
  }
  if (num_threads < 1) fail("num_threads must be >= 1, got " + std::to_string(num_threads));
  if (max_actions < limits.min_max_actions) {
    fail("max_actions must be >= " + std::to_string(limits.min_max_actions) + ", got " + std::to_string(max_actions));
  }
  return std::min(num_threads, num_envs);
}

std::string message_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

LiveBatchState::LiveBatchState(const char* name, int num_envs, uint64_t seed, std::shared_ptr<WorkerPool> shared,
                               int num_threads)
    : base_seed_(seed),
      name_(name),
      num_envs_(num_envs),
      pool_(shared ? std::move(shared) : std::make_shared<WorkerPool>(num_threads)),
      num_threads_(pool_->num_threads()),
      errors_(size_t(num_envs)) {}

WorkerPool& LiveBatchState::workers() const {
  if (!pool_) throw std::runtime_error(std::string("this ") + name_ + " is closed");
  return *pool_;
}

void LiveBatchState::close() {
  if (closed_) return;
  closed_ = true;
  pool_.reset();  // the last owner's release joins the threads
}

void LiveBatchState::check_open() const {
  if (closed_) throw std::runtime_error(std::string("this ") + name_ + " is closed");
}

void LiveBatchState::check_usable() const {
  check_open();
  if (!broken_.empty()) {
    throw std::runtime_error(std::string("this ") + name_ + " must be reset(): a previous call failed on a worker (" +
                             broken_ + ")");
  }
}

void LiveBatchState::fail(const WorkerFailure& failure, const std::string& where) {
  broken_ = where + message_of(failure.error);
  std::rethrow_exception(failure.error);
}

WorkerFailure LiveBatchState::take_failure(int n) {
  for (int i = 0; i < n; ++i) {
    if (errors_[size_t(i)]) {
      WorkerFailure failure{i, errors_[size_t(i)]};
      for (int q = 0; q < n; ++q) errors_[size_t(q)] = nullptr;
      return failure;
    }
  }
  return {};
}

void LiveBatchState::throw_stale(uint64_t given, uint64_t live, int row, int env, bool env_named,
                                 const char* unchanged) {
  const std::string where = env_named ? "row " + std::to_string(row) + " (env " + std::to_string(env) + ")"
                                      : "env " + std::to_string(env);
  throw StaleState("state id " + std::to_string(given) + " of " + where + " is stale: the live state id is " +
                   std::to_string(live) + "; " + unchanged);
}

}  // namespace polyenv
