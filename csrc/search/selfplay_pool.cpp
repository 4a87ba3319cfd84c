// selfplay_pool.cpp — SelfPlayPool (selfplay_pool.hpp).
#include "selfplay_pool.hpp"

#include <algorithm>
#include <cstring>
#include <exception>

#include "../encode/encode.hpp"

namespace polyenv {

namespace {

void add_history_specs(std::vector<FieldSpec>& out, int64_t rows, int H) {
  out.push_back(field_of("visible_action_history", DType::kInt32, {rows, H, kHistoryFeatures}));
  out.push_back(field_of("visible_action_history_mask", DType::kUInt8, {rows, H}));
  out.push_back(field_of("visible_action_history_length", DType::kInt32, {rows}));
}

int checked_history(int H) {
  if (H < 0 || H > kMaxHistory) {
    throw InvalidArgument("visible_action_history must be in [0, " + std::to_string(kMaxHistory) + "], got " +
                          std::to_string(H));
  }
  return H;
}

// Which of K particles of `actor` roots the tree: a stable hash of public metadata.
int root_particle(const GameState& s, int env, int K) {
  uint64_t x = (uint64_t(uint32_t(s.tick)) << 32) ^ uint64_t(uint32_t(s.turns_played)) ^
               (uint64_t(uint32_t(env)) * 0x9E3779B97F4A7C15ull);
  return int(splitmix64(x) % uint64_t(K));
}

// The settings only this pool has, checked before the base pool builds its games: the history
// length, and no subtree reuse (it keeps a tree across real moves; here every move's tree is
// rooted in new beliefs).
const MctsPoolConfig& checked_own(const MctsPoolConfig& cfg, int history) {
  checked_history(history);
  if (cfg.reuse_tree) {
    throw InvalidArgument("reuse_tree applies to MctsPool only: SelfPlayPool roots every tree in a new belief "
                          "world after each real move");
  }
  return cfg;
}

}  // namespace

SelfPlayPool::SelfPlayPool(const MctsPoolConfig& cfg, int history, std::shared_ptr<WorkerPool> workers)
    : MctsPool(checked_own(cfg, history), std::move(workers)), history_(history) {
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
  if (history_ > 0) {
    // Games and trees exist already: attach a store to each (empty live histories, node 0 = them).
    histories_ = std::vector<GameHistory>(B);
    for (size_t env = 0; env < B; ++env) {
      histories_[env].init(int(P));
      set_tree_listener(int(env), &histories_[env]);
    }
  }
}

EventSink* SelfPlayPool::live_event_sink(int env) {
  return history_ > 0 ? histories_[size_t(env)].live_sink() : nullptr;
}

void SelfPlayPool::episode_started(int env) {
  if (history_ > 0) histories_[size_t(env)].clear_live();
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
  return {field_of("map_tokens", DType::kInt32, {B, P, T, kMapTokenFeatures}),
          field_of("state", DType::kInt32, {B, P, kStateFeatures}),
          field_of("belief_player", DType::kInt32, {B, P}),
          field_of("to_play", DType::kInt32, {B, P}),
          field_of("env_id", DType::kInt32, {B}),
          field_of("state_id", DType::kUInt64, {B}),
          field_of("episode_id", DType::kUInt64, {B}),
          field_of("visible_action_history", DType::kInt32, {B, P, history_, kHistoryFeatures}),
          field_of("visible_action_history_mask", DType::kUInt8, {B, P, history_}),
          field_of("visible_action_history_length", DType::kInt32, {B, P})};
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

// The live actor's history per game (H = 0: only the zero lengths).
void SelfPlayPool::write_live_history(const FieldView& out) {
  const int B = num_envs(), F = kNumLiveFields;
  if (history_ == 0) {
    for (int env = 0; env < B; ++env) *out.at<int32_t>(F + kHHistoryLength, env) = 0;
    return;
  }
  workers().run(B, [&](int begin, int end) {
    for (int env = begin; env < end; ++env) {
      const GameHistory& h = histories_[size_t(env)];
      h.pack(h.live_head(live_observer(env)), nullptr, history_, out.at<int32_t>(F + kHHistory, env),
             out.at<uint8_t>(F + kHHistoryMask, env), out.at<int32_t>(F + kHHistoryLength, env));
    }
  });
}

// Each leaf row's history from its to_play actor's view: the leaf node's
// head, or for a transient leaf (a node the budget refused) its parent's head
// plus the row of the edge's action, recomputed from the parent's state.
void SelfPlayPool::write_leaf_history(const FieldView& out, int rows) {
  const int F = kNumLeafFields;
  if (rows == 0) return;
  if (history_ == 0) {
    for (int r = 0; r < rows; ++r) *out.at<int32_t>(F + kHHistoryLength, r) = 0;
    return;
  }
  workers().run(rows, [&](int begin, int end) {
    for (int r = begin; r < end; ++r) {
      const int tree = *out.at<int32_t>(kXTreeId, r), actor = *out.at<int32_t>(kXToPlay, r);
      const LeafPath& path = issued_path(*out.at<uint64_t>(kXLeafId, r));
      const GameHistory& h = histories_[size_t(tree)];
      int32_t extra[kHistoryFeatures];
      bool has_extra = false;
      int32_t head;
      if (path.leaf >= 0) {
        head = h.node_head(path.leaf, actor);
      } else {
        const SearchTree& t = search_tree(tree);
        const int32_t parent = path.nodes.back();
        head = h.node_head(parent, actor);
        has_extra = replay_history_row(t.node_state(parent), t.edge_action(path.edges.back()), actor, extra);
      }
      h.pack(head, has_extra ? extra : nullptr, history_, out.at<int32_t>(F + kHHistory, r),
             out.at<uint8_t>(F + kHHistoryMask, r), out.at<int32_t>(F + kHHistoryLength, r));
    }
  });
}

void SelfPlayPool::reset(const uint64_t* seed, const FieldView& out) {
  std::lock_guard<std::recursive_mutex> guard(lock());
  MctsPool::reset(seed, out);
  std::fill(belief_state_id_.begin(), belief_state_id_.end(), 0);
  record_results(out);
  write_live_history(out);
}

void SelfPlayPool::step(Strided<int32_t> actions, const Strided<uint64_t>* state_ids, const FieldView& out) {
  std::lock_guard<std::recursive_mutex> guard(lock());
  MctsPool::step(actions, state_ids, out);
  record_results(out);
  write_live_history(out);
}

void SelfPlayPool::belief_requests(const FieldView& out) {
  std::lock_guard<std::recursive_mutex> guard(lock());
  observe(out);
  write_results(out);
  write_live_history(out);
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
        int32_t* length = out.at<int32_t>(kAHistoryLength, env) + p;
        if (history_ == 0) {
          *length = 0;
        } else {
          const GameHistory& h = histories_[size_t(env)];
          const int64_t rows = out.row_elems[kAHistory] / P, mask = out.row_elems[kAHistoryMask] / P;
          h.pack(h.live_head(p), nullptr, history_, out.at<int32_t>(kAHistory, env) + rows * p,
                 out.at<uint8_t>(kAHistoryMask, env) + mask * p, length);
        }
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
  check_live_state_ids(state_ids, "no belief was accepted");
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
          const std::string where = "the game of env_id " + std::to_string(env) + ", player " + std::to_string(p) +
                                    (K > 1 ? ", particle " + std::to_string(k) : std::string()) + ": ";
          problem = check_visible_rows(obs.data(), particle, T);
          if (problem.empty()) {
            const uint64_t seed = belief_seed(know.header, p, particle, T, uint64_t(env));
            GameState& target = (p == actor && k == root_k) ? roots_[size_t(env)] : world;
            problem = world_from_tokens(know, particle, seed, target);
            if (problem.empty() && p == actor) {
              const int n_world = legal_actions(target, world_ids.data(), A);
              if (n_world != n_live || !std::equal(live_ids.begin(), live_ids.begin() + n_live, world_ids.begin())) {
                // Name the first difference (both lists are ascending).
                int j = 0;
                while (j < n_live && j < n_world && live_ids[size_t(j)] == world_ids[size_t(j)]) ++j;
                const bool extra = j < n_world && (j >= n_live || world_ids[size_t(j)] < live_ids[size_t(j)]);
                const int32_t id = extra ? world_ids[size_t(j)] : live_ids[size_t(j)];
                // Described in the world where it is legal: the live one only for an action of the
                // actor's own (observed) list.
                problem = "the hypothesis changes the actor's legal root action set (" + std::to_string(n_world) +
                          " legal actions vs " + std::to_string(n_live) + " live): action " + std::to_string(id) +
                          " (" + describe_action(extra ? target : live, id) + ")" +
                          (extra ? " is legal only in the hypothesis" : " is legal only in the live game") +
                          ". The actor's legal actions are part of its observation and each of its particles "
                          "must reproduce them; SelfPlayPool.fit_beliefs adds what they prove to the hidden rows "
                          "(units whose zone of control ends a move, own territory or buildings on hidden tiles)";
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
      throw InvalidArgument("malformed belief for " + problems_[size_t(env)] +
                            "; the whole submission was rejected and nothing changed");
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

int SelfPlayPool::fit_beliefs(const uint64_t* state_ids, int32_t* tokens, Layout layout, int particles) {
  std::lock_guard<std::recursive_mutex> guard(lock());
  check_open();
  const int B = num_envs(), P = num_players();
  const int K = layout == Layout::kParticles ? particles : 1;
  check_live_state_ids(state_ids, "no belief was changed");
  const size_t per_particle = size_t(dims().tiles) * kMapTokenFeatures;
  const size_t per_env = per_particle * size_t(layout == Layout::kRoot ? 1 : P) * size_t(K);
  std::vector<int> unfitted(size_t(B), 0);
  workers().run(B, [&](int begin, int end) {
    std::vector<int32_t> live_ids(static_cast<size_t>(action_space_size()));
    PlayerKnowledge know;
    BeliefFitScratch scratch;
    for (int env = begin; env < end; ++env) {
      const GameState& live = live_state(env);
      const int actor = live_observer(env);
      if (live.game_over) continue;  // a finished game has no legal list to explain
      const int n_live = legal_actions(live, live_ids.data(), int(live_ids.size()));
      extract_knowledge(live, actor, know);
      int32_t* own = tokens + per_env * size_t(env) + (layout == Layout::kRoot ? 0 : per_particle * size_t(K) * size_t(actor));
      for (int k = 0; k < K; ++k) {
        unfitted[size_t(env)] += !fit_to_legal_actions(know, own + per_particle * size_t(k), live_ids.data(), n_live,
                                                       scratch).exact;
      }
    }
  });
  int total = 0;
  for (int u : unfitted) total += u;
  return total;
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
  write_leaf_history(out, rows);
  return rows;
}

void SelfPlayPool::load_live_state(int env, const GameState& s) {
  std::lock_guard<std::recursive_mutex> guard(lock());
  MctsPool::load_live_state(env, s);  // validates first
  if (history_ > 0) {
    histories_[size_t(env)].clear_live();
    histories_[size_t(env)].on_root();  // the tree was rooted before the clear
  }
}

SelfPlayPool::HistoryMemory SelfPlayPool::history_memory() {
  std::lock_guard<std::recursive_mutex> guard(lock());
  HistoryMemory m;
  for (size_t env = 0; env < histories_.size(); ++env) {
    m.live_entries += histories_[env].live_entries();
    m.tree_entries += histories_[env].tree_entries();
    m.bytes += histories_[env].bytes();
    m.tree_nodes += search_tree(int(env)).num_nodes();
  }
  return m;
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
  auto add = [&h](uint64_t v) {
    uint64_t x = h ^ v;
    h = splitmix64(x);
  };
  for (uint64_t id : belief_state_id_) add(id);
  for (const GameHistory& g : histories_) {
    add(uint64_t(g.live_entries()));
    add(uint64_t(g.tree_entries()));
    for (int p = 0; p < num_players(); ++p) add(uint64_t(uint32_t(g.live_head(p))));
  }
  return h;
}

}  // namespace polyenv
