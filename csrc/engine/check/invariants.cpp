// check_invariants: every cached counter against its recomputed value, and
// every back-reference between tiles, units and cities (declared in game.hpp). Used by the
// random-simulation tests and checked playouts, and when loading bytes (deserialize) or
// reading tokens back into a world (encode/token_reader.cpp). check_loadable_counters: the
// load bounds of counter_limits.hpp.
#include <algorithm>
#include <string>
#include <vector>

#include "../counter_limits.hpp"
#include "../mechanics.hpp"

namespace polyenv {

namespace {
std::string at(const char* what, int i) { return std::string(what) + " " + std::to_string(i) + ": "; }

// The home_order of the units a city supports is 0 .. supported - 1, each once (its unit list).
std::string check_unit_list(const GameState& s, int city) {
  const int n = s.cities[city].supported;
  std::vector<char> taken(size_t(std::max(n, 0)), 0);
  for (const Unit& u : s.units) {
    if (!u.alive() || u.home_city != city) continue;
    if (u.home_order >= n || taken[u.home_order]) return at("city", city) + "unit list order is not 0 .. supported - 1";
    taken[u.home_order] = 1;
  }
  return {};
}
bool flag(int v) { return v == 0 || v == 1; }
// "<field> <value> is above <bound> (<why>)": a counter past its bound (counter_limits.hpp).
std::string above(const char* field, int64_t value, int64_t bound, const std::string& why) {
  return std::string(field) + " " + std::to_string(value) + " is above " + std::to_string(bound) + " (" + why + ")";
}

// The counters bounded by the rounds begun (counter_limits.hpp): "" or the first one above its
// bound; `load`: the load bounds, else the invariant bounds (one round more).
std::string check_round_counters(const GameState& s, bool load) {
  auto bound = [&](int64_t per_round) { return load ? loadable_per_round(s, per_round) : max_per_round(s, per_round); };
  const int64_t last_tick = load ? loadable_max_tick(s) : max_tick(s);
  if (s.tick > last_tick) return above("tick", s.tick, last_tick, "the game ends in the round after its turn limit");
  if (s.turns_played > bound(turns_per_round(s))) {
    return above("turns_played", s.turns_played, bound(turns_per_round(s)), "one turn per player per round");
  }
  for (int p = 0; p < s.num_players; ++p) {
    const Player& pl = s.players[size_t(p)];
    if (pl.wars_declared > bound(kOwnTurnsPerRound)) {
      return at("player", p) + above("wars_declared", pl.wars_declared, bound(kOwnTurnsPerRound), "one per own turn");
    }
    if (pl.pacifist_turns > bound(kOwnTurnsPerRound)) {
      return at("player", p) + above("pacifist_turns", pl.pacifist_turns, bound(kOwnTurnsPerRound),
                                     "one per own turn");
    }
    if (pl.stars_sent > bound(kMaxStarsSentInATurn)) {
      return at("player", p) + above("stars_sent", pl.stars_sent, bound(kMaxStarsSentInATurn),
                                     std::to_string(kMaxStarsSentInATurn) + " per own turn");
    }
  }
  return {};
}
}  // namespace

std::string check_invariants(const GameState& s) {
  const int tiles = s.num_tiles, players = s.num_players;
  if (int(s.tiles.size()) != tiles || int(s.players.size()) != players ||
      int(s.explored.size()) != players * s.explored_words()) {
    return "array sizes do not match the board";
  }
  if (s.current_player < 0 || s.current_player >= players) return "current player out of range";
  if (!flag(s.game_over) || !flag(s.full_observability) || !flag(s.auto_end_turn)) return "bad header flag";
  if (s.tick < 0 || s.turns_played < 0 || s.actions_applied < 0 || s.turn_limit < 0 || s.turn_limit > kMaxTurnLimit) {
    return "turn counters out of range";
  }
  if (std::string problem = check_round_counters(s, false); !problem.empty()) return problem;
  if (s.next_uid < 1) return "next id out of range";
  if (int(s.units.size()) > tiles || int(s.cities.size()) > tiles) return "more units or cities than tiles";
  if (const int spare = s.explored_words() * 64 - tiles; spare > 0 && !s.full_observability) {
    for (int p = 0; p < players; ++p) {
      if (s.explored[size_t(p + 1) * s.explored_words() - 1] >> (64 - spare)) return "explored bits beyond the board";
    }
  }
  if (s.winner < -1 || s.winner >= players) return "winner out of range";
  if (s.mode != kCapitals && s.mode != kScore) return "bad game mode";
  if (s.pending_city < -1 || s.pending_city >= int(s.cities.size())) return "pending city out of range";
  if (!s.units.empty() && !s.units.back().alive()) return "trailing free unit slot";
  if (s.unit_alias.size() != s.units.size() * size_t(players)) return "observed unit id table does not match the units";
  for (size_t i = 0; i < s.unit_alias.size(); ++i) {
    const int32_t alias = s.unit_alias[i];
    const int p = int(i % size_t(players));
    const Unit& u = s.units[i / size_t(players)];
    if (alias < 0 || alias > s.players[p].units_sighted || (alias != 0 && !u.alive())) {
      return at("observed unit id", int(i)) + "out of range";
    }
    if (alias == 0 && u.alive() && u.tile >= 0 && u.tile < tiles && sees_tile(s, p, u.tile)) {
      return at("observed unit id", int(i)) + "missing for a unit the player sees";
    }
  }
  std::vector<int> supported(s.cities.size(), 0), cities_of(players, 0), connected_of(players, 0);
  for (int t = 0; t < tiles; ++t) {
    const Tile& tile = s.tiles[t];
    if (tile.terrain < 0 || tile.terrain >= kNumTerrains) return at("tile", t) + "bad terrain";
    if (!is_resource_code(tile.resource)) {
      return at("tile", t) + "bad resource";
    }
    if (tile.building != kNoBuilding && (tile.building < 0 || tile.building >= kNumBuildings)) {
      return at("tile", t) + "bad building";
    }
    if (tile.building_level < 0 || tile.building_level > kMaxTempleLevel || tile.road > 1 || tile.road_link > 1 ||
        tile.temple_turns < 0 || tile.pad != 0) {
      return at("tile", t) + "bad building level or road flag";
    }
    if (tile.temple_turns >= kTempleTurnsPerLevel) {
      return at("tile", t) + above("temple_turns", tile.temple_turns, kTempleTurnsPerLevel - 1,
                                   "a temple levels up every " + std::to_string(kTempleTurnsPerLevel) +
                                       " of its owner's turns");
    }
    if (tile.unit < -1 || tile.city < -1) return at("tile", t) + "bad unit or city index";
    if (tile.unit >= 0 && (tile.unit >= int(s.units.size()) || !s.units[tile.unit].alive() ||
                           s.units[tile.unit].tile != t)) {
      return at("tile", t) + "unit back-reference broken";
    }
    if (tile.city >= int(s.cities.size())) return at("tile", t) + "territory city out of range";
    if (tile.city >= 0 && s.distance(t, s.cities[tile.city].tile) > s.cities[tile.city].bound) {
      return at("tile", t) + "territory beyond its city's bound";
    }
    if (tile.terrain == kCity && (tile.city < 0 || s.cities[tile.city].tile != t)) {
      return at("tile", t) + "city terrain without its city";
    }
  }
  int road_links = 0;
  for (int t = 0; t < tiles; ++t) {
    const bool link = road_link_at(s, t);
    if (link != bool(s.tiles[t].road_link)) return at("tile", t) + "road link flag is stale";
    road_links += link;
  }
  if (road_links != s.road_links) return "road link count is stale";
  for (int i = 0; i < int(s.units.size()); ++i) {
    const Unit& u = s.units[i];
    if (!u.alive()) continue;
    if (u.tile < 0 || u.tile >= tiles || s.tiles[u.tile].unit != i) return at("unit", i) + "tile back-reference broken";
    if (u.owner < 0 || u.owner >= players || !s.players[u.owner].alive) return at("unit", i) + "bad owner";
    if (u.type < 0 || u.type >= kNumUnitTypes) return at("unit", i) + "bad type";
    if (u.status < 0 || u.status > kFinished) return at("unit", i) + "bad status";
    if (u.land_type != kNoUnit && (u.land_type < 0 || u.land_type >= kNumUnitTypes || is_naval(u.land_type))) {
      return at("unit", i) + "bad carried type";
    }
    if (u.hp <= 0 || u.hp > u.max_hp || u.max_hp > kMaxSaneCount) return at("unit", i) + "hp outside (0, max]";
    if (u.uid >= s.next_uid) return at("unit", i) + "id not below the next id";
    if (u.home_city < -1 || !flag(u.veteran) || (u.home_city < 0 && u.home_order != 0)) return at("unit", i) + "bad home city or flag";
    if (is_naval(u.type) != (u.land_type != kNoUnit)) return at("unit", i) + "carried type mismatch";
    if (u.home_city >= 0) {
      if (u.home_city >= int(s.cities.size()) || s.cities[u.home_city].owner != u.owner) {
        return at("unit", i) + "home city not owned by the unit's tribe";
      }
      supported[u.home_city]++;
    }
  }
  for (int c = 0; c < int(s.cities.size()); ++c) {
    const City& city = s.cities[c];
    if (city.owner < 0 || city.owner >= players) return at("city", c) + "bad owner";
    if (city.level < 1 || city.bound < 0 || city.bound > kMaxMapSize) return at("city", c) + "bad level or bound";
    if (city.tile < 0 || city.tile >= tiles || s.tiles[city.tile].city != c) return at("city", c) + "centre not owned";
    if (city.supported != supported[c]) return at("city", c) + "supported count is stale";
    if (std::string problem = check_unit_list(s, c); !problem.empty()) return problem;
    if (city.population < -city.level) return at("city", c) + "population below the floor";
    if (s.tiles[city.tile].terrain != kCity) return at("city", c) + "centre terrain is not a city";
    if (city.uid < 1 || city.uid >= s.next_uid) return at("city", c) + "id out of range";
    if (city.population > kMaxSanePopulation || city.level > kMaxSaneLevel) return at("city", c) + "population or level too high";
    // customs_ports can go below 0: a captured pair's bonus is taken back from the new owner's city.
    if (city.workshops < 0 || city.parks < 0 || city.workshops > kMaxSaneLevel || city.parks > kMaxSaneLevel ||
        city.customs_ports < -kMaxSaneLevel || city.customs_ports > kMaxSaneLevel || !flag(city.connected) || city.flags > 7) {
      return at("city", c) + "bad counter or flag";
    }
    if (city.worth < -kMaxWorldWorth || city.worth > kMaxWorldWorth) return at("city", c) + "worth out of range";
    cities_of[city.owner]++;
    connected_of[city.owner] += city.connected;
  }
  for (int p = 0; p < players; ++p) {
    const Player& pl = s.players[p];
    if (pl.tribe < 0 || pl.tribe >= kNumTribes) return at("player", p) + "bad tribe";
    if (pl.capital_city < -1 || pl.capital_city >= int(s.cities.size())) return at("player", p) + "bad capital";
    if (pl.result < kPlaying || pl.result > kLoss) return at("player", p) + "bad result";
    if (!flag(pl.alive) || !flag(pl.declared_war_this_turn) || pl.pad0 || pl.pad1) return at("player", p) + "bad flag";
    if ((pl.techs >> kNumTechs) || (pl.researched & ~pl.techs) || (players < kMaxPlayers && (pl.met >> players))) {
      return at("player", p) + "bad tech or met bits";
    }
    if (pl.kills < 0 || pl.pacifist_turns < 0 || pl.wars_declared < 0 || pl.units_sighted < 0) {
      return at("player", p) + "negative counter";
    }
    if (pl.stars_sent_this_turn < 0 || pl.stars_sent_this_turn > kMaxStarsSentInATurn || pl.stars_sent < 0) {
      return at("player", p) + "stars sent out of range";
    }
    if (pl.score < -kMaxScore || pl.score > kMaxScore) return at("player", p) + "score out of range";
    if (pl.num_cities != cities_of[p]) return at("player", p) + "city count is stale";
    if (pl.connected_cities != connected_of[p]) return at("player", p) + "connected city count is stale";
    if (pl.stars < 0 || pl.stars > kMaxStars) return at("player", p) + "stars outside [0, MAX_STARS]";
    int explored = 0;
    for (int w = 0; w < s.explored_words(); ++w) explored += __builtin_popcountll(s.explored[p * s.explored_words() + w]);
    if (!s.full_observability && pl.explored_count != explored) return at("player", p) + "explored count is stale";
    for (int q = 0; q < players; ++q) {
      int a = pl.allegiance[q];
      if (a != s.players[q].allegiance[p] || a < -kAllegianceLimit || a > kAllegianceLimit) {
        return at("player", p) + "allegiance not symmetric or out of range";
      }
    }
  }
  if (!s.game_over && s.pending_city != find_pending_city(s)) return "pending level-up is stale";
  {  // the derived bitsets (kept by the primitives) against the tiles, cities and units
    std::vector<uint64_t> expected;
    compute_tile_bits(s, expected);
    if (s.tile_bits != expected) return "tile bitsets are stale";
  }
  return {};
}

std::string check_loadable_counters(const GameState& s) {
  if (std::string problem = check_round_counters(s, true); !problem.empty()) return problem;
  const char* why = "the most a game can still add must fit";
  if (s.next_uid > kMaxLoadedNextUid) return above("next_uid", s.next_uid, kMaxLoadedNextUid, why);
  if (s.actions_applied > kMaxLoadedActionsApplied) {
    return above("actions_applied", s.actions_applied, kMaxLoadedActionsApplied, why);
  }
  for (int p = 0; p < s.num_players; ++p) {
    if (s.players[size_t(p)].units_sighted > kMaxLoadedUnitsSighted) {
      return at("player", p) + above("units_sighted", s.players[size_t(p)].units_sighted, kMaxLoadedUnitsSighted, why);
    }
  }
  return {};
}

}  // namespace polyenv
