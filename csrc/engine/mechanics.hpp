// mechanics.hpp — rule procedures shared between the legal-action
// enumerator (legal.cpp) and the transition function (step.cpp). Internal to
// the engine: callers outside csrc/engine use game.hpp.
#pragma once
#include <array>
#include <cstdint>

#include "game.hpp"
#include "world.hpp"

namespace polyenv {

// ---- §5 status machine
constexpr bool can_move_from(int type, int status) {
  switch (kUnits[type].pattern) {
    case kEscape: return status == kFresh || status == kAttacked || status == kMovedAndAttacked;
    default: return status == kFresh;
  }
}
constexpr bool can_attack_from(int type, int status) {
  switch (kUnits[type].pattern) {
    // Tribes' Unit.canTransitionTo lets a Giant attack from MOVED too (only a push leaves it MOVED).
    case kOneAction: return status == kFresh || (type == kGiant && status == kMoved);
    case kPersist: return status == kFresh || status == kMoved || status == kAttacked;
    default: return status == kFresh || status == kMoved;
  }
}
// The two as tables (bit per status, by unit type): the legal list asks them for every unit.
struct StatusTables {
  std::array<uint8_t, kNumUnitTypes> move{}, attack{};
};
constexpr StatusTables status_tables() {
  StatusTables t;
  for (int type = 0; type < kNumUnitTypes; ++type) {
    for (int status = kFresh; status <= kFinished; ++status) {
      t.move[type] |= uint8_t(can_move_from(type, status) << status);
      t.attack[type] |= uint8_t(can_attack_from(type, status) << status);
    }
  }
  return t;
}
inline constexpr StatusTables kStatusTables = status_tables();
inline bool can_move(const Unit& u) { return (kStatusTables.move[u.type] >> u.status) & 1u; }
inline bool can_attack(const Unit& u) { return (kStatusTables.attack[u.type] >> u.status) & 1u; }
void after_move_status(Unit& u);
void after_attack_status(Unit& u, bool killed);

// ---- §6 movement search. The fast search (move_boards.cpp) works on tile bitsets of the
// acting tribe's step classes (MoveBoards, game.hpp), kept between enumerations in a MoveCache;
// pathing.cpp holds the same rule tile by tile: the reference search that checks it.
inline constexpr int kMaxMove = kMaxUnitMovement;  // the largest movement of any unit type (rules.hpp)
inline constexpr int kMoveUnit = 256;   // movement in fixed point: 1/256 of a step
// Every step costs at least half a step and the movement spent stays below MOV + 1 steps.
inline constexpr int kMaxMoveSteps = 2 * kMaxMove + 1;
inline constexpr int kMoveWindow = 2 * kMaxMoveSteps + 1;
// The words of a unit's window (kMoveWindow rows of at most kMaxMapSize tiles, plus one word
// for a window that does not start on a word boundary): the most reachable_tiles writes.
inline constexpr int kMaxReachWords = (kMoveWindow * kMaxMapSize + 63) / 64 + 1;
// Bits [lo, lo + len) of a tile bitset (len <= 57), as the low bits of the result.
inline uint64_t bit_range(const uint64_t* bits, int lo, int len) {
  const int w = lo >> 6, b = lo & 63;
  uint64_t v = bits[w] >> b;
  if (b + len > 64) v |= bits[w + 1] << (64 - b);
  return v & ((uint64_t(1) << len) - 1);
}
// Brings `b` up to date for the acting tribe of `s`; `foreign`: the tiles holding another
// tribe's unit (a tile bitset). With `keep`, rows whose epochs still match are reused; without
// (a caller that keeps nothing between lists), all are rebuilt and none is marked reusable.
void prepare_move_boards(const GameState& s, const uint64_t* foreign, MoveBoards& b, bool keep);
// The tiles the unit in `slot` (of the acting tribe) can reach, including tiles held by its own
// tribe's units (passable but not destinations): words first_word .. first_word + num_words - 1
// of a tile bitset, written to `out` (at most kMaxReachWords words).
struct Reach {
  int first_word, num_words;
};
Reach reachable_tiles(const GameState& s, int slot, const MoveBoards& b, uint64_t* out);
// True when the unit (of the current player, able to move) can move to an empty
// neighbour: a witness that reachable_tiles lists a destination, without a search.
bool has_one_step_move(const GameState& s, const Unit& u);
// The reference: each tile classified on its own (MoveContext) and a plain whole-board search
// with the step costs of the rule (checking only; legal_actions_reference).
struct MoveContext {
  int player = -1;
  uint8_t zoc[kMaxTiles];    // next to a unit of another tribe
  // Per tile, filled on first use: bits 0-1 the land class, bits 2-3 the naval
  // class (0 blocked, 1 ordinary step, 2 step that ends the move); 0xFF unknown.
  mutable uint8_t step_class[kMaxTiles];
};
void prepare_moves(const GameState& s, int player, MoveContext& ctx);
int reachable_tiles_reference(const GameState& s, int slot, const MoveContext& ctx, int16_t* out);
// Moves the unit along its path to `to`: embark/disembark, vision, status.
void move_unit(GameState& s, int slot, int to);
// §8.5 push test: can the unit of `player` be placed on `tile`?
bool push_target_usable(const GameState& s, int player, int tile);
// Places a unit on a usable tile, embarking it on a port (returns new slot).
int place_unit_on(GameState& s, int slot, int tile);
// Pushes the unit on `tile` out of the way (PUSHED), or kills it.
void push_unit_away(GameState& s, int tile);

// ---- §7 combat
double defence_bonus(const GameState& s, const Unit& defender);
CombatOutcome compute_combat(const GameState& s, const Unit& attacker, const Unit& defender);
bool can_target(const GameState& s, const Unit& attacker, int target_tile);
bool can_convert(const GameState& s, const Unit& bender, int target_tile);
void resolve_attack(GameState& s, int slot, int target_tile);
void resolve_convert(GameState& s, int slot, int target_tile);

// ---- §8, §9 cities, buildings and tile actions
int city_scan_radius(const City& c);
// The city whose territory (within its scan radius) holds `tile`, for the current player; -1 if none.
int acting_city_for_tile(const GameState& s, int tile);
bool can_build(const GameState& s, int city, int tile, int building);
// Bit per building type in `city`'s territory, and on the neighbours of `tile` (any owner's).
uint32_t city_buildings(const GameState& s, int city);
uint32_t neighbour_buildings(const GameState& s, int tile);
// can_build's board conditions given those masks: the base building next to a bonus building,
// one of a kind per city.
inline bool building_fits(int building, uint32_t neighbours, uint32_t in_city) {
  const BuildingInfo& info = kBuildings[building];
  if (info.adjacent_to >= 0 && !((neighbours >> info.adjacent_to) & 1u)) return false;
  return !(info.one_per_city && ((in_city >> building) & 1u));
}
bool can_tile_action(const GameState& s, int city, int tile, int kind);
void apply_build(GameState& s, int city, int tile, int building);
// apply_build without the payment: the building and all its effects (population,
// adjacency bonuses such as the Customs House income, score, Lumber Hut terrain).
void place_building(GameState& s, int city, int tile, int building);
void apply_tile_action(GameState& s, int city, int tile, int kind);
bool can_spawn(const GameState& s, int city, int unit_type);
void apply_level_up(GameState& s, int option);
void capture(GameState& s, int slot);
void examine_ruins(GameState& s, int slot);
void explore_from(GameState& s, int player, int tile);
bool can_build_road(const GameState& s, int player, int tile);

// §9.2 adjacency bonuses of `building` on `tile` of `player`'s city: pay(city, bonus_building)
// once per paired neighbour (a bonus building next to its base building, either way round),
// in scan order, to the city owning that neighbour; the scan stops at the first paired
// neighbour of another tribe.
template <class F>
void for_each_adjacency_bonus(const GameState& s, int tile, int building, int player, F&& pay) {
  const BuildingInfo& info = kBuildings[building];
  bool stopped = false;
  for_each_neighbour(s, tile, [&](int nb) {
    const int other = s.tiles[nb].building;
    if (stopped || other < 0) return;
    if (other != info.adjacent_to && kBuildings[other].adjacent_to != building) return;
    if (s.tile_owner(nb) != player) {
      stopped = true;
      return;
    }
    pay(int(s.tiles[nb].city), info.adjacent_to >= 0 ? building : other);
  });
}

// ---- §10, §11 unit and tribe actions
bool unit_self_legal(const GameState& s, const Unit& u, int kind);
void apply_unit_self(GameState& s, int slot, int kind);
bool can_research(const GameState& s, int player, int tech);
bool can_declare_war(const GameState& s, int player, int target);
int max_send_stars(const GameState& s, int player);  // largest n allowed now (0: none)

// ---- §12 turns
bool only_end_turn(const GameState& s);  // End Turn is the single legal action
void end_turn(GameState& s);
// Recomputes the pending level-up and plays forced End Turns (after setup or an edit).
void settle_turn(GameState& s);
void start_turn(GameState& s);
void finish_game(GameState& s, int forced_winner);

}  // namespace polyenv
