// §5 status machine and §6 movement: Dijkstra over the 8-neighbourhood with
// Tribes' step costs, in a window around the unit (no heap allocation).
#include <algorithm>
#include <cmath>

#include "mechanics.hpp"

namespace polyenv {

// ------------------------------------------------------------------ status machine

bool can_move(const Unit& u) {
  switch (kUnits[u.type].pattern) {
    case kEscape: return u.status == kFresh || u.status == kAttacked || u.status == kMovedAndAttacked;
    default: return u.status == kFresh;
  }
}

bool can_attack(const Unit& u) {
  switch (kUnits[u.type].pattern) {
    case kOneAction: return u.status == kFresh;
    case kPersist: return u.status == kFresh || u.status == kMoved || u.status == kAttacked;
    default: return u.status == kFresh || u.status == kMoved;
  }
}

void after_move_status(Unit& u) {
  switch (kUnits[u.type].pattern) {
    case kOneAction: u.status = kFinished; break;
    // quirk 4: after A-M (and M-A-M) the Rider is finished.
    case kEscape: u.status = u.status == kFresh ? kMoved : kFinished; break;
    default: u.status = kMoved; break;
  }
}

void after_attack_status(Unit& u, bool killed) {
  switch (kUnits[u.type].pattern) {
    case kEscape: u.status = u.status == kFresh ? kAttacked : kMovedAndAttacked; break;
    case kPersist: u.status = killed ? kAttacked : kFinished; break;
    default: u.status = kFinished; break;
  }
}

// ------------------------------------------------------------------ movement search

namespace {

constexpr int kMaxReach = 2 * 3 + 2;  // MOV <= 3, steps cost >= 0.5
constexpr int kWindow = 2 * kMaxReach + 1;
constexpr int kWindowCells = kWindow * kWindow;

bool road_or_city(const Tile& t) { return t.terrain == kCity || (t.road && !is_water(t.terrain)); }

bool enemy_adjacent(const GameState& s, int player, int tile) {
  bool found = false;
  for_each_neighbour(s, tile, [&](int nb) {
    const Unit* u = s.unit_at(nb);
    if (u && u->owner != player) found = true;
  });
  return found;
}

// Cost of stepping from `from` to `to` with `used` movement spent, or a
// negative value when the step is impossible. Terrain and occupancy only.
double step_cost(const GameState& s, const Unit& u, int from, int to, double used, double mov) {
  const Tile& dst = s.tiles[to];
  const Player& owner = s.players[u.owner];
  if (!sees_tile(s, u.owner, to)) return -1;
  const Unit* other = s.unit_at(to);
  if (other && other->owner != u.owner) return -1;
  const double remaining = mov - used;
  double cost;
  if (is_naval(u.type)) {
    if (dst.terrain == kShallow) {
      if (!owner.has(kSailing)) return -1;
      cost = 1;
    } else if (dst.terrain == kDeep) {
      if (!owner.has(kNavigation)) return -1;
      cost = 1;
    } else {
      if (dst.terrain == kMountain && !owner.has(kClimbing)) return -1;
      cost = remaining;  // disembark
    }
  } else {
    switch (dst.terrain) {
      case kShallow:
      case kDeep:
        if (dst.building != kPort || !owner.has(kSailing)) return -1;
        cost = remaining;  // embark
        break;
      case kMountain:
        if (!owner.has(kClimbing)) return -1;
        cost = remaining;
        break;
      case kForest: cost = remaining; break;
      case kCity:
        if (u.type == kMindBender && s.tile_owner(to) != u.owner) return -1;
        cost = 1;
        break;
      default: cost = 1; break;
    }
  }
  if (enemy_adjacent(s, u.owner, to)) cost = remaining;  // zone of control
  const Tile& src = s.tiles[from];
  int src_owner = s.tile_owner(from);
  if (road_or_city(src) && (src_owner < 0 || src_owner == u.owner) && road_or_city(dst)) {
    cost = std::max(0.5, cost / 2);
  }
  if (cost <= 0) return -1;
  if (std::floor(used + cost) > mov) return -1;
  return cost;
}

struct HeapEntry { double cost; int16_t cell; };

}  // namespace

int reachable_tiles(const GameState& s, int slot, int16_t* out) {
  const Unit& u = s.units[slot];
  const int n = s.map_size;
  const double mov = unit_movement(u);
  const int ux = u.tile / n, uy = u.tile % n;
  double best[kWindowCells];
  std::fill(best, best + kWindowCells, 1e9);
  auto cell_of = [&](int t) { return (t / n - ux + kMaxReach) * kWindow + (t % n - uy + kMaxReach); };
  auto tile_of = [&](int c) { return (c / kWindow - kMaxReach + ux) * n + (c % kWindow - kMaxReach + uy); };

  HeapEntry heap[kWindowCells * 8];
  int heap_size = 0;
  auto push = [&](double cost, int cell) {
    int i = heap_size++;
    heap[i] = {cost, int16_t(cell)};
    while (i > 0) {
      int parent = (i - 1) / 2;
      if (heap[parent].cost <= heap[i].cost) break;
      std::swap(heap[parent], heap[i]);
      i = parent;
    }
  };
  auto pop = [&]() {
    HeapEntry top = heap[0];
    heap[0] = heap[--heap_size];
    int i = 0;
    for (;;) {
      int l = 2 * i + 1, r = l + 1, m = i;
      if (l < heap_size && heap[l].cost < heap[m].cost) m = l;
      if (r < heap_size && heap[r].cost < heap[m].cost) m = r;
      if (m == i) break;
      std::swap(heap[m], heap[i]);
      i = m;
    }
    return top;
  };

  int count = 0;
  const int start = cell_of(u.tile);
  best[start] = 0;
  push(0, start);
  while (heap_size > 0) {
    HeapEntry e = pop();
    if (e.cost > best[e.cell]) continue;
    const int from = tile_of(e.cell);
    // Embarking or disembarking ends the move: no expansion from such tiles.
    if (e.cell != start && is_water(s.tiles[from].terrain) != is_naval(u.type)) continue;
    for_each_neighbour(s, from, [&](int to) {
      int dx = to / n - ux, dy = to % n - uy;
      if (dx < -kMaxReach || dx > kMaxReach || dy < -kMaxReach || dy > kMaxReach) return;
      int c = cell_of(to);
      double step = step_cost(s, u, from, to, e.cost, mov);
      if (step < 0) return;
      double total = e.cost + step;
      if (total < best[c]) {
        best[c] = total;
        push(total, c);
      }
    });
  }
  for (int c = 0; c < kWindowCells; ++c) {
    if (c == start || best[c] >= 1e9) continue;
    int t = tile_of(c);
    if (s.tiles[t].unit < 0) out[count++] = int16_t(t);
  }
  // Cells are scanned row by row, so `out` is already in ascending tile order.
  return count;
}

// ------------------------------------------------------------------ moving

namespace {

// Boats keep HP, max HP, kills, veteran flag and home city (§5); a new unit id.
int transform_unit(GameState& s, int slot, int new_type, int land_type) {
  Unit old = s.units[slot];
  remove_unit(s, slot);
  int fresh = add_unit(s, old.owner, new_type, old.tile, old.home_city, kFinished);
  Unit& u = s.units[fresh];
  u.hp = old.hp;
  u.max_hp = old.max_hp;
  u.kills = old.kills;
  u.veteran = old.veteran;
  u.land_type = int8_t(land_type);
  return fresh;
}

int vision_radius(const GameState& s, const Unit& u) {
  return (s.tiles[u.tile].terrain == kMountain || u.type == kBattleship) ? 2 : 1;
}

}  // namespace

int place_unit_on(GameState& s, int slot, int tile) {
  relocate_unit(s, slot, tile);
  Unit& u = s.units[slot];
  const bool water = is_water(s.tiles[tile].terrain);
  if (water && !is_naval(u.type)) slot = transform_unit(s, slot, kBoat, u.type);
  else if (!water && is_naval(u.type)) slot = transform_unit(s, slot, u.land_type, kNoUnit);
  return slot;
}

void move_unit(GameState& s, int slot, int to) {
  const int before_type = s.units[slot].type;
  slot = place_unit_on(s, slot, to);
  Unit& u = s.units[slot];
  if (u.type == before_type) after_move_status(u);  // a transformed unit is new: FINISHED
  reveal_area(s, u.owner, to, vision_radius(s, u));
  unit_seen(s, u.owner, to);
}

bool push_target_usable(const GameState& s, int player, int tile) {
  const Tile& t = s.tiles[tile];
  if (t.unit >= 0) return false;
  switch (t.terrain) {
    case kPlain: case kForest: case kVillage: case kCity: return true;
    case kMountain: return s.players[player].has(kClimbing);
    default: return t.building == kPort && s.tile_owner(tile) == player;
  }
}

void push_unit_away(GameState& s, int tile) {
  int slot = s.tiles[tile].unit;
  if (slot < 0) return;
  const int owner = s.units[slot].owner;
  const bool naval = is_naval(s.units[slot].type);
  const Player& p = s.players[owner];
  const int n = s.map_size, x = tile / n, y = tile % n;
  for (const auto& d : kPushOffsets) {
    int nx = x + d[0], ny = y + d[1];
    if (!s.on_board(nx, ny)) continue;
    int target = nx * n + ny;
    const Tile& t = s.tiles[target];
    // A boat is pushed over water (Tribes leaves it in place [quirk 8], which
    // would stack two units; polyenv moves it to the first free water tile).
    bool usable = naval ? t.unit < 0 && ((t.terrain == kShallow && p.has(kSailing)) ||
                                         (t.terrain == kDeep && p.has(kNavigation)))
                        : push_target_usable(s, owner, target);
    if (!usable) continue;
    slot = place_unit_on(s, slot, target);
    s.units[slot].status = kPushed;
    return;
  }
  kill_unit(s, slot);
}

}  // namespace polyenv
