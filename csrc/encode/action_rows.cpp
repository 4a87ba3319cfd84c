// action_rows.cpp — encode_action_rows and encode_action (seed 000 layouts).
//
// action_features, 17 int32 per row (seed order); -1 marks an unused field:
//   0 type_id         ActionKind (action_kind())
//   1 source_index    acting unit's tile (unit actions) or the spawning city's tile
//   2 target_index    tile acted on; for declare_war / send_stars the target
//                     player relative to the actor (1 = next in turn order, ...)
//   3 city            centre tile of the city involved: the spawning city, the
//                     city owning a build / tile-action tile, the pending city of
//                     a level-up choice
//   4 tech            Tech of a research action
//   5 building        Building of a build action
//   6 spawn_type      UnitType of a spawn action
//   7 upgrade         LevelUpReward chosen by a level-up action
//   8 tile_action     TileActionKind of a tile action
//   9 unit_upgrade    UnitType an upgrade action produces (boat -> ship -> battleship)
//  10 unit_id         observed id of the acting unit
//  11 population_gain action_population_gain() (0 when none; always written)
//  12 cost_stars      action_star_cost() (negative = gain; 0 when free; always
//                     written); the amount for send_stars
//  13 stars_before    the actor's stars
//  14 affordable      cost_stars <= stars_before
//  15 damage_dealt    combat_preview().dealt for attacks when previews are on, else -1
//  16 damage_received combat_preview().retaliation likewise, else -1
// action_arg_mask, 12 uint8 per row: column j flags feature column kArgMaskFeature[j]
// (layout.hpp: source_index .. cost_stars). The columns up to unit_id are 1 exactly
// when that field is filled (not -1) for the action; population_gain and cost_stars
// are always written as numbers, and their mask bits are 1 when the value is non-zero
// (the action changes population / stars; send_stars always sets its cost bit).
// Padding rows (beyond legal_action_count): action_id -1, action_mask 0, and
// all-zero features and arg mask (seed 000 fixes only action_id and action_mask).
#include <algorithm>
#include <cstring>

#include "encode.hpp"
#include "layout.hpp"

namespace polyenv {

namespace {

// Tile of the centre of the city whose territory holds `tile`, or -1.
inline int32_t owning_city_tile(const GameState& s, int tile) {
  if (tile < 0) return -1;
  const int c = s.tiles[tile].city;
  return c < 0 ? -1 : s.cities[c].tile;
}

inline int32_t acting_unit_id(const GameState& s, int observer, int tile) {
  if (tile < 0) return -1;
  const Unit* u = s.unit_at(tile);
  return (u && u->alive()) ? observed_unit_id(s, observer, s.tiles[tile].unit) : -1;
}

inline int32_t upgraded_type(const GameState& s, int tile) {
  if (tile < 0) return -1;
  const Unit* u = s.unit_at(tile);
  if (!u || !u->alive()) return -1;
  return u->type == kBoat ? kShip : u->type == kShip ? kBattleship : -1;
}

void encode_one(const GameState& s, const ActionSpace& space, int observer, int32_t id, bool combat_preview_on,
                int32_t* f, uint8_t* m) {
  const Action a = space.decode(id);
  const int kind = action_kind(s, a);
  for (int j = 0; j < kActionFeatures; ++j) f[j] = -1;
  f[kFType] = kind;

  switch (a.block) {
    case kBlockEndTurn: break;
    case kBlockResearch: f[kFTech] = a.arg; break;
    case kBlockLevelUp:
      if (s.pending_city >= 0) {
        const City& c = s.cities[s.pending_city];
        f[kFCity] = c.tile;
        f[kFUpgrade] = a.arg == 0 ? reward_a(c.level + 1) : reward_b(c.level + 1);
      }
      break;
    case kBlockDeclareWar:
    case kBlockSendStars: f[kFTarget] = a.arg; break;
    case kBlockBuildRoad: f[kFTarget] = a.target; break;
    case kBlockSpawn:
      f[kFSource] = a.source;
      f[kFTarget] = a.target;
      f[kFCity] = a.source;
      f[kFSpawnType] = a.arg;
      break;
    case kBlockBuild:
      f[kFTarget] = a.target;
      f[kFCity] = owning_city_tile(s, a.target);
      f[kFBuilding] = a.arg;
      break;
    case kBlockTileAction:
      f[kFTarget] = a.target;
      f[kFCity] = owning_city_tile(s, a.target);
      f[kFTileAction] = a.arg;
      break;
    case kBlockUnitSelf:
      f[kFSource] = a.source;
      f[kFTarget] = a.target;
      f[kFUnitId] = acting_unit_id(s, observer, a.source);
      if (a.arg == kUpgrade) f[kFUnitUpgrade] = upgraded_type(s, a.source);
      break;
    case kBlockAttack:
    case kBlockMove:
      f[kFSource] = a.source;
      f[kFTarget] = a.target;
      f[kFUnitId] = acting_unit_id(s, observer, a.source);
      break;
  }

  for (int j = 0; j < kActionArgFeatures; ++j) m[j] = f[kArgMaskFeature[size_t(j)]] != -1 ? 1 : 0;

  const int32_t cost = a.block == kBlockSendStars ? int32_t(a.amount) : int32_t(action_star_cost(s, a));
  const int32_t pop = action_population_gain(s, a);
  const int32_t stars = s.players[observer].stars;
  f[kFPopulation] = pop;
  f[kFCost] = cost;
  m[kMPopulation] = pop != 0 ? 1 : 0;
  m[kMCost] = (cost != 0 || a.block == kBlockSendStars) ? 1 : 0;
  f[kFStarsBefore] = stars;
  f[kFAffordable] = cost <= stars ? 1 : 0;

  if (combat_preview_on && kind == kAttackKind) {
    const CombatOutcome out = combat_preview(s, a.source, a.target);
    f[kFDamageDealt] = out.dealt;
    f[kFDamageReceived] = out.retaliation;
  }
}

}  // namespace

void encode_action(const GameState& s, int observer, int32_t id, bool combat_preview, int32_t* features,
                   uint8_t* arg_mask) {
  encode_one(s, action_space(s), observer, id, combat_preview, features, arg_mask);
}

void encode_listed_rows(const GameState& s, int observer, int rows, bool combat_preview, const int32_t* action_id,
                        int32_t* features, uint8_t* arg_mask, uint8_t* action_mask) {
  const ActionSpace space = action_space(s);
  // Moves are about half of all rows and their rows differ only in source,
  // target and unit: the last block, decoded inline, the unit looked up once
  // per source (listed ids ascend, so a unit's moves are consecutive). Send-stars
  // rows (one per recipient and amount) differ only in recipient and amount.
  // Both rows are exactly what encode_one writes.
  static_assert(kBlockMove + 1 == kNumBlocks, "moves must be the last block");
  const int32_t first_move = space.block_offset(kBlockMove);
  const int32_t first_send = space.block_offset(kBlockSendStars);
  const int32_t end_send = space.block_offset(kBlockSendStars + 1);
  const int tiles = s.num_tiles;
  const int32_t stars = s.players[observer].stars;
  int source = -1;
  int32_t source_base = 0, source_end = 0;  // the move ids of `source`: [source_base, source_end)
  int32_t unit = -1;
  for (int i = 0; i < rows; ++i) {
    int32_t* f = features + size_t(i) * kActionFeatures;
    uint8_t* m = arg_mask + size_t(i) * kActionArgFeatures;
    const int32_t id = action_id[i];
    if (id >= first_move) {
      if (id >= source_end || id < source_base) {  // a new source: one division per unit, not per row
        source = (id - first_move) / tiles;
        source_base = first_move + source * tiles;
        source_end = source_base + tiles;
        unit = acting_unit_id(s, observer, source);
      }
      for (int j = 0; j < kActionFeatures; ++j) f[j] = -1;
      f[kFType] = kMoveKind;
      f[kFSource] = source;
      f[kFTarget] = id - source_base;
      f[kFUnitId] = unit;
      f[kFPopulation] = 0;
      f[kFCost] = 0;
      f[kFStarsBefore] = stars;
      f[kFAffordable] = stars >= 0 ? 1 : 0;
      for (int j = 0; j < kActionArgFeatures; ++j) m[j] = 0;
      m[kMSource] = m[kMTarget] = 1;
      m[kMUnitId] = unit != -1 ? 1 : 0;
    } else if (id >= first_send && id < end_send) {
      const int32_t amount = (id - first_send) % kMaxSendStars + 1;
      for (int j = 0; j < kActionFeatures; ++j) f[j] = -1;
      f[kFType] = kSendStarsKind;
      f[kFTarget] = (id - first_send) / kMaxSendStars + 1;
      f[kFPopulation] = 0;
      f[kFCost] = amount;
      f[kFStarsBefore] = stars;
      f[kFAffordable] = amount <= stars ? 1 : 0;
      for (int j = 0; j < kActionArgFeatures; ++j) m[j] = 0;
      m[kMTarget] = m[kMCost] = 1;
    } else {
      encode_one(s, space, observer, id, combat_preview, f, m);
    }
    action_mask[i] = 1;
  }
}

ActionRows canonical_action_ids(const GameState& s, int32_t* action_id, int max_actions, MoveCache* cache) {
  return canonical_prefix(s, action_id, max_actions, legal_actions(s, action_id, max_actions, cache));
}

ActionRows canonical_prefix(const GameState& s, int32_t* action_id, int max_actions, int total) {
  ActionRows r;
  r.total = total;
  r.rows = std::min(r.total, max_actions);
  r.truncated = r.total > max_actions;
  // Canonical order is ascending, so a legal EndTurn (id 0) is row 0 of any
  // non-empty prefix; the reservation only acts if that ever fails to hold.
  if (r.truncated && r.rows > 0 && action_id[0] != 0 && is_legal(s, 0)) action_id[r.rows - 1] = 0;
  return r;
}

ActionRows encode_action_rows(const GameState& s, int observer, int max_actions, bool combat_preview,
                              int32_t* action_id, int32_t* features, uint8_t* arg_mask, uint8_t* action_mask,
                              MoveCache* cache, int zero_from, int listed) {
  ActionRows r;
  if (max_actions < 0) max_actions = 0;
  if (!s.game_over && observer == s.current_player) {
    // Enumerate straight into the caller's id buffer (no scratch memory), unless the ids are there.
    r = listed >= 0 ? canonical_prefix(s, action_id, max_actions, listed)
                    : canonical_action_ids(s, action_id, max_actions, cache);
    encode_listed_rows(s, observer, r.rows, combat_preview, action_id, features, arg_mask, action_mask);
  }
  // Padding rows: id -1, mask 0 (always written: the seed-000 fields), all-zero
  // features and arg mask — those only up to zero_from, past which the caller
  // knows they are still zero (80 of the 85 bytes of a padding row).
  if (r.rows < max_actions) {
    std::fill(action_id + r.rows, action_id + max_actions, -1);
    std::memset(action_mask + r.rows, 0, size_t(max_actions - r.rows));
    const size_t zero = size_t(std::max(0, std::min(zero_from, max_actions) - r.rows));
    std::memset(features + size_t(r.rows) * kActionFeatures, 0, sizeof(int32_t) * kActionFeatures * zero);
    std::memset(arg_mask + size_t(r.rows) * kActionArgFeatures, 0, kActionArgFeatures * zero);
  }
  return r;
}

}  // namespace polyenv
