#include "world.hpp"

#include <algorithm>
#include <climits>
#include <vector>

#include "counter_limits.hpp"

#include "ids.hpp"

namespace polyenv {

// ------------------------------------------------------------------ tile bitsets

namespace {

// The rows below kTileBitsTerritory that hold tile `t`.
uint32_t tile_bit_rows(const Tile& t) {
  // A terrain out of range (bytes not checked yet: from_bytes) has no row; check_invariants reports it.
  const uint32_t terrain = t.terrain >= 0 && t.terrain < kNumTerrains ? 1u << (kTileBitsTerrain + t.terrain) : 0u;
  return terrain | (uint32_t(t.building == kPort) << kTileBitsPort) |
         (uint32_t(road_or_city(t)) << kTileBitsRoadOrCity) | (uint32_t(t.road_link != 0) << kTileBitsRoadLink);
}

// Rows first .. last - 1 of tile `tile`'s bits from its Tile.
void refresh_tile_rows(GameState& s, int tile, int first, int last) {
  const uint32_t rows = tile_bit_rows(s.tiles[tile]);
  const size_t words = size_t(s.explored_words());
  uint64_t* word = s.tile_bits.data() + size_t(first) * words + size_t(tile >> 6);
  const int bit = tile & 63;
  for (int r = first; r < last; ++r, word += words) {
    *word = (*word & ~(uint64_t(1) << bit)) | (uint64_t((rows >> r) & 1u) << bit);
  }
}

// The territory rows (any tribe's, then each tribe's) of `bits` from the tiles and cities.
void write_territory_bits(const GameState& s, uint64_t* bits) {
  const size_t words = size_t(s.explored_words());
  uint64_t* territory = bits + size_t(kTileBitsTerritory) * words;
  std::fill(territory, territory + (size_t(s.num_players) + 1) * words, uint64_t(0));
  for (int t = 0; t < s.num_tiles; ++t) {
    const int city = s.tiles[t].city;
    // Out of range only in bytes not checked yet (from_bytes): check_invariants reports them.
    if (city < 0 || city >= int(s.cities.size())) continue;
    const int owner = s.cities[city].owner;
    if (owner < 0 || owner >= s.num_players) continue;
    const uint64_t bit = uint64_t(1) << (t & 63);
    territory[size_t(t >> 6)] |= bit;
    territory[(size_t(1) + size_t(owner)) * words + size_t(t >> 6)] |= bit;
  }
}

}  // namespace

void refresh_tile_bits(GameState& s, int tile) { refresh_tile_rows(s, tile, 0, kTileBitsTerritory); }

void set_unit_bit(GameState& s, int player, int tile, bool on) {
  uint64_t& word = s.tile_bits[size_t(kTileBitsOwnedBy + s.num_players + player) * size_t(s.explored_words()) + size_t(tile >> 6)];
  word = on ? word | uint64_t(1) << (tile & 63) : word & ~(uint64_t(1) << (tile & 63));
}

void compute_tile_bits(const GameState& s, std::vector<uint64_t>& out) {
  const size_t words = size_t(s.explored_words());
  out.assign(size_t(s.tile_bits_rows()) * words, 0);
  for (int t = 0; t < s.num_tiles; ++t) {
    for (uint32_t rows = tile_bit_rows(s.tiles[t]); rows; rows &= rows - 1) {
      out[size_t(__builtin_ctz(rows)) * words + size_t(t >> 6)] |= uint64_t(1) << (t & 63);
    }
  }
  write_territory_bits(s, out.data());
  for (const Unit& u : s.units) {
    // Out of range only in bytes not checked yet (from_bytes): check_invariants reports them.
    if (u.alive() && u.owner >= 0 && u.owner < s.num_players && u.tile >= 0 && u.tile < s.num_tiles) {
      out[size_t(kTileBitsOwnedBy + s.num_players + u.owner) * words + size_t(u.tile >> 6)] |= uint64_t(1) << (u.tile & 63);
    }
  }
}

void rebuild_tile_bits(GameState& s) { compute_tile_bits(s, s.tile_bits); }

// ------------------------------------------------------------------ units

void touch_moves(GameState& s) { s.move_epoch = next_move_epoch(); }
void touch_tiles(GameState& s) { s.tile_epoch = next_move_epoch(); }
void touch_territory(GameState& s) {
  if (s.tile_bits.size() == size_t(s.tile_bits_rows()) * size_t(s.explored_words())) {
    write_territory_bits(s, s.tile_bits.data());
  } else {
    rebuild_tile_bits(s);  // a state put together without them
  }
  s.territory_epoch = next_move_epoch();
  touch_tiles(s);
  touch_moves(s);
}

namespace {

// Gives `player` its next observed ids for the listed slots (distinct) holding a living unit it sees
// and has no id for, in tile order (so the ids never depend on hidden slots or events).
void give_observed_ids(GameState& s, int player, const int16_t* slots, int n) {
  const int players = s.num_players;
  int16_t fresh[kMaxMapSize * kMaxMapSize];
  int count = 0;
  for (int i = 0; i < n; ++i) {
    const int slot = slots[i];
    if (slot >= int(s.units.size()) || !s.units[slot].alive()) continue;
    if (s.unit_alias[size_t(slot) * players + player] == 0 && sees_tile(s, player, s.units[slot].tile)) {
      fresh[count++] = int16_t(slot);
    }
  }
  if (count > 1) std::sort(fresh, fresh + count, [&](int a, int b) { return s.units[a].tile < s.units[b].tile; });
  for (int i = 0; i < count; ++i) s.unit_alias[size_t(fresh[i]) * players + player] = ++s.players[player].units_sighted;
}

// Living units some player has no observed id for yet (usually few): the only candidates.
int unnamed_slots(const GameState& s, int16_t* out) {
  const int players = s.num_players;
  int n = 0;
  for (int slot = 0; slot < int(s.units.size()); ++slot) {
    if (!s.units[slot].alive()) continue;
    const int32_t* alias = &s.unit_alias[size_t(slot) * players];
    bool any = false;
    for (int p = 0; p < players; ++p) any |= alias[p] == 0;
    if (any) out[n++] = int16_t(slot);
  }
  return n;
}

}  // namespace

void note_sightings(GameState& s) {
  s.sightings = SightingsPending{};
  s.sightings.all = 0;
  int16_t unnamed[kMaxMapSize * kMaxMapSize];
  const int n = unnamed_slots(s, unnamed);
  for (int p = 0; p < s.num_players && n; ++p) give_observed_ids(s, p, unnamed, n);
}

void note_new_sightings(GameState& s) {
  const SightingsPending pending = s.sightings;
  if (pending.all) return note_sightings(s);
  if (pending.count == 0 && pending.players == 0) return;
  s.sightings = SightingsPending{};
  s.sightings.all = 0;
  // Since the last call every unit a player sees had an id: a unit lacks one now only if it was
  // placed or moved (listed) or its player's explored area grew (then every unit is a candidate).
  int16_t moved[SightingsPending::kSlots];
  int num_moved = 0;
  for (int i = 0; i < pending.count; ++i) {
    if (std::find(moved, moved + num_moved, pending.slots[i]) == moved + num_moved) moved[num_moved++] = pending.slots[i];
  }
  int16_t unnamed[kMaxMapSize * kMaxMapSize];
  const int num_unnamed = pending.players ? unnamed_slots(s, unnamed) : 0;
  for (int p = 0; p < s.num_players; ++p) {
    if ((pending.players >> p) & 1u) give_observed_ids(s, p, unnamed, num_unnamed);
    else give_observed_ids(s, p, moved, num_moved);
  }
}

void note_unit_shown(GameState& s, int slot) {
  SightingsPending& pending = s.sightings;
  if (pending.count < SightingsPending::kSlots) pending.slots[pending.count++] = int16_t(slot);
  else pending.all = 1;
}

void join_city(GameState& s, int slot, int city) {
  Unit& u = s.units[slot];
  u.home_city = int16_t(city);
  u.home_order = city >= 0 ? uint16_t(s.cities[city].supported++) : 0;
}

void leave_city(GameState& s, int slot) {
  Unit& u = s.units[slot];
  if (u.home_city >= 0) {
    for (Unit& other : s.units) {
      if (other.alive() && other.home_city == u.home_city && other.home_order > u.home_order) other.home_order--;
    }
    s.cities[u.home_city].supported--;
  }
  u.home_city = -1;
  u.home_order = 0;
}

int last_unit_of(const GameState& s, int city) {
  const int last = s.cities[city].supported - 1;
  for (int i = 0; i < int(s.units.size()); ++i) {
    if (s.units[i].alive() && s.units[i].home_city == city && s.units[i].home_order == last) return i;
  }
  return -1;
}

int add_unit(GameState& s, int player, int type, int tile, int home_city, int status) {
  int slot = 0;
  while (slot < int(s.units.size()) && s.units[slot].alive()) ++slot;
  if (slot == int(s.units.size())) s.units.emplace_back();  // capacity reserved at setup
  s.unit_alias.resize(s.units.size() * size_t(s.num_players));
  std::fill_n(s.unit_alias.begin() + ptrdiff_t(slot) * s.num_players, s.num_players, 0);
  Unit& u = s.units[slot];
  u = Unit{};
  u.uid = s.next_uid++;
  u.type = int8_t(type);
  u.owner = int8_t(player);
  u.status = int8_t(status);
  u.max_hp = kUnits[type].max_hp;
  u.hp = u.max_hp;
  u.tile = int16_t(tile);
  join_city(s, slot, home_city);
  s.tiles[tile].unit = int16_t(slot);
  set_unit_bit(s, player, tile, true);
  note_unit_shown(s, slot);
  if (player != s.current_player) touch_moves(s);  // another tribe's unit: blocking and zone of control
  return slot;
}

void remove_unit(GameState& s, int slot) {
  Unit& u = s.units[slot];
  if (u.owner != s.current_player) touch_moves(s);
  leave_city(s, slot);
  s.tiles[u.tile].unit = -1;
  set_unit_bit(s, u.owner, u.tile, false);
  u = Unit{};
  std::fill_n(s.unit_alias.begin() + ptrdiff_t(slot) * s.num_players, s.num_players, 0);
  while (!s.units.empty() && !s.units.back().alive()) s.units.pop_back();
  s.unit_alias.resize(s.units.size() * size_t(s.num_players));
}

int unit_points(const Unit& u) { return kUnits[u.type].points; }

void kill_unit(GameState& s, int slot) {
  add_score(s, s.units[slot].owner, -unit_points(s.units[slot]));
  remove_unit(s, slot);
}

void relocate_unit(GameState& s, int slot, int to) {
  Unit& u = s.units[slot];
  if (u.owner != s.current_player) touch_moves(s);
  s.tiles[u.tile].unit = -1;
  set_unit_bit(s, u.owner, u.tile, false);
  u.tile = int16_t(to);
  s.tiles[to].unit = int16_t(slot);
  set_unit_bit(s, u.owner, to, true);
  note_unit_shown(s, slot);
}

int unit_attack(const Unit& u) { return kUnits[u.type].atk; }
int unit_defence(const Unit& u) { return kUnits[u.type].def; }
int unit_range(const Unit& u) { return kUnits[u.type].range; }
int unit_movement(const Unit& u) { return kUnits[u.type].mov; }

// ------------------------------------------------------------------ vision

namespace {

// Test-only (GameState::forced_draws): the tech another engine drew for this meeting when it is one of the
// candidates, else `drawn`.
int forced_meeting_draw(const GameState& s, int player, int other, uint32_t candidates, int drawn) {
  const auto& f = s.forced_draws;
  for (int i = 0; i < f.meetings; ++i) {
    if (f.meeting[i][0] == player && f.meeting[i][1] == other && ((candidates >> f.meeting[i][2]) & 1u)) {
      return f.meeting[i][2];
    }
  }
  return drawn;
}

// §6: the first time a tribe sees another tribe, it draws one random tech that tribe has and it
// lacks, and gets it (no score) when it can learn it (§4: its parent known). Tribes' meetTribe
// draws from the same candidates and researches through TechnologyTree.doResearch, which refuses
// a tech that is not researchable: a drawn tech without its parent gives nothing.
void meet(GameState& s, int player, int other) {
  if (player == other || other < 0) return;
  Player& p = s.players[player];
  if ((p.met >> other) & 1u) return;
  p.met = uint16_t(p.met | (1u << other));
  uint32_t candidates = s.players[other].techs & ~p.techs;
  int n = __builtin_popcount(candidates);
  if (n == 0) return;
  int pick = int(s.rng.below(uint32_t(n)));
  int tech = 0;
  for (; tech < kNumTechs; ++tech) {
    if (((candidates >> tech) & 1u) && pick-- == 0) break;
  }
  tech = forced_meeting_draw(s, player, other, candidates, tech);
  if (p.can_learn(tech)) grant_tech(s, player, tech, false);
}

// The set bits of a word that holds a few (a row's newly explored tiles): one step per bit. The
// portable build has no popcount instruction, and the library call costs more than this loop.
inline int count_few_bits(uint64_t v) {
  int count = 0;
  for (; v; v &= v - 1) ++count;
  return count;
}

}  // namespace

void reveal_area(GameState& s, int player, int tile, int radius) {
  if (s.full_observability) return;
  const int words = s.explored_words();
  uint64_t* row = &s.explored[std::size_t(player) * words];
  Player& p = s.players[player];
  // The area's explored bits a board row at a time (a row's run spans at most two words).
  const int n = s.map_size, x = tile / n, y = tile % n;
  const int x0 = std::max(x - radius, 0), x1 = std::min(x + radius, n - 1);
  const int y0 = std::max(y - radius, 0), len = std::min(y + radius, n - 1) - y0 + 1;
  int revealed = 0;
  for (int tx = x0; tx <= x1; ++tx) {
    const int lo = tx * n + y0, w = lo >> 6, b = lo & 63;
    const uint64_t run = len >= 64 ? ~uint64_t(0) : (uint64_t(1) << len) - 1;
    const uint64_t low = run << b;
    revealed += count_few_bits(low & ~row[w]);
    row[w] |= low;
    if (b + len > 64) {
      const uint64_t high = run >> (64 - b);
      revealed += count_few_bits(high & ~row[w + 1]);
      row[w + 1] |= high;
    }
  }
  p.explored_count += revealed;
  add_score(s, player, revealed * kRevealScore);
  // Meeting reads neither the explored bits nor the score: it may follow them. Once the tribe has
  // met every other tribe, meet() is a no-op and the look-ups are skipped.
  const uint32_t everyone = (1u << s.num_players) - 1;
  if (((p.met | (1u << player)) & everyone) != everyone) {
    for_each_in_radius(s, tile, radius, [&](int t) {
      const Unit* u = s.unit_at(t);
      if (u && u->owner != player) meet(s, player, u->owner);
      int owner = s.tile_owner(t);
      if (owner >= 0 && owner != player) meet(s, player, owner);
    });
  }
  if (revealed) {
    touch_moves(s);
    s.sightings.players = uint16_t(s.sightings.players | (1u << player));
  }
  if (p.explored_count == s.num_tiles) make_monument_available(s, player, kEyeOfGod);
}

void unit_seen(GameState& s, int owner, int tile) {
  if (s.full_observability) return;
  for (int q = 0; q < s.num_players; ++q) {
    if (q != owner && s.players[q].alive && s.explored_by(q, tile)) meet(s, q, owner);
  }
}

// ------------------------------------------------------------------ cities

int create_city(GameState& s, int player, int tile, bool capital) {
  int idx = int(s.cities.size());
  s.cities.emplace_back();  // capacity reserved at setup (villages + capitals)
  City& c = s.cities[idx];
  c.uid = s.next_uid++;
  c.tile = int16_t(tile);
  c.owner = int8_t(player);
  mark_acquired(s, idx);
  if (capital) c.flags = kCityCapital | kCityOriginalCapital;
  s.tiles[tile].terrain = kCity;
  s.tiles[tile].resource = kNoResource;
  refresh_tile_bits(s, tile);
  refresh_road_links(s, tile);
  s.tiles[tile].city = -1;  // the centre is claimed below like any tile
  Player& p = s.players[player];
  p.num_cities++;
  if (capital && p.capital_city < 0) p.capital_city = int16_t(idx);
  add_score(s, player, kCityCentreScore);
  claim_territory(s, idx, c.bound);
  return idx;
}

void claim_territory(GameState& s, int city, int radius) {
  const int centre = s.cities[city].tile;
  for_each_in_radius(s, centre, radius, [&](int t) {
    Tile& tile = s.tiles[t];
    if (tile.city >= 0) return;
    // Villages are claimed too (Tribes' assignCityTiles); another city's centre always has its city.
    if (tile.terrain == kCity && t != centre) return;
    tile.city = int16_t(city);
    add_city_worth(s, city, kTileClaimScore);
  });
  touch_territory(s);  // territory decides road steps and where Mind Benders may go
}

void add_population(GameState& s, int city, int delta) {
  City& c = s.cities[city];
  int before = c.population;
  int after = std::max(before + delta, -int(c.level));
  c.population = int16_t(after);
  add_city_worth(s, city, kPopulationScore * (after - before));
}

int city_capacity(const City& c) { return c.level + 1; }

void mark_acquired(GameState& s, int city) {
  uint16_t last = 0;
  for (const City& c : s.cities) last = std::max(last, c.acquired);
  if (last == UINT16_MAX) {
    // Cities changing hands for thousands of rounds: only the order of the stamps is read
    // (first_city_of), so renumber them 1, 2, ... in that order (ties by index, as first_city_of).
    const size_t n = s.cities.size();
    std::vector<uint16_t> rank(n, 0);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        const City& a = s.cities[j];
        const City& b = s.cities[i];
        rank[i] = uint16_t(rank[i] + (a.acquired < b.acquired || (a.acquired == b.acquired && j < i)));
      }
    }
    for (size_t i = 0; i < n; ++i) s.cities[i].acquired = uint16_t(rank[i] + 1);
    last = uint16_t(n);
  }
  s.cities[city].acquired = uint16_t(last + 1);
}

int find_pending_city(const GameState& s) {
  return first_city_of(s, s.current_player, [](const City& c) { return c.population >= c.level + 1; });
}

// ------------------------------------------------------------------ players

void add_score(GameState& s, int player, int delta) {
  int32_t& score = s.players[player].score;
  score = int32_t(std::clamp<int64_t>(int64_t(score) + delta, -kMaxScore, kMaxScore));
}

void count_kill(GameState& s, int slot) {
  Unit& u = s.units[slot];
  Player& p = s.players[u.owner];
  if (u.kills < UINT8_MAX) u.kills++;
  if (p.kills < INT16_MAX) p.kills++;
  if (p.kills >= kGateKills) make_monument_available(s, u.owner, kGateOfPower);
}

void add_city_worth(GameState& s, int city, int delta) {
  s.cities[city].worth += delta;
  add_score(s, s.cities[city].owner, delta);
}

void gain_stars(GameState& s, int player, int n) {
  s.players[player].stars = int32_t(std::min<int64_t>(int64_t(s.players[player].stars) + n, kMaxStars));
  if (s.players[player].stars >= kTombStars) make_monument_available(s, player, kEmperorsTomb);
}

void grant_tech(GameState& s, int player, int tech, bool researched) {
  Player& p = s.players[player];
  p.techs |= 1u << tech;
  if (tech == kClimbing || tech == kSailing || tech == kNavigation) touch_moves(s);
  if (researched) {
    p.researched |= 1u << tech;
    // Tribes checks for a complete tree (however its techs were gained) only after researching a
    // leaf: Shields or a tier-3 tech (TechnologyTree.doResearch).
    const bool leaf = tech == kShields || kTechs[tech].tier == kMaxTechTier;
    if (leaf && p.techs == (1u << kNumTechs) - 1) make_monument_available(s, player, kTowerOfWisdom);
  }
}

int count_known_techs(const Player& p) { return __builtin_popcount(p.techs); }

void make_monument_available(GameState& s, int player, int monument) {
  Player& p = s.players[player];
  const uint8_t bit = uint8_t(1u << (monument - kFirstMonument));
  if (monument != kAltarOfPeace && (p.monuments_built & bit)) return;  // quirk 7: only the Altar returns
  p.monuments_available |= bit;
}

void set_allegiance(GameState& s, int a, int b, int value) {
  value = std::clamp(value, -kAllegianceLimit, kAllegianceLimit);
  s.players[a].allegiance[b] = int8_t(value);
  s.players[b].allegiance[a] = int8_t(value);
}

void change_allegiance(GameState& s, int actor, int target, int value) {
  if (actor == target) return;
  set_allegiance(s, actor, target, s.players[actor].allegiance[target] + value);
  const int knock_on = value / -2;  // C++ division truncates, as Java's
  if (knock_on == 0) return;
  for (int x = 0; x < s.num_players; ++x) {
    if (x == actor || x == target || s.players[x].allegiance[target] >= 0) continue;
    set_allegiance(s, x, actor, s.players[x].allegiance[actor] + knock_on);
  }
}

// ------------------------------------------------------------------ road links

bool road_link_at(const GameState& s, int tile) {
  if (!road_or_city(s.tiles[size_t(tile)])) return false;
  bool link = false;
  for_each_neighbour(s, tile, [&](int nb) { link = link || road_or_city(s.tiles[size_t(nb)]); });
  return link;
}

void rebuild_road_links(GameState& s) {
  s.road_links = 0;
  for (int t = 0; t < s.num_tiles; ++t) {
    s.tiles[size_t(t)].road_link = road_link_at(s, t);
    s.road_links += s.tiles[size_t(t)].road_link;
  }
}

void refresh_road_links(GameState& s, int tile) {
  // road_or_city of the 5x5 area around `tile` (false off the board), read once.
  const int n = s.map_size, x = tile / n, y = tile % n;
  bool node[5][5];
  for (int dx = -2; dx <= 2; ++dx) {
    for (int dy = -2; dy <= 2; ++dy) {
      const bool on = s.on_board(x + dx, y + dy);
      node[dx + 2][dy + 2] = on && road_or_city(s.tiles[(x + dx) * n + y + dy]);
    }
  }
  for_each_in_radius(s, tile, 1, [&](int t) {
    const int cx = t / n - x + 2, cy = t % n - y + 2;
    uint8_t link = 0;
    if (node[cx][cy]) {
      for (int dx = -1; dx <= 1; ++dx) {
        for (int dy = -1; dy <= 1; ++dy) link |= (dx || dy) && node[cx + dx][cy + dy];
      }
    }
    s.road_links += int(link) - int(s.tiles[t].road_link);
    s.tiles[t].road_link = link;
    refresh_tile_rows(s, t, kTileBitsRoadOrCity, kTileBitsRoadLink + 1);  // `tile`'s road, the links around it
  });
  touch_moves(s);
}

// ------------------------------------------------------------------ trade network

namespace {

bool network_node(const GameState& s, int player, int t) {
  const Tile& tile = s.tiles[t];
  int owner = s.tile_owner(t);
  if (tile.terrain == kCity) return owner == player && s.cities[tile.city].tile == t;
  if (tile.building == kPort) return owner == player;
  return tile.road && (owner < 0 || owner == player);
}

// Own ports reachable from `port` over <= 4 revealed water tiles, neutral or own.
template <class F>
void linked_ports(const GameState& s, int player, int port, F&& f) {
  int16_t queue[kMaxTiles];
  int8_t depth[kMaxTiles];
  bool seen[kMaxTiles];
  std::fill_n(seen, s.num_tiles, false);  // only the board's tiles (a full clear dominated small boards)
  int head = 0, tail = 0;
  queue[tail] = int16_t(port); depth[tail++] = 0; seen[port] = true;
  while (head < tail) {
    int t = queue[head]; int d = depth[head++];
    if (d == kPortLinkWaterSteps) continue;
    for_each_neighbour(s, t, [&](int nb) {
      if (seen[nb] || !is_water(s.tiles[nb].terrain) || !sees_tile(s, player, nb)) return;
      int owner = s.tile_owner(nb);
      if (owner >= 0 && owner != player) return;
      seen[nb] = true;
      if (s.tiles[nb].building == kPort && owner == player) f(nb);
      queue[tail] = int16_t(nb); depth[tail++] = int8_t(d + 1);
    });
  }
}

}  // namespace

void update_trade_network(GameState& s, int player) {
  Player& p = s.players[player];
  bool reached[kMaxTiles];
  std::fill_n(reached, s.num_tiles, false);
  const bool holds_capital = p.capital_city >= 0 && s.cities[p.capital_city].owner == player;
  if (holds_capital) {
    int16_t queue[kMaxTiles];
    int head = 0, tail = 0;
    int start = s.cities[p.capital_city].tile;
    queue[tail++] = int16_t(start); reached[start] = true;
    // Only the cities' tiles are read below: the search stops once it has reached them all.
    int unreached = 0;
    for (int i = 0; i < int(s.cities.size()); ++i) unreached += s.cities[i].owner == player && i != p.capital_city;
    auto push = [&](int t) {
      if (reached[t]) return;
      reached[t] = true;
      queue[tail++] = int16_t(t);
      unreached -= s.tiles[t].terrain == kCity;  // a network node: one of the tribe's city centres
    };
    while (head < tail && unreached > 0) {
      int t = queue[head++];
      for_each_neighbour(s, t, [&](int nb) { if (network_node(s, player, nb)) push(nb); });
      if (s.tiles[t].building == kPort) linked_ports(s, player, t, push);
    }
  }
  int connected = 0;
  for (int i = 0; i < int(s.cities.size()); ++i) {
    City& c = s.cities[i];
    if (c.owner != player || i == p.capital_city) continue;
    bool now = holds_capital && reached[c.tile];
    if (now != bool(c.connected)) {
      c.connected = now;
      int delta = now ? 1 : -1;
      // As Tribes' Tribe.updateNetwork: a new link pays the city only on its owner's turn; a lost link costs
      // the city 1 only while the capital is held (losing the capital just clears the network).
      if (now ? player == s.current_player : holds_capital) add_population(s, i, delta);
      if (holds_capital) add_population(s, p.capital_city, delta);
    }
    connected += now;
  }
  p.connected_cities = int16_t(connected);
  if (connected >= kBazaarConnectedCities) make_monument_available(s, player, kGrandBazaar);
}

void update_all_trade_networks(GameState& s) {
  for (int i = 0; i < s.num_players; ++i) if (s.players[i].alive) update_trade_network(s, i);
}

}  // namespace polyenv
