// §6 movement rule tile by tile: each tile classified on its own (MoveContext) and a
// plain whole-board search in fixed-point movement. The reference that the bit-parallel
// search of move_boards.cpp is checked against (legal_actions_reference), and the
// one-step witness of only_end_turn.
#include <algorithm>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "mechanics.hpp"

namespace polyenv {

namespace {

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

constexpr int kUnit = kMoveUnit;

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

// The rule (step_cost) searched tile by tile over the whole board: the plain reference that
// legal_actions_reference checks the bit-parallel search against.
int reachable_tiles_reference(const GameState& s, int slot, const MoveContext& ctx, int16_t* out) {
  const Mover u = mover_of(s.units[slot]);
  const int n = s.map_size, mov = u.mov * kUnit;
  const bool naval = u.naval;
  uint16_t best[kMaxTiles];
  bool expanded[kMaxTiles] = {};
  std::fill(best, best + s.num_tiles, uint16_t(0xFFFF));
  // Dijkstra (RULES §6): each tile is expanded once, at its least label. That matters beyond
  // reachability of the labels themselves: a tile is not expanded at exactly MOV, so reaching it
  // first at a higher label and expanding it there would reach more.
  std::priority_queue<std::pair<int, int>, std::vector<std::pair<int, int>>, std::greater<>> open;
  best[u.tile] = 0;
  open.push({0, u.tile});
  while (!open.empty()) {
    const auto [used, from] = open.top();
    open.pop();
    if (expanded[from] || used != best[from]) continue;  // stale entry
    expanded[from] = true;
    if (from != u.tile && is_water(s.tiles[from].terrain) != naval) continue;
    // Tribes stops expanding a tile once the movement spent equals MOV (as move_boards.cpp does).
    if (used == mov) continue;
    for (int x = s.tile_x(from) - 1; x <= s.tile_x(from) + 1; ++x) {
      for (int y = s.tile_y(from) - 1; y <= s.tile_y(from) + 1; ++y) {
        if (!s.on_board(x, y) || x * n + y == from) continue;
        const int step = step_cost(s, u, ctx, road_step_from(s, u, from), x * n + y, used, mov);
        if (step >= 0 && used + step < best[x * n + y]) {
          best[x * n + y] = uint16_t(used + step);
          open.push({used + step, x * n + y});
        }
      }
    }
  }
  int count = 0;
  for (int t = 0; t < s.num_tiles; ++t) if (t != u.tile && best[t] != 0xFFFF) out[count++] = int16_t(t);
  return count;
}

}  // namespace polyenv
