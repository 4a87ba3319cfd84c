// counter_limits.hpp — the one place where every counter of a GameState is
// bounded, so that no state check_invariants accepts (from_bytes checks every
// state it loads) can overflow a counter before the game ends.
//
// Two kinds of bound:
// - Counters that grow at most once per round or per turn are bounded by the
//   turns the game can have had (counted from tick and the player to move),
//   in a form every action keeps: a state inside the bound stays inside it to
//   the end of the game, and the turn limit caps the bound far below the
//   counter's type (static_asserts below).
// - Counters whose growth within a turn depends on the board (ids, observed
//   ids, actions) get a load bound: their type's maximum minus the most a
//   whole game can still add, derived from the turn limit and map capacity.
// Kills are the exception: a unit or a tribe can keep fighting for 10,000
// rounds, so no load bound would do; they saturate instead (world.hpp,
// count_kill).
#pragma once
#include <climits>
#include <cstdint>

#include "rules.hpp"
#include "state.hpp"

namespace polyenv {

// Rounds a game can begin: 0 .. turn limit, and the one after the last ends it at once (end_turn).
inline constexpr int kMaxRounds = kMaxTurnLimit + 2;
// Player turns in a game: one per player per round.
inline constexpr int64_t kMaxPlayerTurns = int64_t(kMaxRounds) * kMaxPlayers;

// Sanity caps far above anything a game reaches (a city levels up as soon as its population
// reaches level + 1) and far below what their arithmetic could overflow.
inline constexpr int kMaxSanePopulation = 1000, kMaxSaneLevel = 100, kMaxSaneCount = 1000;

// ---- bounded by the turns played (kept by every action)

// tick: end_turn ends the game in the round after the last one, so a game in progress is at most
// one round past its limit (a blank scenario with max_turns 0 starts there) and a finished one two.
inline int max_tick(const GameState& s) { return s.turn_limit + (s.game_over ? 2 : 1); }

// turns_played: start_turn counts every turn begun, at most one per player per round: the
// rounds before this one and this round's turns up to the player to move.
inline int64_t max_turns_played(const GameState& s) {
  return int64_t(s.tick) * s.num_players + s.current_player + 1;
}

// The turns `player` can have begun: one per earlier round, and this round's if it is at or before
// the player to move. A per-turn count of the player is at most this; the player to move may still
// add its current turn's remainder, so `count + remainder <= per_turn * turns_begun` is what
// every action keeps (the remainder goes to 0 at the turn's end, the next turn begun adds 1).
inline int64_t turns_begun(const GameState& s, int player) {
  return int64_t(s.tick) + (player <= s.current_player ? 1 : 0);
}

// At most one war declaration per own turn (declared_war_this_turn).
inline int64_t max_wars_declared(const GameState& s, int player) {
  const bool may_declare = player == s.current_player && !s.players[size_t(player)].declared_war_this_turn;
  return turns_begun(s, player) - (may_declare ? 1 : 0);
}

// Stars sent: a send is legal while fewer than kMaxStarsSentPerTurn were sent this turn, and
// sends at most kMaxSendStars, so at most this many per own turn.
inline constexpr int kMaxStarsSentInATurn = kMaxStarsSentPerTurn + kMaxSendStars - 1;
inline int64_t max_stars_sent(const GameState& s, int player) {
  const Player& p = s.players[size_t(player)];
  const int still = player == s.current_player ? kMaxStarsSentInATurn - p.stars_sent_this_turn : 0;
  return int64_t(kMaxStarsSentInATurn) * turns_begun(s, player) - still;
}

// pacifist_turns: +1 at each own turn's start (with Meditation), back to 0 on an attack.
inline int64_t max_pacifist_turns(const GameState& s, int player) { return turns_begun(s, player); }

// With tick at most kMaxTurnLimit + 2, these bounds stay below their counters' types.
static_assert(int64_t(kMaxTurnLimit + 2) * kMaxPlayers + kMaxPlayers <= INT32_MAX);   // turns_played
static_assert(kMaxTurnLimit + 3 <= INT16_MAX);                                        // wars, pacifist turns
static_assert(int64_t(kMaxStarsSentInATurn) * (kMaxTurnLimit + 3) <= INT32_MAX);      // stars_sent

// ---- load bounds: the type's maximum minus what the rest of a game can add

// New unit and city ids (next_uid) in a game. In one player turn: a spawn per city (the new unit
// is finished and stays on the city tile), and per unit present at the turn's start at most three
// (a move onto or off water replaces the unit by a finished one; a boat upgrades twice: ship,
// battleship) — at most 4 per tile. Once per game: a city per tile (cities are never removed), a
// ruin's unit per tile (a ruin is used up), a level-up giant per city level.
inline constexpr int64_t kMaxNewIdsPerTurn = 4 * int64_t(kMaxTiles);
inline constexpr int64_t kMaxNewIdsPerGame =
    kMaxPlayerTurns * kMaxNewIdsPerTurn + int64_t(kMaxTiles) * (2 + kMaxSaneLevel);
inline constexpr int32_t kMaxLoadedNextUid = int32_t(INT32_MAX - kMaxNewIdsPerGame);
// units_sighted: a player gives an observed id once per unit it sees: at most the units on the
// board (one per tile) and every unit the rest of the game creates.
inline constexpr int32_t kMaxLoadedUnitsSighted = int32_t(INT32_MAX - kMaxNewIdsPerGame - kMaxTiles);
// actions_applied (64 bits): every action but End Turn spends stars (at most kMaxStars at a turn's
// start, plus what the turn's own actions return) or uses up a once-per-turn chance of a unit,
// city, tile, tech or rival, so a turn has far fewer than 2^31 actions.
inline constexpr int64_t kMaxActionsPerTurn = int64_t(1) << 31;
inline constexpr int64_t kMaxLoadedActionsApplied = INT64_MAX - kMaxPlayerTurns * kMaxActionsPerTurn;
static_assert(kMaxLoadedNextUid > 1'000'000'000 && kMaxLoadedUnitsSighted > 1'000'000'000);
static_assert(kMaxStars * 2 < kMaxActionsPerTurn);

// A city's worth: border claims (one city per tile), population, level-ups, parks and temple
// levels; with the caps above no city's worth (nor all worth on the board) exceeds this.
inline constexpr int64_t kMaxWorldWorth =
    int64_t(kMaxTiles) * (kTileClaimScore + 300 /* a temple's levels 2..5 */) +
    int64_t(kMaxTiles) * (int64_t(kMaxSanePopulation) * kPopulationScore + kMaxSaneLevel * 40 /* level_up_score */ +
                 int64_t(kMaxSaneLevel) * kParkScore);
static_assert(kMaxWorldWorth < INT32_MAX / 4);
// A player's score moves by bounded steps, but not within a bound a game keeps: a converted unit's
// points stay with its first owner while the converter loses them when it dies, so endless
// conversions could drift a score in a 10,000-round game. Scores therefore saturate at +-kMaxScore
// (add_score; never reached by a real game), which keeps the difference of two scores
// (score_margin) within int32 too.
inline constexpr int32_t kMaxScore = INT32_MAX / 2;

}  // namespace polyenv
