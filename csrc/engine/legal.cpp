// §13 legal actions, enumerated once in ascending id order (the canonical
// order of every API). One visitor serves the list, the legality check and the
// "only End Turn is left" test, so they can never disagree.
#include <algorithm>
#include <array>

#include "mechanics.hpp"

namespace polyenv {

namespace {

// Techs not known yet whose parent is known (can_research decides the cost).
struct TechTree {
  static constexpr int kMaxTier = kMaxTechTier + 1;  // tiers 0 .. kMaxTechTier
  uint32_t roots = 0;
  std::array<uint32_t, kNumTechs> children{};
  std::array<uint32_t, kMaxTier> tier_mask{};   // techs of each tier
  std::array<int8_t, kMaxTier> tier_example{};  // one tech of each tier (-1: none)
};
constexpr TechTree tech_tree() {
  TechTree tree;
  tree.tier_example.fill(-1);
  for (int t = 0; t < kNumTechs; ++t) {
    if (kTechs[t].parent == kNoTech) tree.roots |= 1u << t;
    else tree.children[kTechs[t].parent] |= 1u << t;
    tree.tier_mask[kTechs[t].tier] |= 1u << t;
    if (tree.tier_example[kTechs[t].tier] < 0) tree.tier_example[kTechs[t].tier] = int8_t(t);
  }
  return tree;
}
inline constexpr TechTree kTechTree = tech_tree();
// A per-byte table of a function of the known techs that is an OR over the known bits
// (children, buildings unlocked): three lookups instead of a loop over up to 24 techs.
struct TechByteTable {
  std::array<std::array<uint32_t, 256>, 3> part{};
  uint32_t operator()(uint32_t techs) const {
    return part[0][techs & 255] | part[1][(techs >> 8) & 255] | part[2][(techs >> 16) & 255];
  }
};
static_assert(kNumTechs <= 24);
template <class PerTech>
constexpr TechByteTable tech_byte_table(PerTech per_tech) {
  TechByteTable table;
  for (int byte = 0; byte < 3; ++byte) {
    for (int v = 0; v < 256; ++v) {
      for (int b = 0; b < 8; ++b) {
        if ((v >> b) & 1) table.part[byte][v] |= per_tech(byte * 8 + b);
      }
    }
  }
  return table;
}
inline constexpr TechByteTable kTechChildren =
    tech_byte_table([](int t) { return t < kNumTechs ? kTechTree.children[t] : 0u; });
inline uint32_t research_candidates(const Player& p) { return (kTechTree.roots | kTechChildren(p.techs)) & ~p.techs; }
// Whether any research is affordable: the candidates' lowest tier is the cheapest.
inline bool can_research_any(const GameState& s, int player) {
  const uint32_t candidates = research_candidates(s.players[player]);
  for (int tier = 0; tier < TechTree::kMaxTier; ++tier) {
    if (candidates & kTechTree.tier_mask[tier]) return s.players[player].stars >= tech_cost(s, player, kTechTree.tier_example[tier]);
  }
  return false;
}
// Of `candidates`, the techs the player can pay for (tech_cost depends on the tier only and does not
// fall with it: only the tiers holding a candidate are priced, up to the first one too dear).
inline uint32_t affordable_techs(const GameState& s, int player, uint32_t candidates) {
  uint32_t bits = 0;
  for (int tier = 0; tier < TechTree::kMaxTier; ++tier) {
    const int example = kTechTree.tier_example[tier];
    if (example < 0 || !(candidates & kTechTree.tier_mask[tier])) continue;
    if (s.players[player].stars < tech_cost(s, player, example)) break;
    bits |= kTechTree.tier_mask[tier];
  }
  return bits & candidates;
}

inline constexpr int kMaxResource = kRuins;
// Building bit masks: by required tech, without one, by cost ceiling and by terrain.
struct BuildingTables {
  static constexpr int kMaxCost = kMaxBuildingCost;  // the dearest building
  uint32_t no_tech = 0, monuments = 0;
  std::array<uint32_t, kNumTechs> by_tech{};
  std::array<uint32_t, kMaxCost + 1> affordable{};  // buildings costing at most the index
  std::array<uint32_t, kNumTerrains> by_terrain{};
  // Buildings a tile's resource allows (none needed, or the tile's), by resource + 1.
  std::array<uint32_t, kMaxResource + 2> by_resource{};
  uint32_t board_checks = 0;  // adjacency or one of a kind per city: building_fits decides
  uint32_t one_per_city = 0;
};
constexpr BuildingTables building_tables() {
  BuildingTables tables;
  for (int b = 0; b < kNumBuildings; ++b) {
    const BuildingInfo& info = kBuildings[b];
    if (info.tech == kNoTech) tables.no_tech |= 1u << b;
    else tables.by_tech[info.tech] |= 1u << b;
    if (is_monument(b)) tables.monuments |= 1u << b;
    for (int c = info.cost; c <= BuildingTables::kMaxCost; ++c) tables.affordable[c] |= 1u << b;
    for (int t = 0; t < kNumTerrains; ++t) if (info.terrain_mask & (1u << t)) tables.by_terrain[t] |= 1u << b;
    for (int r = -1; r <= kMaxResource; ++r) {
      if (info.resource == kNoResource || info.resource == r) tables.by_resource[r + 1] |= 1u << b;
    }
    if (info.adjacent_to >= 0 || info.one_per_city) tables.board_checks |= 1u << b;
    if (info.one_per_city) tables.one_per_city |= 1u << b;
  }
  return tables;
}
inline constexpr BuildingTables kBuildingTables = building_tables();
inline constexpr TechByteTable kBuildingsByTech =
    tech_byte_table([](int t) { return t < kNumTechs ? kBuildingTables.by_tech[t] : 0u; });

// Unit types the tribe has the tech and the stars for (can_spawn's tribe part).
inline uint32_t spawnable_types(const Player& p) {
  uint32_t bits = 0;
  for (int type = 0; type < kNumSpawnable; ++type) {
    const UnitInfo& info = kUnits[type];
    if ((info.tech == kNoTech || p.has(info.tech)) && p.stars >= info.cost) bits |= 1u << type;
  }
  return bits;
}

// can_tile_action's tribe part (techs, stars) per terrain and per resource.
struct TileActionMasks {
  std::array<uint32_t, kNumTerrains> by_terrain{};  // clear, burn, grow forest
  uint32_t gather_resources = 0;                    // bit resource + 1: gathering it is legal
  uint32_t destroy = 0;                             // 1: Destroy is legal on a building
  bool any = false;
};
inline TileActionMasks tile_action_masks(const Player& p) {
  TileActionMasks m;
  m.by_terrain[kForest] = (uint32_t(p.has(kForestry)) << kClearForest) |
                          (uint32_t(p.has(kChivalry) && p.stars >= kBurnForestCost) << kBurnForest);
  m.by_terrain[kPlain] = uint32_t(p.has(kSpiritualism) && p.stars >= kGrowForestCost) << kGrowForest;
  for (int r = 0; r <= kMaxResource; ++r) {
    const int tech = gather_tech(r);
    if (tech != kNoTech && p.has(tech) && (r == kWhales || p.stars >= kGatherCost)) m.gather_resources |= 1u << (r + 1);
  }
  m.destroy = p.has(kConstruction);
  m.any = m.by_terrain[kForest] || m.by_terrain[kPlain] || m.gather_resources || m.destroy;
  return m;
}

// Insertion sort: the lists are short (a tribe's units or cities).
inline void sort_small(int16_t* a, int n) {
  for (int i = 1; i < n; ++i) {
    const int16_t v = a[i];
    int j = i;
    for (; j > 0 && a[j - 1] > v; --j) a[j] = a[j - 1];
    a[j] = v;
  }
}

// The reach of one unit (*words: its words): from the cache when still valid, else searched
// (and cached). `boards_ready`: the boards were brought up to date by this enumeration;
// `foreign`: the tiles holding another tribe's unit.
Reach unit_reach(const GameState& s, int slot, const uint64_t* foreign, MoveBoards& boards, bool& boards_ready,
                 MoveCache* cache, uint64_t* scratch, const uint64_t** words) {
  auto search = [&](uint64_t* out) {
    if (!boards_ready) { prepare_move_boards(s, foreign, boards, cache != nullptr); boards_ready = true; }
    return reachable_tiles(s, slot, boards, out);
  };
  if (!cache) {
    *words = scratch;
    return search(scratch);
  }
  const Unit& u = s.units[slot];
  if (cache->entries.size() < s.units.size()) cache->entries.resize(size_t(s.num_tiles));
  if (cache->pool.empty()) cache->pool.resize(size_t(256) * kMaxReachWords);
  MoveCache::Entry& e = cache->entries[slot];
  if (e.epoch == s.move_epoch && e.uid == u.uid && e.tile == u.tile && s.move_epoch != 0) {
    *words = cache->pool.data() + e.offset;
    return {e.first_word, e.num_words};
  }
  if (cache->used + kMaxReachWords > cache->pool.size()) {  // full: forget everything
    for (MoveCache::Entry& old : cache->entries) old.epoch = 0;
    cache->used = 0;
  }
  const Reach reach = search(cache->pool.data() + cache->used);
  e.epoch = s.move_epoch;
  e.uid = u.uid;
  e.tile = u.tile;
  e.offset = cache->used;
  e.first_word = int16_t(reach.first_word);
  e.num_words = int16_t(reach.num_words);
  cache->used += uint32_t(reach.num_words);
  *words = cache->pool.data() + e.offset;
  return reach;
}

// Every tribe's cities and territory (the tiles of its cities within their scan radius),
// each tribe's in ascending tile order: kept in a MoveCache until the territory epoch changes
// (a capture, a border growth, a new city). With `only_player` (a caller without a cache, which
// keeps nothing) just that tribe's lists; the others stay empty.
void scan_territory(const GameState& s, TileScan& scan, int only_player = -1) {
  scan.territory_epoch = only_player < 0 ? s.territory_epoch : 0;  // 0: not reusable
  if (int(scan.territory.size()) < s.num_tiles) {
    scan.city_tiles.resize(size_t(s.num_tiles));
    scan.territory.resize(size_t(s.num_tiles));
    scan.territory_city.resize(size_t(s.num_tiles));
  }
  const int words = s.explored_words();
  const Tile* tiles = s.tiles.data();
  int num_cities = 0, num_territory = 0;
  for (int player = 0; player < s.num_players; ++player) {
    scan.city_begin[size_t(player)] = int16_t(num_cities);
    scan.territory_begin[size_t(player)] = int16_t(num_territory);
    if (only_player >= 0 && player != only_player) continue;
    uint64_t in_territory[kMaxTiles / 64 + 1];
    std::fill(in_territory, in_territory + words, uint64_t(0));
    const int first_city = num_cities;
    for (int ci = 0; ci < int(s.cities.size()); ++ci) {
      const City& c = s.cities[ci];
      if (c.owner != player) continue;
      scan.city_tiles[size_t(num_cities++)] = c.tile;
      const int n = s.map_size, x = c.tile / n, y = c.tile % n, r = city_scan_radius(c);
      const int y0 = std::max(y - r, 0), y1 = std::min(y + r, n - 1);
      for (int tx = std::max(x - r, 0); tx <= std::min(x + r, n - 1); ++tx) {
        for (int t = tx * n + y0; t <= tx * n + y1; ++t) {
          if (tiles[t].city == ci) in_territory[t >> 6] |= uint64_t(1) << (t & 63);
        }
      }
    }
    sort_small(scan.city_tiles.data() + first_city, num_cities - first_city);
    for (int w = 0; w < words; ++w) {
      for (uint64_t bits = in_territory[w]; bits; bits &= bits - 1) {
        const int t = w * 64 + __builtin_ctzll(bits);
        scan.territory[size_t(num_territory)] = int16_t(t);
        scan.territory_city[size_t(num_territory++)] = s.tiles[t].city;
      }
    }
  }
  scan.city_begin[size_t(s.num_players)] = int16_t(num_cities);
  scan.territory_begin[size_t(s.num_players)] = int16_t(num_territory);
}
// Where the acting tribe could build a road given Roads and 2 stars (can_build_road's other
// conditions, a word at a time): a seen plain, forest or village tile without a road, outside
// other tribes' territory, without another tribe's unit (`foreign`). Calls emit(tile) in order.
template <class EmitTile>
inline bool for_each_road_tile(const GameState& s, int player, const uint64_t* foreign, EmitTile&& emit) {
  const uint64_t *plain = s.terrain_bits_of(kPlain), *forest = s.terrain_bits_of(kForest);
  const uint64_t* village = s.terrain_bits_of(kVillage);
  const uint64_t* road = s.tile_bits_of(kTileBitsRoadOrCity);  // on these terrains: a road
  const uint64_t *territory = s.tile_bits_of(kTileBitsTerritory), *own = s.territory_bits_of(player);
  const uint64_t* seen = s.full_observability ? nullptr : &s.explored[size_t(player) * size_t(s.explored_words())];
  for (int w = 0, words = s.explored_words(); w < words; ++w) {
    uint64_t bits = (plain[w] | forest[w] | village[w]) & ~road[w] & ~(territory[w] & ~own[w]) & ~foreign[w];
    if (seen) bits &= seen[w];
    for (; bits; bits &= bits - 1) if (!emit(w * 64 + __builtin_ctzll(bits))) return false;
  }
  return true;
}

// Emits the n consecutive ids first .. first + n - 1; false when the visitor stopped. A visitor
// with `range` (the list writer) takes them in one call when they fit.
template <class Emit>
inline bool emit_range(Emit& emit, int32_t first, int n) {
  if constexpr (requires { emit.range(first, n); }) {
    if (emit.range(first, n)) return true;
  }
  for (int i = 0; i < n; ++i) if (!emit(first + i)) return false;
  return true;
}

// Emits the ids of `list` in order; false when the visitor stopped. A visitor with `ids` (the
// list writer) copies them in one call when they fit.
template <class Emit>
inline bool emit_ids(Emit& emit, const int32_t* list, int n) {
  if constexpr (requires { emit.ids(list, n); }) {
    if (emit.ids(list, n)) return true;
  }
  for (int i = 0; i < n; ++i) if (!emit(list[i])) return false;
  return true;
}

// Emits base + t for the tiles t of a unit's reach (`words`) that hold none of its tribe's
// units (`own`; passable, not destinations; other tribes' units are never reached), in order;
// false when the visitor stopped.
template <class Emit>
inline bool emit_destinations(Emit& emit, int32_t base, Reach reach, const uint64_t* words, const uint64_t* own) {
  if constexpr (requires { emit.room(0); }) {  // the list writer: without a capacity test per id when they fit
    if (int32_t* out = emit.room(reach.num_words * 64)) {
      int n = 0;
      for (int w = 0; w < reach.num_words; ++w) {
        const int word = reach.first_word + w;
        for (uint64_t bits = words[w] & ~own[word]; bits; bits &= bits - 1) out[n++] = base + word * 64 + __builtin_ctzll(bits);
      }
      emit.advance(n);
      return true;
    }
  }
  for (int w = 0; w < reach.num_words; ++w) {
    const int word = reach.first_word + w;
    for (uint64_t bits = words[w] & ~own[word]; bits; bits &= bits - 1) {
      if (!emit(base + word * 64 + __builtin_ctzll(bits))) return false;
    }
  }
  return true;
}

// Calls emit(id) for every legal id in ascending order; stops when emit returns false.
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
  // can_research's conditions as bit masks: unknown, parent known, affordable.
  for (uint32_t bits = affordable_techs(s, player, research_candidates(p)); bits; bits &= bits - 1) {
    if (!emit(space.research(__builtin_ctz(bits)))) return;
  }
  for (int rel = 1; rel < s.num_players; ++rel) {
    int target = (player + rel) % s.num_players;
    if (can_declare_war(s, player, target) && !emit(space.declare_war(rel))) return;
  }
  const int max_stars = max_send_stars(s, player);
  for (int rel = 1; rel < s.num_players && max_stars > 0; ++rel) {
    if (!emit_range(emit, space.send_stars(rel, 1), max_stars)) return;  // amounts 1 .. max_stars: consecutive ids
  }

  // The acting tribe's unit tiles, city tiles and territory, in ascending tile
  // order (the id order of every later block), from its units and cities.
  int16_t unit_tiles[kMaxTiles];
  int num_units = 0;
  // Tiles holding the tribe's own units (read in ascending order below: no sort) and another
  // tribe's, with their first and last.
  const uint64_t* own_tiles = s.unit_bits_of(player);
  uint64_t enemy_tiles[kMaxTiles / 64 + 1];
  const int words = s.explored_words();
  int enemy_lo = kMaxTiles, enemy_hi = -1;
  for (int w = 0; w < words; ++w) {
    uint64_t enemy = 0;
    for (int q = 0; q < s.num_players; ++q) enemy |= q == player ? 0 : s.unit_bits_of(q)[w];
    enemy_tiles[w] = enemy;
    if (enemy) {
      enemy_lo = std::min(enemy_lo, w * 64 + __builtin_ctzll(enemy));
      enemy_hi = w * 64 + 63 - __builtin_clzll(enemy);
    }
  }
  for (int w = 0; w < words; ++w) {
    for (uint64_t bits = own_tiles[w]; bits; bits &= bits - 1) unit_tiles[num_units++] = int16_t(w * 64 + __builtin_ctzll(bits));
  }
  // can_spawn, can_build and can_tile_action as bit masks: what depends on the tribe (techs, stars,
  // monuments) once per list, what depends on the tile by table; can_build decides only its board checks.
  const uint32_t spawnable = spawnable_types(p);
  uint32_t allowed = kBuildingTables.no_tech | kBuildingsByTech(p.techs);
  allowed &= p.stars >= BuildingTables::kMaxCost ? ~0u : kBuildingTables.affordable[std::max(p.stars, 0)];
  allowed &= ~kBuildingTables.monuments | (uint32_t(p.monuments_available) << kFirstMonument);
  const TileActionMasks tile_masks = tile_action_masks(p);
  const bool roads = p.has(kRoads) && p.stars >= kRoadCost;
  // Cities and territory change only with the territory epoch (see TileScan); a tribe that can
  // neither spawn, build nor act on a tile needs neither.
  int num_cities = 0, num_territory = 0;
  const int16_t *city_tiles = nullptr, *territory = nullptr, *territory_city = nullptr;
  if (spawnable || allowed || tile_masks.any) {
    thread_local TileScan scratch;  // callers without a cache: buffers allocated once per thread
    TileScan& scan = cache ? cache->scan : scratch;
    if (!cache) scan_territory(s, scan, player);
    else if (scan.territory_epoch != s.territory_epoch || s.territory_epoch == 0) scan_territory(s, scan);
    const int city_begin = scan.city_begin[size_t(player)], territory_begin = scan.territory_begin[size_t(player)];
    num_cities = scan.city_begin[size_t(player) + 1] - city_begin;
    num_territory = scan.territory_begin[size_t(player) + 1] - territory_begin;
    city_tiles = scan.city_tiles.data() + city_begin;
    territory = scan.territory.data() + territory_begin;
    territory_city = scan.territory_city.data() + territory_begin;
  }
  if (roads && !for_each_road_tile(s, player, enemy_tiles, [&](int t) { return emit(space.build_road(t)); })) return;
  for (int i = 0; i < num_cities && spawnable; ++i) {
    const int t = city_tiles[i];
    const City& c = s.cities[s.tiles[t].city];
    if (s.tiles[t].unit >= 0 || c.supported >= city_capacity(c)) continue;
    for (uint32_t bits = spawnable; bits; bits &= bits - 1) {
      if (!emit(space.spawn(t, __builtin_ctz(bits)))) return;
    }
  }
  // The territory blocks (builds, then tile actions): kept in the cache while nothing they
  // read changed (TileScan::improvements_key), else enumerated (and kept when complete).
  auto improvements = [&](auto&& out) {
    // The board masks of building_fits: per tile when needed, per city once (cities in `city_tiles` order).
    uint32_t city_masks[kMaxTiles];
    bool city_mask_known[kMaxTiles];
    std::fill_n(city_mask_known, num_cities, false);
    auto city_mask = [&](int city) {
      const int k = int(std::lower_bound(city_tiles, city_tiles + num_cities, s.cities[city].tile) - city_tiles);
      if (!city_mask_known[k]) {
        city_masks[k] = city_buildings(s, city);
        city_mask_known[k] = true;
      }
      return city_masks[k];
    };
    for (int i = 0; i < num_territory && allowed; ++i) {
      const Tile& tile = s.tiles[territory[i]];
      if (tile.building != kNoBuilding) continue;
      uint32_t here = allowed & kBuildingTables.by_terrain[tile.terrain] & kBuildingTables.by_resource[tile.resource + 1];
      if (uint32_t checked = here & kBuildingTables.board_checks) {
        // One of a kind per city first: it often rules them all out without a look at the neighbours.
        const uint32_t in_city = city_mask(territory_city[i]);
        here &= ~(checked & in_city & kBuildingTables.one_per_city);
        checked &= here;
        const uint32_t neighbours = checked ? neighbour_buildings(s, territory[i]) : 0;
        for (; checked; checked &= checked - 1) {
          const int b = __builtin_ctz(checked);
          if (!building_fits(b, neighbours, in_city)) here &= ~(1u << b);
        }
      }
      for (uint32_t bits = here; bits; bits &= bits - 1) {
        if (!out(space.build(territory[i], __builtin_ctz(bits)))) return false;
      }
    }
    for (int i = 0; i < num_territory && tile_masks.any; ++i) {
      const Tile& tile = s.tiles[territory[i]];
      const uint32_t here = tile_masks.by_terrain[tile.terrain] |
                            (((tile_masks.gather_resources >> (tile.resource + 1)) & 1u) << kGather) |
                            ((tile.building != kNoBuilding) & tile_masks.destroy) << kDestroy;
      for (uint32_t bits = here; bits; bits &= bits - 1) {
        if (!out(space.tile_action(territory[i], __builtin_ctz(bits)))) return false;
      }
    }
    return true;
  };
  if (num_territory > 0 && (allowed || tile_masks.any)) {
    if (!cache) {
      if (!improvements(emit)) return;
    } else {
      TileScan& scan = cache->scan;
      const TileScan::ImprovementKey key{s.territory_epoch, s.tile_epoch, player, allowed, tile_masks.by_terrain,
                                         tile_masks.gather_resources, tile_masks.destroy};
      if (key.territory_epoch != 0 && key.tile_epoch != 0 && scan.improvements_key == key) {
        if (!emit_ids(emit, scan.improvements.data(), scan.num_improvements)) return;
      } else {
        const size_t bound = size_t(num_territory) * (kNumBuildings + kNumTileActions);
        if (scan.improvements.size() < bound) scan.improvements.resize(bound);
        int32_t* kept = scan.improvements.data();
        int count = 0;
        scan.improvements_key = {};
        if (!improvements([&](int32_t id) { kept[count++] = id; return emit(id); })) return;
        scan.improvements_key = key;
        scan.num_improvements = count;
      }
    }
  }
  for (int i = 0; i < num_units; ++i) {
    const Unit& u = *s.unit_at(unit_tiles[i]);
    // Only a FRESH unit has capture .. heal others; veterans need kills, upgrades a boat.
    const Tile& here = s.tiles[unit_tiles[i]];
    const uint32_t fresh_kinds = ((here.terrain == kVillage || here.terrain == kCity) << kCapture) |
                                 ((u.hp < u.max_hp) << kRecover) | (p.has(kFreeSpirit) << kDisband) |
                                 ((here.resource == kRuins) << kExamine) | ((u.type == kMindBender) << kHealOthers);
    const uint32_t candidates = (u.status == kFresh ? fresh_kinds : 0u) |
                                ((u.kills >= kVeteranKills) << kMakeVeteran) | (is_naval(u.type) << kUpgrade);
    for (uint32_t bits = candidates; bits; bits &= bits - 1) {
      const int k = __builtin_ctz(bits);
      if (unit_self_legal(s, u, k) && !emit(space.unit_self(unit_tiles[i], k))) return;
    }
  }
  const int n = s.map_size;
  // Rows holding another tribe's unit: enemy_lo / n .. enemy_hi / n (none: an empty range).
  const int enemy_x0 = enemy_hi < 0 ? n : enemy_lo / n, enemy_x1 = enemy_hi < 0 ? -1 : enemy_hi / n;
  for (int i = 0; i < num_units && enemy_x0 <= enemy_x1; ++i) {
    const int t = unit_tiles[i];
    const Unit& u = *s.unit_at(t);
    const bool bender = u.type == kMindBender;
    if (bender ? u.status != kFresh : !can_attack(u)) continue;
    const int range = bender ? 1 : unit_range(u);
    const int x = t / n, y = t % n;
    const int y0 = std::max(y - range, 0), len = std::min(y + range, n - 1) - y0 + 1;
    for (int tx = std::max({x - range, 0, enemy_x0}); tx <= std::min({x + range, n - 1, enemy_x1}); ++tx) {
      // can_target / can_convert need an enemy unit on the target.
      for (uint64_t row = bit_range(enemy_tiles, tx * n + y0, len); row; row &= row - 1) {
        const int target = tx * n + y0 + __builtin_ctzll(row);
        bool ok = bender ? can_convert(s, u, target) : can_target(s, u, target);
        if (ok && !emit(space.attack(t, target))) return;
      }
    }
  }
  uint64_t reach_words[kMaxReachWords];
  thread_local MoveBoards scratch_boards;  // callers without a cache: rows allocated once per thread
  MoveBoards& boards = cache ? cache->boards : scratch_boards;
  bool boards_ready = false;
  for (int i = 0; i < num_units; ++i) {
    const int t = unit_tiles[i];
    const int slot = s.tiles[t].unit;
    if (!can_move(s.units[slot])) continue;
    const uint64_t* reached = nullptr;
    const Reach reach = unit_reach(s, slot, enemy_tiles, boards, boards_ready, cache, reach_words, &reached);
    if (!emit_destinations(emit, space.move(t, 0), reach, reached, own_tiles)) return;
  }
}

}  // namespace

namespace {

// legal_actions' visitor: writes the first `capacity` ids and counts them all. Whole blocks of
// ids that fit are written without a capacity test per id.
struct ListWriter {
  int32_t* out;
  int capacity;
  int count = 0;
  bool operator()(int32_t id) __attribute__((always_inline)) {
    if (count < capacity) out[count] = id;
    ++count;
    return true;
  }
  bool range(int32_t first, int n) {
    if (n > capacity - count) return false;
    for (int i = 0; i < n; ++i) out[count + i] = first + i;
    count += n;
    return true;
  }
  bool ids(const int32_t* list, int n) {
    if (n > capacity - count) return false;
    std::copy_n(list, n, out + count);
    count += n;
    return true;
  }
  // Where to write up to `n` ids, or null when they might not fit; advance(k) counts the k written.
  int32_t* room(int n) { return n <= capacity - count ? out + count : nullptr; }
  void advance(int n) { count += n; }
};

}  // namespace

int legal_actions(const GameState& s, int32_t* out, int capacity, MoveCache* cache) {
  ListWriter writer{out, capacity};
  for_each_legal(s, writer, cache);
  return writer.count;
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
  // Cheap witnesses of a second legal action first (the visitor's own tests).
  if (!s.game_over && s.pending_city < 0) {
    const int player = s.current_player;
    if (can_research_any(s, player)) return false;
    if (s.num_players > 1 && max_send_stars(s, player) > 0) return false;  // eliminated tribes included (RULES §10)
    for (int rel = 1; rel < s.num_players; ++rel) {
      if (can_declare_war(s, player, (player + rel) % s.num_players)) return false;
    }
    // A unit that can step onto an empty neighbour has a legal move (no search needed).
    for (const Unit& u : s.units) {
      if (u.alive() && u.owner == player && can_move(u) && has_one_step_move(s, u)) return false;
    }
  }
  int count = 0;
  bool end_turn_legal = false;
  for_each_legal(s, [&](int32_t id) {
    if (id == 0) end_turn_legal = true;
    return ++count < 2;
  });
  return count == 1 && end_turn_legal;
}

}  // namespace polyenv
