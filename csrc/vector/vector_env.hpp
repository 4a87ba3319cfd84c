// vector_env.hpp — VectorEnv: many independent games stepped on a persistent
// worker pool, writing the dense seed-000 batch straight into caller memory.
//
// Rows and players. A row shows one environment from the point of view of one
// player (its observer): the player to move, or, when the game has just ended
// and was not reset, the player whose action ended it. Without an opponent
// every seat is played through the rows (self-play); with an opponent bot the
// rows show only the learner seats: after a learner's action the other seats
// are played natively by the bot until a learner is to move or the game ends.
//
// Rewards. reward is +1 / -1 when the row's action ended the game with a win /
// loss of the player who took that action (the learner in opponent mode), and
// 0 otherwise. With score_reward_scale > 0 every accepted action also pays the
// change of score_margin(actor) (actor's score - best other score) over the
// call (the action and the bots' replies) divided by the scale, as
// TribesEnv's reward="score_delta".
//
// Seeds. Episode k (k = 0, 1, ...) of environment i is new_game(seed + i + k * B)
// (mod 2^64) where B = num_envs and `seed` is the seed of the last seeded reset
// (or of the constructor). k restarts at 0 on a seeded reset and advances by
// one on every automatic reset and on every unseeded reset.
//
// Every public call validates all of its input before any game changes; calls
// are serialized by one lock (a checked step validates every state id under it).
// A failure inside a game (an exception on a worker) leaves the vector in need of
// reset(): every other call raises until then, so no half-stepped batch is seen.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "../engine/bots.hpp"
#include "../players/mcts_bot.hpp"
#include "../engine/events.hpp"
#include "../engine/game.hpp"
#include "batch.hpp"
#include "buffer_memo.hpp"
#include "../runtime/episodes.hpp"
#include "../runtime/errors.hpp"
#include "../runtime/live_batch.hpp"
#include "../runtime/worker_pool.hpp"

namespace polyenv {

// Upper bound of visible_event_history (K): a model's input window, not a replay
// log; the rings hold players * (K + 1) records per environment.
inline constexpr int kMaxEventHistory = 1024;

struct VectorConfig {
  int num_envs = 1;
  uint64_t seed = 0;
  GameConfig game;
  std::vector<Level> levels;    // empty: generated maps; the episode sequence of runtime/episodes.hpp
  int num_threads = 1;          // the calling thread included
  int max_actions = 512;        // Amax >= 1
  bool auto_reset = true;
  int history = 0;              // K, visible events kept per player, <= kMaxEventHistory
  bool combat_preview = false;
  bool keep_terminal_observation = false;
  int opponent = -1;            // -1: self-play; else a BotSpec kind playing every non-learner seat
  int opponent_simulations = kDefaultMctsSimulations;  // the MCTS / az opponent's budget
  int opponent_model = -1;      // the az opponent's network (az_net.hpp registry index)
  uint32_t learner_seats = 0;   // bit per seat played through the rows when opponent >= 0
  double score_reward_scale = 0;  // > 0: reward also pays the actor's score-margin change / scale
};

class VectorEnv {
 public:
  // Validates cfg (InvalidArgument), starts the worker pool and episode 0 of
  // every environment. With `workers`, that pool is shared (its thread count
  // replaces cfg.num_threads; results do not depend on it).
  explicit VectorEnv(const VectorConfig& cfg, std::shared_ptr<WorkerPool> workers = nullptr);
  ~VectorEnv();
  VectorEnv(const VectorEnv&) = delete;
  VectorEnv& operator=(const VectorEnv&) = delete;

  const VectorConfig& config() const { return cfg_; }
  int num_envs() const { return cfg_.num_envs; }
  int num_tiles() const { return cfg_.game.map_size * cfg_.game.map_size; }
  int num_players() const { return num_players_; }  // the tribes', or the levels' capitals
  int num_threads() const { return envs_.num_threads(); }
  // The worker pool (shareable with another owner driving these games in other phases).
  const std::shared_ptr<WorkerPool>& workers() const { return envs_.shared_workers(); }
  // Batch sizes for `rows` rows (B for full calls, a slot's size otherwise).
  BatchDims dims(int rows) const;

  // Starts a new episode in every environment (seeded: restarts the seed
  // sequence from *seed; null: the next episode of each sequence) and writes
  // all B rows (action_valid, reward, terminated = 0).
  void reset(const uint64_t* seed, const BatchView& out);
  // Writes the rows of env_ids (int32 or int64 values, any stride) without
  // advancing any game. Out-of-range ids -> std::out_of_range, duplicates ->
  // InvalidArgument.
  void observe(IndexSpan env_ids, const BatchView& out);
  // Starts the next episode of each environment of env_ids (its next seed of
  // the sequence, as an automatic reset does) and writes their rows
  // (action_valid, reward, terminated = 0); the other games are untouched.
  // Ids are checked as observe's, before any game changes.
  void reset_slots(IndexSpan env_ids, const BatchView& out);
  // Applies actions[r] to the environment of row r: env_ids[r], or r when
  // env_ids is null (then actions.size == B). With state_ids, every id must
  // equal its environment's current state id, else StaleState and nothing
  // changes. Illegal ids (any int32) give action_valid = 0 and leave that game
  // unchanged. The action and state-id vectors are copied before `out` is
  // written, so they may alias it.
  void step(const IndexSpan* env_ids, Strided<int32_t> actions, const Strided<uint64_t>* state_ids,
            const BatchView& out);

  // Releases the worker pool (joined unless another owner shares it; idempotent).
  // Every later call throws std::runtime_error.
  void close();
  bool closed() const { return envs_.closed(); }

  // Test hook: the next time environment `env` is processed its worker throws
  // std::runtime_error(message) (checks the worker-error path end to end).
  void inject_fault(int env, const std::string& message);

 private:
  // One environment: the runtime's live game of the batch (its journal is the
  // ring of visible_event_history records per player) plus the opponent's scratch.
  struct Env : LiveGame {
    PlayerScratch bot_scratch;
    std::string fault;
  };
  enum class Op { kReset, kObserve, kStep };

  void load_env_ids(const IndexSpan& env_ids);
  void start_episode(Env& e, int env);
  void play_opponents(Env& e, EventSink* sink);
  EventSink* sink(Env& e) const { return cfg_.history > 0 ? &e.journal : nullptr; }
  void process_row(Op op, int row, int env, int32_t action, const BatchView& out, BufferMemos::Memo* memo);
  void encode_observation(const Env& e, int observer, int row, const BatchView& out, const ObservationFields& f) const;
  // `listed` >= 0: the row's action_id already holds the live state's legal list (encode_action_rows).
  void encode_row(Env& e, int env, int row, const BatchView& out, BufferMemos::Memo* memo, int listed = -1);
  void write_window(const Env& e, int observer, int row, const BatchView& out, const ObservationFields& f) const;
  void zero_final_row(int row, const BatchView& out) const;
  void run_rows(Op op, int rows, const BatchView& out);
  template <class T>
  T* at(const BatchView& out, int field, int row) const {
    return out.get<T>(field) + size_t(row) * row_elems_[size_t(field)];
  }

  VectorConfig cfg_;
  BotSpec opponent_;  // the bot playing the non-learner seats (cfg_.opponent >= 0)
  int num_players_ = 0;
  int action_space_size_ = 0;
  std::array<size_t, kNumBatchFields> row_elems_{};  // elements of one row, per field
  std::array<size_t, kNumBatchFields> row_bytes_{};
  // The environments, their episode sequence, ids, worker pool and closed / broken state.
  LiveBatch<Env> envs_;
  // Per-call scratch (sized B once): row -> env, actions.
  std::vector<int32_t> rows_env_;
  std::vector<int32_t> rows_action_;
  std::vector<uint32_t> seen_;
  uint32_t seen_stamp_ = 0;
  BufferMemos memos_;  // what the caller's reused buffers still hold as zeros, between calls
  std::mutex mutex_;
};

}  // namespace polyenv
