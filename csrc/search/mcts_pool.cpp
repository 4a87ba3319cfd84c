// mcts_pool.cpp — MctsPool (mcts_pool.hpp): live games, leaf selection and
// encoding, expansion and backup, root policies.
#include "mcts_pool.hpp"
#include "fnv.hpp"

#include <algorithm>
#include <ctime>
#include <cmath>
#include <cstring>

#include "../engine/ids.hpp"

namespace polyenv {

namespace {

// A leaf's slot is encoded in the id's low 24 bits (tree * 8 + slot); the
// rest is the select call's serial, so an id is never reused.
constexpr int kSlotBits = 24;

template <class Fail>
void check_gumbel(const MctsPoolConfig& cfg, Fail fail) {
  const GumbelConfig& g = cfg.gumbel;
  const bool gumbel = cfg.root_selection == RootSelection::kGumbel;
  if (cfg.root_selection != RootSelection::kPuct && !gumbel) fail("root_selection must be 'puct' or 'gumbel'");
  if (gumbel && g.num_simulations < 1) {
    fail("root_selection='gumbel' needs num_simulations >= 1 (the simulation budget that sequential halving "
         "divides), got " + std::to_string(g.num_simulations));
  }
  if (!gumbel && g.num_simulations != 0) fail("num_simulations applies to root_selection='gumbel' only");
  if (gumbel && cfg.search.dirichlet_alpha > 0) {
    fail("dirichlet_alpha cannot be combined with root_selection='gumbel' (the Gumbel noise explores the root)");
  }
  if (g.max_considered < 1) fail("max_considered_actions must be >= 1, got " + std::to_string(g.max_considered));
  if (!(g.gumbel_scale >= 0) || std::isinf(g.gumbel_scale)) fail("gumbel_scale must be finite and >= 0");
  if (!(g.value_scale >= 0) || std::isinf(g.value_scale)) fail("gumbel_value_scale must be finite and >= 0");
  if (!(g.maxvisit_init >= 0) || std::isinf(g.maxvisit_init)) fail("gumbel_maxvisit_init must be finite and >= 0");
}

MctsPoolConfig checked(const MctsPoolConfig& cfg) {
  auto fail = [](const std::string& m) { throw InvalidArgument(m); };
  const int threads = check_batch_config(cfg.num_envs, cfg.num_threads, cfg.max_actions,
                                         BatchLimits{/*max_envs=*/MctsPool::kMaxEnvs, /*min_max_actions=*/0});
  check_episodes(cfg.game, cfg.levels);
  const int n = cfg.game.map_size;
  const int players = episode_players(cfg.game, cfg.levels);
  if (cfg.max_pending_leaves < 1 || cfg.max_pending_leaves > MctsPool::kMaxPending) {
    fail("max_pending_leaves_per_tree must be in [1, 8], got " + std::to_string(cfg.max_pending_leaves));
  }
  const SearchConfig& s = cfg.search;
  if (!(s.c_puct >= 0) || std::isinf(s.c_puct)) fail("c_puct must be finite and >= 0");
  if (!(s.virtual_loss >= 0) || std::isinf(s.virtual_loss)) fail("virtual_loss must be finite and >= 0");
  if (s.max_nodes < 0) fail("max_nodes_per_tree must be >= 0 (0: no limit)");
  if (s.max_bytes < 0) fail("max_tree_bytes must be >= 0 (0: no limit)");
  if (!(s.dirichlet_alpha >= 0) || std::isinf(s.dirichlet_alpha)) fail("dirichlet_alpha must be None or finite > 0");
  if (!(s.dirichlet_fraction >= 0 && s.dirichlet_fraction <= 1)) fail("dirichlet_fraction must be in [0, 1]");
  check_gumbel(cfg, fail);
  MctsPoolConfig c = cfg;
  c.search.num_players = players;
  c.num_threads = threads;
  if (c.max_actions == 0) c.max_actions = ActionSpace(n, players).size();
  return c;
}

// CPU time of the calling thread: the timing stats stay meaningful on a loaded machine.
int64_t now_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a ^ (b * 0x9E3779B97F4A7C15ull);
  return splitmix64(x);
}

}  // namespace

MctsPool::MctsPool(const MctsPoolConfig& cfg, std::shared_ptr<WorkerPool> workers)
    : cfg_(checked(cfg)),
      games_("MctsPool", cfg_.game, cfg_.levels, cfg_.num_envs, cfg_.seed, std::move(workers), cfg_.num_threads) {
  cfg_.num_threads = games_.num_threads();
  const int B = cfg_.num_envs;
  action_space_size_ = ActionSpace(cfg_.game.map_size, num_players()).size();
  for (Game& g : games_) {
    g.slots.resize(size_t(cfg_.max_pending_leaves));
    g.gumbel.configure(cfg_.gumbel);
    if (cfg_.root_selection == RootSelection::kGumbel) g.tree.set_selector(&g.gumbel);
  }
  actions_.resize(size_t(B));
  leaf_offset_.resize(size_t(B));
  by_tree_.resize(size_t(B));
  seen_.assign(size_t(B) * kMaxPending, 0);
  run_games([this](Game& g, int env) {
    start_episode(g, env);
    root_tree(g, env);
  });
  for (Game& g : games_) g.assign_ids();  // both owed: every game started
}

MctsPool::~MctsPool() { close(); }

void MctsPool::close() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.close();
}

// Runs fn(game, env) for every game on the workers; the first failure (lowest
// env) is rethrown after all finished. With `breaks` (reset, step: the live
// games may be half changed) it leaves the pool broken: reset() required.
template <class F>
void MctsPool::run_games(F&& fn, bool breaks) {
  const WorkerFailure failure = games_.run(cfg_.num_envs, [&](int i) { fn(games_[size_t(i)], i); });
  if (!failure) return;
  if (breaks) games_.fail(failure, "");
  std::rethrow_exception(failure.error);
}

void MctsPool::start_episode(Game& g, int env) {
  games_.start_episode(g, env);
  episode_started(env);
}

// The tree's own chance stream (and its Gumbel draws): from the pool seed and the
// position, never the live game's draws.
uint64_t MctsPool::tree_seed(const Game& g, int env) const {
  return mix(mix(mix(games_.base_seed(), uint64_t(env)), g.episode_index), uint64_t(g.state.actions_applied));
}

void MctsPool::root_tree(Game& g, int env) {
  const uint64_t seed = tree_seed(g, env);
  g.tree.reset(g.state, seed, cfg_.search);
  g.gumbel.begin(seed);
  g.reuse = SearchTree::Reuse::kFresh;
  g.kept_nodes = 0;
  for (Slot& s : g.slots) s.id = 0;
  g.pending = 0;
}

// After the real move `action` (reuse_tree): the chosen child's subtree becomes the tree
// when its position is the game's (SearchTree::advance), else a fresh root, as root_tree.
void MctsPool::advance_tree(Game& g, int env, int32_t action) {
  const uint64_t seed = tree_seed(g, env);
  g.reuse = g.tree.advance(action, g.state, seed);
  g.kept_nodes = g.reuse == SearchTree::Reuse::kKept ? g.tree.num_nodes() : 0;
  g.gumbel.begin(seed);
  if (cfg_.root_selection == RootSelection::kGumbel) g.gumbel.start(g.tree);  // an expanded kept root
  for (Slot& s : g.slots) s.id = 0;
  g.pending = 0;
}

void MctsPool::write_live_row(Game& g, int env, const FieldView& out) {
  const ActionRows rows =
      encode_model_row(g.state, g.observer, cfg_.max_actions, cfg_.combat_preview, out.model_row(env), &g.moves);
  g.cache_legal(out.at<int32_t>(kFActionId, env), rows.rows, !rows.truncated);
  *out.at<int32_t>(kFLegalCount, env) = rows.rows;
  *out.at<int32_t>(kFTotalLegalCount, env) = rows.total;
  *out.at<uint8_t>(kFActionTruncated, env) = rows.truncated ? 1 : 0;
  *out.at<int32_t>(kLEnvId, env) = env;
  *out.at<int32_t>(kLToPlay, env) = g.observer;
  if (rows.truncated && cfg_.require_all_actions) {
    throw ActionOverflow("env " + std::to_string(env) + " has " + std::to_string(rows.total) +
                         " legal actions but max_actions is " + std::to_string(cfg_.max_actions) +
                         " (require_all_actions=True); reset() is required");
  }
}

void MctsPool::reset(const uint64_t* seed, const FieldView& out) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_open();
  games_.begin_reset(seed);
  const int P = num_players();
  run_games([&](Game& g, int env) {
    start_episode(g, env);
    root_tree(g, env);
    write_live_row(g, env, out);
    *out.at<float>(kLReward, env) = 0;
    *out.at<uint8_t>(kLTerminated, env) = 0;
    *out.at<uint8_t>(kLActionValid, env) = 0;
    *out.at<int32_t>(kLWinner, env) = -1;
    std::fill_n(out.at<float>(kLTerminalValues, env), P, 0.0f);
  }, /*breaks=*/true);
  games_.clear_broken();
  write_fresh_ids(out);  // both owed: every game started
}

// Gives every game its owed ids in env order and writes them to the live rows.
void MctsPool::write_fresh_ids(const FieldView& out) {
  games_.assign_ids(cfg_.num_envs, [](int env) { return env; }, [&](int env, const Game& g) {
    *out.at<uint64_t>(kLStateId, env) = g.state_id;
    *out.at<uint64_t>(kLEpisodeId, env) = g.episode_id;
  });
}

void MctsPool::step(Strided<int32_t> actions, const Strided<uint64_t>* state_ids, const FieldView& out) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_usable();
  const int B = cfg_.num_envs;
  if (actions.size != B) {
    throw InvalidArgument("action_ids has " + std::to_string(actions.size) + " entries, expected " +
                          std::to_string(B));
  }
  if (state_ids && state_ids->size != B) {
    throw InvalidArgument("state_ids has " + std::to_string(state_ids->size) + " entries, expected " +
                          std::to_string(B));
  }
  for (int i = 0; i < B; ++i) {
    if (games_[size_t(i)].pending > 0) {
      throw PendingLeaves("tree " + std::to_string(i) + " has " + std::to_string(games_[size_t(i)].pending) +
                          " pending leaves: back them up, cancel_leaves() or abort_search() before stepping");
    }
  }
  if (state_ids) games_.check_state_ids(B, *state_ids, nullptr, "no game was stepped");
  // Copy the inputs before anything is written: they may alias the output buffers.
  for (int i = 0; i < B; ++i) actions_[size_t(i)] = actions[i];
  const int P = num_players();
  run_games([&](Game& g, int env) {
    GameState& s = g.state;
    const int32_t action = actions_[size_t(env)];
    const bool valid = g.accepts(action);
    float reward = 0;
    uint8_t terminated = 0;
    int32_t winner = -1;
    double payoff[kMaxPlayers] = {};
    if (valid) {
      const int actor = s.current_player;
      apply_action(s, action, live_event_sink(env));
      g.state_changed();
      g.new_state = true;
      g.observer = s.current_player;
      if (s.game_over) {
        terminated = 1;
        winner = s.winner;
        terminal_payoffs(s, payoff);
        reward = float(payoff[actor]);
        g.observer = actor;
        if (cfg_.auto_reset) {
          games_.next_episode(g);
          start_episode(g, env);
        }
      }
      if (cfg_.reuse_tree && !g.new_episode) {
        advance_tree(g, env, action);
      } else {
        root_tree(g, env);
      }
    }
    write_live_row(g, env, out);
    *out.at<float>(kLReward, env) = reward;
    *out.at<uint8_t>(kLTerminated, env) = terminated;
    *out.at<uint8_t>(kLActionValid, env) = valid ? 1 : 0;
    *out.at<int32_t>(kLWinner, env) = winner;
    for (int p = 0; p < P; ++p) out.at<float>(kLTerminalValues, env)[p] = float(payoff[p]);
  }, /*breaks=*/true);
  write_fresh_ids(out);
}

// ---- search

void MctsPool::select_in_tree(Game& g) {
  g.fresh.clear();
  const int max_descents = 4 * g.quota;
  const bool check_capacity = cfg_.require_all_actions && cfg_.max_actions < action_space_size_;
  for (int d = 0; d < max_descents && int(g.fresh.size()) < g.quota; ++d) {
    int free = 0;
    while (g.slots[size_t(free)].id != 0) ++free;
    Slot& slot = g.slots[size_t(free)];
    const SearchTree::Descent r = g.tree.descend(slot.path, slot.transient);
    if (r == SearchTree::Descent::kTerminal) continue;
    if (r != SearchTree::Descent::kLeaf) break;
    if (check_capacity) {
      const int total = legal_actions(g.tree.leaf_state(slot.path, slot.transient), nullptr, 0, &g.tree_moves);
      if (total > cfg_.max_actions) {
        g.tree.rollback(slot.path);
        g.overflow = true;
        g.overflow_message = "a leaf has " + std::to_string(total) + " legal actions but max_actions is " +
                             std::to_string(cfg_.max_actions) + " (require_all_actions=True)";
        return;
      }
    }
    slot.id = 1;  // reserved; the caller assigns the real id
    g.fresh.push_back(int8_t(free));
    g.pending++;
  }
}

int MctsPool::select_leaves(int capacity, const FieldView& out) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_usable();
  if (capacity < 0) throw InvalidArgument("max_leaves must be >= 0, got " + std::to_string(capacity));
  const int B = cfg_.num_envs, K = cfg_.max_pending_leaves;
  // Quotas in tree order: an unexpanded root gives one leaf (its policy must be
  // known before the tree can fan out), an expanded one up to K in flight.
  int remaining = capacity;
  for (int t = 0; t < B; ++t) {
    Game& g = games_[size_t(t)];
    g.overflow = false;
    int q = g.tree.expanded(0) ? K - g.pending : (g.pending == 0 ? 1 : 0);
    q = std::min(q, remaining);
    g.quota = q;
    remaining -= q;
  }
  run_games([this](Game& g, int) {
    g.fresh.clear();
    if (g.quota == 0) return;
    const int64_t t0 = now_ns();
    select_in_tree(g);
    g.select_ns += now_ns() - t0;
  });
  for (int t = 0; t < B; ++t) {
    if (!games_[size_t(t)].overflow) continue;
    const std::string message = "tree " + std::to_string(t) + ": " + games_[size_t(t)].overflow_message;
    for (Game& g : games_) {  // give back every leaf of this call
      for (int8_t k : g.fresh) {
        g.tree.rollback(g.slots[size_t(k)].path);
        g.slots[size_t(k)].id = 0;
        g.pending--;
      }
      g.fresh.clear();
    }
    throw ActionOverflow(message + "; no leaf was issued");
  }
  ++select_serial_;
  int rows = 0;
  for (int t = 0; t < B; ++t) {
    Game& g = games_[size_t(t)];
    leaf_offset_[size_t(t)] = rows;
    for (int8_t k : g.fresh) {
      g.slots[size_t(k)].id = (select_serial_ << kSlotBits) | uint64_t(t * kMaxPending + k);
    }
    rows += int(g.fresh.size());
  }
  const int P = num_players();
  run_games([&](Game& g, int t) {
    if (g.fresh.empty()) return;
    const int64_t t0 = now_ns();
    int row = leaf_offset_[size_t(t)];
    for (int8_t k : g.fresh) {
      Slot& slot = g.slots[size_t(k)];
      const GameState& s = g.tree.leaf_state(slot.path, slot.transient);
      const ActionRows r =
          encode_model_row(s, slot.path.actor, cfg_.max_actions, cfg_.combat_preview, out.model_row(row), &g.tree_moves);
      slot.rows = r.rows;
      const int32_t* ids = out.at<int32_t>(kFActionId, row);
      slot.ids.assign(ids, ids + r.rows);
      *out.at<int32_t>(kFLegalCount, row) = r.rows;
      *out.at<int32_t>(kFTotalLegalCount, row) = r.total;
      *out.at<uint8_t>(kFActionTruncated, row) = r.truncated ? 1 : 0;
      *out.at<uint64_t>(kXLeafId, row) = slot.id;
      *out.at<int32_t>(kXTreeId, row) = t;
      *out.at<int32_t>(kXEnvId, row) = t;
      *out.at<int32_t>(kXToPlay, row) = slot.path.actor;
      *out.at<int32_t>(kXPlayerCount, row) = P;
      *out.at<uint64_t>(kXStateId, row) = g.state_id;
      *out.at<uint64_t>(kXEpisodeId, row) = g.episode_id;
      ++row;
    }
    g.encode_ns += now_ns() - t0;
  });
  return rows;
}

MctsPool::Slot& MctsPool::slot_of(uint64_t id) {
  const uint64_t low = id & ((uint64_t(1) << kSlotBits) - 1);
  return games_[size_t(low / kMaxPending)].slots[size_t(low % kMaxPending)];
}

const LeafPath& MctsPool::issued_path(uint64_t leaf_id) const {
  const uint64_t low = leaf_id & ((uint64_t(1) << kSlotBits) - 1);
  return games_[size_t(low / kMaxPending)].slots[size_t(low % kMaxPending)].path;
}

void MctsPool::check_leaf_ids(const uint64_t* leaf_ids, int count) {
  if (++seen_stamp_ == 0) {
    std::fill(seen_.begin(), seen_.end(), 0u);
    seen_stamp_ = 1;
  }
  const uint64_t B = uint64_t(cfg_.num_envs);
  for (int i = 0; i < count; ++i) {
    const uint64_t id = leaf_ids[i];
    const uint64_t low = id & ((uint64_t(1) << kSlotBits) - 1);
    const uint64_t tree = low / kMaxPending, k = low % kMaxPending;
    if (id == 0 || tree >= B || k >= uint64_t(cfg_.max_pending_leaves) ||
        games_[size_t(tree)].slots[size_t(k)].id != id) {
      throw StaleLeaf("leaf id " + std::to_string(id) + " (row " + std::to_string(i) +
                      ") is not pending: unknown, already backed up or cancelled, or invalidated by a step or "
                      "reset; nothing was changed");
    }
    if (seen_[size_t(low)] == seen_stamp_) {
      throw InvalidArgument("leaf id " + std::to_string(id) + " appears twice (row " + std::to_string(i) + ")");
    }
    seen_[size_t(low)] = seen_stamp_;
  }
}

void MctsPool::expand_and_backup(const uint64_t* leaf_ids, int count, const float* logits, const float* values) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_usable();
  const int P = num_players(), A = cfg_.max_actions;
  const int width = P == 2 ? 1 : P;
  for (int64_t i = 0; i < int64_t(count) * width; ++i) {
    const float v = values[i];
    if (!(v >= -1.0f && v <= 1.0f)) {
      throw InvalidArgument("values must be finite and in [-1, 1]; entry " + std::to_string(i / width) +
                            (width > 1 ? ", " + std::to_string(i % width) : std::string()) + " is " +
                            std::to_string(v));
    }
  }
  check_leaf_ids(leaf_ids, count);
  for (int i = 0; i < count; ++i) {
    const Slot& slot = slot_of(leaf_ids[i]);
    const float* row = logits + int64_t(i) * A;
    for (int j = 0; j < slot.rows; ++j) {
      if (!std::isfinite(row[j])) {
        throw InvalidArgument("policy_logits[" + std::to_string(i) + ", " + std::to_string(j) +
                              "] is not finite (a valid action row of that leaf)");
      }
    }
  }
  // Group the rows by tree (stable): each tree is updated by one thread in row order.
  for (auto& v : by_tree_) v.clear();
  for (int i = 0; i < count; ++i) {
    const uint64_t low = leaf_ids[i] & ((uint64_t(1) << kSlotBits) - 1);
    by_tree_[size_t(low / kMaxPending)].push_back(i);
  }
  run_games([&](Game& g, int t) {
    if (by_tree_[size_t(t)].empty()) return;
    const int64_t t0 = now_ns();
    for (int32_t i : by_tree_[size_t(t)]) {
      Slot& slot = g.slots[size_t((leaf_ids[i] & ((uint64_t(1) << kSlotBits) - 1)) % kMaxPending)];
      double v[kMaxPlayers];
      if (P == 2) {
        v[slot.path.actor] = double(values[i]);
        v[1 - slot.path.actor] = -double(values[i]);
      } else {
        for (int p = 0; p < P; ++p) v[p] = double(values[int64_t(i) * P + p]);
      }
      if (slot.path.leaf >= 0) g.tree.expand(slot.path.leaf, slot.ids.data(), slot.rows, logits + int64_t(i) * A);
      if (slot.path.leaf == 0 && cfg_.root_selection == RootSelection::kGumbel) g.gumbel.start(g.tree);
      g.tree.backup(slot.path, v);
      slot.id = 0;
      g.pending--;
    }
    g.backup_ns += now_ns() - t0;
  });
}

void MctsPool::cancel_leaves(const uint64_t* leaf_ids, int count) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_usable();
  check_leaf_ids(leaf_ids, count);
  for (int i = 0; i < count; ++i) {
    const uint64_t low = leaf_ids[i] & ((uint64_t(1) << kSlotBits) - 1);
    Game& g = games_[size_t(low / kMaxPending)];
    Slot& slot = g.slots[size_t(low % kMaxPending)];
    g.tree.rollback(slot.path);
    slot.id = 0;
    g.pending--;
  }
}

void MctsPool::abort_search() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_usable();
  for (Game& g : games_) {
    for (Slot& slot : g.slots) {
      if (slot.id == 0) continue;
      g.tree.rollback(slot.path);
      slot.id = 0;
    }
    g.pending = 0;
  }
}

void MctsPool::root_policy(double temperature, const FieldView& out) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_usable();
  if (!(temperature >= 0) || std::isinf(temperature)) {
    throw InvalidArgument("temperature must be finite and >= 0, got " + std::to_string(temperature));
  }
  const int A = cfg_.max_actions, P = num_players();
  run_games([&](Game& g, int env) {
    const SearchTree& tree = g.tree;
    int32_t* ids = out.at<int32_t>(kRActionId, env);
    uint8_t* mask = out.at<uint8_t>(kRActionMask, env);
    int32_t* visits = out.at<int32_t>(kRVisitCount, env);
    float* policy = out.at<float>(kRPolicy, env);
    // The root's rows: its edges once expanded, else the live row's legal ids (the same list).
    const bool expanded = tree.expanded(0);
    const int n = expanded ? tree.num_edges(0) : (g.state.game_over ? 0 : g.legal_count);
    int32_t total = 0, best = -1;
    for (int j = 0; j < n; ++j) {
      const int32_t e = tree.first_edge(0) + j;
      ids[j] = expanded ? tree.edge_action(e) : g.legal[size_t(j)];
      mask[j] = 1;
      visits[j] = expanded ? tree.edge_visits(e) : 0;
      total += visits[j];
      if (best < 0 || visits[j] > visits[best]) best = j;
    }
    std::fill(ids + n, ids + A, -1);
    std::fill(mask + n, mask + A, 0);
    std::fill(visits + n, visits + A, 0);
    std::fill(policy, policy + A, 0.0f);
    if (n > 0 && total == 0) {
      for (int j = 0; j < n; ++j) policy[j] = float(1.0 / n);  // nothing searched yet: uniform
    } else if (n > 0 && temperature == 0) {
      policy[best] = 1.0f;
    } else if (n > 0) {
      // N^(1/T) relative to the largest count, so small temperatures cannot overflow.
      double sum = 0;
      for (int j = 0; j < n; ++j) sum += std::pow(double(visits[j]) / visits[best], 1.0 / temperature);
      for (int j = 0; j < n; ++j) policy[j] = float(std::pow(double(visits[j]) / visits[best], 1.0 / temperature) / sum);
    }
    const int32_t root_visits = tree.node_visits(0);
    *out.at<float>(kRRootValue, env) = root_visits > 0 ? float(tree.node_value_sum(0) / root_visits) : 0.0f;
    *out.at<int32_t>(kRRootVisitCount, env) = root_visits;
    *out.at<int32_t>(kRRootPlayer, env) = tree.node_actor(0);
    *out.at<int32_t>(kRPlayerCount, env) = P;
    *out.at<int32_t>(kREnvId, env) = env;
    *out.at<uint64_t>(kRStateId, env) = g.state_id;
    *out.at<uint64_t>(kREpisodeId, env) = g.episode_id;
    write_search_choice(g, env, out);
  });
}

// The improved policy, the root's Gumbel draws and the action the search plays:
// Gumbel's sequential-halving winner, or PUCT's most visited row (the lowest on ties).
void MctsPool::write_search_choice(Game& g, int env, const FieldView& out) {
  const SearchTree& tree = g.tree;
  const int A = cfg_.max_actions;
  const int n = tree.expanded(0) ? tree.num_edges(0) : (g.state.game_over ? 0 : g.legal_count);
  float* improved = out.at<float>(kRImprovedPolicy, env);
  float* gumbel = out.at<float>(kRGumbel, env);
  std::fill(improved, improved + A, 0.0f);
  std::fill(gumbel, gumbel + A, 0.0f);
  int32_t row = n > 0 ? 0 : -1;
  if (tree.expanded(0) && n > 0) {
    g.policy_scratch.resize(size_t(n));
    g.gumbel.improved_policy(tree, 0, g.policy_scratch.data());
    for (int j = 0; j < n; ++j) improved[j] = float(g.policy_scratch[size_t(j)]);
    if (cfg_.root_selection == RootSelection::kGumbel) {
      for (int j = 0; j < n; ++j) gumbel[j] = g.gumbel.root_gumbel(j);
      row = g.gumbel.choose_root_edge(tree) - tree.first_edge(0);
    } else {
      const int32_t* visits = out.at<int32_t>(kRVisitCount, env);
      for (int j = 1; j < n; ++j) row = visits[j] > visits[row] ? j : row;
    }
  } else {
    for (int j = 0; j < n; ++j) improved[j] = float(1.0 / n);  // nothing searched yet: uniform
  }
  *out.at<int32_t>(kRSelectedRow, env) = row;
  *out.at<int32_t>(kRSelectedAction, env) = row >= 0 ? out.at<int32_t>(kRActionId, env)[row] : -1;
}

void MctsPool::observe(const FieldView& out) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_usable();
  run_games([&](Game& g, int env) { write_live_row(g, env, out); });
  for (int env = 0; env < cfg_.num_envs; ++env) {
    *out.at<uint64_t>(kLStateId, env) = games_[size_t(env)].state_id;
    *out.at<uint64_t>(kLEpisodeId, env) = games_[size_t(env)].episode_id;
  }
}

void MctsPool::load_live_state(int env, const GameState& s) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_usable();
  if (env < 0 || env >= cfg_.num_envs) throw InvalidArgument("env " + std::to_string(env) + " is out of range");
  Game& g = games_[size_t(env)];
  if (g.pending > 0) throw PendingLeaves("tree " + std::to_string(env) + " has pending leaves");
  if (s.map_size != cfg_.game.map_size || s.num_players != num_players()) {
    throw InvalidArgument("the state's map size or player count differs from the pool's");
  }
  g.state = s;
  g.observer = s.current_player;
  g.state_changed();
  g.new_state_id();
  root_tree(g, env);
}

void MctsPool::set_roots(const GameState* roots, const uint64_t* seeds, ActorChangeHook* const* hooks) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_usable();
  for (int i = 0; i < cfg_.num_envs; ++i) {
    if (games_[size_t(i)].pending > 0) {
      throw PendingLeaves("tree " + std::to_string(i) + " has pending leaves: back them up, cancel_leaves() or "
                          "abort_search() before submitting beliefs");
    }
  }
  run_games([&](Game& g, int env) {
    g.tree.reset(roots[env], seeds[env], cfg_.search, hooks ? hooks[env] : nullptr);
    g.gumbel.begin(seeds[env]);
    g.reuse = SearchTree::Reuse::kFresh;
    g.kept_nodes = 0;
    for (Slot& s : g.slots) s.id = 0;
    g.pending = 0;
  });
}

std::vector<int32_t> MctsPool::leaf_actions(uint64_t leaf_id) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_usable();
  check_leaf_ids(&leaf_id, 1);
  const uint64_t low = leaf_id & ((uint64_t(1) << kSlotBits) - 1);
  const Game& g = games_[size_t(low / kMaxPending)];
  std::vector<int32_t> out;
  for (int32_t e : g.slots[size_t(low % kMaxPending)].path.edges) out.push_back(g.tree.edge_action(e));
  return out;
}

std::array<int64_t, 3> MctsPool::timing() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::array<int64_t, 3> t{};
  for (const Game& g : games_) {
    t[0] += g.select_ns;
    t[1] += g.encode_ns;
    t[2] += g.backup_ns;
  }
  return t;
}

uint64_t MctsPool::state_digest() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  games_.check_open();
  Fnv h;
  h.add(games_.base_seed());
  h.add(select_serial_);
  for (const Game& g : games_) {
    const std::string bytes = serialize(g.state);
    h.add(bytes.data(), bytes.size());
    h.add(g.state_id);
    h.add(g.episode_id);
    h.add(g.episode_index);
    h.add(g.pending);
    const SearchTree& t = g.tree;
    h.add(t.num_nodes());
    h.add(t.bytes());
    h.add(int(g.reuse));
    h.add(g.kept_nodes);
    h.add(g.gumbel.started());
    if (g.gumbel.started()) {
      for (int32_t j = 0; j < t.num_edges(0); ++j) {
        h.add(g.gumbel.root_gumbel(j));
        h.add(g.gumbel.search_visits(t, j));
      }
    }
    for (int32_t n = 0; n < t.num_nodes(); ++n) {
      h.add(t.node_visits(n));
      h.add(t.node_value_sum(n));
      h.add(t.node_raw_value(n));
      h.add(t.in_flight(n));
      h.add(t.num_edges(n));
      for (int32_t e = t.first_edge(n); e < t.first_edge(n) + t.num_edges(n); ++e) {
        h.add(t.edge_visits(e));
        h.add(t.edge_child(e));
        h.add(t.edge_prior(e));
        h.add(t.edge_value_sum(e));
        h.add(t.edge_in_flight(e));
      }
    }
    for (const Slot& s : g.slots) h.add(s.id);
  }
  return h.h;
}

}  // namespace polyenv
