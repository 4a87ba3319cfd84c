// event_rows.hpp — the event row of one observer (VISIBLE_EVENT_FEATURE_NAMES): the fog
// rule for events. An observer sees an event if it acted, or if it has explored the source
// or target tile; everything on a tile it has not explored reads -1. End Turn (turn order)
// and diplomacy (declare war, send stars) are public.
#pragma once
#include <array>
#include <cstdint>

#include "../engine/events.hpp"
#include "layout.hpp"

namespace polyenv {

// The column tables of an event row (VISIBLE_EVENT_FEATURE_NAMES) and of an affected-unit
// row (VISIBLE_EVENT_AFFECTED_FEATURE_NAMES): X(column id, "exported name") in column order,
// generating the column enums, the counts and the exported names (layout.hpp explains).
#define POLYENV_EVENT_COLUMNS(X)                                                                                \
  X(kERound, "round") X(kETurn, "turn") X(kETypeId, "type_id") X(kEFlags, "flags")                             \
  X(kESourceIndex, "source_index") X(kETargetIndex, "target_index") X(kEDamage, "damage")                      \
  X(kEHpBefore, "hp_before") X(kEHpAfter, "hp_after") X(kEActorPlayer, "actor_player")                         \
  X(kEActorTribe, "actor_tribe") X(kETileActionKind, "tile_action_kind") X(kEBuildingType, "building_type")    \
  X(kESpawnType, "spawn_type") X(kESourceUnitType, "source_unit_type") X(kETargetUnitType, "target_unit_type") \
  X(kESourceObservedId, "source_observed_unit_id") X(kETargetObservedId, "target_observed_unit_id")            \
  X(kESourceHpBefore, "source_unit_hp_before") X(kESourceHpAfter, "source_unit_hp_after")                      \
  X(kETargetHpBefore, "target_unit_hp_before") X(kETargetHpAfter, "target_unit_hp_after")                      \
  X(kEUnitUpgradeKind, "unit_upgrade_kind") X(kEUpgradedUnitType, "upgraded_unit_type")                        \
  X(kEUnitDestroyed, "unit_destroyed") X(kESourceUnitDestroyed, "source_unit_destroyed")
#define POLYENV_EVENT_AFFECTED_COLUMNS(X)                                                                       \
  X(kAObservedId, "observed_unit_id") X(kATileIndex, "tile_index") X(kAUnitType, "unit_type")                  \
  X(kADamage, "damage") X(kAHpBefore, "hp_before") X(kAHpAfter, "hp_after") X(kADestroyed, "destroyed")        \
  X(kASplash, "splash")

enum EventCol : int { POLYENV_EVENT_COLUMNS(POLYENV_COLUMN_ID) kNumEventCols };
enum AffectedCol : int { POLYENV_EVENT_AFFECTED_COLUMNS(POLYENV_COLUMN_ID) kNumAffectedCols };
inline constexpr int kEventFeatures = kNumEventCols;
inline constexpr int kEventAffectedFeatures = kNumAffectedCols;
static_assert(kEventFeatures == 26 && kEventAffectedFeatures == 8, "the widths the observation contract fixes");
inline constexpr std::array<const char*, kEventFeatures> kEventFeatureNames = {
    POLYENV_EVENT_COLUMNS(POLYENV_COLUMN_NAME)};
inline constexpr std::array<const char*, kEventAffectedFeatures> kEventAffectedFeatureNames = {
    POLYENV_EVENT_AFFECTED_COLUMNS(POLYENV_COLUMN_NAME)};

// Writes the record `observer` may see: 26 features, up to 9 affected rows of
// 8 features and their mask. Returns false when the observer saw nothing.
// Declare war and send stars are public (every player sees them), with the
// target's ownership code in target_index and, for send stars, the amount in
// damage: Tribes gives every player the whole diplomacy table (Board.copy
// copies Diplomacy unfiltered) and every tribe's war and star-sending counts
// (Tribe.copy keeps nWarsDeclared, nStarsSent and starsSent).
bool is_diplomacy(int type_id);
bool visible_record(const GameState& s, const WorldEvent& e, int observer, int32_t* features,
                    int32_t* affected, uint8_t* affected_mask);

}  // namespace polyenv
