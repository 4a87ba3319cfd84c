// ids.hpp — opaque, process-unique identifiers of live positions (state_id)
// and episodes (episode_id), and the move epochs of GameState::move_epoch.
// Never model features; never reused.
#pragma once
#include <atomic>
#include <cstdint>

namespace polyenv {

inline uint64_t next_opaque_id() {
  static std::atomic<uint64_t> counter{0x1000};
  return counter.fetch_add(1, std::memory_order_relaxed);
}

// A move epoch (MoveCache validity stamp). Epochs must stay process-unique: one
// MoveCache may serve several states (a bot's scratch, a search tree's leaves),
// and two states that reached equal epochs independently would share stale
// reach lists. So each thread draws from its own block of kMoveEpochBlock
// epochs reserved on a shared counter: unique across threads and states, yet the
// shared cache line is touched once per block instead of once per stamp (many
// trees stepping states on several threads renew epochs constantly). Never 0
// (0 marks an empty cache entry).
inline constexpr uint64_t kMoveEpochBlock = uint64_t(1) << 16;

inline uint64_t next_move_epoch() {
  static std::atomic<uint64_t> blocks{1};
  thread_local uint64_t next = 0, end = 0;
  if (next == end) {
    next = blocks.fetch_add(1, std::memory_order_relaxed) * kMoveEpochBlock;
    end = next + kMoveEpochBlock;
  }
  return next++;
}

}  // namespace polyenv
