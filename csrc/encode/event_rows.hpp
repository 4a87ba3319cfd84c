// event_rows.hpp — the event row of one observer (VISIBLE_EVENT_FEATURE_NAMES): the fog
// rule for events. An observer sees an event if it acted, or if it has explored the source
// or target tile; everything on a tile it has not explored reads -1. End Turn (turn order)
// and diplomacy (declare war, send stars) are public.
#pragma once
#include <array>
#include <cstdint>

#include "../engine/events.hpp"

namespace polyenv {

inline constexpr int kEventFeatures = 26;
inline constexpr int kEventAffectedFeatures = 8;
extern const std::array<const char*, kEventFeatures> kEventFeatureNames;
extern const std::array<const char*, kEventAffectedFeatures> kEventAffectedFeatureNames;

// Columns of an event row (kEventFeatureNames order) and of an affected row.
enum EventCol : int {
  kERound, kETurn, kETypeId, kEFlags, kESourceIndex, kETargetIndex, kEDamage, kEHpBefore, kEHpAfter,
  kEActorPlayer, kEActorTribe, kETileActionKind, kEBuildingType, kESpawnType, kESourceUnitType,
  kETargetUnitType, kESourceObservedId, kETargetObservedId, kESourceHpBefore, kESourceHpAfter,
  kETargetHpBefore, kETargetHpAfter, kEUnitUpgradeKind, kEUpgradedUnitType, kEUnitDestroyed,
  kESourceUnitDestroyed, kNumEventCols,
};
static_assert(kNumEventCols == kEventFeatures);
enum AffectedCol : int {
  kAObservedId, kATileIndex, kAUnitType, kADamage, kAHpBefore, kAHpAfter, kADestroyed, kASplash, kNumAffectedCols,
};
static_assert(kNumAffectedCols == kEventAffectedFeatures);

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
