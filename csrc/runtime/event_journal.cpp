// event_journal.cpp — EventJournal (event_journal.hpp).
#include "event_journal.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "../engine/game.hpp"

namespace polyenv {

void EventJournal::configure(int players, int capacity) {
  players_ = players;
  capacity_ = capacity;
  list_.assign(capacity == 0 ? size_t(players) : 0, {});
  ring_.assign(capacity == 0 ? 0 : size_t(players) * size_t(capacity + 1), EventRecord{});
  clear();
}

void EventJournal::clear() {
  for (auto& records : list_) records.clear();
  head_.fill(0);
  count_.fill(0);
  sequence_.fill(0);
}

void EventJournal::on_event(const GameState& s, const WorldEvent& e) {
  for (int p = 0; p < s.num_players; ++p) {
    // The record is written in place: in a ring the spare slot at head is free,
    // so a record that turns out invisible never overwrites a kept one.
    EventRecord* r;
    if (capacity_ == 0) {
      r = &list_[size_t(p)].emplace_back();
    } else {
      r = &ring_[size_t(p) * size_t(capacity_ + 1) + size_t(head_[size_t(p)])];
    }
    if (!visible_record(s, e, p, r->features.data(), r->affected.data(), r->affected_mask.data())) {
      if (capacity_ == 0) list_[size_t(p)].pop_back();
      continue;
    }
    r->sequence = ++sequence_[size_t(p)];
    r->action_sequence = r->sequence;
    if (capacity_ == 0) {
      ++count_[size_t(p)];
    } else {
      head_[size_t(p)] = (head_[size_t(p)] + 1) % (capacity_ + 1);
      count_[size_t(p)] = std::min(count_[size_t(p)] + 1, capacity_);
    }
  }
}

int EventJournal::rows_after(int player, int64_t cursor) const {
  const int64_t held = kept(player);
  if (cursor < 0 || cursor > held) {
    throw std::out_of_range("cursor " + std::to_string(cursor) + " is outside 0.." + std::to_string(held));
  }
  return int(held - cursor);
}

void EventJournal::write_rows(int player, int first, int count, const EventRowsOut& out) const {
  constexpr size_t kAffected = size_t(kEventAffectedRows) * kEventAffectedFeatures;
  for (int i = 0; i < count; ++i) {
    const EventRecord& r = record(player, first + i);
    const size_t row = size_t(i);
    std::memcpy(out.features + row * kEventFeatures, r.features.data(), sizeof(r.features));
    std::memcpy(out.affected + row * kAffected, r.affected.data(), sizeof(r.affected));
    std::memcpy(out.affected_mask + row * kEventAffectedRows, r.affected_mask.data(), sizeof(r.affected_mask));
    out.sequence[row] = r.sequence;
    out.action_sequence[row] = r.action_sequence;
  }
}

std::string EventJournal::to_bytes() const {
  std::string out;
  auto put = [&](const void* p, size_t n) { out.append(static_cast<const char*>(p), n); };
  for (int p = 0; p < players_; ++p) {
    const uint32_t n = uint32_t(kept(p));
    put(&n, sizeof n);
    for (uint32_t i = 0; i < n; ++i) {
      const EventRecord& r = record(p, int(i));
      put(&r.sequence, sizeof r.sequence);
      put(r.features.data(), sizeof r.features);
      put(r.affected.data(), sizeof r.affected);
      put(r.affected_mask.data(), sizeof r.affected_mask);
    }
  }
  return out;
}

void EventJournal::load_bytes(std::string_view in) {
  constexpr size_t kRecord = sizeof(uint64_t) + sizeof(EventRecord::features) + sizeof(EventRecord::affected) +
                             sizeof(EventRecord::affected_mask);
  if (capacity_ != 0) throw InvalidArgument("only an unbounded journal loads bytes");
  std::vector<std::vector<EventRecord>> loaded(static_cast<size_t>(players_));
  size_t pos = 0;
  auto get = [&](void* p, size_t n) {
    if (in.size() - pos < n) throw InvalidArgument("journal bytes are truncated");
    std::memcpy(p, in.data() + pos, n);
    pos += n;
  };
  for (int p = 0; p < players_; ++p) {
    uint32_t n = 0;
    get(&n, sizeof n);
    if (size_t(n) > (in.size() - pos) / kRecord) throw InvalidArgument("journal bytes are truncated");
    loaded[size_t(p)].resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      EventRecord& r = loaded[size_t(p)][i];
      get(&r.sequence, sizeof r.sequence);
      get(r.features.data(), sizeof r.features);
      get(r.affected.data(), sizeof r.affected);
      get(r.affected_mask.data(), sizeof r.affected_mask);
      if (r.sequence != i + 1) throw InvalidArgument("journal bytes hold a broken sequence");
      r.action_sequence = r.sequence;
    }
  }
  if (pos != in.size()) throw InvalidArgument("journal bytes have trailing data");
  list_ = std::move(loaded);
  for (int p = 0; p < players_; ++p) {
    count_[size_t(p)] = int32_t(list_[size_t(p)].size());
    sequence_[size_t(p)] = uint64_t(count_[size_t(p)]);
  }
}

}  // namespace polyenv
