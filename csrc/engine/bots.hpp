// bots.hpp — built-in players: "random" (uniform over the legal list) and
// "greedy" (one-ply heuristic in the spirit of Tribes' SimpleAgent).
#pragma once
#include <cstdint>
#include <stdexcept>
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

// A bot that never hands the turn back is a bug: play_until stops it instead of hanging.
inline constexpr int kMaxBotActions = 1 << 20;

// The one bot turn loop of every caller (VectorGameEnv's opponents, the bot
// bindings of GameEnv): applies choose(state, rng) while the game is not over,
// the player to move is not in `stop_seats` (bit per seat) and fewer than
// `max_turns` turns have ended (< 0: no limit). `rng` is the bot stream: at the
// start of every turn it is reseeded from the position (bot_rng_for_position),
// except for the first turn when `keep_first_stream` (a caller-seeded stream).
// Returns the number of actions applied; throws std::runtime_error after
// kMaxBotActions actions.
template <class Choose>
int play_until(GameState& s, uint32_t stop_seats, int max_turns, Rng& rng, bool keep_first_stream, EventSink* sink,
               Choose&& choose) {
  const int32_t start = s.turns_played;
  int32_t turn = keep_first_stream ? start : -1;
  int applied = 0;
  while (!s.game_over && !((stop_seats >> s.current_player) & 1u) &&
         (max_turns < 0 || s.turns_played - start < max_turns)) {
    if (++applied > kMaxBotActions) throw std::runtime_error("the bot did not end its turn");
    if (s.turns_played != turn) {
      rng = bot_rng_for_position(s);
      turn = s.turns_played;
    }
    apply_action(s, choose(static_cast<const GameState&>(s), rng), sink);
  }
  return applied;
}

}  // namespace polyenv
