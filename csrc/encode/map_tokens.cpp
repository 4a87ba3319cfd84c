// map_tokens.cpp — encode_map_tokens and encode_state (seed 000 layouts).
//
// Map token, 23 int32 per tile, tile index x*N + y:
//   0 explored            1 explored by the observer (or full observability), else 0
//   1 terrain             Terrain
//   2 resource            Resource, -1 none; crops/ore/whales read -1 until the
//                         observer has Organization/Climbing/Fishing (§4, also
//                         with full observability) or a tech with a legal action
//                         on them (Farming/Mining/Whaling): sees_resource
//   3 building            Building, -1 none
//   4 building_level      temple level (1..5) on temples, else 0
//   5 road                0/1
//   6 territory_owner     relative owner of the territory (0 none, 1 self, 2.. others)
//   7 territory_city_tile tile index of the owning city's centre when the observer
//                         sees that centre; -1 none or hidden
//   8 city_owner          relative owner of the city centred here (0 none)
//   9 city_level          level, -1 no city
//  10 city_population     own city: population; opponent's or no city: -1
//  11 city_flags          bits 1 capital, 2 walls, 4 workshop, 8 park,
//                         16 connected to capital (own cities only: an enemy's
//                         link may run over hidden roads); 0 when no city
//  12 city_production     own city: city_production(); otherwise -1
//  13 unit_owner          relative owner of the unit here (0 none)
//  14 unit_type           UnitType, -1 none
//  15 unit_hp             hp, -1 none
//  16 unit_max_hp         max hp, -1 none
//  17 unit_status         UnitStatus, -1 none
//  18 unit_flags          bit 1 veteran; 0 when no unit
//  19 unit_kills          own unit: kills; opponent's or none: -1
//  20 unit_carried_type   boats/ships: the carried land type; otherwise -1
//  21 observed_unit_id    observed_unit_id(observer, slot): 1, 2, ... in the
//                         order the observer first saw units; -1 none
//  22 unit_home_city_tile own unit: its home city's centre tile (-1 tribe-level); else -1
// An unexplored tile (fog) is all zeros, column 0 included.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "encode.hpp"
#include "layout.hpp"

namespace polyenv {

namespace {

// The engine's one rule (sees_resource, engine/game.hpp): §4's revealing tech, or a tech whose legal
// actions depend on the resource, so the tokens explain the observer's own legal list.
inline int32_t visible_resource(const Player& p, int r) { return r == kNoResource || sees_resource(p, r) ? r : -1; }

// The columns from kColCityOwner on of a tile with neither a city centre nor a unit (most
// tiles): written as one block, then overwritten where a city or a unit stands.
constexpr int kTailCols = kMapTokenFeatures - kColCityOwner;
static_assert(kColUnitOwner == kColCityProduction + 1 && kColUnitHomeCityTile == kMapTokenFeatures - 1);
inline constexpr std::array<int32_t, kTailCols> kEmptyTail = [] {
  std::array<int32_t, kTailCols> t{};
  for (int col : {kColCityLevel, kColCityPopulation, kColCityProduction, kColUnitType, kColUnitHp, kColUnitMaxHp,
                  kColUnitStatus, kColUnitKills, kColUnitCarriedType, kColObservedUnitId, kColUnitHomeCityTile}) {
    t[size_t(col - kColCityOwner)] = -1;  // the owner, flags columns stay 0
  }
  return t;
}();

// What one call's tokens share, computed once: the observer's view of each resource and
// of each city's territory (its relative owner, and its centre tile when the observer sees it).
struct TokenView {
  const GameState& s;
  int observer;
  std::array<int32_t, kMaxPlayers + 1> code;                // owner_code by owner + 1
  std::array<int32_t, kNumResourceKeys + 1> resource;       // visible_resource by resource + 1
  std::array<int32_t, kMaxMapSize * kMaxMapSize> territory_code, territory_tile;  // by city (cities.size() set)

  TokenView(const GameState& state, int obs) : s(state), observer(obs) {
    code[0] = 0;
    for (int p = 0; p < s.num_players; ++p) code[size_t(p) + 1] = owner_code(s, observer, p);
    const Player& me = s.players[observer];
    for (int r = -1; r < kNumResourceKeys; ++r) resource[size_t(r + 1)] = visible_resource(me, r);
    for (size_t c = 0; c < s.cities.size(); ++c) {
      territory_code[c] = code[size_t(s.cities[c].owner + 1)];
      territory_tile[c] = sees_tile(s, observer, s.cities[c].tile) ? s.cities[c].tile : -1;
    }
  }
};

// One explored tile's token.
void encode_tile(const TokenView& v, int tile, int32_t* __restrict o) {
  const GameState& s = v.s;
  const Tile& t = s.tiles[tile];
  o[kColExplored] = 1;
  o[kColTerrain] = t.terrain;
  o[kColResource] = v.resource[size_t(t.resource + 1)];
  o[kColBuilding] = t.building;
  o[kColBuildingLevel] = is_temple(t.building) ? t.building_level : 0;
  o[kColRoad] = t.road ? 1 : 0;
  std::memcpy(o + kColCityOwner, kEmptyTail.data(), sizeof kEmptyTail);

  // Territory and the city centred on this tile (a centre belongs to its own city).
  if (t.city < 0) {
    o[kColTerritoryOwner] = 0;
    o[kColTerritoryCityTile] = -1;
  } else {
    o[kColTerritoryOwner] = v.territory_code[size_t(t.city)];
    o[kColTerritoryCityTile] = v.territory_tile[size_t(t.city)];
    const City& c = s.cities[t.city];
    if (c.tile == tile) {
      const bool own = c.owner == v.observer;
      o[kColCityOwner] = v.territory_code[size_t(t.city)];
      o[kColCityLevel] = c.level;
      o[kColCityPopulation] = own ? c.population : -1;
      int32_t flags = 0;
      if (c.capital()) flags |= kTokCapital;
      if (c.walls()) flags |= kTokWalls;
      if (c.workshops > 0) flags |= kTokWorkshop;
      if (c.parks > 0) flags |= kTokPark;
      if (own && c.connected) flags |= kTokConnected;
      o[kColCityFlags] = flags;
      o[kColCityProduction] = own ? city_production(s, t.city) : -1;
    }
  }

  const Unit* u = s.unit_at(tile);
  if (u && u->alive()) {
    const bool own = u->owner == v.observer;
    o[kColUnitOwner] = v.code[size_t(u->owner + 1)];
    o[kColUnitType] = u->type;
    o[kColUnitHp] = u->hp;
    o[kColUnitMaxHp] = u->max_hp;
    o[kColUnitStatus] = u->status;
    o[kColUnitFlags] = u->veteran ? kTokVeteran : 0;
    o[kColUnitKills] = own ? u->kills : -1;
    o[kColUnitCarriedType] = is_naval(u->type) ? u->land_type : -1;
    o[kColObservedUnitId] = observed_unit_id(s, v.observer, t.unit);
    o[kColUnitHomeCityTile] = (own && u->home_city >= 0) ? s.cities[u->home_city].tile : -1;
  }
}

}  // namespace

void encode_map_tokens(const GameState& s, int observer, int32_t* out, uint64_t* zero_tiles) {
  const int n = s.num_tiles;
  const TokenView view(s, observer);
  auto token = [&](int tile) { return out + size_t(tile) * kMapTokenFeatures; };
  const int words = s.explored_words();
  if (s.full_observability) {
    for (int tile = 0; tile < n; ++tile) encode_tile(view, tile, token(tile));
    if (zero_tiles) std::fill(zero_tiles, zero_tiles + words, uint64_t(0));
    return;
  }
  // Word by word of the observer's explored bitset: explored tiles get their
  // token; unexplored ones are zeroed in runs — in a tracked buffer only those
  // not all zero already (fog only recedes).
  const uint64_t* explored = s.explored.data() + size_t(observer) * size_t(words);
  for (int w = 0; w < words; ++w) {
    const int bits = std::min(64, n - 64 * w);
    const uint64_t valid = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    const uint64_t seen = explored[w] & valid;
    uint64_t clear = ~seen & valid & (zero_tiles ? ~zero_tiles[w] : ~uint64_t(0));
    while (clear) {
      const int b = std::countr_zero(clear);
      const uint64_t rest = ~(clear >> b);
      const int len = rest == 0 ? 64 - b : std::countr_zero(rest);
      std::memset(token(64 * w + b), 0, sizeof(int32_t) * kMapTokenFeatures * size_t(len));
      clear = b + len >= 64 ? 0 : clear & (~uint64_t(0) << (b + len));
    }
    for (uint64_t m = seen; m; m &= m - 1) {
      const int tile = 64 * w + std::countr_zero(m);
      encode_tile(view, tile, token(tile));
    }
    if (zero_tiles) zero_tiles[w] = ~seen & valid;  // the tiles left all zero
  }
}

// State, 11 int32 (seed 000 order):
//   turn (s.tick), current_player (absolute), game_over, winner (absolute, -1),
//   player_stars (observer's), owns_units (observer's live units), own_cities
//   (observer's cities), next_turn_star_income (star_income(observer)),
//   pending_city_id (tile of the pending city when the observer is the current
//   player, else -1), pending_upgrade_a/b (LevelUpReward ids offered for the
//   city's next level, reward_a/b(level + 1), else -1).
void encode_state(const GameState& s, int observer, int32_t* out) {
  const Player& me = s.players[observer];
  int32_t units = 0;
  for (const Unit& u : s.units) units += (u.alive() && u.owner == observer) ? 1 : 0;
  int32_t cities = 0;
  for (const City& c : s.cities) cities += c.owner == observer ? 1 : 0;

  out[kStTurn] = s.tick;
  out[kStCurrentPlayer] = s.current_player;
  out[kStGameOver] = s.game_over ? 1 : 0;
  out[kStWinner] = s.winner;
  out[kStStars] = me.stars;
  out[kStOwnsUnits] = units;
  out[kStOwnCities] = cities;
  out[kStIncome] = star_income(s, observer);
  if (s.pending_city >= 0 && observer == s.current_player) {
    const City& c = s.cities[s.pending_city];
    out[kStPendingCity] = c.tile;
    out[kStPendingUpgradeA] = reward_a(c.level + 1);
    out[kStPendingUpgradeB] = reward_b(c.level + 1);
  } else {
    out[kStPendingCity] = out[kStPendingUpgradeA] = out[kStPendingUpgradeB] = -1;
  }
}

}  // namespace polyenv
