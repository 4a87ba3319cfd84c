// §13 legal actions, enumerated once in ascending id order (the canonical
// order of every API). One visitor serves the list, the legality check and the
// "only End Turn is left" test, so they can never disagree.
#include "mechanics.hpp"

namespace polyenv {

namespace {

// Calls emit(id) for every legal id in ascending order; stops when emit returns false.
// The reach of one unit: from the cache when still valid, else searched (and cached).
int unit_reach(const GameState& s, int slot, MoveContext& moves, bool& moves_ready, MoveCache* cache,
               int16_t* scratch, const int16_t** list) {
  auto search = [&](int16_t* out) {
    if (!moves_ready) { prepare_moves(s, s.current_player, moves); moves_ready = true; }
    return reachable_tiles(s, slot, moves, out);
  };
  if (!cache) {
    *list = scratch;
    return search(scratch);
  }
  const Unit& u = s.units[slot];
  if (cache->entries.size() < s.units.size()) cache->entries.resize(size_t(s.num_tiles));
  if (cache->pool.empty()) cache->pool.resize(size_t(64) * kMaxReachable);
  MoveCache::Entry& e = cache->entries[slot];
  if (e.epoch == s.move_epoch && e.uid == u.uid && e.tile == u.tile && s.move_epoch != 0) {
    *list = cache->pool.data() + e.offset;
    return e.count;
  }
  if (cache->used + kMaxReachable > cache->pool.size()) {  // full: forget everything
    for (MoveCache::Entry& old : cache->entries) old.epoch = 0;
    cache->used = 0;
  }
  e.epoch = s.move_epoch;
  e.uid = u.uid;
  e.tile = u.tile;
  e.offset = cache->used;
  e.count = uint16_t(search(cache->pool.data() + e.offset));
  cache->used += e.count;
  *list = cache->pool.data() + e.offset;
  return e.count;
}

template <class Emit>
void for_each_legal(const GameState& s, Emit&& emit, MoveCache* cache = nullptr) {
  if (s.game_over) return;
  const ActionSpace space = action_space(s);
  const int player = s.current_player;
  const Player& p = s.players[player];
  if (s.pending_city >= 0) {  // §8.1: only the two rewards are legal
    if (emit(space.level_up(0))) emit(space.level_up(1));
    return;
  }
  if (!emit(space.end_turn())) return;
  // Cheap necessary conditions skip most candidates before the full rule checks
  // (can_research, can_build_road, can_tile_action, unit_self_legal decide).
  for (int tech = 0; tech < kNumTechs; ++tech) {
    const int parent = kTechs[tech].parent;
    if (p.has(tech) || (parent != kNoTech && !p.has(parent))) continue;
    if (can_research(s, player, tech) && !emit(space.research(tech))) return;
  }
  for (int rel = 1; rel < s.num_players; ++rel) {
    int target = (player + rel) % s.num_players;
    if (can_declare_war(s, player, target) && !emit(space.declare_war(rel))) return;
  }
  const int max_stars = max_send_stars(s, player);
  for (int rel = 1; rel < s.num_players && max_stars > 0; ++rel) {
    for (int n = 1; n <= max_stars; ++n) if (!emit(space.send_stars(rel, n))) return;
  }

  // One pass over the board collects the tiles the later blocks visit.
  int16_t unit_tiles[kMaxTiles], city_tiles[kMaxTiles], territory[kMaxTiles];
  int16_t territory_city[kMaxTiles];
  int num_units = 0, num_cities = 0, num_territory = 0;
  for (int t = 0; t < s.num_tiles; ++t) {
    const Tile& tile = s.tiles[t];
    if (tile.unit >= 0 && s.units[tile.unit].owner == player) unit_tiles[num_units++] = int16_t(t);
    if (tile.city < 0 || s.cities[tile.city].owner != player) continue;
    const City& c = s.cities[tile.city];
    if (c.tile == t) city_tiles[num_cities++] = int16_t(t);
    if (s.distance(c.tile, t) <= city_scan_radius(c)) {
      territory[num_territory] = int16_t(t);
      territory_city[num_territory++] = tile.city;
    }
  }

  if (p.has(kRoads) && p.stars >= 2) {
    for (int t = 0; t < s.num_tiles; ++t) {
      const Tile& tile = s.tiles[t];
      if (tile.road || !(tile.terrain == kPlain || tile.terrain == kForest || tile.terrain == kVillage)) continue;
      if (can_build_road(s, player, t) && !emit(space.build_road(t))) return;
    }
  }
  for (int i = 0; i < num_cities; ++i) {
    const int t = city_tiles[i], city = s.tiles[t].city;
    for (int type = 0; type < kNumSpawnable; ++type) {
      if (can_spawn(s, city, type) && !emit(space.spawn(t, type))) return;
    }
  }
  // Buildings the tribe could afford with its techs, by terrain: a cheap filter before can_build.
  uint32_t buildable[kNumTerrains] = {};
  for (int b = 0; b < kNumBuildings; ++b) {
    const BuildingInfo& info = kBuildings[b];
    if ((info.tech != kNoTech && !p.has(info.tech)) || p.stars < info.cost) continue;
    if (is_monument(b) && !(p.monuments_available & (1u << (b - kFirstMonument)))) continue;
    for (int t = 0; t < kNumTerrains; ++t) if (info.terrain_mask & (1u << t)) buildable[t] |= 1u << b;
  }
  for (int i = 0; i < num_territory; ++i) {
    const Tile& tile = s.tiles[territory[i]];
    if (tile.building != kNoBuilding) continue;
    for (uint32_t bits = buildable[tile.terrain]; bits; bits &= bits - 1) {
      const int b = __builtin_ctz(bits);
      if (can_build(s, territory_city[i], territory[i], b) && !emit(space.build(territory[i], b))) return;
    }
  }
  // Tile actions the tribe has the tech for (gather: any gathering tech).
  const uint32_t tile_kinds = ((p.has(kOrganization) || p.has(kHunting) || p.has(kFishing) || p.has(kWhaling)) << kGather) |
                              (p.has(kForestry) << kClearForest) | (p.has(kChivalry) << kBurnForest) |
                              (p.has(kSpiritualism) << kGrowForest) | (p.has(kConstruction) << kDestroy);
  for (int i = 0; i < num_territory; ++i) {
    const Tile& tile = s.tiles[territory[i]];
    const uint32_t here = ((tile.resource != kNoResource) << kGather) |
                          ((tile.terrain == kForest) * ((1u << kClearForest) | (1u << kBurnForest))) |
                          ((tile.terrain == kPlain) << kGrowForest) | ((tile.building != kNoBuilding) << kDestroy);
    for (uint32_t bits = here & tile_kinds; bits; bits &= bits - 1) {
      const int k = __builtin_ctz(bits);
      if (can_tile_action(s, territory_city[i], territory[i], k) && !emit(space.tile_action(territory[i], k))) return;
    }
  }
  for (int i = 0; i < num_units; ++i) {
    const Unit& u = *s.unit_at(unit_tiles[i]);
    // Only a FRESH unit has capture .. heal others; veterans need kills, upgrades a boat.
    const uint32_t candidates = (u.status == kFresh ? (1u << kMakeVeteran) - 1 : 0u) |
                                ((u.kills >= kVeteranKills) << kMakeVeteran) | (is_naval(u.type) << kUpgrade);
    for (uint32_t bits = candidates; bits; bits &= bits - 1) {
      const int k = __builtin_ctz(bits);
      if (unit_self_legal(s, u, k) && !emit(space.unit_self(unit_tiles[i], k))) return;
    }
  }
  const int n = s.map_size;
  for (int i = 0; i < num_units; ++i) {
    const int t = unit_tiles[i];
    const Unit& u = *s.unit_at(t);
    const bool bender = u.type == kMindBender;
    if (bender ? u.status != kFresh : !can_attack(u)) continue;
    const int range = bender ? 1 : unit_range(u);
    const int x = t / n, y = t % n;
    for (int tx = x - range; tx <= x + range; ++tx) {
      if (tx < 0 || tx >= n) continue;
      for (int ty = y - range; ty <= y + range; ++ty) {
        if (ty < 0 || ty >= n) continue;
        const int target = tx * n + ty;
        bool ok = bender ? can_convert(s, u, target) : can_target(s, u, target);
        if (ok && !emit(space.attack(t, target))) return;
      }
    }
  }
  int16_t reach[kMaxReachable];
  MoveContext moves;
  bool moves_ready = false;
  for (int i = 0; i < num_units; ++i) {
    const int t = unit_tiles[i];
    const int slot = s.tiles[t].unit;
    if (!can_move(s.units[slot])) continue;
    const int16_t* list = nullptr;
    const int count = unit_reach(s, slot, moves, moves_ready, cache, reach, &list);
    for (int j = 0; j < count; ++j) {
      if (s.tiles[list[j]].unit < 0 && !emit(space.move(t, list[j]))) return;  // own units are passable, not destinations
    }
  }
}

}  // namespace

int legal_actions(const GameState& s, int32_t* out, int capacity, MoveCache* cache) {
  int count = 0;
  for_each_legal(
      s,
      [&](int32_t id) {
        if (count < capacity) out[count] = id;
        ++count;
        return true;
      },
      cache);
  return count;
}

bool is_legal(const GameState& s, int32_t id) {
  if (id < 0 || id >= action_space(s).size()) return false;
  bool found = false;
  for_each_legal(s, [&](int32_t legal) {
    if (legal == id) found = true;
    return legal < id;  // ascending: stop once past `id`
  });
  return found;
}

bool only_end_turn(const GameState& s) {
  int count = 0;
  bool end_turn_legal = false;
  for_each_legal(s, [&](int32_t id) {
    if (id == 0) end_turn_legal = true;
    return ++count < 2;
  });
  return count == 1 && end_turn_legal;
}

}  // namespace polyenv
