// bots.hpp — built-in players: "random" (uniform over the legal list) and
// "greedy" (one-ply heuristic in the spirit of Tribes' SimpleAgent).
#pragma once
#include <cstdint>
#include <vector>

#include "game.hpp"

namespace polyenv {

enum BotKind : int8_t { kRandomBot = 0, kGreedyBot = 1 };
inline constexpr int kNumBots = 2;
inline constexpr const char* kBotNames[kNumBots] = {"random", "greedy"};

// Scratch memory a bot reuses between decisions (no allocation per action once warm).
struct BotScratch {
  std::vector<int32_t> legal;
  GameState branch;
};

// A bot stream seeded from `seed`: every API derives bot streams this way, so
// the same position and seed give the same choices everywhere.
Rng bot_rng(uint64_t seed);
// The stream of a bot that starts a turn in `s` without an explicit seed: derived
// from the position itself (the Gymnasium env, VectorGameEnv and polyenv.bots agree).
Rng bot_rng_for_position(const GameState& s);

// The action the bot plays in state `s` (which must not be over). Deterministic in `rng`.
int32_t bot_action(const GameState& s, BotKind bot, Rng& rng, BotScratch& scratch);
// The greedy bot's evaluation of `s` for `player` (higher is better; a won game
// is +1e7, a lost one -1e7). Used as a search heuristic by the MCTS player.
double bot_evaluation(const GameState& s, int player);
// Plays the current player's moves with `bot` until its turn ends or the game ends.
// Returns the number of actions applied.
int bot_play_turn(GameState& s, BotKind bot, Rng& rng, BotScratch& scratch);

}  // namespace polyenv
