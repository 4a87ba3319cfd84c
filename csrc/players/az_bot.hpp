// az_bot.hpp — the "az" player: the trained policy/value network (az_net.hpp),
// alone or guiding a search.
//
// The network only ever reads the acting player's own observation (the encoder's
// map tokens, state and action rows for that player, exactly as the pools' leaf
// batches give them), so one network serves every seat and never sees a tile the
// player has not explored.
//
// "az:1" plays the row with the highest logit (lowest row on ties). "az:N" (N > 1)
// evaluates the root and runs N descents on a SearchTree rooted in the position, with
// the Gumbel root (gumbel.hpp: sequential halving over the prior's top 16 actions,
// completed Q; no Gumbel noise, so the prior's top actions are considered) and the
// improved-policy rule below it: priors softmax(logits); leaf values
// (1 - m) * the value head (two players: v for the leaf's actor, -v for the other; more:
// the relative-seat values in global order) + m * the engine's heuristic value
// (heuristic_value.hpp, relative to the root, as the MCTS player's), m the network's
// leaf_value_mix (its weight file says how far its value head is to be trusted);
// finished games their terminal payoffs. The tree plans the mover's own turn: the node reached by its End
// Turn is a leaf whose value (the next player's view of the position the turn leaves)
// is computed once and reused on every later visit, never expanded — as the native
// MCTS player does, so few simulations are not spread over the opponent's replies.
// It plays the sequential-halving winner. Under fog of war the tree is rooted in the
// player's baseline-belief world (observer_world.hpp: built from its own observation,
// knowledge and legal list only), so the search never reads what the player cannot see;
// when that world does not reproduce the live legal list, the policy plays alone.
#pragma once
#include <cstdint>
#include <vector>

#include "az_net.hpp"
#include "gumbel.hpp"
#include "observer_world.hpp"
#include "tree.hpp"

namespace polyenv {

// "az" plays this many network evaluations per decision (about 20-30 ms of one core with the shipped
// network; docs/bots.md).
inline constexpr int kDefaultAzSimulations = 128;
// Actions the az player's Gumbel root considers.
inline constexpr int kAzMaxConsidered = 16;

// Reused between decisions: no allocation per decision once warm.
struct AzBotScratch {
  AzScratch net;
  SearchTree tree;
  GumbelSearch gumbel;
  LeafPath path;
  GameState transient;
  MoveCache moves;
  std::vector<int32_t> tokens, state, ids, features;
  std::vector<uint8_t> arg_mask, action_mask;
  std::vector<float> logits;
  float values[kMaxPlayers] = {};
  std::vector<double> node_payoff;  // [node * P + p]: a turn-end leaf's payoffs (NaN: not evaluated yet)
  ObserverWorldScratch observer;    // fog: the player's baseline-belief world ...
  GameState world;                  // ... the search's root
  int n = 0;                        // the last search's root: legal actions (sc.ids[0, n))
  int32_t policy_choice = 0;        // ... and the policy's own choice there
  std::vector<double> improved;     // az_root_policy's target, by root row
};

// Encodes `s` for its current player and runs the network: returns the number of
// legal actions n, with their ids in sc.ids[0..n), logits in sc.logits[0..n) and the
// values by relative seat in sc.values.
int az_evaluate(const GameState& s, const AzNet& net, AzBotScratch& sc);
// The value head only (no action rows): sc.values for the current player of `s`.
void az_value(const GameState& s, const AzNet& net, AzBotScratch& sc);

// The search of the az player in `live` (not over) with `simulations` network evaluations
// and root Gumbel noise of scale `gumbel_scale` (0: the prior's top actions, as the bot
// plays). Leaves `sc.n`, `sc.ids` and `sc.policy_choice` for the root; true when a tree was
// searched (sc.tree, sc.gumbel hold it), false when the policy alone decides (one legal
// action, simulations <= 1, or under fog no belief world that reproduces the legal list).
bool az_search(const GameState& live, const AzNet& net, int simulations, double gumbel_scale, Rng& rng,
               AzBotScratch& sc);

// The action the az player chooses in `live` (not over) with `simulations` evaluations.
int32_t az_bot_action(const GameState& live, const AzNet& net, int simulations, Rng& rng, AzBotScratch& sc);

// A training target: the action az_search with `gumbel_scale` chooses, and its root policy
// over the legal rows in policy[0, n) (n = sc.n afterwards; the caller's buffer holds at
// least the legal list): the Gumbel improved policy when a tree was searched, else
// softmax(logits).
int32_t az_root_policy(const GameState& live, const AzNet& net, int simulations, double gumbel_scale, Rng& rng,
                       AzBotScratch& sc, float* policy);

}  // namespace polyenv
