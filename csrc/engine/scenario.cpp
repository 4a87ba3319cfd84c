// Scenario editing for tests, curricula and puzzles. Every edit validates all
// of its input before it changes the state, and keeps every invariant.
#include <string>

#include "counter_limits.hpp"
#include "mechanics.hpp"

namespace polyenv {

namespace {

[[noreturn]] void fail(const std::string& message) { throw InvalidArgument(message); }

void check_tile(const GameState& s, int tile) {
  if (tile < 0 || tile >= s.num_tiles) {
    fail("tile " + std::to_string(tile) + " is outside the board (0.." + std::to_string(s.num_tiles - 1) + ")");
  }
}
void check_player(const GameState& s, int player) {
  if (player < 0 || player >= s.num_players) {
    fail("player " + std::to_string(player) + " is outside 0.." + std::to_string(s.num_players - 1));
  }
  if (!s.players[player].alive) fail("player " + std::to_string(player) + " is eliminated");
}

// After an edit: the cached pending level-up follows the board.
void refresh(GameState& s) {
  if (!s.game_over) s.pending_city = int16_t(find_pending_city(s));
  note_sightings(s);
}

}  // namespace

void blank_game(GameState& s, int map_size, const std::vector<int8_t>& tribes, int terrain, GameMode mode,
                int max_turns, uint64_t seed, bool revealed, bool full_observability) {
  if (map_size < kMinMapSize || map_size > kMaxMapSize) {
    fail("map_size " + std::to_string(map_size) + " is outside [" + std::to_string(kMinMapSize) + ", " +
         std::to_string(kMaxMapSize) + "]");
  }
  check_player_count(int(tribes.size()));
  if (full_observability && !revealed) fail("a fully observable board has every tile revealed (revealed=False)");
  if (max_turns > kMaxTurnLimit) fail("max_turns " + std::to_string(max_turns) + " is above " + std::to_string(kMaxTurnLimit));
  for (int8_t t : tribes) {
    if (t < 0 || t >= kNumTribes) {
      fail("tribe key " + std::to_string(t) + " is outside [0, " + std::to_string(kNumTribes - 1) + "]");
    }
  }
  if (terrain < 0 || terrain >= kNumTerrains || terrain == kCity || terrain == kVillage) {
    fail("a blank board's terrain must be plain, forest, mountain, shallow_water or deep_water");
  }
  GameState b;
  b.map_size = int8_t(map_size);
  b.num_players = int8_t(tribes.size());
  b.num_tiles = int16_t(map_size * map_size);
  b.mode = mode;
  b.auto_end_turn = 0;
  b.full_observability = full_observability;
  b.turn_limit = int16_t(max_turns >= 0 ? max_turns : mode == kScore ? kScoreTurnLimit : kCapitalsTurnLimit);
  uint64_t mix = seed;
  b.rng.seed(splitmix64(mix), splitmix64(mix));
  b.tiles.assign(b.num_tiles, Tile{});
  for (Tile& t : b.tiles) t.terrain = int8_t(terrain);
  b.units.reserve(b.num_tiles);
  b.unit_alias.reserve(size_t(b.num_tiles) * tribes.size());
  b.cities.reserve(b.num_tiles);
  b.players.resize(tribes.size());
  for (size_t i = 0; i < tribes.size(); ++i) {
    b.players[i].tribe = tribes[i];
    b.players[i].explored_count = revealed ? b.num_tiles : 0;
  }
  b.explored.assign(tribes.size() * b.explored_words(), 0);
  for (size_t p = 0; p < tribes.size() && revealed; ++p) {
    for (int t = 0; t < b.num_tiles; ++t) b.explored[p * b.explored_words() + (t >> 6)] |= uint64_t(1) << (t & 63);
  }
  b.tick = 1;
  b.current_player = 0;
  rebuild_tile_bits(b);
  touch_territory(b);  // a new state: every derived cache starts over
  s = std::move(b);
}

void edit_set_terrain(GameState& s, int tile, int terrain) {
  check_tile(s, tile);
  if (terrain < 0 || terrain >= kNumTerrains) fail("terrain " + std::to_string(terrain) + " is unknown");
  if (terrain == kCity) fail("use place_city to create a city");
  if (s.tiles[tile].terrain == kCity) fail("tile " + std::to_string(tile) + " holds a city");
  if (const Unit* u = s.unit_at(tile); u && is_water(terrain) != is_naval(u->type)) {
    fail("the unit on tile " + std::to_string(tile) + " cannot stand on that terrain");
  }
  s.tiles[tile].terrain = int8_t(terrain);
  refresh_tile_bits(s, tile);
  touch_tiles(s);
  refresh_road_links(s, tile);
}

void edit_set_resource(GameState& s, int tile, int resource) {
  check_tile(s, tile);
  if (!is_resource_code(resource)) fail("resource " + std::to_string(resource) + " is unknown");
  if (s.tiles[tile].terrain == kCity) fail("a city tile has no resource");
  s.tiles[tile].resource = int8_t(resource);
  touch_tiles(s);
}

int edit_place_unit(GameState& s, int player, int type, int tile, int hp, bool veteran, int kills, int status,
                    int carried_type) {
  check_player(s, player);
  check_tile(s, tile);
  if (type < 0 || type >= kNumUnitTypes) fail("unit type " + std::to_string(type) + " is unknown");
  if (s.tiles[tile].unit >= 0) fail("tile " + std::to_string(tile) + " already holds a unit");
  const bool water = is_water(s.tiles[tile].terrain);
  if (water != is_naval(type)) {
    fail(std::string(kUnits[type].name) + (water ? " cannot stand on water" : " must stand on water"));
  }
  if (is_naval(type) && (carried_type < 0 || carried_type >= kNumUnitTypes || is_naval(carried_type))) {
    fail("a boat must carry a land unit type");
  }
  if (status < 0 || status > kFinished) fail("unit status " + std::to_string(status) + " is unknown");
  if (kills < 0 || kills > 255) fail("kills must be in [0, 255]");
  if (veteran && type == kGiant) fail("a giant cannot be a veteran");
  const int base_hp = is_naval(type) ? kUnits[carried_type].max_hp : kUnits[type].max_hp;
  const int max_hp = base_hp + (veteran ? kVeteranHpBonus : 0);
  if (hp < 0) hp = max_hp;
  if (hp < 1 || hp > max_hp) fail("hp " + std::to_string(hp) + " is outside [1, " + std::to_string(max_hp) + "]");
  const int city = s.tiles[tile].terrain == kCity && s.cities[s.tiles[tile].city].owner == player
                       ? s.tiles[tile].city : -1;
  const int slot = add_unit(s, player, type, tile, city, status);
  Unit& u = s.units[slot];
  u.max_hp = int16_t(max_hp);
  u.hp = int16_t(hp);
  u.veteran = veteran;
  u.kills = uint8_t(kills);
  u.land_type = is_naval(type) ? int8_t(carried_type) : int8_t(kNoUnit);
  note_sightings(s);
  return slot;
}

void edit_place_city(GameState& s, int player, int tile, int level, int population, bool walls, bool capital) {
  check_player(s, player);
  check_tile(s, tile);
  const Tile& t = s.tiles[tile];
  if (t.terrain == kCity) fail("tile " + std::to_string(tile) + " already holds a city");
  if (is_water(t.terrain)) fail("a city cannot stand on water");
  if (t.city >= 0 && s.cities[t.city].owner != player) fail("tile " + std::to_string(tile) + " is another tribe's territory");
  if (level < 1 || level > 100) fail("city level must be in [1, 100]");
  if (population < -level || population > 1000) fail("population must be in [-level, 1000]");
  if (const Unit* u = s.unit_at(tile); u && is_naval(u->type)) fail("a boat stands on that tile");
  if (t.city >= 0) s.tiles[tile].city = -1;  // the new centre leaves the old territory
  const int city = create_city(s, player, tile, capital);
  City& c = s.cities[city];
  c.level = int8_t(level);
  if (walls) c.flags |= kCityWalls;
  if (population != 0) add_population(s, city, population);
  if (int slot = s.tiles[tile].unit; slot >= 0 && s.units[slot].owner == player && s.units[slot].home_city < 0) {
    join_city(s, slot, city);
  }
  update_trade_network(s, player);
  refresh(s);
}

void edit_set_building(GameState& s, int tile, int building, bool with_effects) {
  check_tile(s, tile);
  if (building < 0 || building >= kNumBuildings) fail("building " + std::to_string(building) + " is unknown");
  Tile& t = s.tiles[tile];
  if (!(kBuildings[building].terrain_mask & (1u << t.terrain))) {
    fail(std::string(kBuildings[building].name) + " cannot stand on " + kTerrainNames[t.terrain]);
  }
  if (t.city < 0) fail("a building needs a tile inside a city's territory");
  if (with_effects) {
    if (t.building != kNoBuilding) fail("with_effects needs a tile without a building");
    place_building(s, t.city, tile, building);
    refresh(s);
    return;
  }
  t.building = int8_t(building);
  t.resource = kNoResource;
  refresh_tile_bits(s, tile);
  touch_moves(s);
  touch_tiles(s);
  t.building_level = is_temple(building) ? 1 : 0;
  t.temple_turns = 0;
  if (is_monument(building)) s.players[s.cities[t.city].owner].monuments_built |= uint8_t(1u << (building - kFirstMonument));
  if (building == kPort) update_trade_network(s, s.cities[t.city].owner);
  refresh(s);
}

void edit_set_population(GameState& s, int tile, int population) {
  check_tile(s, tile);
  if (s.tiles[tile].terrain != kCity) fail("tile " + std::to_string(tile) + " is not a city centre");
  const int city = s.tiles[tile].city;
  const int level = s.cities[city].level;
  if (population < -level || population > 1000) fail("population must be in [-level, 1000]");
  add_population(s, city, population - s.cities[city].population);
  refresh(s);
}

void edit_set_road(GameState& s, int tile) {
  check_tile(s, tile);
  const int terrain = s.tiles[tile].terrain;
  if (terrain != kPlain && terrain != kForest && terrain != kVillage) fail("roads go on plain, forest or village tiles");
  s.tiles[tile].road = 1;
  refresh_road_links(s, tile);
  for (int p = 0; p < s.num_players; ++p) if (s.players[p].alive) update_trade_network(s, p);
  refresh(s);
}

void edit_grant_tech(GameState& s, int player, int tech) {
  check_player(s, player);
  if (tech < 0 || tech >= kNumTechs) fail("tech " + std::to_string(tech) + " is unknown");
  grant_tech(s, player, tech, false);
}

void edit_set_stars(GameState& s, int player, int stars) {
  check_player(s, player);
  if (stars < 0) fail("stars cannot be negative");
  if (stars > kMaxStars) fail("stars " + std::to_string(stars) + " are above MAX_STARS (" + std::to_string(kMaxStars) + ")");
  s.players[player].stars = stars;
}

void edit_reveal(GameState& s, int player, const std::vector<int>& tiles) {
  check_player(s, player);
  for (int t : tiles) check_tile(s, t);
  uint64_t* row = &s.explored[std::size_t(player) * s.explored_words()];
  auto set = [&](int t) {
    uint64_t bit = uint64_t(1) << (t & 63);
    if (!(row[t >> 6] & bit)) { row[t >> 6] |= bit; s.players[player].explored_count++; }
  };
  if (tiles.empty()) for (int t = 0; t < s.num_tiles; ++t) set(t);
  for (int t : tiles) set(t);
  touch_moves(s);
  note_sightings(s);
}

void edit_set_current_player(GameState& s, int player) {
  check_player(s, player);
  if (s.game_over) fail("the game is over");
  s.current_player = int8_t(player);
  touch_moves(s);
  refresh(s);
}

void edit_remove_unit(GameState& s, int tile) {
  check_tile(s, tile);
  if (s.tiles[tile].unit < 0) fail("tile " + std::to_string(tile) + " holds no unit");
  remove_unit(s, s.tiles[tile].unit);
}

void impose_value(GameState& s, std::string_view field, int index, int value) {
  const int players = s.num_players;
  if (field == "score") {
    if (index < 0 || index >= players) throw InvalidArgument("no such player");
    s.players[index].score = value;
  } else if (field == "worth" || field == "population" || field == "production") {
    if (index < 0 || index >= s.num_tiles || s.tiles[index].terrain != kCity) throw InvalidArgument("no city there");
    const int city = s.tiles[index].city;
    City& c = s.cities[city];
    if (field == "worth") {
      c.worth = value;
    } else if (field == "population") {
      add_population(s, city, value - c.population);
    } else {  // production: through the city's count of Workshop rewards, or else of Customs House pairs
      const int delta = value - city_production(s, city);
      const int workshops = c.workshops + delta;
      const int pairs = c.customs_ports + delta / kCustomsHousePerPort;
      if (c.population < 0) {
        throw InvalidArgument("that production cannot be given to this city");
      } else if (workshops >= 0 && workshops <= 100) {
        c.workshops = int8_t(workshops);
      } else if (delta % kCustomsHousePerPort == 0 && pairs >= std::min<int>(0, c.customs_ports) && pairs <= kMaxSaneLevel) {
        c.customs_ports = int8_t(pairs);  // a pair's bonus paid to another city (Tribes' City.applyBonus)
      } else {
        throw InvalidArgument("that production cannot be given to this city");
      }
    }
  } else if (field == "techs" || field == "met") {
    if (index < 0 || index >= players) throw InvalidArgument("no such player");
    const uint32_t limit = field == "techs" ? (1u << kNumTechs) : (1u << players);
    if (value < 0 || uint32_t(value) >= limit || (field == "met" && ((value >> index) & 1))) {
      throw InvalidArgument("value must be a bit mask of techs (or of other players)");
    }
    Player& pl = s.players[index];
    if (field == "met") {
      pl.met = uint16_t(value);
    } else {
      pl.techs = uint32_t(value);
      pl.researched &= pl.techs;
      touch_moves(s);  // Climbing, Sailing and Navigation change movement
    }
  } else if (field == "home_city") {  // index: the unit's tile; value: its new home city's tile or -1
    if (index < 0 || index >= s.num_tiles || s.tiles[index].unit < 0) throw InvalidArgument("no unit there");
    if (value != -1 && (value < 0 || value >= s.num_tiles || s.tiles[value].terrain != kCity)) {
      throw InvalidArgument("home city must be a city's tile or -1");
    }
    const int slot = s.tiles[index].unit;
    if (value >= 0 && s.cities[s.tiles[value].city].owner != s.units[slot].owner) {
      throw InvalidArgument("home city must belong to the unit's tribe");
    }
    leave_city(s, slot);
    join_city(s, slot, value < 0 ? -1 : s.tiles[value].city);  // at the end of the new city's list
  } else if (field == "allegiance") {
    const int p = index / std::max(players, 1), q = index % std::max(players, 1);
    if (index < 0 || p >= players || p == q) throw InvalidArgument("no such pair of players");
    s.players[p].allegiance[q] = s.players[q].allegiance[p] = int8_t(value);
  } else {
    throw InvalidArgument("field must be score, techs, met, worth, population, production, home_city or allegiance");
  }
  if (!s.game_over) s.pending_city = int16_t(find_pending_city(s));  // a level-up the new values allow
}

void credit_stars(GameState& s, int player, int n) { gain_stars(s, player, n); }

void rebuild_derived_state(GameState& s) {
  rebuild_road_links(s);
  if (!s.game_over) s.pending_city = int16_t(find_pending_city(s));
  note_sightings(s);  // observed ids for every unit a player sees and has no id for
  rebuild_tile_bits(s);
  touch_territory(s);  // a new board: every derived cache (territory, tiles, moves) starts over
}

}  // namespace polyenv
