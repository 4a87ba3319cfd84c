// history_rows.cpp — history_row and replay_history_row (history_rows.hpp).
#include "history_rows.hpp"

#include "../engine/game.hpp"
#include "event_rows.hpp"

namespace polyenv {

namespace {

// detail_kind and the record column holding its value, by event type.
void detail_of(int kind, int32_t& detail, int& column) {
  detail = kDetailNone;
  column = -1;
  switch (kind) {
    case kAttackKind: case kConvertKind: detail = kDetailDamage; column = kEDamage; break;
    case kBuildKind: detail = kDetailBuilding; column = kEBuildingType; break;
    case kSpawnKind: detail = kDetailUnitType; column = kESpawnType; break;
    case kUpgradeKind: detail = kDetailUnitType; column = kEUpgradedUnitType; break;
    case kRecoverKind: case kHealOthersKind: case kMakeVeteranKind: detail = kDetailHp; column = kESourceHpAfter; break;
    case kSendStarsKind: detail = kDetailStars; column = kEDamage; break;
    default: break;
  }
}

// Collects the row one observer records (replay_history_row).
struct RowSink final : EventSink {
  int observer = 0;
  int32_t* row = nullptr;
  bool recorded = false;
  void on_event(const GameState& s, const WorldEvent& e) override { recorded = history_row(s, e, observer, row); }
};

}  // namespace

bool history_row(const GameState& s, const WorldEvent& e, int observer, int32_t* row) {
  // Of the actions without a tile only diplomacy is recorded: End Turn's turn order is in the
  // state, research is private. (Diplomacy is public: visible_record.)
  const bool diplomacy = is_diplomacy(e.type_id);
  if (e.source_tile < 0 && e.target_tile < 0 && !diplomacy) return false;
  std::array<int32_t, kEventFeatures> f;
  std::array<int32_t, kEventAffectedRows * kEventAffectedFeatures> affected;
  std::array<uint8_t, kEventAffectedRows> affected_mask;
  if (!visible_record(s, e, observer, f.data(), affected.data(), affected_mask.data())) return false;
  int32_t detail;
  int column;
  detail_of(e.type_id, detail, column);
  row[kHEventType] = e.type_id;
  row[kHActorPlayer] = f[kEActorPlayer];
  row[kHActorTribe] = f[kEActorTribe];
  // A diplomacy record's target_index is a player, not a tile: no tile was seen.
  const bool source_seen = f[kESourceIndex] >= 0, target_seen = !diplomacy && f[kETargetIndex] >= 0;
  row[kHVisibility] = (observer == e.actor_player ? kHistOwnAction : 0) | (source_seen ? kHistSourceSeen : 0) |
                      (target_seen ? kHistTargetSeen : 0) | (f[kEFlags] << kHistEventFlagShift);
  row[kHSourceIndex] = f[kESourceIndex];
  row[kHTargetIndex] = f[kETargetIndex];
  row[kHSourceUnitType] = f[kESourceUnitType];
  row[kHTargetUnitType] = f[kETargetUnitType];
  row[kHSourceObservedId] = f[kESourceObservedId];
  row[kHTargetObservedId] = f[kETargetObservedId];
  row[kHDetailKind] = detail;
  row[kHDetailValue] = column >= 0 ? f[size_t(column)] : -1;
  return true;
}

bool replay_history_row(const GameState& parent, int32_t action, int observer, int32_t* row) {
  thread_local GameState scratch;
  scratch = parent;
  RowSink sink;
  sink.observer = observer;
  sink.row = row;
  apply_action(scratch, action, &sink);
  return sink.recorded;
}

}  // namespace polyenv
