// mcts_bot.cpp — the native MCTS player and player dispatch (mcts_bot.hpp).
#include "mcts_bot.hpp"

#include <algorithm>
#include <cmath>

#include "heuristic_value.hpp"

namespace polyenv {

namespace {

// The score margin's value scale (the greedy evaluation's: heuristic_value.hpp).
constexpr double kMarginScale = 100;

// Whether raw_value is the greedy evaluation (the prior's unit).
bool greedy_raw(MctsEval eval) { return eval == MctsEval::kHeuristic || eval == MctsEval::kGreedyRollout; }

double raw_value(const GameState& s, MctsEval eval, int player) {
  return greedy_raw(eval) ? bot_evaluation(s, player) : double(score_margin(s, player));
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

// raw_value(leaf, eval, p), computed at most once per simulation: the greedy-gain prior
// needs the leaf's evaluation for its mover too, and a probe of the parent may have
// computed it already (sc.leaf_raw, NaN: not yet).
double leaf_raw(const GameState& leaf, MctsEval eval, int p, MctsBotScratch& sc) {
  double& raw = sc.leaf_raw[p];
  if (std::isnan(raw)) raw = raw_value(leaf, eval, p);
  return raw;
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
                                                                                          : kHeuristicValueScale;
  for (int p = 0; p < s.num_players; ++p) {
    if (!(needed >> p & 1)) {
      out[p] = 0.0;
      continue;
    }
    const double raw = at == &s ? leaf_raw(s, cfg.eval, p, sc) : raw_value(*at, cfg.eval, p);
    out[p] = std::tanh((raw - sc.baseline[size_t(p)]) / scale);
  }
}

float logit_of_gain(double gain, const MctsBotConfig& cfg) {
  // Clamped: a won game (1e7) must not turn the logits into infinities.
  return float(std::clamp(gain / cfg.root_prior_temperature, -50.0, 50.0));
}

// The greedy bot's one-ply gain of action `id` at `s` for its mover, over the temperature
// (End Turn, and any action the evaluation cannot tell apart, 0). The action is applied to a
// copy of `s`, whose chance stream is the tree's own; the copy's evaluation is kept in `after`.
float greedy_logit(const GameState& s, int32_t id, double before, const MctsBotConfig& cfg, MctsBotScratch& sc,
                   double& after) {
  if (id == 0) return 0;
  sc.probe = s;
  apply_action(sc.probe, id);
  after = bot_evaluation(sc.probe, s.current_player);
  return logit_of_gain(after - before, cfg);
}

// The mover's evaluation of the node being expanded (shared with its leaf value when that is the greedy evaluation).
double node_evaluation(const GameState& s, const MctsBotConfig& cfg, MctsBotScratch& sc) {
  return greedy_raw(cfg.eval) ? leaf_raw(s, cfg.eval, s.current_player, sc) : bot_evaluation(s, s.current_player);
}

// Logits softmax(greedy one-ply gain / temperature) of the n actions in sc.ids (kMoverTurn etc.).
void greedy_logits(const GameState& s, const MctsBotConfig& cfg, int n, MctsBotScratch& sc) {
  const double before = node_evaluation(s, cfg, sc);
  sc.logits.resize(size_t(n));
  sc.probe_evals.resize(size_t(n));
  for (int i = 0; i < n; ++i) {
    sc.probe_evals[size_t(i)] = std::nan("");
    sc.logits[size_t(i)] = greedy_logit(s, sc.ids[size_t(i)], before, cfg, sc, sc.probe_evals[size_t(i)]);
  }
}

// kInherited: unnormalised prior weights exp(logit) of the n actions in sc.ids. An action
// its parent node also had keeps the parent's weight (an action elsewhere on the board
// rarely changes its gain), so only the actions the last move made legal are applied:
// now when `probe`, else later (refine_weights) — until then their weight is End Turn's, 1,
// and sc.weights holds -1. Both id lists are ascending. Returns the prior weights' sum.
double inherited_weights(const GameState& s, const MctsBotConfig& cfg, int n, MctsBotScratch& sc, int32_t parent,
                         bool probe) {
  const SearchTree& t = sc.tree;
  sc.weights.resize(size_t(n));
  sc.probe_evals.resize(size_t(n));
  int32_t pe = 0, pend = 0;
  if (parent >= 0) {
    pe = t.first_edge(parent);
    pend = pe + t.num_edges(parent);
  }
  double before = std::nan(""), sum = 0;
  for (int i = 0; i < n; ++i) {
    const int32_t id = sc.ids[size_t(i)];
    while (pe < pend && t.edge_action(pe) < id) ++pe;
    double& after = sc.probe_evals[size_t(i)] = std::nan("");
    float& w = sc.weights[size_t(i)];
    if (pe < pend && t.edge_action(pe) == id && sc.edge_weights[size_t(pe)] >= 0) {
      w = sc.edge_weights[size_t(pe)];
    } else if (id == 0) {
      w = 1;  // End Turn: gain 0
    } else if (probe) {
      if (std::isnan(before)) before = node_evaluation(s, cfg, sc);
      w = std::exp(greedy_logit(s, id, before, cfg, sc, after));
    } else {
      w = -1;  // pending
    }
    sum += w < 0 ? 1.0 : w;
  }
  return sum;
}

// Probes a node's pending actions (kInherited, see inherited_weights) and renormalises its priors.
void refine_weights(int32_t node, const MctsBotConfig& cfg, MctsBotScratch& sc) {
  SearchTree& t = sc.tree;
  const GameState& s = t.node_state(node);
  double& before = sc.node_evals[size_t(node)];
  if (std::isnan(before)) before = bot_evaluation(s, s.current_player);
  const int32_t first = t.first_edge(node), end = first + t.num_edges(node);
  double sum = 0;
  for (int32_t e = first; e < end; ++e) {
    float& w = sc.edge_weights[size_t(e)];
    if (w < 0) {
      // An edge whose child exists needs no probe: the child is the probe's state, already evaluated.
      const int32_t child = t.edge_child(e);
      const bool evaluated = child >= 0 && size_t(child) < sc.node_evals.size() && t.node_actor(child) == t.node_actor(node);
      const double known = evaluated ? sc.node_evals[size_t(child)] : std::nan("");
      w = std::isnan(known) ? std::exp(greedy_logit(s, t.edge_action(e), before, cfg, sc, sc.edge_evals[size_t(e)]))
                            : std::exp(logit_of_gain(known - before, cfg));
    }
    sum += w;
  }
  for (int32_t e = first; e < end; ++e) t.set_edge_prior(e, float(sc.edge_weights[size_t(e)] / sum));
  sc.node_pending[size_t(node)] = 0;
}

// Whether a node (state `s`, `node` in the tree) gets the greedy-gain prior.
bool greedy_prior_at(const GameState& s, const GameState& root, int32_t node, const MctsBotConfig& cfg) {
  if (cfg.root_prior_temperature <= 0) return false;
  switch (cfg.prior_scope) {
    case MctsBotConfig::kRootOnly: return node == 0;
    case MctsBotConfig::kMoverTurn:
    case MctsBotConfig::kInherited:
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
  sc.edge_weights.clear();
  sc.node_pending.clear();
  sc.node_evals.clear();
  sc.edge_evals.clear();
  // The greedy evaluation is the leaf value itself: the prior's probes and its leaf share evaluations.
  const bool heuristic = greedy_raw(cfg.eval);
  double values[kMaxPlayers];
  for (int i = 0; i < cfg.simulations; ++i) {
    const SearchTree::Descent r = sc.tree.descend(sc.path, sc.transient);
    if (r == SearchTree::Descent::kTerminal) continue;
    if (r != SearchTree::Descent::kLeaf) break;
    const GameState& leaf = sc.tree.leaf_state(sc.path, sc.transient);
    std::fill(std::begin(sc.leaf_raw), std::end(sc.leaf_raw), std::nan(""));
    if (heuristic && !sc.path.edges.empty()) {  // a probe of the parent evaluated this state for its mover
      const double known = sc.edge_evals[size_t(sc.path.edges.back())];
      if (!std::isnan(known)) sc.leaf_raw[sc.tree.node_actor(sc.path.nodes.back())] = known;
    }
    // Beyond the horizon a node stays a leaf: it is evaluated on every visit, never expanded.
    bool expanded = false;
    if (cfg.turn_horizon <= 0 || leaf.turns_played < s.turns_played + cfg.turn_horizon) {
      const int n = enumerate(leaf, sc);
      const bool greedy_prior = greedy_prior_at(leaf, s, sc.path.leaf, cfg);
      const bool inherit = greedy_prior && cfg.prior_scope == MctsBotConfig::kInherited;
      if (greedy_prior && !inherit) greedy_logits(leaf, cfg, n, sc);
      const int32_t parent = sc.path.nodes.empty() ? -1 : sc.path.nodes.back();
      const bool probe = cfg.probe_visits == 1 || parent < 0;  // the root is always probed at once
      const double sum = inherit ? inherited_weights(leaf, cfg, n, sc, parent, probe) : 0.0;
      // kInherited sets its priors w / sum itself (no softmax); the others pass logits, or nullptr: uniform.
      sc.tree.expand(sc.path.leaf, sc.ids.data(), n, greedy_prior && !inherit ? sc.logits.data() : nullptr);
      const int32_t first = sc.tree.first_edge(sc.path.leaf);
      // Per edge: the prior weight its child inherits (-1: none) and its child's probed evaluation (NaN: none).
      sc.edge_weights.resize(size_t(first) + size_t(n));
      sc.edge_evals.resize(size_t(first) + size_t(n));
      bool pending = false;
      for (int k = 0; k < n; ++k) {
        const float w = inherit ? sc.weights[size_t(k)] : -1.0f;
        sc.edge_weights[size_t(first + k)] = w;
        sc.edge_evals[size_t(first + k)] = greedy_prior ? sc.probe_evals[size_t(k)] : std::nan("");
        if (inherit) sc.tree.set_edge_prior(first + k, float((w < 0 ? 1.0 : w) / sum));
        pending |= inherit && w < 0;
      }
      sc.node_pending.resize(size_t(sc.tree.num_nodes()), 0);
      sc.node_evals.resize(size_t(sc.tree.num_nodes()), std::nan(""));
      sc.node_pending[size_t(sc.path.leaf)] = pending;
      expanded = true;
    }
    // PUCT reads the edge values, i.e. the value of each path node's actor: evaluate only those
    // (within a turn the path has one actor, so one evaluation instead of P). The leaf's own
    // value sum is never read (at the mover's End Turn it would be the opponent's evaluation).
    uint32_t needed = sc.path.nodes.empty() ? 1u << sc.tree.node_actor(sc.path.leaf) : 0u;
    for (const int32_t node : sc.path.nodes) needed |= 1u << sc.tree.node_actor(node);
    leaf_values(leaf, cfg, rng, sc, needed, values);
    sc.tree.backup(sc.path, values);
    if (cfg.prior_scope == MctsBotConfig::kInherited && cfg.probe_visits > 1) {
      if (expanded && heuristic) sc.node_evals[size_t(sc.path.leaf)] = sc.leaf_raw[leaf.current_player];  // NaN: not computed
      for (const int32_t node : sc.path.nodes) {
        if (sc.node_pending[size_t(node)] && sc.tree.node_visits(node) >= cfg.probe_visits) refine_weights(node, cfg, sc);
      }
    }
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

void mcts_root_visits(const MctsBotScratch& sc, int n, int32_t* visits) {
  const SearchTree& t = sc.tree;
  std::fill(visits, visits + n, 0);
  if (n == 1 || !t.expanded(0) || t.num_edges(0) != n) {
    if (n > 0) visits[0] = 1;  // a forced move: the bot searched nothing
    return;
  }
  for (int k = 0; k < n; ++k) visits[k] = t.edge_visits(t.first_edge(0) + k);
}

void check_bot_spec(const BotSpec& spec) {
  if (spec.kind < 0 || spec.kind >= kNumPlayers) throw InvalidArgument("bot code " + std::to_string(spec.kind) + " is unknown");
  if ((spec.kind == kMctsBot || spec.kind == kAzBot) && spec.simulations < 1) {
    throw InvalidArgument(std::string(spec.kind == kAzBot ? kAzBotName : kMctsBotName) +
                          " simulations must be >= 1, got " + std::to_string(spec.simulations));
  }
  if (spec.kind == kAzBot && spec.net == nullptr) throw InvalidArgument("the az bot needs a loaded network");
}

BotSpec make_bot_spec(int kind, int simulations, int net_index) {
  BotSpec spec{kind, simulations, nullptr};
  if (kind == kAzBot) {
    spec.net = az_net(net_index);
    if (!spec.net) throw InvalidArgument("no az network is registered at index " + std::to_string(net_index));
  }
  check_bot_spec(spec);
  return spec;
}

int32_t player_action(const GameState& s, const BotSpec& spec, Rng& rng, PlayerScratch& scratch) {
  if (spec.kind == kAzBot) {
    if (!scratch.az) scratch.az = std::make_unique<AzBotScratch>();
    return az_bot_action(s, *spec.net, spec.simulations, rng, *scratch.az);
  }
  if (spec.kind != kMctsBot) return bot_action(s, BotKind(spec.kind), rng, scratch.bot);
  if (!scratch.mcts) scratch.mcts = std::make_unique<MctsBotScratch>();
  MctsBotConfig cfg;
  cfg.simulations = spec.simulations;
  return mcts_bot_action(s, cfg, rng, *scratch.mcts);
}

}  // namespace polyenv
