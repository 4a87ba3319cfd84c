// event_journal.hpp — the one fog-safe event journal of every live game
// (GameEnv, VectorGameEnv, the search pools): an EventSink that keeps, per
// player, the records visible_record() lets that player see.
//
// Two capacities, one type: unbounded (capacity 0: every record of the
// episode, GameEnv's visible_events / pickling) or a ring of the last
// `capacity` records per player (VectorGameEnv's visible_event_history).
// Sequences are per observer (1, 2, ... per episode): a shared counter's gaps
// would count the actions the observer did not see.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../encode/event_rows.hpp"

namespace polyenv {

struct EventRecord {
  uint64_t sequence = 0;         // private to the observer: 1, 2, ... per episode
  uint64_t action_sequence = 0;  // the observer's numbering of the world actions it saw (== sequence)
  std::array<int32_t, kEventFeatures> features{};
  std::array<int32_t, kEventAffectedRows * kEventAffectedFeatures> affected{};
  std::array<uint8_t, kEventAffectedRows> affected_mask{};
};

// Caller-owned, row-major output arrays of event rows (write_rows): features [n, 26], affected
// [n, 9, 8], affected_mask [n, 9], sequence and action_sequence [n].
struct EventRowsOut {
  int32_t* features = nullptr;
  int32_t* affected = nullptr;
  uint8_t* affected_mask = nullptr;
  uint64_t* sequence = nullptr;
  uint64_t* action_sequence = nullptr;
};

class EventJournal final : public EventSink {
 public:
  // Allocates for `players` players and `capacity` records each (0: unbounded) and clears.
  void configure(int players, int capacity);
  // A new episode: no records, sequences restart at 1 (no allocation in ring mode).
  void clear();
  void on_event(const GameState& s, const WorldEvent& e) override;

  int players() const { return players_; }
  int capacity() const { return capacity_; }
  // Records held for `player`, and the j-th of them (0 = oldest held).
  int kept(int player) const { return count_[size_t(player)]; }
  const EventRecord& record(int player, int j) const {
    if (capacity_ == 0) return list_[size_t(player)][size_t(j)];
    const int cap = capacity_ + 1;
    return ring_[size_t(player) * size_t(cap) + size_t((head_[size_t(player)] - kept(player) + j + cap) % cap)];
  }

  // The records of `player` from `cursor` on (GameEnv's visible_events): kept(player) - cursor;
  // std::out_of_range ("cursor c is outside 0..kept") unless 0 <= cursor <= kept(player).
  int rows_after(int player, int64_t cursor) const;
  // Copies records first .. first + count - 1 of `player` (0 = oldest held) into rows 0 .. count - 1
  // of `out`; the caller checked the range (0 <= first, first + count <= kept(player)).
  void write_rows(int player, int first, int count, const EventRowsOut& out) const;

  // Unbounded journals only (GameEnv pickling): per player a uint32 count,
  // then per record its sequence (uint64), features, affected rows and mask,
  // field by field (no padding bytes).
  std::string to_bytes() const;
  // Parses and checks `bytes` completely, then replaces this journal (InvalidArgument, unchanged on error).
  void load_bytes(std::string_view bytes);

 private:
  int players_ = 0;
  int capacity_ = 0;
  std::vector<std::vector<EventRecord>> list_;  // unbounded: per player
  std::vector<EventRecord> ring_;               // ring: per player capacity + 1 slots (one spare)
  std::array<int32_t, kMaxPlayers> head_{};     // ring: next slot
  std::array<int32_t, kMaxPlayers> count_{};    // records held
  std::array<uint64_t, kMaxPlayers> sequence_{};
};

}  // namespace polyenv
