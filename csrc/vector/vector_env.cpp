// vector_env.cpp — VectorEnv's protocol (vector_env.hpp): configuration
// checks, the lock, env-id validation and running rows on the workers; the
// batch (runtime/live_batch.hpp) checks state ids, gives fresh ids in row order
// and keeps the broken state. Episodes (starts, opponents, step, reward) are in
// vector_episodes.cpp, the row writer in vector_rows.cpp.
#include "vector_env.hpp"

#include <algorithm>


namespace polyenv {

namespace {

VectorConfig checked(const VectorConfig& cfg) {
  auto fail = [](const std::string& m) { throw InvalidArgument(m); };
  const int threads = check_batch_config(cfg.num_envs, cfg.num_threads, cfg.max_actions, BatchLimits{});
  if (cfg.history < 0 || cfg.history > kMaxEventHistory) {
    fail("visible_event_history must be in [0, MAX_VISIBLE_EVENT_HISTORY=" + std::to_string(kMaxEventHistory) +
         "], got " + std::to_string(cfg.history));
  }
  check_episodes(cfg.game, cfg.levels);
  const int players = episode_players(cfg.game, cfg.levels);
  const uint32_t all = players >= 32 ? ~0u : (1u << players) - 1u;
  if (cfg.opponent < 0) {
    if (cfg.opponent != -1 || cfg.learner_seats != 0) fail("learner_seats needs an opponent");
  } else {
    if (cfg.opponent >= kNumPlayers) fail("unknown opponent bot " + std::to_string(cfg.opponent));
    if (cfg.opponent_simulations < 1) fail("the opponent's simulations must be >= 1");
    if (cfg.opponent == kAzBot && !az_net(cfg.opponent_model)) fail("the az opponent needs a registered network");
    if (cfg.learner_seats == 0 || (cfg.learner_seats & ~all) != 0) {
      fail("learner_seats must name seats in [0, " + std::to_string(players) + ")");
    }
    if (cfg.learner_seats == all) fail("learner_seats must leave at least one seat to the opponent");
  }
  VectorConfig c = cfg;
  c.num_threads = threads;
  return c;
}

}  // namespace

VectorEnv::VectorEnv(const VectorConfig& cfg, std::shared_ptr<WorkerPool> workers)
    : cfg_(checked(cfg)),
      envs_("VectorGameEnv", cfg_.game, cfg_.levels, cfg_.num_envs, cfg_.seed, std::move(workers), cfg_.num_threads) {
  cfg_.num_threads = envs_.num_threads();
  if (cfg_.opponent >= 0) opponent_ = make_bot_spec(cfg_.opponent, cfg_.opponent_simulations, cfg_.opponent_model);
  const int B = cfg_.num_envs;
  num_players_ = episode_players(cfg_.game, cfg_.levels);
  action_space_size_ = ActionSpace(cfg_.game.map_size, num_players_).size();
  BatchDims one = dims(1);
  one.final_observation = true;
  for (int f = 0; f < kNumBatchFields; ++f) {
    const FieldSpec spec = field_spec(one, f);
    row_elems_[size_t(f)] = size_t(spec.elements());
    row_bytes_[size_t(f)] = size_t(spec.bytes());
  }
  for (Env& e : envs_) {
    e.legal.resize(size_t(cfg_.max_actions));
    if (cfg_.history > 0) e.journal.configure(num_players_, cfg_.history);
  }
  rows_env_.resize(size_t(B));
  rows_action_.resize(size_t(B));
  seen_.assign(size_t(B), 0);
  envs_.workers().run(B, [this](int begin, int end) {
    for (int i = begin; i < end; ++i) start_episode(envs_[size_t(i)], i);
  });
  for (Env& e : envs_) e.assign_ids();  // both owed: every game started
}

VectorEnv::~VectorEnv() { close(); }

BatchDims VectorEnv::dims(int rows) const {
  BatchDims d;
  d.rows = rows;
  d.tiles = num_tiles();
  d.max_actions = cfg_.max_actions;
  d.history = cfg_.history;
  d.final_observation = cfg_.keep_terminal_observation;
  return d;
}

void VectorEnv::close() {
  std::lock_guard<std::mutex> lock(mutex_);
  envs_.close();
}

void VectorEnv::inject_fault(int env, const std::string& message) {
  std::lock_guard<std::mutex> lock(mutex_);
  envs_.check_open();
  if (env < 0 || env >= cfg_.num_envs) throw std::out_of_range("env id " + std::to_string(env) + " is out of range");
  envs_[size_t(env)].fault = message.empty() ? std::string("injected fault") : message;
}

void VectorEnv::load_env_ids(const IndexSpan& ids) {
  const int B = cfg_.num_envs;
  if (ids.size > B) {
    throw InvalidArgument("env_ids has " + std::to_string(ids.size) + " entries but there are only " +
                          std::to_string(B) + " environments");
  }
  if (++seen_stamp_ == 0) {
    std::fill(seen_.begin(), seen_.end(), 0u);
    seen_stamp_ = 1;
  }
  for (int r = 0; r < ids.size; ++r) {
    const int64_t v = ids[r];
    if (v < 0 || v >= B) {
      throw std::out_of_range("env id " + std::to_string(v) + " is outside [0, " + std::to_string(B) + ")");
    }
    if (seen_[size_t(v)] == seen_stamp_) throw InvalidArgument("env id " + std::to_string(v) + " appears twice");
    seen_[size_t(v)] = seen_stamp_;
    rows_env_[size_t(r)] = int32_t(v);
  }
}

void VectorEnv::run_rows(Op op, int rows, const BatchView& out) {
  BufferMemos::Memo* memo = memos_.memo_for(out, dims(rows));
  // Rows are independent (each writes only its own row and game), so they are
  // handed out in small chunks, each thread's own share first: a row's game
  // stays in one core's cache from call to call (a second thread gains more:
  // docs/performance.md, issue 13's fifth pass), and a thread that wakes late
  // or meets slow rows (automatic resets, long legal lists) is relieved.
  const int chunk = std::clamp(rows / (16 * envs_.num_threads()), 1, 8);
  const WorkerFailure failure = envs_.run_chunks(rows, chunk, [&](int r) {
    process_row(op, r, rows_env_[size_t(r)], rows_action_[size_t(r)], out, memo);
  });
  if (failure) {
    memos_.clear();  // some rows may be half written
    envs_.fail(failure, "env " + std::to_string(rows_env_[size_t(failure.item)]) + ": ");
  }
  // Fresh ids, assigned in row order on this thread (deterministic for any thread count).
  envs_.assign_ids(rows, [&](int r) { return rows_env_[size_t(r)]; }, [&](int r, const Env& e) {
    *at<uint64_t>(out, kBStateId, r) = e.state_id;
    *at<uint64_t>(out, kBEpisodeId, r) = e.episode_id;
  });
}

void VectorEnv::reset(const uint64_t* seed, const BatchView& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  envs_.check_open();
  envs_.begin_reset(seed);
  for (int r = 0; r < cfg_.num_envs; ++r) {
    rows_env_[size_t(r)] = r;
    rows_action_[size_t(r)] = 0;
  }
  run_rows(Op::kReset, cfg_.num_envs, out);
  envs_.clear_broken();
}

void VectorEnv::observe(IndexSpan env_ids, const BatchView& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  envs_.check_usable();
  load_env_ids(env_ids);
  run_rows(Op::kObserve, env_ids.size, out);
}

void VectorEnv::reset_slots(IndexSpan env_ids, const BatchView& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  envs_.check_usable();
  load_env_ids(env_ids);
  for (int r = 0; r < env_ids.size; ++r) {
    envs_.next_episode(envs_[size_t(rows_env_[size_t(r)])]);
    rows_action_[size_t(r)] = 0;
  }
  run_rows(Op::kReset, env_ids.size, out);
}

void VectorEnv::step(const IndexSpan* env_ids, Strided<int32_t> actions, const Strided<uint64_t>* state_ids,
                     const BatchView& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  envs_.check_usable();
  const int rows = env_ids ? env_ids->size : cfg_.num_envs;
  if (actions.size != rows) {
    throw InvalidArgument("action_ids has " + std::to_string(actions.size) + " entries, expected " +
                          std::to_string(rows));
  }
  if (state_ids && state_ids->size != rows) {
    throw InvalidArgument("state_ids has " + std::to_string(state_ids->size) + " entries, expected " +
                          std::to_string(rows));
  }
  if (env_ids) {
    load_env_ids(*env_ids);
  } else {
    for (int r = 0; r < rows; ++r) rows_env_[size_t(r)] = r;
  }
  // Copy the inputs before anything is written: they may alias the output buffers.
  for (int r = 0; r < rows; ++r) rows_action_[size_t(r)] = actions[r];
  if (state_ids) envs_.check_state_ids(rows, *state_ids, rows_env_.data(), "no environment was stepped");
  run_rows(Op::kStep, rows, out);
}

}  // namespace polyenv
