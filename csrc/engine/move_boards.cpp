// §6 movement search on tile bitsets (bit t: tile t = x * n + y, n <= 40, so a board row
// never spans more than two words). The acting tribe's class of every tile is computed a
// word at a time once per move epoch (MoveBoards); a unit's search then expands whole sets
// of tiles that share a movement label, a few operations per word of its window. The same
// rule tile by tile is pathing.cpp's reference search: legal_actions_reference checks one
// against the other after every action of the checked playouts.
#include <algorithm>

#include "mechanics.hpp"

namespace polyenv {

namespace {

static_assert(kMaxMapSize < 64, "a shift by one board row must stay within the next word");
static_assert([] {
  for (const UnitInfo& info : kUnits) if (info.mov < 1 || info.mov > kMaxMove) return false;
  return true;
}());

// What a neighbourhood operation reads of the board: the map size and its column masks.
struct Board {
  int n;
  const uint64_t *first_column, *last_column, *tiles;
};

// The tiles on or next to a tile of `set` (8-neighbourhood), words a .. b of `out`; the
// words of `set` outside a .. b count as empty.
inline void dilate(const Board& board, const uint64_t* set, int a, int b, uint64_t* out) {
  uint64_t row[kMaxTiles / 64 + 1];  // each tile with its left and right neighbours
  for (int w = a; w <= b; ++w) {
    const uint64_t prev = w > a ? set[w - 1] : 0, next = w < b ? set[w + 1] : 0;
    const uint64_t right = (set[w] << 1 | prev >> 63) & ~board.first_column[w];  // y + 1, not past the row's end
    const uint64_t left = (set[w] >> 1 | next << 63) & ~board.last_column[w];    // y - 1, not before its start
    row[w] = set[w] | right | left;
  }
  const int n = board.n;
  for (int w = a; w <= b; ++w) {
    const uint64_t prev = w > a ? row[w - 1] : 0, next = w < b ? row[w + 1] : 0;
    const uint64_t down = row[w] << n | prev >> (64 - n);  // x + 1
    const uint64_t up = row[w] >> n | next << (64 - n);    // x - 1
    out[w] = (row[w] | down | up) & board.tiles[w];
  }
}

Board board_of(const MoveBoards& b) {
  const size_t words = b.columns.size() / 3;
  return {b.map_size, b.columns.data(), b.columns.data() + words, b.columns.data() + 2 * words};
}

void build_columns(const GameState& s, MoveBoards& b) {
  const int n = s.map_size, words = s.explored_words();
  b.map_size = n;
  b.columns.assign(size_t(3) * size_t(words), 0);
  // The column masks continue past the board's last row: a step off its last column must not
  // wrap onto the next row's first even there, where a step up would bring it back on the board.
  for (int t = 0; t < words * 64; ++t) {
    const uint64_t bit = uint64_t(1) << (t & 63);
    if (t % n == 0) b.columns[size_t(t >> 6)] |= bit;
    if (t % n == n - 1) b.columns[size_t(words + (t >> 6))] |= bit;
    if (t < s.num_tiles) b.columns[size_t(2 * words + (t >> 6))] |= bit;
  }
}

// The acting tribe's classes: open_terrain_class and classify of pathing.cpp, a word at a time.
void build_classes(const GameState& s, const uint64_t* foreign, MoveBoards& b) {
  const int player = s.current_player, words = s.explored_words();
  b.move_epoch = s.move_epoch;
  b.player = player;
  b.classes.resize(size_t(MoveBoards::kNumClassRows) * size_t(words));
  const Board board = board_of(b);
  uint64_t zoc[kMaxTiles / 64 + 1];
  dilate(board, foreign, 0, words - 1, zoc);
  const Player& p = s.players[size_t(player)];
  const bool sailing = p.has(kSailing), navigation = p.has(kNavigation), climbing = p.has(kClimbing);
  const uint64_t* explored = s.full_observability ? board.tiles : &s.explored[size_t(player) * size_t(words)];
  const uint64_t* own = s.territory_bits_of(player);
  const uint64_t* any_territory = s.tile_bits_of(kTileBitsTerritory);
  const uint64_t *plain = s.terrain_bits_of(kPlain), *village = s.terrain_bits_of(kVillage);
  const uint64_t *city = s.terrain_bits_of(kCity), *forest = s.terrain_bits_of(kForest);
  const uint64_t *mountain = s.terrain_bits_of(kMountain), *shallow = s.terrain_bits_of(kShallow);
  const uint64_t *deep = s.terrain_bits_of(kDeep), *port = s.tile_bits_of(kTileBitsPort);
  const uint64_t *road_or_city = s.tile_bits_of(kTileBitsRoadOrCity), *road_link = s.tile_bits_of(kTileBitsRoadLink);
  auto row = [&](int r) { return b.classes.data() + size_t(r) * size_t(words); };
  for (int w = 0; w < words; ++w) {
    const uint64_t open = explored[w] & board.tiles[w] & ~foreign[w];
    // plain, village and city: an ordinary land step, and a boat disembarks onto them.
    const uint64_t ground = plain[w] | village[w] | city[w];
    const uint64_t rough = forest[w] | (climbing ? mountain[w] : 0);  // a step onto them ends the move
    const uint64_t sea = (sailing ? shallow[w] : 0) | (navigation ? deep[w] : 0);
    const uint64_t embark = sailing ? port[w] & shallow[w] : 0;
    const uint64_t land = open & (ground | rough | embark), naval = open & (sea | ground | rough);
    const uint64_t land_step = land & ground & ~zoc[w], naval_step = naval & sea & ~zoc[w];  // zone of control ends the move
    row(MoveBoards::kLandStep)[w] = land_step;
    row(MoveBoards::kLandEnd)[w] = land & ~land_step;
    row(MoveBoards::kNavalStep)[w] = naval_step;
    row(MoveBoards::kNavalEnd)[w] = naval & ~naval_step;
    // A road step starts on a road link outside other tribes' territory, ends on a road or city
    // outside zone of control.
    row(MoveBoards::kRoadFrom)[w] = road_link[w] & (own[w] | ~any_territory[w]);
    row(MoveBoards::kRoadTo)[w] = road_or_city[w] & ~zoc[w];
    row(MoveBoards::kEnemyCity)[w] = city[w] & ~own[w];
    row(MoveBoards::kWater)[w] = shallow[w] | deep[w];
  }
}

}  // namespace

void prepare_move_boards(const GameState& s, const uint64_t* foreign, MoveBoards& b, bool keep) {
  if (b.map_size != s.map_size || b.columns.size() != size_t(3) * size_t(s.explored_words())) build_columns(s, b);
  const bool kept = keep && s.move_epoch != 0 && b.move_epoch == s.move_epoch && b.player == s.current_player;
  if (!kept) build_classes(s, foreign, b);
  if (!keep) b.move_epoch = 0;  // nothing is kept for the next caller
}

namespace {

// A unit's window: the words of the rows a path can reach (2 * MOV + 1 either side), at
// a .. a + last of the board, with its view of the classes there.
struct Window {
  int a, last;
  Board board;
  bool naval;
  const uint64_t *step, *end, *water, *road_from, *road_to;  // step, end: with the Mind Bender's bar
  uint64_t barred_step[kMaxReachWords], barred_end[kMaxReachWords];
  // The tiles of word w the unit expands from: neither embarking nor disembarking there.
  uint64_t onward(int w) const { return naval ? water[w] : ~water[w]; }
};

void open_window(const GameState& s, const Unit& unit, const MoveBoards& b, int rows, Window& v) {
  const int n = s.map_size, ux = unit.tile / n;
  v.a = (std::max(ux - rows, 0) * n) >> 6;
  v.last = (((std::min(ux + rows, n - 1) + 1) * n - 1) >> 6) - v.a;
  const Board whole = board_of(b);
  v.board = {n, whole.first_column + v.a, whole.last_column + v.a, whole.tiles + v.a};
  const size_t words = size_t(s.explored_words());
  auto row = [&](int r) { return b.classes.data() + size_t(r) * words + size_t(v.a); };
  v.naval = is_naval(unit.type);
  v.step = row(v.naval ? MoveBoards::kNavalStep : MoveBoards::kLandStep);
  v.end = row(v.naval ? MoveBoards::kNavalEnd : MoveBoards::kLandEnd);
  v.water = row(MoveBoards::kWater);
  v.road_from = row(MoveBoards::kRoadFrom);
  v.road_to = row(MoveBoards::kRoadTo);
  if (unit.type == kMindBender) {  // never enters an enemy city
    const uint64_t* enemy_city = row(MoveBoards::kEnemyCity);
    for (int w = 0; w <= v.last; ++w) {
      v.barred_step[w] = v.step[w] & ~enemy_city[w];
      v.barred_end[w] = v.end[w] & ~enemy_city[w];
    }
    v.step = v.barred_step;
    v.end = v.barred_end;
  }
}

// `reached` but the start, as the unit's reach.
Reach write_reach(const Window& v, const uint64_t* reached, int start, uint64_t* out) {
  std::copy(reached, reached + v.last + 1, out);
  out[start >> 6] &= ~(uint64_t(1) << (start & 63));
  return {v.a, v.last + 1};
}

// Movement 1 (most units) in closed form. A first step ends the search there (its label is
// MOV), unless it is a road step (the start a road link, the tile kRoadTo): half a step, and
// then, but where the unit embarks or disembarks, every step that is not blocked fits
// (at most one step more: 1.5 < MOV + 1) and ends the search.
Reach reach_with_one_step(const Window& v, int start, uint64_t* out) {
  uint64_t from[kMaxReachWords] = {}, near[kMaxReachWords], reached[kMaxReachWords];
  from[start >> 6] = uint64_t(1) << (start & 63);
  dilate(v.board, from, 0, v.last, near);
  for (int w = 0; w <= v.last; ++w) reached[w] = near[w] & (v.step[w] | v.end[w]);
  if ((v.road_from[start >> 6] >> (start & 63)) & 1u) {
    for (int w = 0; w <= v.last; ++w) from[w] = reached[w] & v.road_to[w] & v.onward(w);
    dilate(v.board, from, 0, v.last, near);
    for (int w = 0; w <= v.last; ++w) reached[w] |= near[w] & (v.step[w] | v.end[w]);
  }
  return write_reach(v, reached, start, out);
}

}  // namespace

// Dijkstra with whole sets. The movement spent (the label, in 1/kMoveUnit of a step) of
// every tile reached is the least over its paths; all tiles of one label are expanded
// together, labels in increasing order, so each tile is settled at its least label as in
// a Dijkstra. Steps cost (§6, Tribes' StepMove): an ordinary step one step; a step that
// ends the move all the movement left, or MOV once MOV is spent; a road step (from a
// kRoadFrom tile onto a kRoadTo tile) half of either, at least half a step. A step fits
// when the spent movement stays below MOV + 1; a tile is not expanded when exactly MOV is
// spent (Tribes), nor when the unit embarks or disembarks there (the start excepted).
// So no path is longer than 2 * MOV + 1 steps: the search reads the rows that far only.
//
// Labels are multiples of 32: ordinary and road steps cost 256 or 128; a move-ending step
// lands on MOV exactly (a multiple of 256, never expanded); a discounted one halves the
// movement left, which only happens while more than one step is left — at most twice on a
// path for MOV <= 3 (768 -> 384 -> 192) — so two halvings of multiples of 128. Hence one
// bucket per multiple of 32 below (kMaxMove + 1) * kMoveUnit, each holding one label.
Reach reachable_tiles(const GameState& s, int slot, const MoveBoards& b, uint64_t* out) {
  constexpr int kGrain = 32, kBuckets = (kMaxMove + 1) * kMoveUnit / kGrain;
  static_assert(kBuckets <= 32);
  const Unit& unit = s.units[size_t(slot)];
  const int mov = unit_movement(unit) * kMoveUnit;
  Window v;
  open_window(s, unit, b, 2 * unit_movement(unit) + 1, v);
  const int start = unit.tile - v.a * 64, last = v.last;
  if (mov == kMoveUnit) return reach_with_one_step(v, start, out);
  uint64_t settled[kMaxReachWords] = {};  // reached, the start included
  uint64_t buckets[kBuckets][kMaxReachWords];
  uint32_t pending = 0;  // bit per nonempty bucket
  uint64_t from[kMaxReachWords], start_set[kMaxReachWords];
  uint64_t plain[kMaxReachWords], road[kMaxReachWords];  // reached by a step without, with the road discount
  // Expands `from`, all settled at `label`: each kind of step that fits joins its label's bucket.
  // A tile next to both a road start and another tile of `from` may be reached both ways: the
  // discount is not always cheaper (less than half a step left: a move-ending step costs what is
  // left, a road step at least half a step), so both labels are pushed and the lower one settles it.
  auto expand = [&](int label) {
    uint64_t roads = 0;
    for (int w = 0; w <= last; ++w) roads |= start_set[w] = from[w] & v.road_from[w];
    if (roads) {
      dilate(v.board, start_set, 0, last, road);  // next to a road start
      for (int w = 0; w <= last; ++w) start_set[w] = from[w] & ~v.road_from[w];
      dilate(v.board, start_set, 0, last, plain);  // next to another tile of `from`
      for (int w = 0; w <= last; ++w) {
        plain[w] |= road[w] & ~v.road_to[w];
        road[w] &= v.road_to[w];
      }
    } else {
      dilate(v.board, from, 0, last, plain);
    }
    const int left = label < mov ? mov - label : mov;  // what a move-ending step costs
    const int costs[4] = {kMoveUnit, kMoveUnit / 2, left, std::max(kMoveUnit / 2, left / 2)};
    for (int kind = 0; kind < 4; ++kind) {  // ordinary or move-ending, without or with the road discount
      const bool discounted = kind & 1;
      const int to = label + costs[kind];
      if ((discounted && !roads) || to >= mov + kMoveUnit) continue;  // none, or does not fit
      const uint64_t* enter = kind < 2 ? v.step : v.end;
      const uint64_t* near = discounted ? road : plain;
      uint64_t* bucket = buckets[to / kGrain];
      const bool fresh = !((pending >> (to / kGrain)) & 1u);
      uint64_t any = 0;
      for (int w = 0; w <= last; ++w) {
        const uint64_t target = near[w] & enter[w] & ~settled[w];
        bucket[w] = fresh ? target : bucket[w] | target;
        any |= target;
      }
      if (any) pending |= 1u << (to / kGrain);
    }
  };
  settled[start >> 6] = uint64_t(1) << (start & 63);
  std::copy(settled, settled + last + 1, from);  // the start expands whatever its terrain
  expand(0);
  while (pending) {
    const int k = __builtin_ctz(pending);
    pending &= pending - 1;
    uint64_t any = 0;
    for (int w = 0; w <= last; ++w) {
      const uint64_t fresh = buckets[k][w] & ~settled[w];
      settled[w] |= fresh;
      any |= from[w] = fresh & v.onward(w);
    }
    if (any && k * kGrain != mov) expand(k * kGrain);
  }
  return write_reach(v, settled, start, out);
}

}  // namespace polyenv
