// ids.hpp — opaque, process-unique identifiers of live positions (state_id)
// and episodes (episode_id). Never model features; never reused.
#pragma once
#include <atomic>
#include <cstdint>

namespace polyenv {

inline uint64_t next_opaque_id() {
  static std::atomic<uint64_t> counter{0x1000};
  return counter.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace polyenv
