// selfplay_pool.cpp — SelfPlayPool (selfplay_pool.hpp).
#include "selfplay_pool.hpp"

#include <algorithm>
#include <cstring>
#include <exception>

#include "../encode/encode.hpp"

namespace polyenv {

namespace {

using detail::spec;

void add_history_specs(std::vector<FieldSpec>& out, int64_t rows, int H) {
  out.push_back(spec("visible_action_history", DType::kInt32, {rows, H, kHistoryFeatures}));
  out.push_back(spec("visible_action_history_mask", DType::kUInt8, {rows, H}));
  out.push_back(spec("visible_action_history_length", DType::kInt32, {rows}));
}

int checked_history(int H) {
  if (H < 0 || H > 1024) throw InvalidArgument("visible_action_history must be in [0, 1024], got " + std::to_string(H));
  if (H != 0) {
    throw InvalidArgument("visible_action_history > 0 is not implemented yet in this build (only 0 is supported)");
  }
  return H;
}

// Which of K particles of `actor` roots the tree: a stable hash of public metadata.
int root_particle(const GameState& s, int env, int K) {
  uint64_t x = (uint64_t(uint32_t(s.tick)) << 32) ^ uint64_t(uint32_t(s.turns_played)) ^
               (uint64_t(uint32_t(env)) * 0x9E3779B97F4A7C15ull);
  return int(splitmix64(x) % uint64_t(K));
}

}  // namespace

SelfPlayPool::SelfPlayPool(const MctsPoolConfig& cfg, int history) : MctsPool(cfg), history_(checked_history(history)) {
  const size_t B = size_t(num_envs()), P = size_t(num_players());
  belief_state_id_.assign(B, 0);
  reward_.assign(B, 0);
  terminal_values_.assign(B * P, 0);
  terminated_.assign(B, 0);
  action_valid_.assign(B, 0);
  winner_.assign(B, -1);
  roots_.resize(B);
  seeds_.resize(B);
  redet_.resize(B);
  hooks_.assign(B, nullptr);
  problems_.resize(B);
}

std::vector<FieldSpec> SelfPlayPool::belief_specs() const {
  std::vector<FieldSpec> out = live_specs(num_envs(), dims());
  add_history_specs(out, num_envs(), history_);
  return out;
}

std::vector<FieldSpec> SelfPlayPool::leaf_specs_with_history(int64_t capacity) const {
  std::vector<FieldSpec> out = leaf_specs(capacity, dims());
  add_history_specs(out, capacity, history_);
  return out;
}

std::vector<FieldSpec> SelfPlayPool::all_player_specs() const {
  const int64_t B = num_envs(), P = num_players(), T = dims().tiles;
  return {spec("map_tokens", DType::kInt32, {B, P, T, kMapTokenFeatures}),
          spec("state", DType::kInt32, {B, P, kStateFeatures}),
          spec("belief_player", DType::kInt32, {B, P}),
          spec("to_play", DType::kInt32, {B, P}),
          spec("env_id", DType::kInt32, {B}),
          spec("state_id", DType::kUInt64, {B}),
          spec("episode_id", DType::kUInt64, {B}),
          spec("visible_action_history", DType::kInt32, {B, P, history_, kHistoryFeatures}),
          spec("visible_action_history_mask", DType::kUInt8, {B, P, history_}),
          spec("visible_action_history_length", DType::kInt32, {B, P})};
}

// ---- live batches

void SelfPlayPool::record_results(const FieldView& out) {
  const int B = num_envs(), P = num_players();
  for (int env = 0; env < B; ++env) {
    reward_[size_t(env)] = *out.at<float>(kLReward, env);
    terminated_[size_t(env)] = *out.at<uint8_t>(kLTerminated, env);
    action_valid_[size_t(env)] = *out.at<uint8_t>(kLActionValid, env);
    winner_[size_t(env)] = *out.at<int32_t>(kLWinner, env);
    std::copy_n(out.at<float>(kLTerminalValues, env), P, &terminal_values_[size_t(env) * size_t(P)]);
  }
}

void SelfPlayPool::write_results(const FieldView& out) {
  const int B = num_envs(), P = num_players();
  for (int env = 0; env < B; ++env) {
    *out.at<float>(kLReward, env) = reward_[size_t(env)];
    *out.at<uint8_t>(kLTerminated, env) = terminated_[size_t(env)];
    *out.at<uint8_t>(kLActionValid, env) = action_valid_[size_t(env)];
    *out.at<int32_t>(kLWinner, env) = winner_[size_t(env)];
    std::copy_n(&terminal_values_[size_t(env) * size_t(P)], P, out.at<float>(kLTerminalValues, env));
  }
}

// H = 0: the window is empty, so only the lengths are written.
void SelfPlayPool::write_history(const FieldView& out, int64_t rows, int first_field) {
  for (int64_t r = 0; r < rows; ++r) *out.at<int32_t>(first_field + kHHistoryLength, r) = 0;
}

void SelfPlayPool::reset(const uint64_t* seed, const FieldView& out) {
  std::lock_guard<std::recursive_mutex> guard(lock());
  MctsPool::reset(seed, out);
  std::fill(belief_state_id_.begin(), belief_state_id_.end(), 0);
  record_results(out);
  write_history(out, num_envs(), kNumLiveFields);
}

void SelfPlayPool::step(Strided<int32_t> actions, const Strided<uint64_t>* state_ids, const FieldView& out) {
  std::lock_guard<std::recursive_mutex> guard(lock());
  MctsPool::step(actions, state_ids, out);
  record_results(out);
  write_history(out, num_envs(), kNumLiveFields);
}

void SelfPlayPool::belief_requests(const FieldView& out) {
  std::lock_guard<std::recursive_mutex> guard(lock());
  observe(out);
  write_results(out);
  write_history(out, num_envs(), kNumLiveFields);
}

void SelfPlayPool::all_player_belief_requests(const FieldView& out) {
  std::lock_guard<std::recursive_mutex> guard(lock());
  check_open();
  const int B = num_envs(), P = num_players();
  workers().run(B, [&](int begin, int end) {
    for (int env = begin; env < end; ++env) {
      const GameState& s = live_state(env);
      for (int p = 0; p < P; ++p) {
        encode_map_tokens(s, p, out.at<int32_t>(kAMapTokens, env) + out.row_elems[kAMapTokens] / P * p);
        encode_state(s, p, out.at<int32_t>(kAState, env) + kStateFeatures * p);
        out.at<int32_t>(kABeliefPlayer, env)[p] = p;
        out.at<int32_t>(kAToPlay, env)[p] = live_observer(env);
        out.at<int32_t>(kAHistoryLength, env)[p] = 0;
      }
      *out.at<int32_t>(kAEnvId, env) = env;
      *out.at<uint64_t>(kAStateId, env) = live_state_id(env);
      *out.at<uint64_t>(kAEpisodeId, env) = live_episode_id(env);
    }
  });
}

// ---- beliefs

void SelfPlayPool::submit_beliefs(const uint64_t* state_ids, const int32_t* tokens, Layout layout, int particles) {
  std::lock_guard<std::recursive_mutex> guard(lock());
  check_open();
  const int B = num_envs(), P = num_players(), T = dims().tiles;
  const int K = layout == Layout::kParticles ? particles : 1;
  if (K < 1) throw InvalidArgument("beliefs need at least one particle per player");
  for (int env = 0; env < B; ++env) {
    if (state_ids[env] != live_state_id(env)) {
      throw StaleState("state id " + std::to_string(state_ids[env]) + " of env " + std::to_string(env) +
                       " is stale: the live state id is " + std::to_string(live_state_id(env)) +
                       "; no belief was accepted");
    }
  }
  for (int env = 0; env < B; ++env) {
    if (live_pending(env) > 0) {
      throw PendingLeaves("tree " + std::to_string(env) +
                          " has pending leaves: back them up, cancel_leaves() or abort_search() before "
                          "submitting beliefs; no belief was accepted");
    }
  }
  const size_t per_particle = size_t(T) * kMapTokenFeatures;
  const int players_given = layout == Layout::kRoot ? 1 : P;
  const size_t per_env = per_particle * size_t(players_given) * size_t(K);
  const int A = action_space_size();
  // The legacy root form has no other player's belief: its trees stay in the actor's world.
  const bool keep_worlds = layout != Layout::kRoot && redeterminize_;
  if (keep_worlds) worlds_next_.resize(size_t(B) * size_t(P) * size_t(K));
  workers().run(B, [&](int begin, int end) {
    std::vector<int32_t> obs(per_particle), live_ids(static_cast<size_t>(A)), world_ids(static_cast<size_t>(A));
    PlayerKnowledge know;
    GameState world;
    for (int env = begin; env < end; ++env) {
      std::string& problem = problems_[size_t(env)];
      problem.clear();
      const GameState& live = live_state(env);
      const int actor = live_observer(env);
      const int n_live = legal_actions(live, live_ids.data(), A);
      const int32_t* base = tokens + per_env * size_t(env);
      const int root_k = root_particle(live, env, K);
      for (int q = 0; q < players_given && problem.empty(); ++q) {
        const int p = layout == Layout::kRoot ? actor : q;
        encode_map_tokens(live, p, obs.data());
        extract_knowledge(live, p, know);
        for (int k = 0; k < K && problem.empty(); ++k) {
          const int32_t* particle = base + per_particle * (size_t(q) * size_t(K) + size_t(k));
          const std::string where = "env " + std::to_string(env) + ", player " + std::to_string(p) +
                                    (K > 1 ? ", particle " + std::to_string(k) : std::string()) + ": ";
          problem = check_visible_rows(obs.data(), particle, T);
          if (problem.empty()) {
            const uint64_t seed = belief_seed(know.header, p, particle, T, uint64_t(env));
            GameState& target = (p == actor && k == root_k) ? roots_[size_t(env)] : world;
            problem = build_belief_world(know, particle, seed, target);
            if (problem.empty() && p == actor) {
              const int n_world = legal_actions(target, world_ids.data(), A);
              if (n_world != n_live || !std::equal(live_ids.begin(), live_ids.begin() + n_live, world_ids.begin())) {
                // Name the first difference (both lists are ascending).
                int j = 0;
                while (j < n_live && j < n_world && live_ids[size_t(j)] == world_ids[size_t(j)]) ++j;
                const bool extra = j < n_world && (j >= n_live || world_ids[size_t(j)] < live_ids[size_t(j)]);
                const int32_t id = extra ? world_ids[size_t(j)] : live_ids[size_t(j)];
                problem = "the hypothesis changes the actor's legal root action set (" + std::to_string(n_world) +
                          " legal actions vs " + std::to_string(n_live) + " live; action " + std::to_string(id) +
                          (extra ? " is legal only in the hypothesis)" : " is legal only in the live game)");
              }
            }
            if (p == actor && k == root_k) seeds_[size_t(env)] = seed;
            if (problem.empty() && keep_worlds) {
              worlds_next_[(size_t(env) * size_t(P) + size_t(p)) * size_t(K) + size_t(k)] = target;
            }
          }
          if (!problem.empty()) problem = where + problem;
        }
      }
    }
  });
  for (int env = 0; env < B; ++env) {
    if (!problems_[size_t(env)].empty()) {
      throw InvalidArgument("malformed belief (" + problems_[size_t(env)] + "); the whole submission was rejected");
    }
  }
  if (keep_worlds) std::swap(worlds_, worlds_next_);
  for (int env = 0; env < B; ++env) {
    if (keep_worlds) redet_[size_t(env)].set(&worlds_[size_t(env) * size_t(P) * size_t(K)], P, K, seeds_[size_t(env)]);
    hooks_[size_t(env)] = keep_worlds ? &redet_[size_t(env)] : nullptr;
  }
  set_roots(roots_.data(), seeds_.data(), hooks_.data());
  for (int env = 0; env < B; ++env) belief_state_id_[size_t(env)] = live_state_id(env);
}

int SelfPlayPool::select_leaves(int capacity, const FieldView& out) {
  std::lock_guard<std::recursive_mutex> guard(lock());
  check_open();
  for (int env = 0; env < num_envs(); ++env) {
    if (belief_state_id_[size_t(env)] != live_state_id(env)) {
      throw BeliefsMissing("env " + std::to_string(env) +
                           " has no belief root for its live state: call submit_beliefs(state_id, tokens) after "
                           "every reset() and valid step()");
    }
  }
  const int rows = MctsPool::select_leaves(capacity, out);
  write_history(out, rows, kNumLeafFields);
  return rows;
}

RedeterminizeStats SelfPlayPool::redeterminize_stats() {
  std::lock_guard<std::recursive_mutex> guard(lock());
  RedeterminizeStats total;
  for (int env = 0; env < num_envs(); ++env) {
    if (!hooks_[size_t(env)]) continue;
    const RedeterminizeStats& s = redet_[size_t(env)].stats();
    total.rebuilt += s.rebuilt;
    total.fallbacks += s.fallbacks;
    total.skipped_actions += s.skipped_actions;
  }
  return total;
}

uint64_t SelfPlayPool::belief_digest() {
  std::lock_guard<std::recursive_mutex> guard(lock());
  uint64_t h = state_digest();
  for (uint64_t id : belief_state_id_) {
    uint64_t x = h ^ id;
    h = splitmix64(x);
  }
  return h;
}

}  // namespace polyenv
