// mcts_bot.hpp — the native MCTS player and the player dispatch every bot
// caller uses ("random", "greedy", "mcts[:simulations]", "az[:simulations]").
//
// The MCTS player runs `simulations` PUCT descents on a SearchTree rooted in
// the position (its chance stream reseeded, so it never sees the game's future
// draws), with a native leaf value (MctsEval), and plays the root action with
// the most visits (ties: the higher mean value, then the lower row). One
// decision is one action.
// The prior is softmax(greedy one-ply gain / root_prior_temperature) (0: uniform),
// at the root only or at every node of the mover's turn (prior_scope). The shipped
// scope, kInherited, gets it nearly for the price of the root-only prior: a node
// reuses its parent's weight for every action the parent also had, and the actions
// its last move made legal wait with End Turn's weight until the node has
// probe_visits visits. The tree stops at the
// mover's End Turn (turn_horizon 1): the node after it is a leaf, evaluated on
// every visit, so every value compares positions within the mover's turn and
// End Turn is not judged by the opponent's (searched) replies.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../engine/bots.hpp"
#include "az_bot.hpp"
#include "tree.hpp"

namespace polyenv {

enum class MctsEval : int8_t {
  kHeuristic,  // tanh(greedy evaluation / scale) of the leaf, from each player's seat
  kMargin,     // tanh(score margin / scale)
  kRollout,    // kMargin after a short uniformly random rollout
  // kHeuristic after the greedy bot played on from the leaf until `rollout_turns`
  // player turns have ended since the root: every leaf is judged at the same turn
  // boundary instead of in the middle of a turn.
  kGreedyRollout,
};

struct MctsBotConfig {
  int simulations = 200;
  double c_puct = 2.0;
  MctsEval eval = MctsEval::kHeuristic;
  int rollout_actions = 20;  // kRollout: its length; kGreedyRollout: a cap on its actions
  int rollout_turns = 1;     // kGreedyRollout: turn ends since the root before the evaluation
  double scale = 0;  // value scale; 0: the evaluation's default
  // > 0: the root's prior is softmax(greedy one-ply gain / this) instead of uniform
  // (the greedy evaluation's units: a 10-HP warrior is worth 46).
  double root_prior_temperature = 10;  // kDefaultRootPriorTemperature
  // Which nodes get that greedy-gain prior (when the temperature is > 0): the root only,
  // every node of the root player's current turn, or every node.
  // kInherited: as kMoverTurn, but a node reuses its parent's prior weight for every action the
  // parent also had (only the newly legal actions are applied, see probe_visits).
  enum PriorScope : int8_t { kRootOnly = 0, kMoverTurn = 1, kEveryNode = 2, kInherited = 3 };
  int prior_scope = kInherited;  // kDefaultPriorScope
  // kInherited: a node's newly legal actions are probed once the node has this many visits
  // (1: when it is expanded; 0: never, the root excepted); until then their prior weight is End Turn's.
  int probe_visits = 3;  // kDefaultProbeVisits
  // > 0: a node this many player turns after the root is never expanded, only
  // evaluated (1: the tree holds the mover's own turn only, End Turn is a leaf).
  int turn_horizon = 1;  // kDefaultTurnHorizon
};

// Reused between decisions: no allocation per decision once warm.
struct MctsBotScratch {
  SearchTree tree;
  LeafPath path;
  GameState transient;
  GameState rollout;
  GameState probe;  // a child state while the greedy-gain prior is computed
  BotScratch greedy;
  std::vector<int32_t> ids;
  std::vector<float> logits;
  std::vector<float> weights;       // kInherited: the node being expanded's prior weights, by row
  std::vector<float> edge_weights;  // by tree edge: its prior weight (kInherited), -1 if none or pending
  std::vector<uint8_t> node_pending;  // by node: it has pending edges (kInherited)
  std::vector<double> node_evals;     // by node: its mover's greedy evaluation (NaN: not known)
  std::vector<double> edge_evals;  // by tree edge: its child's greedy evaluation for the edge's mover, if probed
  std::vector<double> probe_evals;  // the same for the node being expanded, by row
  double leaf_raw[kMaxPlayers];     // this simulation's leaf evaluation per player (NaN: not yet)
  std::vector<double> baseline;  // the root's evaluation per player (values are changes from it)
  int32_t horizon = 0;           // kGreedyRollout: evaluate once turns_played reaches this
  MoveCache moves;
};

int32_t mcts_bot_action(const GameState& s, const MctsBotConfig& cfg, Rng& rng, MctsBotScratch& scratch);
// The root visits of the last search in `scratch` by legal row into visits[0, n) (n: the
// root's legal actions); a position the search did not expand (one legal action) gives
// row 0 one visit.
void mcts_root_visits(const MctsBotScratch& scratch, int n, int32_t* visits);

// A bot as every caller names it: kind plus, for MCTS and az, its simulation budget
// (and for az, its network).
inline constexpr int kMctsBot = kNumBots;   // codes after the engine's bots
inline constexpr int kAzBot = kNumBots + 1;
inline constexpr int kNumPlayers = kNumBots + 2;
inline constexpr const char* kMctsBotName = "mcts";
inline constexpr const char* kAzBotName = "az";
// 2000 with the shipped prior won 154 of 200 games against greedy (800: 141) at about
// 4.5 ms per decision (docs/mcts_pool.md).
inline constexpr int kDefaultMctsSimulations = 2000;
// The shipped bot's root prior temperature (0 would be the uniform prior of issue 14;
// the greedy-gain root prior won 66 % against greedy where the uniform prior won 60 %,
// same 200 games, mcts:800 — docs/mcts_pool.md).
inline constexpr double kDefaultRootPriorTemperature = 10;
// The shipped bot's turn horizon (0: unlimited, as before): 1 won 136 of 200 games
// against greedy where the unlimited tree won 132 (same games, mcts:800 — docs/mcts_pool.md).
inline constexpr int kDefaultTurnHorizon = 1;
// The shipped bot's prior scope: the greedy-gain prior at every node of the mover's turn,
// inherited from the parent node where the action was legal there (kInherited), with
// the newly legal actions probed once a node has 3 visits. Every node probing every action
// (kMoverTurn, mcts:800) won 151 of 200 games against greedy where the root-only prior won
// 136, but ran at a third of the root-only prior's iterations/s; kInherited (mcts:2000) won
// 154 at 0.80-0.89 of the root-only prior's iterations/s (docs/mcts_pool.md, benchmarks/mcts.py).
inline constexpr int kDefaultPriorScope = MctsBotConfig::kInherited;
inline constexpr int kDefaultProbeVisits = 3;

struct BotSpec {
  int kind = kRandomBot;  // BotKind, kMctsBot or kAzBot
  int simulations = kDefaultMctsSimulations;
  const AzNet* net = nullptr;  // kAzBot: its network (az_net(index); never freed)
};

// Scratch of any player (the MCTS and az parts are allocated on first use).
struct PlayerScratch {
  BotScratch bot;
  std::unique_ptr<MctsBotScratch> mcts;
  std::unique_ptr<AzBotScratch> az;
};

// The spec of bot `kind` with `simulations` (MCTS, az) and, for az, the network registered
// at `net_index` (az_net.hpp). Checked (InvalidArgument): a known kind, simulations >= 1,
// a registered network for az.
BotSpec make_bot_spec(int kind, int simulations, int net_index);
// Checks a spec (InvalidArgument): a known kind, simulations >= 1, az with a network.
void check_bot_spec(const BotSpec& spec);
int32_t player_action(const GameState& s, const BotSpec& spec, Rng& rng, PlayerScratch& scratch);

}  // namespace polyenv
