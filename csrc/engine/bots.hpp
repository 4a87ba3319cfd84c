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

// The action the bot plays in state `s` (which must not be over). Deterministic in `rng`.
int32_t bot_action(const GameState& s, BotKind bot, Rng& rng, BotScratch& scratch);
// Plays the current player's moves with `bot` until its turn ends or the game ends.
// Returns the number of actions applied.
int bot_play_turn(GameState& s, BotKind bot, Rng& rng, BotScratch& scratch);

}  // namespace polyenv
