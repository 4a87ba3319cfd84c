// history_rows.hpp — the compact visible-action history row (seed 002): 12
// int32 features per observed world action, SelfPlayPool's
// visible_action_history.
//
// Rows are fog-filtered when the action happens: history_row() keeps only
// what visible_record() (event_rows.hpp, the one fog rule for events) lets
// that observer see, and gives no row at all for an unseen action, for End
// Turn and for research. Diplomacy (declare war, send stars) is public: every
// player records it, with the target player's ownership code in target_index.
#pragma once
#include <array>
#include <cstdint>

#include "../engine/events.hpp"
#include "layout.hpp"

namespace polyenv {

// The column table of a row (VISIBLE_ACTION_HISTORY_FEATURE_NAMES): X(column id, "exported
// name") in column order, generating the column enum, the count and the exported names
// (layout.hpp explains).
#define POLYENV_HISTORY_COLUMNS(X)                                                                              \
  X(kHEventType, "event_type") X(kHActorPlayer, "actor_player") X(kHActorTribe, "actor_tribe")                 \
  X(kHVisibility, "visibility_flags") X(kHSourceIndex, "source_index") X(kHTargetIndex, "target_index")        \
  X(kHSourceUnitType, "source_unit_type") X(kHTargetUnitType, "target_unit_type")                              \
  X(kHSourceObservedId, "source_observed_unit_id") X(kHTargetObservedId, "target_observed_unit_id")            \
  X(kHDetailKind, "detail_kind") X(kHDetailValue, "detail_value")

enum HistoryColumn : int { POLYENV_HISTORY_COLUMNS(POLYENV_COLUMN_ID) kNumHistoryCols };
inline constexpr int kHistoryFeatures = kNumHistoryCols;
static_assert(kHistoryFeatures == 12, "the width of SelfPlayPool's visible_action_history rows");
inline constexpr std::array<const char*, kHistoryFeatures> kHistoryFeatureNames = {
    POLYENV_HISTORY_COLUMNS(POLYENV_COLUMN_NAME)};
inline constexpr int kMaxHistory = 1024;

// visibility_flags: how the observer saw the action, plus the visible EventFlag bits shifted left by 3.
enum HistoryVisibility : int32_t { kHistOwnAction = 1, kHistSourceSeen = 2, kHistTargetSeen = 4, kHistEventFlagShift = 3 };
// detail_kind: what detail_value holds (a function of event_type only; the value is -1 when hidden).
enum HistoryDetail : int32_t {
  kDetailNone = 0,      // detail_value -1
  kDetailDamage = 1,    // attack / convert: damage dealt to the target
  kDetailBuilding = 2,  // build: the Building
  kDetailUnitType = 3,  // spawn: the unit type; upgrade: the new unit type
  kDetailHp = 4,        // recover / heal_others / make_veteran: the acting unit's hp after
  kDetailStars = 5,     // send_stars: the number of stars sent
};

// The compact row `observer` records for event `e` (s = the state after the
// action). False when the observer records nothing.
bool history_row(const GameState& s, const WorldEvent& e, int observer, int32_t* row);

// The row `observer` would record for `action` applied to `parent` (a
// transient leaf that has no node); false when it records none.
bool replay_history_row(const GameState& parent, int32_t action, int observer, int32_t* row);

}  // namespace polyenv
