// counter_limits.hpp — the one place where every counter of a GameState is
// bounded, so that no state check_invariants accepts (from_bytes checks every
// state it loads) can overflow a counter before the game ends.
//
// Each counter has two bounds:
// - an invariant bound (check_invariants): what a game can reach;
// - a load bound (from_bytes, check_loadable_counters), at most the invariant
//   bound minus what the rest of the game can add, so that every state
//   reached by playing on from a loaded state keeps the invariants and no
//   counter overflows before the game ends. Every state a game reaches from
//   its start is within the load bounds (so it saves and loads again).
// Counters that grow at most once per round or per turn: a loaded state may
// hold as many rounds' worth as it has begun (tick + 1); play adds at most one
// round's worth per round, and the game ends after its turn limit, so the
// invariants allow the rounds a game can begin plus one (turn limit + 3
// rounds' worth: scenario edits that give a player extra turns within a round
// are not tied to tick). Both stay far below the counters' types
// (static_asserts below). Counters whose growth within a turn depends on the
// board (ids, observed ids, actions) are bounded on load by their type's
// maximum minus the most a whole game can add, derived from the turn limit and
// the map capacity.
// Kills are the exception: a unit or a tribe can keep fighting for 10,000
// rounds, so no load bound would do; they saturate instead (world.hpp,
// count_kill), as do scores (add_score).
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

// ---- bounded by the rounds begun

// tick: end_turn ends the game in the round after its turn limit, so a game is at most one round
// past the limit while it goes on (a blank scenario with max_turns 0 starts there), and at most two
// once it is over.
inline int64_t loadable_max_tick(const GameState& s) { return int64_t(s.turn_limit) + 1; }
inline int64_t max_tick(const GameState& s) { return int64_t(s.turn_limit) + 2; }

// The rounds begun so far (0 .. tick): at most one turn of each player in each.
inline int64_t rounds_begun(const GameState& s) { return int64_t(s.tick) + 1; }
// A count growing by at most `per_round` a round: `per_round * rounds_begun` on load. Playing on
// adds at most `per_round` per round while the game goes on (tick <= turn limit + 1), so a game
// from a loaded state ends within `per_round * (turn limit + 3)`: the invariant bound.
inline int64_t loadable_per_round(const GameState& s, int64_t per_round) { return per_round * rounds_begun(s); }
inline int64_t max_per_round(const GameState& s, int64_t per_round) { return per_round * (int64_t(s.turn_limit) + 3); }

// What grows by at most this much per round: turns_played (start_turn: one turn per player),
// a player's wars_declared (declared_war_this_turn: one per own turn), pacifist_turns (+1 at an own
// turn's start with Meditation, back to 0 on an attack) and stars_sent (a send is legal while fewer
// than kMaxStarsSentPerTurn were sent this turn, and sends at most kMaxSendStars).
inline int64_t turns_per_round(const GameState& s) { return s.num_players; }
inline constexpr int kOwnTurnsPerRound = 1;
inline constexpr int kMaxStarsSentInATurn = kMaxStarsSentPerTurn + kMaxSendStars - 1;

// With a turn limit of at most kMaxTurnLimit these bounds stay below their counters' types.
static_assert(int64_t(kMaxTurnLimit + 3) * kMaxPlayers <= INT32_MAX);             // turns_played
static_assert(int64_t(kMaxTurnLimit + 3) * kOwnTurnsPerRound <= INT16_MAX);       // wars, pacifist turns
static_assert(int64_t(kMaxStarsSentInATurn) * (kMaxTurnLimit + 3) <= INT32_MAX);  // stars_sent

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
inline constexpr int kTempleLevelsScore =  // a temple's levels 2..5
    kTempleLevelScore[1] + kTempleLevelScore[2] + kTempleLevelScore[3] + kTempleLevelScore[4];
inline constexpr int64_t kMaxWorldWorth =
    int64_t(kMaxTiles) * (kTileClaimScore + kTempleLevelsScore) +
    int64_t(kMaxTiles) * (int64_t(kMaxSanePopulation) * kPopulationScore +
                          int64_t(kMaxSaneLevel) * (level_up_score(2) /* the largest */ + kParkScore));
static_assert(kMaxWorldWorth < INT32_MAX / 4);
// A player's score moves by bounded steps, but not within a bound a game keeps: a converted unit's
// points stay with its first owner while the converter loses them when it dies, so endless
// conversions could drift a score in a 10,000-round game. Scores therefore saturate at +-kMaxScore
// (add_score; never reached by a real game), which keeps the difference of two scores
// (score_margin) within int32 too.
inline constexpr int32_t kMaxScore = INT32_MAX / 2;

}  // namespace polyenv
