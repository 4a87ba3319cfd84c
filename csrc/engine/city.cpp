// §8 cities (levels, rewards, capture) and §9 buildings and tile actions.
#include <algorithm>

#include "mechanics.hpp"

namespace polyenv {

int city_scan_radius(const City& c) { return c.level >= kWideCityScanLevel ? kWideCityScanRadius : kCityScanRadius; }

int acting_city_for_tile(const GameState& s, int tile) {
  int c = s.tiles[tile].city;
  if (c < 0) return -1;
  const City& city = s.cities[c];
  if (city.owner != s.current_player || s.distance(city.tile, tile) > city_scan_radius(city)) return -1;
  return c;
}

// ------------------------------------------------------------------ buildings

namespace {

int monument_bit(int building) { return 1 << (building - kFirstMonument); }

// Pays (sign +1) or takes back (sign -1) one adjacency bonus to `city`.
void pay_bonus(GameState& s, int city, int bonus_building, int sign) {
  if (bonus_building == kCustomsHouse) s.cities[city].customs_ports = int8_t(s.cities[city].customs_ports + sign);
  else add_population(s, city, sign * kBuildings[bonus_building].pop);
}

// Applies (sign +1) or reverses (sign -1) a building's population, score and
// adjacency effects (for_each_adjacency_bonus, §9.2).
void building_effects(GameState& s, int city, int tile, int building, int sign) {
  const int player = s.cities[city].owner;
  const BuildingInfo& info = kBuildings[building];
  if (info.adjacent_to < 0) add_population(s, city, sign * info.pop);
  for_each_adjacency_bonus(s, tile, building, player,
                           [&](int paid_city, int bonus) { pay_bonus(s, paid_city, bonus, sign); });
  if (is_temple(building)) add_score(s, player, sign * kTempleScore);
  if (is_monument(building)) add_score(s, player, sign * kMonumentScore);
}

}  // namespace

uint32_t city_buildings(const GameState& s, int city) {
  uint32_t bits = 0;
  for_each_in_radius(s, s.cities[city].tile, s.cities[city].bound, [&](int t) {
    if (s.tiles[t].city == city && s.tiles[t].building != kNoBuilding) bits |= 1u << s.tiles[t].building;
  });
  return bits;
}

// Any owner's building counts (Tribes' Build.isBuildable looks at the board only).
uint32_t neighbour_buildings(const GameState& s, int tile) {
  const int n = s.map_size, x = tile / n, y = tile % n;
  const Tile* tiles = s.tiles.data();
  auto bit = [&](int t) { const int b = tiles[t].building; return b == kNoBuilding ? 0u : 1u << b; };
  if (x > 0 && y > 0 && x < n - 1 && y < n - 1) {  // inside the board: the eight neighbours, unrolled
    return bit(tile - n - 1) | bit(tile - n) | bit(tile - n + 1) | bit(tile - 1) | bit(tile + 1) |
           bit(tile + n - 1) | bit(tile + n) | bit(tile + n + 1);
  }
  const int y0 = std::max(y - 1, 0), y1 = std::min(y + 1, n - 1);
  uint32_t bits = 0;
  for (int tx = std::max(x - 1, 0); tx <= std::min(x + 1, n - 1); ++tx) {
    for (int t = tx * n + y0; t <= tx * n + y1; ++t) {
      if (t != tile) bits |= bit(t);
    }
  }
  return bits;
}

bool can_build(const GameState& s, int city, int tile, int building) {
  const Tile& t = s.tiles[tile];
  const BuildingInfo& info = kBuildings[building];
  const Player& p = s.players[s.cities[city].owner];
  if (t.building != kNoBuilding || !(info.terrain_mask & (1u << t.terrain))) return false;
  if (info.resource != kNoResource && t.resource != info.resource) return false;
  if (info.tech != kNoTech && !p.has(info.tech)) return false;
  if (p.stars < info.cost) return false;
  if (is_monument(building) && !(p.monuments_available & monument_bit(building))) return false;
  const bool board_checks = info.adjacent_to >= 0 || info.one_per_city;
  return !board_checks || building_fits(building, neighbour_buildings(s, tile), city_buildings(s, city));
}

void apply_build(GameState& s, int city, int tile, int building) {
  s.players[s.cities[city].owner].stars -= kBuildings[building].cost;
  place_building(s, city, tile, building);
}

void place_building(GameState& s, int city, int tile, int building) {
  const int player = s.cities[city].owner;
  Player& p = s.players[player];
  Tile& t = s.tiles[tile];
  t.building = int8_t(building);
  t.resource = kNoResource;
  touch_tiles(s);
  if (building == kLumberHut || building == kPort) touch_moves(s);  // terrain class or embark point changes
  if (building == kLumberHut) t.terrain = kPlain;  // quirk 5
  refresh_tile_bits(s, tile);
  if (is_temple(building)) { t.building_level = 1; t.temple_turns = 0; }
  if (is_monument(building)) {
    p.monuments_built |= uint8_t(monument_bit(building));
    p.monuments_available &= uint8_t(~monument_bit(building));
  }
  building_effects(s, city, tile, building, +1);
  if (building == kPort) update_all_trade_networks(s);
}

// ------------------------------------------------------------------ tile actions

bool can_tile_action(const GameState& s, int city, int tile, int kind) {
  const Tile& t = s.tiles[tile];
  const Player& p = s.players[s.cities[city].owner];
  switch (kind) {
    case kGather: {
      int tech = gather_tech(t.resource);
      if (tech == kNoTech || !p.has(tech)) return false;
      return t.resource == kWhales || p.stars >= kGatherCost;
    }
    case kClearForest: return t.terrain == kForest && p.has(kForestry);
    case kBurnForest: return t.terrain == kForest && p.has(kChivalry) && p.stars >= kBurnForestCost;
    case kGrowForest: return t.terrain == kPlain && p.has(kSpiritualism) && p.stars >= kGrowForestCost;
    case kDestroy: return t.building != kNoBuilding && p.has(kConstruction);
  }
  return false;
}

void apply_tile_action(GameState& s, int city, int tile, int kind) {
  Tile& t = s.tiles[tile];
  if (kind != kGather) touch_moves(s);  // forest <-> plain, or a port removed
  touch_tiles(s);
  const int player = s.cities[city].owner;
  Player& p = s.players[player];
  switch (kind) {
    case kGather:
      if (t.resource == kWhales) {
        gain_stars(s, player, kWhaleStars);
      } else {
        p.stars -= kGatherCost;
        add_population(s, city, kGatherPopulation);
      }
      t.resource = kNoResource;
      break;
    case kClearForest:
      t.terrain = kPlain;
      gain_stars(s, player, kClearForestStars);
      break;
    case kBurnForest:
      p.stars -= kBurnForestCost;
      t.terrain = kPlain;
      t.resource = kCrops;
      break;
    case kGrowForest:
      p.stars -= kGrowForestCost;
      t.terrain = kForest;
      t.resource = kNoResource;
      break;
    case kDestroy: {
      const int building = t.building;
      building_effects(s, city, tile, building, -1);
      if (is_temple(building)) {  // quirk 6 fixed: the temple's level points go too
        int points = 0;
        for (int l = 1; l < t.building_level; ++l) points += kTempleLevelScore[l];
        add_city_worth(s, city, -points);
      }
      t.building = kNoBuilding;
      t.building_level = 0;
      t.temple_turns = 0;
      if (building == kPort) update_all_trade_networks(s);
      break;
    }
  }
  refresh_tile_bits(s, tile);
}

// ------------------------------------------------------------------ spawning and roads

bool can_spawn(const GameState& s, int city, int unit_type) {
  const City& c = s.cities[city];
  const Player& p = s.players[c.owner];
  const UnitInfo& info = kUnits[unit_type];
  if (s.tiles[c.tile].unit >= 0 || c.supported >= city_capacity(c)) return false;
  if (info.tech != kNoTech && !p.has(info.tech)) return false;
  return p.stars >= info.cost;
}

bool can_build_road(const GameState& s, int player, int tile) {
  const Player& p = s.players[player];
  const Tile& t = s.tiles[tile];
  if (!p.has(kRoads) || p.stars < kRoadCost || t.road) return false;
  if (t.terrain != kPlain && t.terrain != kForest && t.terrain != kVillage) return false;
  if (!sees_tile(s, player, tile)) return false;
  int owner = s.tile_owner(tile);
  if (owner >= 0 && owner != player) return false;
  const Unit* u = s.unit_at(tile);
  return !(u && u->owner != player);
}

// ------------------------------------------------------------------ level-ups (§8.2)

void explore_from(GameState& s, int player, int tile) {
  const auto& forced = s.forced_draws;  // test-only: the steps another engine drew
  if (forced.explorer_steps >= 0) {
    for (int step = 0; step < forced.explorer_steps; ++step) {
      reveal_area(s, player, forced.explorer[step], kVisionRadius);
    }
    return;
  }
  for (int step = 0; step < kExplorerSteps; ++step) {
    int options[8], count = 0;
    for_each_neighbour(s, tile, [&](int nb) { if (s.tiles[nb].terrain != kDeep) options[count++] = nb; });
    if (count == 0) break;
    tile = options[s.rng.below(uint32_t(count))];
    reveal_area(s, player, tile, kVisionRadius);
  }
}

void apply_level_up(GameState& s, int option) {
  const int city = s.pending_city;
  City& c = s.cities[city];
  const int player = c.owner;
  c.population = int16_t(c.population - (c.level + 1));  // consumed, no score change
  const int scan_radius = city_scan_radius(c);
  c.level++;
  if (city_scan_radius(c) != scan_radius) touch_territory(s);  // the territory the city acts on changes
  const int level = c.level;
  add_city_worth(s, city, level_up_score(level));
  const LevelUpReward reward = option == 0 ? reward_a(level) : reward_b(level);
  switch (reward) {
    case kWorkshop: c.workshops++; break;
    case kExplorer: explore_from(s, player, c.tile); break;
    case kCityWall: c.flags |= kCityWalls; break;
    case kResources: gain_stars(s, player, kResourcesRewardStars); break;
    case kPopGrowth: add_population(s, city, kPopGrowthAmount); break;
    case kBorderGrowth:
      c.bound++;
      claim_territory(s, city, c.bound);
      update_trade_network(s, player);
      break;
    case kPark:
      c.parks++;
      add_city_worth(s, city, kParkScore);
      break;
    case kSuperUnit:
      push_unit_away(s, c.tile);
      add_unit(s, player, kGiant, c.tile, city, kFinished);
      break;
    default: break;
  }
  if (level >= kParkOfFortuneLevel) make_monument_available(s, player, kParkOfFortune);
}

// ------------------------------------------------------------------ capture (§8.4)

namespace {

// Tribes' Board.moveLastUnitFromCity: the unit joins the end of its new city's list.
void rehome(GameState& s, int slot, int city) {
  leave_city(s, slot);
  join_city(s, slot, city);
}

// A random city of `player` (other than `exclude`) satisfying `pred`, or -1.
template <class Pred>
int random_city(GameState& s, int player, int exclude, Pred&& pred) {
  int candidates[kMaxTiles], count = 0;
  for (int i = 0; i < int(s.cities.size()); ++i) {
    if (i != exclude && s.cities[i].owner == player && pred(s.cities[i])) candidates[count++] = i;
  }
  return count == 0 ? -1 : candidates[s.rng.below(uint32_t(count))];
}

void eliminate(GameState& s, int player) {
  Player& p = s.players[player];
  p.alive = 0;
  p.result = kLoss;
  for (int i = int(s.units.size()) - 1; i >= 0; --i) {
    if (i < int(s.units.size()) && s.units[i].alive() && s.units[i].owner == player) remove_unit(s, i);
  }
}

// Bookkeeping (§8.4) after any capture: one unit supported elsewhere moves its home to `city`
// (Tribes' Board.moveOneToNewCity runs for villages and enemy cities alike).
void rehome_one_unit_to(GameState& s, int player, int city) {
  const Player& p = s.players[player];
  int donor = -1;
  if (p.capital_city >= 0 && s.cities[p.capital_city].owner == player) donor = last_unit_of(s, p.capital_city);
  if (donor < 0) {
    int other = random_city(s, player, city, [](const City& c) { return c.supported > 0; });
    if (other >= 0) donor = last_unit_of(s, other);
  }
  if (donor >= 0) rehome(s, donor, city);
}

void capture_village(GameState& s, int slot) {
  Unit& u = s.units[slot];
  const int player = u.owner, tile = u.tile;
  const int city = create_city(s, player, tile, false);
  reveal_area(s, player, tile, kVisionRadius);
  rehome_one_unit_to(s, player, city);
  // The new territory can cut another tribe's road through neutral tiles (Tribes' Board.capture recomputes
  // every tribe's network).
  update_all_trade_networks(s);
}

void capture_city(GameState& s, int slot) {
  const int tile = s.units[slot].tile;
  const int player = s.units[slot].owner;
  const int city = s.tiles[tile].city;
  City& c = s.cities[city];
  const int loser = c.owner;
  Player& lost = s.players[loser];
  // The worth moves first; the city then leaves the loser's trade network at the loser's cost (Tribes'
  // CaptureCommand, then Tribe.updateNetwork).
  add_score(s, loser, -c.worth);
  add_score(s, player, c.worth);
  if (c.connected) {
    c.connected = 0;
    add_population(s, city, -1);
    if (lost.capital_city >= 0 && s.cities[lost.capital_city].owner == loser) add_population(s, lost.capital_city, -1);
    lost.connected_cities--;
  }
  c.owner = int8_t(player);
  mark_acquired(s, city);  // appended to the captor's city list (Tribe.addCity)
  touch_territory(s);  // the whole territory changes hands
  lost.num_cities--;
  s.players[player].num_cities++;
  change_allegiance(s, player, loser, kCaptureAllegiance);
  // The loser's units supported here go home, to another city with room, or become tribe-level, the last
  // of the city's list first (Tribes' Board.moveAllFromCity).
  while (c.supported > 0) {
    const int i = last_unit_of(s, city);
    int target = -1;
    if (lost.capital_city >= 0 && lost.capital_city != city && s.cities[lost.capital_city].owner == loser &&
        s.cities[lost.capital_city].supported < city_capacity(s.cities[lost.capital_city])) {
      target = lost.capital_city;
    } else {
      target = random_city(s, loser, city, [](const City& o) { return o.supported < city_capacity(o); });
    }
    rehome(s, i, target);
  }
  rehome_one_unit_to(s, player, city);
  if (lost.num_cities == 0) eliminate(s, loser);
  update_all_trade_networks(s);
}

}  // namespace

void capture(GameState& s, int slot) {
  s.units[slot].status = kFinished;
  if (s.tiles[s.units[slot].tile].terrain == kVillage) capture_village(s, slot);
  else capture_city(s, slot);
}

// ------------------------------------------------------------------ ruins (§11)

namespace {

int researchable_count(const GameState& s, int player, int* out) {
  const Player& p = s.players[player];
  int count = 0;
  for (int t = 0; t < kNumTechs; ++t) {
    if (p.can_learn(t)) out[count++] = t;
  }
  return count;
}
}  // namespace

void examine_ruins(GameState& s, int slot) {
  Unit& u = s.units[slot];
  const int player = u.owner, tile = u.tile;
  u.status = kFinished;
  s.tiles[tile].resource = kNoResource;
  touch_tiles(s);
  int techs[kNumTechs];
  const int researchable = researchable_count(s, player, techs);
  // Equal chances; with nothing to research the Research outcome is redrawn.
  int outcome = researchable > 0 ? int(s.rng.below(kNumRuinsOutcomes)) : int(s.rng.below(kNumRuinsOutcomes - 1));
  if (researchable == 0 && outcome >= kRuinsResearch) ++outcome;
  const int forced_tech = s.forced_ruins_tech;
  if (s.forced_ruins_outcome >= 0 && (s.forced_ruins_outcome != kRuinsResearch || researchable > 0)) {
    outcome = s.forced_ruins_outcome;
  }
  s.forced_ruins_outcome = s.forced_ruins_tech = -1;
  Player& p = s.players[player];
  switch (outcome) {
    case kRuinsGiant: {
      const int32_t examiner = u.uid;
      push_unit_away(s, tile);
      // Tribes' ExamineCommand sets the examiner FINISHED after pushing it, so it is not PUSHED.
      for (Unit& v : s.units) {
        if (v.uid == examiner && v.alive()) v.status = kFinished;
      }
      if (is_water(s.tiles[tile].terrain)) {
        // quirk 8 fixed: a Battleship carrying a Warrior at 10/10.
        int b = add_unit(s, player, kBattleship, tile, -1, kFinished);
        s.units[b].land_type = kWarrior;
        s.units[b].max_hp = s.units[b].hp = kUnits[kWarrior].max_hp;
      } else {
        add_unit(s, player, kGiant, tile, -1, kFinished);
      }
      unit_seen(s, player, tile);
      break;
    }
    case kRuinsResearch: {
      const int tech = techs[s.rng.below(uint32_t(researchable))];
      grant_tech(s, player, forced_tech >= 0 ? forced_tech : tech, false);
      break;
    }
    case kRuinsPopGrowth: {
      int city = p.capital_city >= 0 && s.cities[p.capital_city].owner == player
                     ? p.capital_city : first_city_of(s, player, [](const City&) { return true; });
      if (city >= 0) add_population(s, city, kPopGrowthAmount);
      break;
    }
    case kRuinsExplorer: explore_from(s, player, tile); break;
    case kRuinsResources: gain_stars(s, player, kRuinsStars); break;
  }
}

}  // namespace polyenv
