// az_bot.cpp — the "az" player (az_bot.hpp).
#include "az_bot.hpp"

#include <algorithm>
#include <cmath>

#include "heuristic_value.hpp"

#include "../encode/encode.hpp"

namespace polyenv {

namespace {

// Grows v to at least n elements (never shrinks: no allocation once warm).
template <class T>
T* room(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

int enumerate(const GameState& s, AzBotScratch& sc) {
  room(sc.ids, 1024);
  int total = legal_actions(s, sc.ids.data(), int(sc.ids.size()), &sc.moves);
  if (total > int(sc.ids.size())) {
    sc.ids.resize(size_t(total) * 2);
    total = legal_actions(s, sc.ids.data(), int(sc.ids.size()), &sc.moves);
  }
  return total;
}

// The lowest row with the highest logit.
int best_row(const float* logits, int n) { return int(std::max_element(logits, logits + n) - logits); }

// The payoff vector (global player order) of a leaf whose actor's network gave `values` by
// relative seat, mixed with the engine's heuristic (az_bot.hpp): `mix` of
// heuristic_value(leaf, p, base[p]) for each player p.
void leaf_payoffs(const GameState& leaf, const float* values, int value_size, double mix, const double* base,
                  double* out) {
  const int P = leaf.num_players, actor = leaf.current_player;
  if (mix < 1) {
    if (P == 2) {
      out[actor] = values[0];
      out[1 - actor] = -double(values[0]);
    } else {
      for (int k = 0; k < P; ++k) out[(actor + k) % P] = k < value_size ? values[k] : 0.0;
    }
  }
  if (mix <= 0) return;
  for (int p = 0; p < P; ++p) {
    const double heuristic = heuristic_value(leaf, p, base[p]);
    out[p] = mix >= 1 ? heuristic : (1 - mix) * out[p] + mix * heuristic;
  }
}

}  // namespace

int az_evaluate(const GameState& s, const AzNet& net, AzBotScratch& sc) {
  const int observer = s.current_player;
  const int n = enumerate(s, sc);
  encode_map_tokens(s, observer, room(sc.tokens, size_t(s.num_tiles) * kMapTokenFeatures));
  encode_state(s, observer, room(sc.state, kStateFeatures));
  encode_listed_rows(s, observer, n, true, sc.ids.data(), room(sc.features, size_t(n) * kActionFeatures),
                     room(sc.arg_mask, size_t(n) * kActionArgFeatures), room(sc.action_mask, size_t(n)));
  net.forward(s.map_size, sc.tokens.data(), sc.state.data(), sc.features.data(), n, room(sc.logits, size_t(n)),
              sc.values, sc.net);
  return n;
}

void az_value(const GameState& s, const AzNet& net, AzBotScratch& sc) {
  const int observer = s.current_player;
  encode_map_tokens(s, observer, room(sc.tokens, size_t(s.num_tiles) * kMapTokenFeatures));
  encode_state(s, observer, room(sc.state, kStateFeatures));
  net.forward(s.map_size, sc.tokens.data(), sc.state.data(), room(sc.features, kActionFeatures), 0,
              room(sc.logits, 1), sc.values, sc.net);
}

bool az_search(const GameState& live, const AzNet& net, int simulations, double gumbel_scale, Rng& rng,
               AzBotScratch& sc) {
  sc.n = az_evaluate(live, net, sc);
  sc.policy_choice = sc.ids[size_t(best_row(sc.logits.data(), sc.n))];
  if (sc.n == 1 || simulations <= 1) return false;
  const uint64_t seed = (uint64_t(rng.next()) << 32) | rng.next();
  // Under fog the tree is rooted in the player's own baseline-belief world, never in the live
  // state; when that world does not reproduce the live legal list, there is no search.
  if (!live.full_observability && !observer_world(live, seed, sc.observer, sc.world)) return false;
  const GameState& s = live.full_observability ? live : sc.world;
  const int P = s.num_players, n = sc.n;
  const double mix = net.leaf_value_mix();
  double base[kMaxPlayers] = {};
  if (mix > 0) {
    for (int p = 0; p < P; ++p) base[p] = bot_evaluation(s, p);
  }

  SearchConfig search;
  search.num_players = P;
  search.virtual_loss = 0;
  search.max_nodes = 0;
  search.max_bytes = 0;
  GumbelConfig gc;
  gc.num_simulations = simulations;
  gc.max_considered = kAzMaxConsidered;
  gc.gumbel_scale = gumbel_scale;
  sc.gumbel.configure(gc);
  sc.tree.set_selector(&sc.gumbel);
  sc.tree.reset(s, seed, search);
  sc.gumbel.begin(seed ^ 0x9E3779B97F4A7C15ull);
  double payoff[kMaxPlayers];
  // The root's evaluation comes first; then `simulations` descents.
  if (sc.tree.descend(sc.path, sc.transient) != SearchTree::Descent::kLeaf) return false;
  sc.tree.expand(sc.path.leaf, sc.ids.data(), n, sc.logits.data());
  leaf_payoffs(s, sc.values, net.value_size(), mix, base, payoff);
  sc.tree.backup(sc.path, payoff);
  sc.gumbel.start(sc.tree);
  sc.node_payoff.clear();
  for (int i = 0; i < simulations; ++i) {
    const SearchTree::Descent r = sc.tree.descend(sc.path, sc.transient);
    if (r == SearchTree::Descent::kTerminal) continue;  // backed up by the descent, no evaluation spent
    if (r != SearchTree::Descent::kLeaf) break;
    const GameState& leaf = sc.tree.leaf_state(sc.path, sc.transient);
    if (leaf.turns_played > s.turns_played) {  // after the mover's End Turn: evaluated once, never expanded
      const size_t node = size_t(sc.path.leaf);
      if (sc.node_payoff.size() < (node + 1) * size_t(P)) sc.node_payoff.resize((node + 1) * size_t(P), std::nan(""));
      double* cached = sc.node_payoff.data() + node * size_t(P);
      if (std::isnan(cached[0])) {
        if (mix < 1) az_value(leaf, net, sc);  // the heuristic alone needs no network
        leaf_payoffs(leaf, sc.values, net.value_size(), mix, base, cached);
      }
      sc.tree.backup(sc.path, cached);
      continue;
    }
    const int k = az_evaluate(leaf, net, sc);
    if (sc.path.leaf >= 0) sc.tree.expand(sc.path.leaf, sc.ids.data(), k, sc.logits.data());
    leaf_payoffs(leaf, sc.values, net.value_size(), mix, base, payoff);
    sc.tree.backup(sc.path, payoff);
  }
  return sc.tree.expanded(0) && sc.tree.num_edges(0) == n;
}

int32_t az_bot_action(const GameState& live, const AzNet& net, int simulations, Rng& rng, AzBotScratch& sc) {
  if (!az_search(live, net, simulations, 0.0, rng, sc)) return sc.policy_choice;
  const int32_t best = sc.gumbel.choose_root_edge(sc.tree);
  return best >= 0 ? sc.tree.edge_action(best) : sc.policy_choice;
}

int32_t az_root_policy(const GameState& live, const AzNet& net, int simulations, double gumbel_scale, Rng& rng,
                       AzBotScratch& sc, float* policy) {
  const bool searched = az_search(live, net, simulations, gumbel_scale, rng, sc);
  const int n = sc.n;
  sc.improved.resize(size_t(n));
  if (searched) {
    sc.gumbel.improved_policy(sc.tree, 0, sc.improved.data());
  } else {  // the network's own policy
    softmax(sc.logits.data(), n, sc.improved.data());
  }
  for (int i = 0; i < n; ++i) policy[i] = float(sc.improved[size_t(i)]);
  const int32_t best = searched ? sc.gumbel.choose_root_edge(sc.tree) : -1;
  return best >= 0 ? sc.tree.edge_action(best) : sc.policy_choice;
}

}  // namespace polyenv
