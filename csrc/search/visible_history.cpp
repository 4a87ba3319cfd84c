// visible_history.cpp — compact history rows and their persistent store
// (visible_history.hpp).
#include "visible_history.hpp"

#include <algorithm>
#include <cstring>

#include "../encode/event_rows.hpp"
#include "../engine/game.hpp"

namespace polyenv {

const std::array<const char*, kHistoryFeatures> kHistoryFeatureNames = {
    "event_type",       "actor_player",     "actor_tribe",
    "visibility_flags", "source_index",     "target_index",
    "source_unit_type", "target_unit_type", "source_observed_unit_id",
    "target_observed_unit_id", "detail_kind", "detail_value"};

namespace {

// visible_record() columns (kEventFeatureNames) a compact row is made of.
enum RecordColumn : int {
  kRFlags = 3, kRSource = 4, kRTarget = 5, kRDamage = 6, kRActor = 9, kRTribe = 10, kRBuilding = 12, kRSpawn = 13,
  kRSourceType = 14, kRTargetType = 15, kRSourceAlias = 16, kRTargetAlias = 17, kRSourceHpAfter = 19,
  kRUpgraded = 23,
};

// detail_kind and the record column holding its value, by event type.
void detail_of(int kind, int32_t& detail, int& column) {
  detail = kDetailNone;
  column = -1;
  switch (kind) {
    case kAttackKind: case kConvertKind: detail = kDetailDamage; column = kRDamage; break;
    case kBuildKind: detail = kDetailBuilding; column = kRBuilding; break;
    case kSpawnKind: detail = kDetailUnitType; column = kRSpawn; break;
    case kUpgradeKind: detail = kDetailUnitType; column = kRUpgraded; break;
    case kRecoverKind: case kHealOthersKind: case kMakeVeteranKind: detail = kDetailHp; column = kRSourceHpAfter; break;
    case kSendStarsKind: detail = kDetailStars; column = kRDamage; break;
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
  row[kHActorPlayer] = f[kRActor];
  row[kHActorTribe] = f[kRTribe];
  // A diplomacy record's target_index is a player, not a tile: no tile was seen.
  const bool source_seen = f[kRSource] >= 0, target_seen = !diplomacy && f[kRTarget] >= 0;
  row[kHVisibility] = (observer == e.actor_player ? kHistOwnAction : 0) | (source_seen ? kHistSourceSeen : 0) |
                      (target_seen ? kHistTargetSeen : 0) | (f[kRFlags] << kHistEventFlagShift);
  row[kHSourceIndex] = f[kRSource];
  row[kHTargetIndex] = f[kRTarget];
  row[kHSourceUnitType] = f[kRSourceType];
  row[kHTargetUnitType] = f[kRTargetType];
  row[kHSourceObservedId] = f[kRSourceAlias];
  row[kHTargetObservedId] = f[kRTargetAlias];
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

// ---- GameHistory

void GameHistory::init(int players) {
  players_ = players;
  live_sink_.owner = this;
  live_heads_.assign(size_t(players), kEmpty);
  live_.clear();
  on_root();
}

void GameHistory::clear_live() {
  live_.clear();
  std::fill(live_heads_.begin(), live_heads_.end(), kEmpty);
}

void GameHistory::on_root() {
  tree_.clear();
  node_heads_.assign(live_heads_.begin(), live_heads_.end());
  target_node_ = -1;
}

void GameHistory::on_child(int32_t parent, int32_t child) {
  const size_t P = size_t(players_);
  node_heads_.resize((size_t(child) + 1) * P);
  std::copy_n(node_heads_.begin() + ptrdiff_t(size_t(parent) * P), P, node_heads_.begin() + ptrdiff_t(size_t(child) * P));
  target_node_ = child;
}

void GameHistory::on_event(const GameState& s, const WorldEvent& e) {
  if (target_node_ < 0) return;
  record(s, e, node_heads_.data() + size_t(target_node_) * size_t(players_), true);
}

void GameHistory::record(const GameState& s, const WorldEvent& e, int32_t* heads, bool tree) {
  std::vector<Entry>& arena = tree ? tree_ : live_;
  for (int p = 0; p < players_; ++p) {
    Entry x;
    if (!history_row(s, e, p, x.row.data())) continue;
    x.prev = heads[p];
    x.length = length(heads[p]) + 1;
    heads[p] = int32_t(arena.size()) | (tree ? kTreeBit : 0);
    arena.push_back(x);
  }
}

void GameHistory::pack(int32_t head, const int32_t* extra, int H, int32_t* rows, uint8_t* mask, int32_t* length) const {
  const int n = std::min(this->length(head) + (extra ? 1 : 0), H);
  const int pad = H - n;
  std::memset(rows, 0, sizeof(int32_t) * size_t(pad) * kHistoryFeatures);
  std::memset(mask, 0, size_t(pad));
  int pos = H - 1;
  if (extra && n > 0) {
    std::memcpy(rows + size_t(pos) * kHistoryFeatures, extra, sizeof(int32_t) * kHistoryFeatures);
    mask[pos--] = 1;
  }
  for (int32_t ref = head; pos >= pad; --pos) {
    const Entry& x = entry(ref);
    std::memcpy(rows + size_t(pos) * kHistoryFeatures, x.row.data(), sizeof(x.row));
    mask[pos] = 1;
    ref = x.prev;
  }
  *length = n;
}

int64_t GameHistory::bytes() const {
  return int64_t((live_.capacity() + tree_.capacity()) * sizeof(Entry) +
                 (live_heads_.capacity() + node_heads_.capacity()) * sizeof(int32_t));
}

}  // namespace polyenv
