// The fog-safe event journal: capturing one WorldEvent per world action
// (before/after snapshots of the units involved) and filtering it for an
// observer. An observer sees an event if it acted, or if it has explored the
// source or target tile; everything on a tile it has not explored reads -1.
// End Turn (turn order) and diplomacy (declare war, send stars) are public.
#include "events.hpp"

#include <algorithm>

#include "actions.hpp"
#include "game.hpp"
#include "world.hpp"

namespace polyenv {

const std::array<const char*, kEventFeatures> kEventFeatureNames = {
    "round", "turn", "type_id", "flags", "source_index", "target_index", "damage", "hp_before", "hp_after",
    "actor_player", "actor_tribe", "tile_action_kind", "building_type", "spawn_type", "source_unit_type",
    "target_unit_type", "source_observed_unit_id", "target_observed_unit_id", "source_unit_hp_before",
    "source_unit_hp_after", "target_unit_hp_before", "target_unit_hp_after", "unit_upgrade_kind",
    "upgraded_unit_type", "unit_destroyed", "source_unit_destroyed"};
const std::array<const char*, kEventAffectedFeatures> kEventAffectedFeatureNames = {
    "observed_unit_id", "tile_index", "unit_type", "damage", "hp_before", "hp_after", "destroyed", "splash"};

namespace {

void copy_aliases(const GameState& s, AffectedUnit& a, int slot) {
  std::copy_n(s.unit_alias.begin() + ptrdiff_t(slot) * s.num_players, s.num_players, a.alias.begin());
}

AffectedUnit snapshot(const GameState& s, int tile) {
  AffectedUnit a;
  if (tile < 0) return a;
  const Unit* u = s.unit_at(tile);
  if (!u) return a;
  a.uid = u->uid; a.tile = int16_t(tile); a.type = u->type; a.owner = u->owner;
  a.hp_before = a.hp_after = u->hp;
  copy_aliases(s, a, s.tiles[tile].unit);
  return a;
}

// Finds the unit after the action: same uid on one of the candidate tiles, or
// (embark, disembark, upgrade) the unit of the same owner that replaced it.
void settle_unit(const GameState& s, AffectedUnit& a, int tile_a, int tile_b, bool may_transform) {
  if (a.uid == 0) return;
  for (int t : {tile_a, tile_b}) {
    if (t < 0) continue;
    const Unit* u = s.unit_at(t);
    if (u && (u->uid == a.uid || (may_transform && u->owner == a.owner))) {
      a.tile = int16_t(t);
      a.hp_after = u->hp;
      a.type = u->type;
      a.uid = u->uid;
      copy_aliases(s, a, s.tiles[t].unit);
      return;
    }
  }
  a.destroyed = 1;
  a.hp_after = 0;
}

}  // namespace

WorldEvent begin_event(const GameState& s, int32_t id) {
  const Action a = action_space(s).decode(id);
  WorldEvent e;
  e.round = s.tick;
  e.turn = s.turns_played;
  e.type_id = action_kind(s, a);
  e.actor_player = s.current_player;
  e.actor_tribe = s.players[s.current_player].tribe;
  switch (a.block) {
    case kBlockLevelUp: e.target_tile = s.pending_city >= 0 ? s.cities[s.pending_city].tile : int16_t(-1); break;
    case kBlockSpawn: e.target_tile = a.source; e.spawn_type = int8_t(a.arg); break;
    case kBlockBuild: e.target_tile = a.target; e.building_type = int8_t(a.arg); break;
    case kBlockBuildRoad: e.target_tile = a.target; break;
    case kBlockTileAction: e.target_tile = a.target; e.tile_action_kind = int8_t(a.arg); break;
    case kBlockUnitSelf:
      e.source_tile = a.source;
      if (a.arg == kUpgrade) e.unit_upgrade_kind = s.unit_at(a.source)->type == kBoat ? 0 : 1;
      break;
    case kBlockAttack:
    case kBlockMove: e.source_tile = a.source; e.target_tile = a.target; break;
    case kBlockDeclareWar: e.target_player = int8_t((s.current_player + a.arg) % s.num_players); break;
    case kBlockSendStars:
      e.target_player = int8_t((s.current_player + a.arg) % s.num_players);
      e.stars_sent = int16_t(a.amount);
      break;
    default: break;
  }
  e.source = snapshot(s, e.source_tile);
  if (a.block == kBlockAttack) e.target = snapshot(s, e.target_tile);
  return e;
}

void finish_event(const GameState& s, WorldEvent& e) {
  const int kind = e.type_id;
  const int type_before = e.source.type;
  settle_unit(s, e.source, e.source_tile, e.target_tile, kind == kMoveKind || kind == kUpgradeKind);
  if (kind == kUpgradeKind && !e.source.destroyed) e.upgraded_unit_type = e.source.type;
  if (kind == kMoveKind && !e.source.destroyed && type_before != e.source.type) {
    e.flags |= is_naval(e.source.type) ? kEventEmbark : kEventDisembark;
  }
  if (e.target.uid != 0) {
    const int32_t owner_before = e.target.owner;
    settle_unit(s, e.target, e.target_tile, -1, false);
    if (!e.target.destroyed && s.unit_at(e.target_tile)->owner != owner_before) e.target.owner = s.unit_at(e.target_tile)->owner;
    e.target.damage = int16_t(std::max(0, e.target.hp_before - std::max<int>(0, e.target.hp_after)));
    e.hp_before = e.target.hp_before;
    e.hp_after = e.target.hp_after;
    e.damage = e.target.damage;
    if (e.target.destroyed) e.flags |= kEventKill;
    e.affected[0] = e.target;
    e.affected_count = 1;
  }
  if (kind == kSpawnKind && e.target_tile >= 0) {
    e.target = snapshot(s, e.target_tile);  // the new unit
  }
  if (e.source.uid != 0) {
    e.source.damage = int16_t(std::max(0, e.source.hp_before - std::max<int>(0, e.source.hp_after)));
    if (e.source.destroyed) e.flags |= kEventSourceKilled;
    if (kind == kAttackKind && e.source.damage > 0) e.flags |= kEventCounter;
  }
  if (kind == kCaptureKind) e.flags |= kEventCapture;
  if (kind == kLevelUpKind) e.flags |= kEventLevelUp;
}

bool is_diplomacy(int type_id) { return type_id == kDeclareWarKind || type_id == kSendStarsKind; }

bool visible_record(const GameState& s, const WorldEvent& e, int observer, int32_t* f, int32_t* affected,
                    uint8_t* affected_mask) {
  auto sees = [&](int tile) { return tile >= 0 && sees_tile(s, observer, tile); };
  const bool actor = observer == e.actor_player;
  const bool see_source = actor || sees(e.source_tile);
  const bool see_target = actor || sees(e.target_tile);
  const bool tileless = e.source_tile < 0 && e.target_tile < 0;
  // Tribe actions without a tile are private (research), except the public ones: End Turn (turn
  // order) and diplomacy (events.hpp, is_diplomacy).
  const bool public_tribe_action = tileless && (e.type_id == kEndTurnKind || is_diplomacy(e.type_id));
  const bool visible = actor || see_source || see_target || public_tribe_action;
  if (!visible) return false;
  auto alias = [&](const AffectedUnit& u) { return u.uid && u.alias[observer] > 0 ? u.alias[observer] : -1; };
  std::fill(f, f + kEventFeatures, -1);
  f[0] = e.round;
  f[1] = e.turn;
  f[2] = e.type_id;
  f[3] = see_target ? e.flags : (e.flags & (kEventSourceKilled | kEventCounter | kEventTurnEnded));
  if (!see_source) f[3] &= ~(kEventSourceKilled | kEventCounter);
  f[4] = see_source ? e.source_tile : -1;
  f[5] = see_target ? e.target_tile : -1;
  const bool source_visible = see_source || public_tribe_action;
  f[9] = source_visible ? owner_code(s, observer, e.actor_player) : -1;
  f[10] = source_visible ? e.actor_tribe : -1;
  if (e.target_player >= 0) f[5] = owner_code(s, observer, e.target_player);
  if (e.type_id == kSendStarsKind) f[6] = e.stars_sent;
  if (see_target) {
    f[11] = e.tile_action_kind;
    f[12] = e.building_type;
    f[13] = e.spawn_type;
  }
  if (see_source && e.source.uid) {
    f[14] = e.source.type;
    f[16] = alias(e.source);
    f[18] = e.source.hp_before;
    f[19] = e.source.destroyed ? 0 : e.source.hp_after;
    f[22] = e.unit_upgrade_kind;
    f[23] = e.upgraded_unit_type;
    f[25] = e.source.destroyed;
  }
  if (see_target && e.target.uid) {
    f[6] = e.damage;
    f[7] = e.hp_before;
    f[8] = e.target.destroyed ? 0 : e.hp_after;
    f[15] = e.target.type;
    f[17] = alias(e.target);
    f[20] = e.target.hp_before;
    f[21] = e.target.destroyed ? 0 : e.target.hp_after;
    f[24] = e.target.destroyed;
  }
  std::fill(affected, affected + kEventAffectedRows * kEventAffectedFeatures, -1);
  std::fill(affected_mask, affected_mask + kEventAffectedRows, uint8_t(0));
  int row = 0;
  for (int i = 0; i < e.affected_count; ++i) {
    const AffectedUnit& u = e.affected[i];
    if (!(actor && u.owner == observer) && !sees(u.tile)) continue;  // hidden victims stay hidden
    int32_t* r = affected + row * kEventAffectedFeatures;
    r[0] = alias(u); r[1] = u.tile; r[2] = u.type; r[3] = u.damage; r[4] = u.hp_before;
    r[5] = u.destroyed ? 0 : u.hp_after; r[6] = u.destroyed; r[7] = u.splash;
    affected_mask[row++] = 1;
  }
  return true;
}

}  // namespace polyenv
