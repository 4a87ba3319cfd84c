// §6 movement search: which empty tiles a unit can reach this action.
// Terrain, visibility, enemy units and zone of control are classified once per
// enumeration (MoveContext); each unit then runs a breadth-first search by
// layers, or a Dijkstra in half-steps when a road step is possible nearby.
#include <algorithm>
#include <cmath>

#include "mechanics.hpp"

namespace polyenv {

namespace {

constexpr int kMaxMov = 3;
constexpr int kMaxReach = 2 * kMaxMov + 2;  // steps cost >= 0.5 and floor(used) <= MOV
constexpr int kWindow = 2 * kMaxReach + 1;
constexpr int kWindowCells = kWindow * kWindow;

bool road_or_city(const Tile& t) { return t.terrain == kCity || (t.road && !is_water(t.terrain)); }

enum StepClass : uint8_t { kBlocked = 0, kStep = 1, kEndsMove = 2 };

// The class of stepping onto `to` for this unit (Mind Benders never enter enemy cities).
inline int step_class(const GameState& s, const Unit& u, const MoveContext& ctx, int to) {
  if (is_naval(u.type)) return ctx.naval[to];
  int c = ctx.land[to];
  if (c && u.type == kMindBender && s.tiles[to].terrain == kCity && s.tile_owner(to) != u.owner) return kBlocked;
  return c;
}

// Without road steps every step costs 1 or "all remaining movement", so the
// search is breadth-first by layers; a move-ending tile costs MOV.
int reachable_by_layers(const GameState& s, const Unit& u, const MoveContext& ctx, int16_t* out) {
  const int n = s.map_size, mov = unit_movement(u);
  const int window = 2 * mov + 1;
  const int ux = u.tile / n, uy = u.tile % n;
  int8_t cost[(2 * kMaxMov + 1) * (2 * kMaxMov + 1)];
  std::fill(cost, cost + window * window, int8_t(-1));
  int8_t queue_dx[(2 * kMaxMov + 1) * (2 * kMaxMov + 1)], queue_dy[(2 * kMaxMov + 1) * (2 * kMaxMov + 1)];
  int head = 0, tail = 0;
  cost[mov * window + mov] = 0;
  queue_dx[tail] = 0;
  queue_dy[tail++] = 0;
  while (head < tail) {
    const int dx0 = queue_dx[head], dy0 = queue_dy[head++];
    const int c = cost[(dx0 + mov) * window + dy0 + mov];
    for (int dx = std::max(dx0 - 1, std::max(-mov, -ux)); dx <= std::min(dx0 + 1, std::min(mov, n - 1 - ux)); ++dx) {
      for (int dy = std::max(dy0 - 1, std::max(-mov, -uy)); dy <= std::min(dy0 + 1, std::min(mov, n - 1 - uy)); ++dy) {
        int8_t& best = cost[(dx + mov) * window + dy + mov];
        if (best >= 0) continue;  // layers only grow: the first visit is the cheapest
        const int cls = step_class(s, u, ctx, (ux + dx) * n + uy + dy);
        if (cls == kBlocked) continue;
        best = int8_t(cls == kEndsMove ? mov : c + 1);
        if (best < mov) {
          queue_dx[tail] = int8_t(dx);
          queue_dy[tail++] = int8_t(dy);
        }
      }
    }
  }
  int count = 0;
  for (int dx = std::max(-mov, -ux); dx <= std::min(mov, n - 1 - ux); ++dx) {
    for (int dy = std::max(-mov, -uy); dy <= std::min(mov, n - 1 - uy); ++dy) {
      if ((dx | dy) == 0 || cost[(dx + mov) * window + dy + mov] < 0) continue;
      const int t = (ux + dx) * n + uy + dy;
      if (s.tiles[t].unit < 0) out[count++] = int16_t(t);
    }
  }
  return count;
}

// Cost of a step with `used` movement spent, or -1 (§6 table, road rule and floor test).
double step_cost(const GameState& s, const Unit& u, const MoveContext& ctx, int from, int to, double used, double mov) {
  const int cls = step_class(s, u, ctx, to);
  if (cls == kBlocked) return -1;
  double cost = cls == kEndsMove ? mov - used : 1;
  if (road_or_city(s.tiles[from]) && road_or_city(s.tiles[to])) {
    int owner = s.tile_owner(from);
    if (owner < 0 || owner == u.owner) cost = std::max(0.5, cost / 2);
  }
  if (cost <= 0 || std::floor(used + cost) > mov) return -1;
  return cost;
}

struct HeapEntry { double cost; int8_t dx, dy; };

// The general search (Dijkstra over the window) for units near road links.
int reachable_with_roads(const GameState& s, const Unit& u, const MoveContext& ctx, int16_t* out) {
  const int n = s.map_size;
  const double mov = unit_movement(u);
  const int reach = 2 * unit_movement(u) + 2;
  const int window = 2 * reach + 1, cells = window * window;
  const int ux = u.tile / n, uy = u.tile % n;
  double best[kWindowCells];
  std::fill(best, best + cells, 1e9);
  auto cell_of = [&](int dx, int dy) { return (dx + reach) * window + (dy + reach); };
  HeapEntry heap[kWindowCells * 8];
  int heap_size = 0;
  auto push = [&](double cost, int dx, int dy) {
    heap[heap_size++] = {cost, int8_t(dx), int8_t(dy)};
    std::push_heap(heap, heap + heap_size, [](const HeapEntry& a, const HeapEntry& b) { return a.cost > b.cost; });
  };
  best[cell_of(0, 0)] = 0;
  push(0, 0, 0);
  const bool naval = is_naval(u.type);
  while (heap_size > 0) {
    std::pop_heap(heap, heap + heap_size, [](const HeapEntry& a, const HeapEntry& b) { return a.cost > b.cost; });
    const HeapEntry e = heap[--heap_size];
    if (e.cost > best[cell_of(e.dx, e.dy)]) continue;
    const int fx = ux + e.dx, fy = uy + e.dy, from = fx * n + fy;
    const Tile& src = s.tiles[from];
    // Embarking or disembarking ends the move.
    if ((e.dx | e.dy) != 0 && is_water(src.terrain) != naval) continue;
    // With no movement left only a road step (0.5) can still pass the floor test.
    if (e.cost >= mov && !ctx.road_link[from]) continue;
    for (int dx = std::max(e.dx - 1, std::max(-reach, -ux)); dx <= std::min(e.dx + 1, std::min(reach, n - 1 - ux)); ++dx) {
      for (int dy = std::max(e.dy - 1, std::max(-reach, -uy)); dy <= std::min(e.dy + 1, std::min(reach, n - 1 - uy)); ++dy) {
        if (dx == e.dx && dy == e.dy) continue;
        const double step = step_cost(s, u, ctx, from, (ux + dx) * n + uy + dy, e.cost, mov);
        if (step < 0) continue;
        const int c = cell_of(dx, dy);
        if (e.cost + step < best[c]) {
          best[c] = e.cost + step;
          push(best[c], dx, dy);
        }
      }
    }
  }
  int count = 0;
  for (int dx = std::max(-reach, -ux); dx <= std::min(reach, n - 1 - ux); ++dx) {
    for (int dy = std::max(-reach, -uy); dy <= std::min(reach, n - 1 - uy); ++dy) {
      if ((dx | dy) == 0 || best[cell_of(dx, dy)] >= 1e9) continue;
      const int t = (ux + dx) * n + uy + dy;
      if (s.tiles[t].unit < 0) out[count++] = int16_t(t);
    }
  }
  return count;
}

bool road_link_within(const GameState& s, const MoveContext& ctx, int tile, int radius) {
  const int n = s.map_size, x0 = tile / n, y0 = tile % n;
  for (int x = std::max(0, x0 - radius); x <= std::min(n - 1, x0 + radius); ++x) {
    for (int y = std::max(0, y0 - radius); y <= std::min(n - 1, y0 + radius); ++y) {
      if (ctx.road_link[x * n + y]) return true;
    }
  }
  return false;
}

}  // namespace

void prepare_moves(const GameState& s, int player, MoveContext& ctx) {
  const int tiles = s.num_tiles;
  uint8_t zoc[kMaxTiles];
  std::fill(zoc, zoc + tiles, uint8_t(0));
  for (const Unit& u : s.units) {
    if (u.alive() && u.owner != player) for_each_neighbour(s, u.tile, [&](int nb) { zoc[nb] = 1; });
  }
  const Player& p = s.players[player];
  const bool climbing = p.has(kClimbing), sailing = p.has(kSailing), navigation = p.has(kNavigation);
  ctx.any_road_link = false;
  for (int t = 0; t < tiles; ++t) {
    const Tile& tile = s.tiles[t];
    const Unit* other = s.unit_at(t);
    uint8_t land = kBlocked, naval = kBlocked;
    if (sees_tile(s, player, t) && !(other && other->owner != player)) {
      switch (tile.terrain) {
        case kShallow:
          land = tile.building == kPort && sailing ? kEndsMove : kBlocked;  // embark
          naval = sailing ? kStep : kBlocked;
          break;
        case kDeep:
          naval = navigation ? kStep : kBlocked;
          break;
        case kMountain:
          land = naval = climbing ? kEndsMove : kBlocked;
          break;
        case kForest: land = naval = kEndsMove; break;
        default: land = kStep; naval = kEndsMove; break;  // plain, village, city; boats disembark
      }
      if (zoc[t]) {  // zone of control: the step takes all remaining movement
        if (land) land = kEndsMove;
        if (naval) naval = kEndsMove;
      }
    }
    ctx.land[t] = land;
    ctx.naval[t] = naval;
    uint8_t link = 0;
    if (road_or_city(tile)) {
      for_each_neighbour(s, t, [&](int nb) { if (road_or_city(s.tiles[nb])) link = 1; });
    }
    ctx.road_link[t] = link;
    ctx.any_road_link |= link;
  }
}

int reachable_tiles(const GameState& s, int slot, const MoveContext& ctx, int16_t* out) {
  const Unit& u = s.units[slot];
  if (ctx.any_road_link && road_link_within(s, ctx, u.tile, unit_movement(u) + 1)) {
    return reachable_with_roads(s, u, ctx, out);
  }
  return reachable_by_layers(s, u, ctx, out);
}

}  // namespace polyenv
