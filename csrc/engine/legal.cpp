// §13 legal actions, enumerated once in ascending id order (the canonical
// order of every API). One visitor serves the list, the legality check and the
// "only End Turn is left" test, so they can never disagree.
#include "mechanics.hpp"

namespace polyenv {

namespace {

// Calls emit(id) for every legal id in ascending order; stops when emit returns false.
template <class Emit>
void for_each_legal(const GameState& s, Emit&& emit) {
  if (s.game_over) return;
  const ActionSpace space = action_space(s);
  const int player = s.current_player;
  const Player& p = s.players[player];
  if (s.pending_city >= 0) {  // §8.1: only the two rewards are legal
    if (emit(space.level_up(0))) emit(space.level_up(1));
    return;
  }
  if (!emit(space.end_turn())) return;
  for (int tech = 0; tech < kNumTechs; ++tech) {
    if (can_research(s, player, tech) && !emit(space.research(tech))) return;
  }
  for (int rel = 1; rel < s.num_players; ++rel) {
    int target = (player + rel) % s.num_players;
    if (can_declare_war(s, player, target) && !emit(space.declare_war(rel))) return;
  }
  const int max_stars = max_send_stars(s, player);
  for (int rel = 1; rel < s.num_players && max_stars > 0; ++rel) {
    if (!s.players[(player + rel) % s.num_players].alive) continue;
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
  for (int i = 0; i < num_territory; ++i) {
    for (int k = 0; k < kNumTileActions; ++k) {
      if (can_tile_action(s, territory_city[i], territory[i], k) && !emit(space.tile_action(territory[i], k))) return;
    }
  }
  for (int i = 0; i < num_units; ++i) {
    const Unit& u = *s.unit_at(unit_tiles[i]);
    for (int k = 0; k < kNumUnitSelf; ++k) {
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
  int16_t reach[kMaxTiles];
  MoveContext moves;
  bool moves_ready = false;
  for (int i = 0; i < num_units; ++i) {
    const int t = unit_tiles[i];
    const int slot = s.tiles[t].unit;
    if (!can_move(s.units[slot])) continue;
    if (!moves_ready) { prepare_moves(s, player, moves); moves_ready = true; }
    const int count = reachable_tiles(s, slot, moves, reach);
    for (int j = 0; j < count; ++j) if (!emit(space.move(t, reach[j]))) return;
  }
}

}  // namespace

int legal_actions(const GameState& s, int32_t* out, int capacity) {
  int count = 0;
  for_each_legal(s, [&](int32_t id) {
    if (count < capacity) out[count] = id;
    ++count;
    return true;
  });
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
