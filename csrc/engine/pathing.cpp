// §6 movement search: which empty tiles a unit can reach this action.
// Terrain, visibility, enemy units and zone of control are classified once per
// enumeration (MoveContext); a unit of movement 1 gets its reach in closed form,
// others run a breadth-first search by layers, or a Dijkstra in half-steps when a
// road step is possible nearby.
#include <algorithm>
#include <cstring>

#include "mechanics.hpp"

namespace polyenv {

namespace {

constexpr int kMaxMov = 3;
constexpr int kMaxReach = 2 * kMaxMov + 1;  // steps cost >= 0.5 and used < MOV + 1
constexpr int kWindow = 2 * kMaxReach + 1;
constexpr int kWindowCells = kWindow * kWindow;
static_assert(kWindowCells == kMaxReachable);

enum StepClass : uint8_t { kBlocked = 0, kStep = 1, kEndsMove = 2 };

// Classifies a tile for `player` before zone of control (§6 table), given that no unit of
// another tribe stands on it: bits 0-1 the land class, bits 2-3 the naval class.
uint8_t open_terrain_class(const GameState& s, int player, int t) {
  const Tile& tile = s.tiles[t];
  if (!sees_tile(s, player, t)) return 0;
  const Player& p = s.players[player];
  int land = kBlocked, naval = kBlocked;
  switch (tile.terrain) {
    case kShallow:
      land = tile.building == kPort && p.has(kSailing) ? kEndsMove : kBlocked;  // embark
      naval = p.has(kSailing) ? kStep : kBlocked;
      break;
    case kDeep: naval = p.has(kNavigation) ? kStep : kBlocked; break;
    case kMountain: land = naval = p.has(kClimbing) ? kEndsMove : kBlocked; break;
    case kForest: land = naval = kEndsMove; break;
    default: land = kStep; naval = kEndsMove; break;  // plain, village, city; boats disembark
  }
  return uint8_t(land | (naval << 2));
}

// The class of a tile for `player`; a unit of another tribe blocks it.
uint8_t terrain_class(const GameState& s, int player, int t) {
  const Unit* other = s.unit_at(t);
  return other && other->owner != player ? 0 : open_terrain_class(s, player, t);
}

// Bits of MoveContext::zoc.
constexpr uint8_t kZoc = 1, kForeignUnit = 2;

// The class with zone of control: it turns any step into one that ends the move. A
// tile with a unit of another tribe (marked by prepare_moves) is blocked.
uint8_t classify(const GameState& s, const MoveContext& ctx, int t) {
  if (ctx.zoc[t] & kForeignUnit) return 0;
  const uint8_t c = open_terrain_class(s, ctx.player, t);
  if (!ctx.zoc[t]) return c;
  return uint8_t(((c & 3) ? kEndsMove : kBlocked) | (((c >> 2) ? kEndsMove : kBlocked) << 2));
}

// What the searches read of the moving unit, held by value (in registers: the memo
// writes through uint8_t pointers would otherwise force reloads of the unit's fields).
struct Mover {
  int tile, owner, mov;
  bool naval, mind_bender;
};
inline Mover mover_of(const Unit& u) { return {u.tile, u.owner, unit_movement(u), is_naval(u.type), u.type == kMindBender}; }

// The unit's class of a tile from its terrain class (Mind Benders never enter enemy cities).
inline int unit_class(const GameState& s, Mover u, uint8_t cls, int to) {
  if (u.naval) return cls >> 2;
  const int c = cls & 3;
  if (c && u.mind_bender && s.tiles[to].terrain == kCity && s.tile_owner(to) != u.owner) return kBlocked;
  return c;
}

// The class of stepping onto `to` for this unit.
inline int step_class(const GameState& s, Mover u, const MoveContext& ctx, int to) {
  uint8_t& memo = ctx.step_class[to];
  if (memo == 0xFF) memo = classify(s, ctx, to);
  return unit_class(s, u, memo, to);
}

// Without road steps every step costs 1 or "all remaining movement", so the
// search is breadth-first by layers; a move-ending tile costs MOV.
int reachable_by_layers(const GameState& s, Mover u, const MoveContext& ctx, int16_t* out) {
  const int n = s.map_size, mov = u.mov;
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
      out[count++] = int16_t((ux + dx) * n + uy + dy);
    }
  }
  return count;
}

// Movement in fixed point: 1/256 of a step. Road steps halve costs at most
// once per step over at most 2*MOV+1 steps, so every value is exact.
constexpr int kUnit = 256;

// Cost of a step with `used` movement spent, or -1 (§6 table, road rule and floor test).
// `road_from`: a road step may start on `from` (road_step_from).
inline int step_cost(const GameState& s, Mover u, const MoveContext& ctx, bool road_from, int to, int used,
                     int mov) {
  const int cls = step_class(s, u, ctx, to);
  if (cls == kBlocked) return -1;
  // All remaining movement; MOV itself once more than MOV is spent (Tribes StepMove).
  int cost = cls == kEndsMove ? (used < mov ? mov - used : mov) : kUnit;
  // Zone of control costs all remaining movement, road or not (Tribes sets it after the road discount).
  if (road_from && !ctx.zoc[to] && road_or_city(s.tiles[to])) cost = std::max(kUnit / 2, cost / 2);
  // floor(used + cost) <= MOV  <=>  used + cost < MOV + 1 (in whole steps)
  if (cost <= 0 || used + cost >= mov + kUnit) return -1;
  return cost;
}
// A road step may start on `from`: a road link outside another tribe's territory.
inline bool road_step_from(const GameState& s, Mover u, int from) {
  if (!s.tiles[from].road_link) return false;
  const int owner = s.tile_owner(from);
  return owner < 0 || owner == u.owner;
}

// The general search for units near road links: Dijkstra over the window with a
// bucket queue (Dial). Every step costs at least half a step (a road step halves at
// most once, to no less than kUnit / 2), so bucket b holds labels in
// [b, b + 1) half-steps: when the lowest nonempty bucket is expanded, none of its labels can
// still drop (an improvement would cost >= the bucket's floor + half a step), and every
// push goes to a later bucket. The window (clipped to the board) is stored with a
// one-cell frame whose `best` is 0, so the 8 neighbours need no bounds test (a step costs > 0).
constexpr int kBucketWidth = kUnit / 2;                         // the cheapest step
constexpr int kBuckets = (kMaxMov + 1) * kUnit / kBucketWidth;  // labels stay below (MOV + 1) steps

int reachable_with_roads(const GameState& s, Mover u, const MoveContext& ctx, int16_t* out) {
  const int n = s.map_size;
  const int mov = u.mov * kUnit;
  const int reach = 2 * u.mov + 1;
  const int ux = u.tile / n, uy = u.tile % n;
  const int x0 = std::max(ux - reach, 0), x1 = std::min(ux + reach, n - 1);
  const int y0 = std::max(uy - reach, 0), y1 = std::min(uy + reach, n - 1);
  const int w = y1 - y0 + 3;  // framed row length
  const int cells = (x1 - x0 + 3) * w;
  constexpr uint16_t kUnreached = 0xFFFF;  // movement values stay below (3 + 1) * 256
  constexpr int kFramed = (kWindow + 2) * (kWindow + 2);
  uint16_t best[kFramed];
  // Per cell: the bucket it was last pushed to, kDone once expanded, kNone never pushed.
  constexpr uint8_t kNone = 0xFF, kDone = 0xFE;
  uint8_t state[kFramed];
  std::fill(best, best + cells, uint16_t(0));
  for (int x = 1; x <= x1 - x0 + 1; ++x) std::fill(best + x * w + 1, best + x * w + w - 1, kUnreached);
  std::memset(state, kNone, size_t(cells));
  const int cell_delta[8] = {-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1};
  const int tile_delta[8] = {-n - 1, -n, -n + 1, -1, 1, n - 1, n, n + 1};
  constexpr int kRowDelta[8] = {-1, -1, -1, 0, 0, 1, 1, 1}, kColumnDelta[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
  // A cell enters a bucket at most once (state), so each bucket holds at most every cell once.
  int16_t bucket_cell[kBuckets][kFramed], bucket_tile[kBuckets][kFramed];
  int bucket_size[kBuckets] = {};
  // Bit y - y0 of row x - x0: reached (the output, without a window scan). The start keeps best 0: never marked.
  uint32_t reached[kWindow] = {};
  auto push = [&](int c, int t, int label) {
    const int b = label / kBucketWidth;
    if (state[c] == b) return;
    state[c] = uint8_t(b);
    bucket_cell[b][bucket_size[b]] = int16_t(c);
    bucket_tile[b][bucket_size[b]++] = int16_t(t);
  };
  const int start = (ux - x0 + 1) * w + (uy - y0 + 1);
  best[start] = 0;
  push(start, u.tile, 0);
  const bool naval = u.naval;
  for (int b = 0; b < kBuckets; ++b) {
    for (int i = 0; i < bucket_size[b]; ++i) {
      const int c0 = bucket_cell[b][i], from = bucket_tile[b][i];
      // Stale: the cell moved to a lower bucket (and was expanded there) or was already expanded here.
      if (state[c0] != b) continue;
      state[c0] = kDone;
      const int used = best[c0];
      const Tile& src = s.tiles[from];
      // Embarking or disembarking ends the move.
      if (c0 != start && is_water(src.terrain) != naval) continue;
      // Tribes stops expanding a tile once the movement spent equals MOV exactly (even on a road).
      if (used == mov) continue;
      const bool road_from = road_step_from(s, u, from);
      const int row0 = c0 / w - 1, column0 = c0 % w - 1;  // in the unframed window
      for (int k = 0; k < 8; ++k) {
        const int c = c0 + cell_delta[k];
        if (best[c] <= used) continue;  // off the window, or already as cheap
        const int step = step_cost(s, u, ctx, road_from, from + tile_delta[k], used, mov);
        if (step < 0) continue;
        if (used + step < best[c]) {
          best[c] = uint16_t(used + step);
          reached[row0 + kRowDelta[k]] |= 1u << (column0 + kColumnDelta[k]);
          push(c, from + tile_delta[k], used + step);
        }
      }
    }
  }
  int count = 0;
  for (int x = x0; x <= x1; ++x) {
    for (uint32_t bits = reached[x - x0]; bits; bits &= bits - 1) out[count++] = int16_t(x * n + y0 + __builtin_ctz(bits));
  }
  return count;
}

// Movement 1 (most units) in closed form. A first step costs a whole step (or all of the
// single one: the same), which ends the search there, or half a step on a road (road_step_from
// the start, no zone of control, a road or city tile). Only such a half-step tile (where the
// unit neither embarks nor disembarks) is expanded, and from half a step spent every step that
// is not blocked fits (it costs at most one step: 1.5 < MOV + 1). So the reach is the open
// neighbours, plus the open neighbours of the half-step tiles: nothing wider than radius 2.
int reachable_mov1(const GameState& s, Mover u, const MoveContext& ctx, int16_t* out) {
  const int n = s.map_size, ux = u.tile / n, uy = u.tile % n;
  uint32_t rows[5] = {};  // bit dy + 2 of rows[dx + 2]: (ux + dx, uy + dy) reached
  const bool road_from = s.road_links > 0 && road_step_from(s, u, u.tile);
  const bool naval = u.naval;
  const int x0 = std::max(ux - 1, 0), x1 = std::min(ux + 1, n - 1);
  const int y0 = std::max(uy - 1, 0), y1 = std::min(uy + 1, n - 1);
  for (int x = x0; x <= x1; ++x) {
    for (int y = y0; y <= y1; ++y) {
      const int t = x * n + y;
      if (t == u.tile || step_class(s, u, ctx, t) == kBlocked) continue;
      rows[x - ux + 2] |= 1u << (y - uy + 2);
      if (!road_from || ctx.zoc[t] || !road_or_city(s.tiles[t]) || is_water(s.tiles[t].terrain) != naval) continue;
      for (int x2 = std::max(x - 1, 0); x2 <= std::min(x + 1, n - 1); ++x2) {
        for (int y2 = std::max(y - 1, 0); y2 <= std::min(y + 1, n - 1); ++y2) {
          const uint32_t bit = 1u << (y2 - uy + 2);
          if ((rows[x2 - ux + 2] & bit) || step_class(s, u, ctx, x2 * n + y2) == kBlocked) continue;
          rows[x2 - ux + 2] |= bit;
        }
      }
    }
  }
  rows[2] &= ~(1u << 2);  // the start tile is no destination
  int count = 0;
  for (int dx = 0; dx < 5; ++dx) {
    for (uint32_t bits = rows[dx]; bits; bits &= bits - 1) {
      out[count++] = int16_t((ux + dx - 2) * n + uy + __builtin_ctz(bits) - 2);
    }
  }
  return count;
}

// Whether a road step can occur in the search. The first one starts on a tile expanded
// after whole steps only: the start, or an ordinary step (a move-ending one spends all of
// MOV) within MOV - 1 of it; from a road_step_from tile, onto a road-or-city neighbour
// outside zone of control that the unit may enter (the discount's condition). When there is
// none, no step is discounted and the layered search is exact.
bool road_step_possible(const GameState& s, Mover u, const MoveContext& ctx, int radius) {
  const int n = s.map_size, x0 = u.tile / n, y0 = u.tile % n;
  for (int x = std::max(0, x0 - radius); x <= std::min(n - 1, x0 + radius); ++x) {
    for (int y = std::max(0, y0 - radius); y <= std::min(n - 1, y0 + radius); ++y) {
      const int t = x * n + y;
      if (!road_step_from(s, u, t) || (t != u.tile && step_class(s, u, ctx, t) != kStep)) continue;
      bool usable = false;
      for_each_neighbour(s, t, [&](int nb) {
        usable = usable || (!ctx.zoc[nb] && road_or_city(s.tiles[nb]) && step_class(s, u, ctx, nb) != kBlocked);
      });
      if (usable) return true;
    }
  }
  return false;
}

}  // namespace

void prepare_moves(const GameState& s, int player, MoveContext& ctx) {
  ctx.player = player;
  std::fill(ctx.zoc, ctx.zoc + s.num_tiles, uint8_t(0));
  std::fill(ctx.step_class, ctx.step_class + s.num_tiles, uint8_t(0xFF));
  for (const Unit& u : s.units) {
    if (!u.alive() || u.owner == player) continue;
    for_each_neighbour(s, u.tile, [&](int nb) { ctx.zoc[nb] |= kZoc; });
    // Blocked (read here, once, rather than through the tile's unit on classification); the
    // class is 0 whatever else zoc says, so every test of zoc on a passable tile still means kZoc.
    ctx.zoc[u.tile] |= kForeignUnit;
  }
}

bool has_one_step_move(const GameState& s, const Unit& unit) {
  const Mover u = mover_of(unit);
  // A first step onto a tile that is not blocked always fits (it costs 1 or MOV, both within MOV + 1),
  // and the start tile is expanded even when the unit is about to embark or disembark.
  bool found = false;
  for_each_neighbour(s, u.tile, [&](int nb) {
    found = found || (s.tiles[nb].unit < 0 && unit_class(s, u, terrain_class(s, u.owner, nb), nb) != kBlocked);
  });
  return found;
}

int reachable_tiles(const GameState& s, int slot, const MoveContext& ctx, int16_t* out) {
  const Mover u = mover_of(s.units[slot]);
  if (u.mov == 1) return reachable_mov1(s, u, ctx, out);
  if (s.road_links > 0 && road_step_possible(s, u, ctx, u.mov - 1)) {
    return reachable_with_roads(s, u, ctx, out);
  }
  return reachable_by_layers(s, u, ctx, out);
}

}  // namespace polyenv

namespace polyenv {

// The same rule (step_cost) searched over the whole board without a window or
// a frame: the plain reference that legal_actions_reference checks the fast searches against.
int reachable_tiles_reference(const GameState& s, int slot, const MoveContext& ctx, int16_t* out) {
  const Mover u = mover_of(s.units[slot]);
  const int n = s.map_size, mov = u.mov * kUnit;
  const bool naval = u.naval;
  uint16_t best[kMaxTiles];
  uint8_t queued[kMaxTiles] = {};
  int16_t queue[kMaxTiles];
  std::fill(best, best + s.num_tiles, uint16_t(0xFFFF));
  int head = 0, size = 0;
  auto push = [&](int t) {
    if (queued[t]) return;
    queued[t] = 1;
    queue[(head + size++) % kMaxTiles] = int16_t(t);
  };
  best[u.tile] = 0;
  push(u.tile);
  while (size > 0) {
    const int from = queue[head];
    head = (head + 1) % kMaxTiles;
    --size;
    queued[from] = 0;
    const int used = best[from];
    if (from != u.tile && is_water(s.tiles[from].terrain) != naval) continue;
    // Tribes stops expanding a tile once the movement spent equals MOV (as in reachable_with_roads).
    if (used == mov) continue;
    for (int x = s.tile_x(from) - 1; x <= s.tile_x(from) + 1; ++x) {
      for (int y = s.tile_y(from) - 1; y <= s.tile_y(from) + 1; ++y) {
        if (!s.on_board(x, y) || x * n + y == from) continue;
        const int step = step_cost(s, u, ctx, road_step_from(s, u, from), x * n + y, used, mov);
        if (step >= 0 && used + step < best[x * n + y]) {
          best[x * n + y] = uint16_t(used + step);
          push(x * n + y);
        }
      }
    }
  }
  int count = 0;
  for (int t = 0; t < s.num_tiles; ++t) if (t != u.tile && best[t] != 0xFFFF) out[count++] = int16_t(t);
  return count;
}

}  // namespace polyenv
