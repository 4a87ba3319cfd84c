// token_reader.cpp — PlayerKnowledge extraction and the map-token reader
// (token_reader.hpp). Column meanings are those of map_tokens.cpp, by name from layout.hpp.
#include "token_reader.hpp"

#include <algorithm>

#include "layout.hpp"

namespace polyenv {

namespace {

constexpr int F = kMapTokenFeatures;

std::string at_tile(int t) { return "tile " + std::to_string(t) + ": "; }

}  // namespace

void extract_knowledge(const GameState& live, int observer, PlayerKnowledge& out) {
  out.observer = observer;
  GameState& h = out.header;
  h.map_size = live.map_size;
  h.num_players = live.num_players;
  h.mode = live.mode;
  h.full_observability = live.full_observability;
  h.auto_end_turn = live.auto_end_turn;
  h.turn_limit = live.turn_limit;
  h.num_tiles = live.num_tiles;
  h.tick = live.tick;
  h.turns_played = live.turns_played;
  h.current_player = live.current_player;
  h.game_over = live.game_over;
  h.winner = live.winner;
  out.public_players.resize(live.players.size());
  for (size_t p = 0; p < live.players.size(); ++p) {
    const Player& src = live.players[p];
    if (int(p) == observer) {
      out.public_players[p] = src;
      continue;
    }
    Player pub;
    pub.tribe = src.tribe;
    pub.result = src.result;
    pub.alive = src.alive;
    pub.declared_war_this_turn = src.declared_war_this_turn;
    pub.met = src.met;
    pub.allegiance = src.allegiance;
    const int start = kTribes[size_t(src.tribe)].start_tech;
    pub.techs = start >= 0 ? (1u << start) : 0u;
    out.public_players[p] = pub;
  }
  out.explored = live.explored;
  out.explored_count.resize(live.players.size());
  for (size_t p = 0; p < live.players.size(); ++p) out.explored_count[p] = live.players[p].explored_count;
  out.own_cities.clear();
  for (const City& c : live.cities) {
    if (c.owner == observer) out.own_cities.push_back(c);
  }
  const int cap = live.players[size_t(observer)].capital_city;
  out.own_capital_tile = cap >= 0 ? live.cities[size_t(cap)].tile : int16_t(-1);
}

std::string world_from_tokens(const PlayerKnowledge& k, const int32_t* tokens, uint64_t seed, GameState& out) {
  const GameState& h = k.header;
  const int P = h.num_players, n = h.num_tiles, me = k.observer;
  auto abs_owner = [&](int32_t rel) { return (me + rel - 1) % P; };
  GameState& s = out;
  s.map_size = h.map_size;
  s.num_players = h.num_players;
  s.mode = h.mode;
  s.full_observability = h.full_observability;
  s.auto_end_turn = h.auto_end_turn;
  s.turn_limit = h.turn_limit;
  s.num_tiles = h.num_tiles;
  s.tick = h.tick;
  s.turns_played = h.turns_played;
  s.current_player = h.current_player;
  s.game_over = h.game_over;
  s.winner = h.winner;
  s.pending_city = -1;
  s.actions_applied = 0;
  s.road_links = 0;
  uint64_t mix = seed;
  s.rng.seed(splitmix64(mix), splitmix64(mix));
  s.tiles.assign(size_t(n), Tile{});
  s.units.clear();
  s.cities.clear();
  s.units.reserve(size_t(n));
  s.cities.reserve(size_t(n));
  s.players = k.public_players;
  for (int p = 0; p < P; ++p) {
    Player& pl = s.players[size_t(p)];
    pl.num_cities = 0;
    pl.connected_cities = 0;
  }

  // Tiles and cities.
  std::vector<int16_t> city_at(size_t(n), -1);
  for (int t = 0; t < n; ++t) {
    const int32_t* o = tokens + size_t(t) * F;
    Tile& tile = s.tiles[size_t(t)];
    if (o[kColTerrain] < 0 || o[kColTerrain] >= kNumTerrains) return at_tile(t) + "bad terrain";
    if (!is_resource_code(o[kColResource])) return at_tile(t) + "bad resource";
    if (o[kColBuilding] < kNoBuilding || o[kColBuilding] >= kNumBuildings) return at_tile(t) + "bad building";
    if (o[kColBuildingLevel] < 0 || o[kColBuildingLevel] > kMaxTempleLevel || o[kColRoad] < 0 || o[kColRoad] > 1) {
      return at_tile(t) + "bad building level or road";
    }
    tile.terrain = int8_t(o[kColTerrain]);
    tile.resource = int8_t(o[kColResource]);
    tile.building = int8_t(o[kColBuilding]);
    tile.building_level = int8_t(o[kColBuildingLevel]);
    tile.road = uint8_t(o[kColRoad]);
    const bool city_here = o[kColCityOwner] != 0;
    if (city_here != (o[kColTerrain] == kCity)) return at_tile(t) + "city terrain and city owner disagree";
    if (!city_here) continue;
    if (o[kColCityOwner] < 1 || o[kColCityOwner] > P) return at_tile(t) + "bad city owner";
    const int owner = abs_owner(o[kColCityOwner]);
    City c;
    if (owner == me) {
      auto it = std::find_if(k.own_cities.begin(), k.own_cities.end(), [&](const City& x) { return x.tile == t; });
      if (it == k.own_cities.end()) return at_tile(t) + "a city of the observer that it does not own";
      c = *it;
      c.supported = 0;
    } else {
      if (o[kColCityLevel] < 1 || o[kColCityLevel] > 100) return at_tile(t) + "bad city level";
      const int32_t fl = o[kColCityFlags];
      if (fl < 0 || fl > kCityFlagsMax) return at_tile(t) + "bad city flags";
      c.uid = 0;
      c.tile = int16_t(t);
      c.owner = int8_t(owner);
      c.level = int8_t(o[kColCityLevel]);
      c.bound = 1;
      // A capital is always its tribe's original capital (the engine never moves either flag);
      // without the second flag End Turn would see the observer holding every original capital.
      c.flags = uint8_t(((fl & kTokCapital) ? kCityCapital | kCityOriginalCapital : 0) |
                        ((fl & kTokWalls) ? kCityWalls : 0));
      c.workshops = (fl & kTokWorkshop) ? 1 : 0;
      c.parks = (fl & kTokPark) ? 1 : 0;
      c.connected = (fl & kTokConnected) ? 1 : 0;
    }
    city_at[size_t(t)] = int16_t(s.cities.size());
    s.players[size_t(owner)].num_cities++;
    s.players[size_t(owner)].connected_cities += c.connected;
    s.cities.push_back(c);
  }
  if (s.players[size_t(me)].num_cities != int(k.own_cities.size())) {
    return "the hypothesis lacks one of the observer's cities";
  }
  for (int t = 0; t < n; ++t) {
    const int32_t* o = tokens + size_t(t) * F;
    int32_t ct = o[kColTerritoryCityTile];
    if (ct == -1 && o[kColTerritoryOwner] != 0) {
      // The observer sees this territory but not its city centre: attach it to the nearest city
      // of that owner in the hypothesis (the first in tile order on a tie).
      if (o[kColTerritoryOwner] < 1 || o[kColTerritoryOwner] > P) return at_tile(t) + "bad territory owner";
      const int owner = abs_owner(o[kColTerritoryOwner]);
      int best = s.map_size + 1;
      for (const City& c : s.cities) {
        const int d = s.distance(t, c.tile);
        if (c.owner == owner && d < best) best = d, ct = c.tile;
      }
      if (ct == -1) return at_tile(t) + "territory owner without a city";
    }
    if (ct == -1) continue;
    if (ct < 0 || ct >= n || city_at[size_t(ct)] < 0) return at_tile(t) + "territory of a tile without a city";
    City& c = s.cities[size_t(city_at[size_t(ct)])];
    if (o[kColTerritoryOwner] < 1 || o[kColTerritoryOwner] > P || abs_owner(o[kColTerritoryOwner]) != c.owner) {
      return at_tile(t) + "territory owner differs from its city's owner";
    }
    s.tiles[size_t(t)].city = city_at[size_t(ct)];
    if (c.owner != me) c.bound = int8_t(std::max(int(c.bound), s.distance(t, ct)));
  }
  for (int t = 0; t < n; ++t) {
    if (city_at[size_t(t)] >= 0 && s.tiles[size_t(t)].city != city_at[size_t(t)]) {
      return at_tile(t) + "a city centre outside its own territory";
    }
  }

  // Units: fresh global ids; the observer's observed ids are kept below, other players'
  // are given at first sight in this world (their counts are not the observer's knowledge).
  std::vector<int32_t> observed;
  int32_t max_uid = 0;
  for (const City& c : s.cities) max_uid = std::max(max_uid, c.uid);
  for (int t = 0; t < n; ++t) {
    const int32_t* o = tokens + size_t(t) * F;
    if (o[kColUnitOwner] == 0) continue;
    if (o[kColUnitOwner] < 1 || o[kColUnitOwner] > P) return at_tile(t) + "bad unit owner";
    const int owner = abs_owner(o[kColUnitOwner]);
    if (!s.players[size_t(owner)].alive) return at_tile(t) + "a unit of an eliminated player";
    const int type = o[kColUnitType];
    if (type < 0 || type >= kNumUnitTypes) return at_tile(t) + "bad unit type";
    if (o[kColUnitStatus] < 0 || o[kColUnitStatus] > kFinished) return at_tile(t) + "bad unit status";
    if (o[kColUnitHp] < 1 || o[kColUnitHp] > o[kColUnitMaxHp] || o[kColUnitMaxHp] > 1000) return at_tile(t) + "bad unit hp";
    if (o[kColUnitFlags] < 0 || o[kColUnitFlags] > 1) return at_tile(t) + "bad unit flags";
    const int carried = o[kColUnitCarriedType];
    if (is_naval(type) ? (carried < 0 || carried >= kNumUnitTypes || is_naval(carried)) : carried != -1) {
      return at_tile(t) + "bad carried unit type";
    }
    if (is_water(s.tiles[size_t(t)].terrain) != is_naval(type)) {
      return at_tile(t) + (is_naval(type) ? "a boat on land" : "a land unit on water");
    }
    int home = -1;
    if (owner == me) {
      const int32_t ht = o[kColUnitHomeCityTile];
      if (o[kColUnitKills] < 0 || o[kColUnitKills] > 255) return at_tile(t) + "bad unit kills";
      if (ht != -1) {
        if (ht < 0 || ht >= n || city_at[size_t(ht)] < 0 || s.cities[size_t(city_at[size_t(ht)])].owner != me) {
          return at_tile(t) + "a unit's home city is not the observer's city";
        }
        home = city_at[size_t(ht)];
      }
    }
    Unit u;
    u.uid = -1;  // fresh id below
    observed.push_back(o[kColExplored] != 0 ? o[kColObservedUnitId] : 0);  // hidden rows carry no id of the observer's
    u.type = int8_t(type);
    u.owner = int8_t(owner);
    u.status = int8_t(o[kColUnitStatus]);
    u.land_type = int8_t(carried);
    u.hp = int16_t(o[kColUnitHp]);
    u.max_hp = int16_t(o[kColUnitMaxHp]);
    u.tile = int16_t(t);
    u.home_city = int16_t(home);
    u.kills = owner == me ? uint8_t(o[kColUnitKills]) : 0;
    u.veteran = uint8_t((o[kColUnitFlags] & kTokVeteran) != 0);
    // The tokens do not carry the order of a city's unit list: the hypothesis lists them in slot order.
    u.home_order = home >= 0 ? uint16_t(s.cities[size_t(home)].supported++) : 0;
    s.tiles[size_t(t)].unit = int16_t(s.units.size());
    s.units.push_back(u);
  }
  for (Unit& u : s.units) u.uid = ++max_uid;
  s.unit_alias.assign(s.units.size() * size_t(P), 0);
  for (size_t slot = 0; slot < s.units.size(); ++slot) {
    const int32_t id = observed[slot];
    const bool fresh = id >= 1 && id <= s.players[size_t(me)].units_sighted &&
                       std::count(observed.begin(), observed.end(), id) == 1;
    if (fresh) s.unit_alias[slot * size_t(P) + size_t(me)] = id;
  }
  for (City& c : s.cities) {
    if (c.uid == 0) c.uid = ++max_uid;
  }
  s.next_uid = max_uid + 1;

  // Capitals: the observer's from its knowledge, others' from the capital flag.
  for (int p = 0; p < P; ++p) s.players[size_t(p)].capital_city = -1;
  if (k.own_capital_tile >= 0 && city_at[size_t(k.own_capital_tile)] >= 0) {
    s.players[size_t(me)].capital_city = city_at[size_t(k.own_capital_tile)];
  }
  for (int c = 0; c < int(s.cities.size()); ++c) {
    const City& city = s.cities[size_t(c)];
    if (city.owner != me && city.capital() && s.players[size_t(city.owner)].capital_city < 0) {
      s.players[size_t(city.owner)].capital_city = int16_t(c);
    }
  }

  // Fog: every player's own mask; the observer's must be column 0 of the tokens.
  s.explored = k.explored;
  for (int p = 0; p < P; ++p) s.players[size_t(p)].explored_count = k.explored_count[size_t(p)];
  for (int t = 0; t < n; ++t) {
    const bool seen = h.full_observability || s.explored_by(me, t);
    if (seen != (tokens[size_t(t) * F] != 0)) return at_tile(t) + "column 0 differs from the observer's fog";
  }

  rebuild_derived_state(s);  // road links, pending city, observed ids, tile bitsets, epochs
  std::string problem = check_invariants(s);
  if (!problem.empty()) return "inconsistent hypothesis: " + problem;
  return {};
}

}  // namespace polyenv
