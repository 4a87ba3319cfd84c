// events.cpp — capturing one WorldEvent per world action (before/after snapshots
// of the units involved); encode/event_rows.cpp filters it for an observer.
#include "events.hpp"

#include <algorithm>

#include "actions.hpp"
#include "game.hpp"
#include "world.hpp"

namespace polyenv {

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

}  // namespace polyenv
