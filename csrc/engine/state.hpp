// state.hpp — GameState, a plain value. Every container is a std::vector of
// trivially copyable structs sized at setup, so `a = b` between states of the
// same shape is a handful of memcpys with no allocation (clone == copy).
#pragma once
#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "rng.hpp"
#include "rules.hpp"

namespace polyenv {

// One board cell. `city` is the territory owner (city index) or -1; a city
// centre belongs to its own city. `unit` indexes GameState::units or is -1.
struct Tile {
  int8_t terrain = kPlain;
  int8_t resource = kNoResource;
  int8_t building = kNoBuilding;
  int8_t building_level = 0;  // temples: 1..5
  int8_t temple_turns = 0;    // turns since the temple's last level
  uint8_t road = 0;
  uint8_t road_link = 0;  // road-or-city tile next to another one: road steps possible here
  uint8_t pad = 0;
  int16_t city = -1;
  int16_t unit = -1;
  bool operator==(const Tile&) const = default;
};

struct Unit {
  int32_t uid = 0;  // global actor id; 0 marks a free slot
  int8_t type = kNoUnit;
  int8_t owner = -1;
  int8_t status = kFinished;
  int8_t land_type = kNoUnit;  // the land unit a boat carries
  int16_t hp = 0;
  int16_t max_hp = 0;
  int16_t tile = -1;
  int16_t home_city = -1;  // supporting city or -1 (tribe-level unit)
  uint8_t kills = 0;
  uint8_t veteran = 0;
  // Place in the home city's unit list, 0 .. supported - 1 in the order units joined it (0 when
  // tribe-level): a capture re-homes the last of the list (§8.4), which is not always the newest unit.
  uint16_t home_order = 0;
  bool alive() const { return uid != 0; }
  bool operator==(const Unit&) const = default;
};

enum CityFlag : uint8_t { kCityCapital = 1, kCityWalls = 2, kCityOriginalCapital = 4 };

struct City {
  int32_t uid = 0;
  int32_t worth = 0;      // border + population + level-up + park + temple points (§12.3)
  int16_t tile = -1;
  int16_t population = 0;
  int16_t supported = 0;  // units whose home_city is this city
  int8_t owner = -1;
  int8_t level = 1;
  int8_t bound = 1;       // territory radius
  uint8_t flags = 0;      // CityFlag bits
  int8_t workshops = 0;   // production bonus from Workshop rewards
  int8_t parks = 0;
  uint8_t connected = 0;  // linked to its owner's capital by the trade network
  int8_t customs_ports = 0;  // Customs House / Port pairs paying this city (+2 production each)
  uint16_t acquired = 0;  // when its owner got it (Tribes' per-tribe city list order: level-up offers, §8.1)
  bool capital() const { return flags & kCityCapital; }
  bool walls() const { return flags & kCityWalls; }
  bool operator==(const City&) const = default;
};

enum PlayerResult : int8_t { kPlaying = 0, kWin = 1, kLoss = 2 };

struct Player {
  int8_t tribe = kXinXi;
  int8_t result = kPlaying;
  uint8_t alive = 1;
  uint8_t declared_war_this_turn = 0;
  int32_t stars = 0;
  int32_t score = 0;
  uint32_t techs = 0;               // bit per Tech
  uint32_t researched = 0;          // techs gained through the Research action (kept in the state; no rule reads it)
  int16_t kills = 0;
  int16_t capital_city = -1;        // this tribe's own starting capital
  int16_t num_cities = 0;
  int16_t pacifist_turns = 0;
  int16_t stars_sent_this_turn = 0;
  int16_t wars_declared = 0;
  int32_t stars_sent = 0;
  int16_t connected_cities = 0;
  uint8_t monuments_available = 0;  // bit per monument (Building - kFirstMonument)
  uint8_t monuments_built = 0;
  uint16_t met = 0;                 // bit per player this tribe has met
  uint16_t pad0 = 0;
  int32_t units_sighted = 0;        // observed unit ids this player has given (its next is units_sighted + 1)
  int16_t explored_count = 0;
  std::array<int8_t, kMaxPlayers> allegiance{};
  uint16_t pad1 = 0;
  bool has(int tech) const { return (techs >> tech) & 1u; }
  // §4: an unknown tech whose parent is known (or that has no parent). Research, ruins and meeting a
  // tribe grant only such techs; a starting tech is the one exception (§2).
  bool can_learn(int tech) const {
    const int parent = kTechs[std::size_t(tech)].parent;
    return !has(tech) && (parent == kNoTech || has(parent));
  }
  bool operator==(const Player&) const = default;
};

// Raw serialization and equality rely on structs without padding bytes.
static_assert(std::has_unique_object_representations_v<Tile>);
static_assert(std::has_unique_object_representations_v<Unit>);
static_assert(std::has_unique_object_representations_v<City>);
static_assert(std::has_unique_object_representations_v<Player>);

struct SightingsPending {
  static constexpr int kSlots = 6;
  uint8_t all = 1;         // anything: check every unit
  uint8_t count = 0;       // units placed or moved (`slots`; more: `all`)
  uint16_t players = 0;    // bit per player whose explored area grew
  std::array<int16_t, kSlots> slots{};
};

// The rows of GameState::tile_bits: one per terrain, the tiles holding a port, the road-or-city
// tiles (road steps end there), the road links (road steps start there), the territory of any
// tribe, then each tribe's territory (kTileBitsOwnedBy + player), then the tiles holding each
// tribe's units (GameState::unit_bits_of).
enum TileBitRow : int {
  kTileBitsTerrain = 0,  // + terrain
  kTileBitsPort = kNumTerrains,
  kTileBitsRoadOrCity,
  kTileBitsRoadLink,
  kTileBitsTerritory,
  kTileBitsOwnedBy  // + player
};

struct GameState {
  // -- configuration (fixed for the game)
  int8_t map_size = 0;
  int8_t num_players = 0;
  int8_t mode = kCapitals;
  uint8_t full_observability = 0;
  uint8_t auto_end_turn = 1;       // end the turn when End Turn is the only legal action
  int16_t turn_limit = kCapitalsTurnLimit;
  int16_t num_tiles = 0;
  // -- progress
  int32_t tick = 0;            // rounds completed (Tribes' tick)
  int32_t turns_played = 0;    // player turns started, all players
  int8_t current_player = 0;
  int8_t game_over = 0;
  int8_t winner = -1;
  int16_t pending_city = -1;   // city whose level-up reward must be chosen
  int32_t next_uid = 1;
  int64_t actions_applied = 0;  // 64 bits: a turn's actions are bounded by stars, not the board
  int32_t road_links = 0;      // tiles with road_link set (0: no road step anywhere)
  // Process-unique stamp, renewed by every change that can alter a unit's reach
  // for the current player (MoveCache). Not part of equality or serialization.
  uint64_t move_epoch = 0;
  // Process-unique stamp, renewed by every change of which tiles and cities make up a tribe's
  // territory (cities' owners and borders); always together with move_epoch. Derived like it.
  uint64_t territory_epoch = 0;
  // Process-unique stamp, renewed by every change of a tile's terrain, resource or building
  // (what the build and tile-action candidates read of the board: TileScan); also with the
  // territory epoch. Derived like it.
  uint64_t tile_epoch = 0;
  // What may have shown a unit to a player who has no observed id for it since the last
  // note_sightings (world.hpp): apply_action gives ids only to these candidates. Derived: not part
  // of equality or serialization (a new or deserialized state checks everything once).
  SightingsPending sightings;
  // Test-only hook (tools/differential, GameEnv._test_force_ruins): the outcome the next Examine
  // must have instead of its draw, -1 = draw as usual. Never set by the engine itself; not part
  // of equality or serialization.
  int8_t forced_ruins_outcome = -1;
  int8_t forced_ruins_tech = -1;
  // Test-only hook (polyenv.evaluation.java lockstep games, Game._test_force_draws): the tech each meeting of the next
  // action draws and the explorer's steps, as the Java engine drew them; the caller clears them after the
  // action. Never set by the engine itself; not part of equality or serialization.
  struct ForcedDraws {
    static constexpr int kMeetings = 8;
    int8_t meetings = 0;                                        // entries in use
    std::array<std::array<int8_t, 3>, kMeetings> meeting{};     // player, tribe met, tech drawn
    int8_t explorer_steps = -1;                                 // -1: the explorer draws its own steps
    std::array<int16_t, kExplorerSteps> explorer{};             // the tiles it steps to, in order
  } forced_draws;
  Rng rng;
  // -- world
  std::vector<Tile> tiles;
  std::vector<Unit> units;     // slots; free slots have uid 0; size() = highest slot used + 1
  std::vector<City> cities;    // created on capture; capacity reserved at setup
  std::vector<Player> players;
  std::vector<uint64_t> explored;  // num_players rows of explored_words() words
  // Observed unit ids: [slot * num_players + p] is player p's alias of the unit in that slot, given
  // at first sight in p's own order (0: not seen yet), so no alias depends on hidden events.
  std::vector<int32_t> unit_alias;
  // Derived: the tiles as bitsets, tile_bits_rows() rows (TileBitRow) of explored_words() words
  // (bit t of a row: tile t; bits past the board clear), for word-parallel board scans (the legal
  // list, the movement search). Kept in step with `tiles`, the cities' owners and the units by
  // refresh_tile_bits, touch_territory and the unit primitives (world.hpp); a state put together
  // field by field must call rebuild_tile_bits before use. check_invariants verifies them. Not part
  // of equality or serialization.
  std::vector<uint64_t> tile_bits;

  int explored_words() const { return (num_tiles + 63) / 64; }
  bool explored_by(int player, int tile) const {
    return (explored[std::size_t(player) * explored_words() + (tile >> 6)] >> (tile & 63)) & 1u;
  }
  int tile_bits_rows() const { return kTileBitsOwnedBy + 2 * num_players; }
  const uint64_t* tile_bits_of(int row) const { return tile_bits.data() + std::size_t(row) * explored_words(); }
  const uint64_t* terrain_bits_of(int terrain) const { return tile_bits_of(int(kTileBitsTerrain) + terrain); }
  const uint64_t* territory_bits_of(int player) const { return tile_bits_of(kTileBitsOwnedBy + player); }
  const uint64_t* unit_bits_of(int player) const { return tile_bits_of(kTileBitsOwnedBy + num_players + player); }
  int tile_index(int x, int y) const { return x * map_size + y; }
  int tile_x(int tile) const { return tile / map_size; }
  int tile_y(int tile) const { return tile % map_size; }
  bool on_board(int x, int y) const { return x >= 0 && y >= 0 && x < map_size && y < map_size; }
  int distance(int a, int b) const {
    int dx = tile_x(a) - tile_x(b), dy = tile_y(a) - tile_y(b);
    dx = dx < 0 ? -dx : dx; dy = dy < 0 ? -dy : dy;
    return dx > dy ? dx : dy;
  }
  // Player owning a tile's territory, or -1.
  int tile_owner(int tile) const {
    int c = tiles[tile].city;
    return c < 0 ? -1 : cities[c].owner;
  }
  const Unit* unit_at(int tile) const { int u = tiles[tile].unit; return u < 0 ? nullptr : &units[u]; }
  bool operator==(const GameState& o) const {
    return map_size == o.map_size && num_players == o.num_players && mode == o.mode &&
           full_observability == o.full_observability && auto_end_turn == o.auto_end_turn &&
           turn_limit == o.turn_limit && num_tiles == o.num_tiles && tick == o.tick && turns_played == o.turns_played &&
           current_player == o.current_player && game_over == o.game_over && winner == o.winner &&
           pending_city == o.pending_city && next_uid == o.next_uid && actions_applied == o.actions_applied &&
           road_links == o.road_links && rng == o.rng && tiles == o.tiles && units == o.units && cities == o.cities &&
           players == o.players && explored == o.explored && unit_alias == o.unit_alias;
  }
};

// 8-neighbourhood and radius-r areas, clipped to the board.
template <class F>
inline void for_each_in_radius(const GameState& s, int tile, int radius, F&& f) {
  const int n = s.map_size, x0 = tile / n, y0 = tile % n;
  const int x1 = x0 + radius < n ? x0 + radius : n - 1, y1 = y0 + radius < n ? y0 + radius : n - 1;
  for (int x = x0 - radius > 0 ? x0 - radius : 0; x <= x1; ++x) {
    for (int y = y0 - radius > 0 ? y0 - radius : 0; y <= y1; ++y) f(x * n + y);
  }
}
template <class F>
inline void for_each_neighbour(const GameState& s, int tile, F&& f) {
  for_each_in_radius(s, tile, 1, [&](int t) { if (t != tile) f(t); });
}
// Whether `player` sees `tile` (always without fog).
inline bool sees_tile(const GameState& s, int player, int tile) {
  return s.full_observability || s.explored_by(player, tile);
}

}  // namespace polyenv
