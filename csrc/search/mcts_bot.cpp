// mcts_bot.cpp — the native MCTS player and player dispatch (mcts_bot.hpp).
#include "mcts_bot.hpp"

#include <algorithm>
#include <cmath>

namespace polyenv {

namespace {

// Value scales: a change of `scale` from the root maps to tanh(1) ~ 0.76.
constexpr double kHeuristicScale = 1000;
constexpr double kMarginScale = 100;

double raw_value(const GameState& s, MctsEval eval, int player) {
  return eval == MctsEval::kMargin || eval == MctsEval::kRollout ? double(score_margin(s, player))
                                                                 : bot_evaluation(s, player);
}

int enumerate(const GameState& s, MctsBotScratch& sc) {
  if (sc.ids.size() < 1024) sc.ids.resize(1024);
  int total = legal_actions(s, sc.ids.data(), int(sc.ids.size()), &sc.moves);
  if (total > int(sc.ids.size())) {
    sc.ids.resize(size_t(total) * 2);
    total = legal_actions(s, sc.ids.data(), int(sc.ids.size()), &sc.moves);
  }
  return total;
}

// Payoff vector of a non-terminal leaf, one entry per player; only the players
// in `needed` (bit p: a node of p's is on the path) are evaluated, the rest are 0.
void leaf_values(const GameState& s, const MctsBotConfig& cfg, Rng& rng, MctsBotScratch& sc, uint32_t needed,
                 double* out) {
  const GameState* at = &s;
  if (cfg.eval == MctsEval::kGreedyRollout && s.turns_played < sc.horizon) {
    sc.rollout = s;
    for (int i = 0; i < cfg.rollout_actions && !sc.rollout.game_over && sc.rollout.turns_played < sc.horizon; ++i) {
      apply_action(sc.rollout, bot_action(sc.rollout, kGreedyBot, rng, sc.greedy));
    }
    at = &sc.rollout;
    if (at->game_over) {
      terminal_payoffs(*at, out);
      return;
    }
  }
  if (cfg.eval == MctsEval::kRollout) {
    sc.rollout = s;
    for (int i = 0; i < cfg.rollout_actions && !sc.rollout.game_over; ++i) {
      const int n = enumerate(sc.rollout, sc);
      apply_action(sc.rollout, sc.ids[rng.below(uint32_t(n))]);
    }
    at = &sc.rollout;
    if (at->game_over) {
      terminal_payoffs(*at, out);
      return;
    }
  }
  const double scale = cfg.scale > 0 ? cfg.scale
                      : cfg.eval == MctsEval::kMargin || cfg.eval == MctsEval::kRollout ? kMarginScale
                                                                                          : kHeuristicScale;
  for (int p = 0; p < s.num_players; ++p) {
    out[p] = needed >> p & 1 ? std::tanh((raw_value(*at, cfg.eval, p) - sc.baseline[size_t(p)]) / scale) : 0.0;
  }
}

// Logits from the greedy bot's one-ply gains at `s` for its mover (End Turn, and any
// action the evaluation cannot tell apart, gain 0), divided by the temperature. The
// actions are applied to copies of `s`, whose chance stream is the tree's own.
void greedy_logits(const GameState& s, const MctsBotConfig& cfg, int n, MctsBotScratch& sc) {
  const int me = s.current_player;
  const double before = bot_evaluation(s, me);
  sc.logits.resize(size_t(n));
  for (int i = 0; i < n; ++i) {
    double gain = 0;
    if (sc.ids[size_t(i)] != 0) {
      sc.probe = s;
      apply_action(sc.probe, sc.ids[size_t(i)]);
      gain = bot_evaluation(sc.probe, me) - before;
    }
    // Clamped: a won game (1e7) must not turn the logits into infinities.
    sc.logits[size_t(i)] = float(std::clamp(gain / cfg.root_prior_temperature, -50.0, 50.0));
  }
}

// Whether a node (state `s`, `node` in the tree) gets the greedy-gain prior.
bool greedy_prior_at(const GameState& s, const GameState& root, int32_t node, const MctsBotConfig& cfg) {
  if (cfg.root_prior_temperature <= 0) return false;
  switch (cfg.prior_scope) {
    case MctsBotConfig::kRootOnly: return node == 0;
    case MctsBotConfig::kMoverTurn:
      return s.current_player == root.current_player && s.turns_played == root.turns_played;
    default: return true;
  }
}

}  // namespace

int32_t mcts_bot_action(const GameState& s, const MctsBotConfig& cfg, Rng& rng, MctsBotScratch& sc) {
  const int legal = enumerate(s, sc);
  if (legal == 1) return sc.ids[0];
  SearchConfig search;
  search.num_players = s.num_players;
  search.c_puct = cfg.c_puct;
  search.virtual_loss = 0;
  search.max_nodes = 0;
  search.max_bytes = 0;
  const uint64_t seed = (uint64_t(rng.next()) << 32) | rng.next();
  sc.tree.reset(s, seed, search);
  sc.baseline.resize(size_t(s.num_players));
  for (int p = 0; p < s.num_players; ++p) sc.baseline[size_t(p)] = raw_value(s, cfg.eval, p);
  sc.horizon = s.turns_played + cfg.rollout_turns;
  double values[kMaxPlayers];
  for (int i = 0; i < cfg.simulations; ++i) {
    const SearchTree::Descent r = sc.tree.descend(sc.path, sc.transient);
    if (r == SearchTree::Descent::kTerminal) continue;
    if (r != SearchTree::Descent::kLeaf) break;
    const GameState& leaf = sc.tree.leaf_state(sc.path, sc.transient);
    // Beyond the horizon a node stays a leaf: it is evaluated on every visit, never expanded.
    if (cfg.turn_horizon <= 0 || leaf.turns_played < s.turns_played + cfg.turn_horizon) {
      const int n = enumerate(leaf, sc);
      const bool greedy_prior = greedy_prior_at(leaf, s, sc.path.leaf, cfg);
      if (greedy_prior) greedy_logits(leaf, cfg, n, sc);
      sc.tree.expand(sc.path.leaf, sc.ids.data(), n, greedy_prior ? sc.logits.data() : nullptr);  // else uniform
    }
    // The backup reads the value of each path node's actor and the leaf's: evaluate only those
    // (within a turn the path has one actor, so one evaluation instead of P).
    uint32_t needed = 1u << sc.tree.node_actor(sc.path.leaf);
    for (const int32_t node : sc.path.nodes) needed |= 1u << sc.tree.node_actor(node);
    leaf_values(leaf, cfg, rng, sc, needed, values);
    sc.tree.backup(sc.path, values);
  }
  const SearchTree& t = sc.tree;
  if (!t.expanded(0) || t.num_edges(0) == 0) return sc.ids[0];
  int32_t best = t.first_edge(0);
  auto mean = [&](int32_t e) { return t.edge_visits(e) ? t.edge_value_sum(e) / t.edge_visits(e) : -2.0; };
  for (int32_t e = best + 1; e < t.first_edge(0) + t.num_edges(0); ++e) {
    if (t.edge_visits(e) > t.edge_visits(best) || (t.edge_visits(e) == t.edge_visits(best) && mean(e) > mean(best))) {
      best = e;
    }
  }
  return t.edge_action(best);
}

void check_bot_spec(const BotSpec& spec) {
  if (spec.kind < 0 || spec.kind >= kNumPlayers) throw InvalidArgument("bot code " + std::to_string(spec.kind) + " is unknown");
  if (spec.kind == kMctsBot && spec.simulations < 1) {
    throw InvalidArgument("mcts simulations must be >= 1, got " + std::to_string(spec.simulations));
  }
}

int32_t player_action(const GameState& s, const BotSpec& spec, Rng& rng, PlayerScratch& scratch) {
  if (spec.kind != kMctsBot) return bot_action(s, BotKind(spec.kind), rng, scratch.bot);
  if (!scratch.mcts) scratch.mcts = std::make_unique<MctsBotScratch>();
  MctsBotConfig cfg;
  cfg.simulations = spec.simulations;
  return mcts_bot_action(s, cfg, rng, *scratch.mcts);
}

}  // namespace polyenv
