// event_rows.cpp — visible_record (event_rows.hpp): one observer's row of a WorldEvent.
#include "event_rows.hpp"

#include <algorithm>

#include "../engine/actions.hpp"
#include "../engine/game.hpp"

namespace polyenv {

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
  f[kERound] = e.round;
  f[kETurn] = e.turn;
  f[kETypeId] = e.type_id;
  f[kEFlags] = see_target ? e.flags : (e.flags & (kEventSourceKilled | kEventCounter | kEventTurnEnded));
  if (!see_source) f[kEFlags] &= ~(kEventSourceKilled | kEventCounter);
  f[kESourceIndex] = see_source ? e.source_tile : -1;
  f[kETargetIndex] = see_target ? e.target_tile : -1;
  const bool source_visible = see_source || public_tribe_action;
  f[kEActorPlayer] = source_visible ? owner_code(s, observer, e.actor_player) : -1;
  f[kEActorTribe] = source_visible ? e.actor_tribe : -1;
  if (e.target_player >= 0) f[kETargetIndex] = owner_code(s, observer, e.target_player);
  if (e.type_id == kSendStarsKind) f[kEDamage] = e.stars_sent;
  if (see_target) {
    f[kETileActionKind] = e.tile_action_kind;
    f[kEBuildingType] = e.building_type;
    f[kESpawnType] = e.spawn_type;
  }
  if (see_source && e.source.uid) {
    f[kESourceUnitType] = e.source.type;
    f[kESourceObservedId] = alias(e.source);
    f[kESourceHpBefore] = e.source.hp_before;
    f[kESourceHpAfter] = e.source.destroyed ? 0 : e.source.hp_after;
    f[kEUnitUpgradeKind] = e.unit_upgrade_kind;
    f[kEUpgradedUnitType] = e.upgraded_unit_type;
    f[kESourceUnitDestroyed] = e.source.destroyed;
  }
  if (see_target && e.target.uid) {
    f[kEDamage] = e.damage;
    f[kEHpBefore] = e.hp_before;
    f[kEHpAfter] = e.target.destroyed ? 0 : e.hp_after;
    f[kETargetUnitType] = e.target.type;
    f[kETargetObservedId] = alias(e.target);
    f[kETargetHpBefore] = e.target.hp_before;
    f[kETargetHpAfter] = e.target.destroyed ? 0 : e.target.hp_after;
    f[kEUnitDestroyed] = e.target.destroyed;
  }
  std::fill(affected, affected + kEventAffectedRows * kEventAffectedFeatures, -1);
  std::fill(affected_mask, affected_mask + kEventAffectedRows, uint8_t(0));
  int row = 0;
  for (int i = 0; i < e.affected_count; ++i) {
    const AffectedUnit& u = e.affected[i];
    if (!(actor && u.owner == observer) && !sees(u.tile)) continue;  // hidden victims stay hidden
    int32_t* r = affected + row * kEventAffectedFeatures;
    r[kAObservedId] = alias(u);
    r[kATileIndex] = u.tile;
    r[kAUnitType] = u.type;
    r[kADamage] = u.damage;
    r[kAHpBefore] = u.hp_before;
    r[kAHpAfter] = u.destroyed ? 0 : u.hp_after;
    r[kADestroyed] = u.destroyed;
    r[kASplash] = u.splash;
    affected_mask[row++] = 1;
  }
  return true;
}

}  // namespace polyenv
