// event_rows.cpp — visible_record (event_rows.hpp): one observer's row of a WorldEvent.
#include "event_rows.hpp"

#include <algorithm>

#include "../engine/actions.hpp"
#include "../engine/game.hpp"

namespace polyenv {

const std::array<const char*, kEventFeatures> kEventFeatureNames = {
    "round", "turn", "type_id", "flags", "source_index", "target_index", "damage", "hp_before", "hp_after",
    "actor_player", "actor_tribe", "tile_action_kind", "building_type", "spawn_type", "source_unit_type",
    "target_unit_type", "source_observed_unit_id", "target_observed_unit_id", "source_unit_hp_before",
    "source_unit_hp_after", "target_unit_hp_before", "target_unit_hp_after", "unit_upgrade_kind",
    "upgraded_unit_type", "unit_destroyed", "source_unit_destroyed"};
const std::array<const char*, kEventAffectedFeatures> kEventAffectedFeatureNames = {
    "observed_unit_id", "tile_index", "unit_type", "damage", "hp_before", "hp_after", "destroyed", "splash"};

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
