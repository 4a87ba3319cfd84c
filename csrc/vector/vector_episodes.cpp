// vector_episodes.cpp — VectorEnv's episodes (vector_env.hpp): an episode's
// start (the batch's sequence, runtime/live_batch.hpp) and the opponents'
// turns, one row's step / auto-reset and its reward.
#include "../runtime/reward.hpp"
#include "vector_env.hpp"

namespace polyenv {

void VectorEnv::start_episode(Env& e, int env) {
  envs_.start_episode(e, env);
  e.journal.clear();
  if (cfg_.opponent >= 0) {
    play_opponents(e, sink(e));
    e.observer = e.state.current_player;
  }
}

void VectorEnv::play_opponents(Env& e, EventSink* sink) {
  // Each bot turn draws from a stream derived from its starting position, as polyenv.bots.play_turn does.
  play_until(e.state, cfg_.learner_seats, -1, e.bot_stream, false, sink,
             [&](const GameState& s, Rng& rng) { return player_action(s, opponent_, rng, e.bot_scratch); });
}

void VectorEnv::process_row(Op op, int row, int env, int32_t action, const BatchView& out, BufferMemos::Memo* memo) {
  Env& e = envs_[size_t(env)];
  if (!e.fault.empty()) {
    std::string message;
    message.swap(e.fault);
    throw std::runtime_error(message);
  }
  float reward = 0.0f;
  uint8_t terminated = 0, valid = 0;
  bool final_written = false;
  int listed = -1;  // >= 0: the row's action_id holds the live state's legal list already
  if (op == Op::kReset) {
    start_episode(e, env);
  } else if (op == Op::kStep) {
    GameState& s = e.state;
    valid = e.accepts(action);
    if (valid) {
      EventSink* events = sink(e);
      const int actor = s.current_player;
      const int margin_before = cfg_.score_reward_scale > 0 ? score_margin(s, actor) : 0;
      if (cfg_.opponent >= 0) {
        apply_action(s, action, events);
      } else {  // the learner acts again next: the settle step lists its actions into the row
        listed = apply_action_and_list(s, action, at<int32_t>(out, kBActionId, row), cfg_.max_actions, &e.moves,
                                       events);
      }
      e.state_changed();
      if (cfg_.opponent >= 0) play_opponents(e, events);
      e.new_state = true;
      e.observer = s.current_player;
      reward = action_reward(s, actor, margin_before, cfg_.score_reward_scale);
      if (s.game_over) {
        listed = -1;
        terminated = 1;
        e.observer = actor;
        if (cfg_.keep_terminal_observation) {
          encode_observation(e, actor, row, out, kFinalObservation);
          final_written = true;
        }
        if (cfg_.auto_reset) {
          envs_.next_episode(e);
          start_episode(e, env);
        }
      }
    }
  }
  if (cfg_.keep_terminal_observation && !final_written) zero_final_row(row, out);
  encode_row(e, env, row, out, memo, listed);
  *at<float>(out, kBReward, row) = reward;
  *at<uint8_t>(out, kBTerminated, row) = terminated;
  *at<uint8_t>(out, kBActionValid, row) = valid;
}

}  // namespace polyenv
