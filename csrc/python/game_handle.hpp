// game_handle.hpp — the native object behind polyenv.GameEnv, shared by the
// binding files (game.cpp, bots.cpp, ...): the runtime's SourcedGame (state,
// caches, ids, the unbounded event journal, the episode source reset() starts
// from) plus the lock that serialises the bindings.
#pragma once
#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <mutex>
#include <vector>

#include "../engine/game.hpp"
#include "../runtime/episode_source.hpp"

namespace polyenv::python {

// A per-instance mutex that copies of a Game do not share (clone makes a new one).
struct InstanceMutex {
  mutable std::mutex m;
  InstanceMutex() = default;
  InstanceMutex(const InstanceMutex&) {}
  InstanceMutex& operator=(const InstanceMutex&) { return *this; }
};

struct Game : SourcedGame {
  InstanceMutex busy;  // serialises the bindings: several release the GIL while they work
};

// Held by every binding that touches a Game, so threads sharing one GameEnv take
// turns instead of corrupting it. Waiting happens without the GIL (the holder may
// need it to finish).
class GameLock {
 public:
  explicit GameLock(const Game& g) : lock_(g.busy.m, std::try_to_lock) {
    if (!lock_.owns_lock()) {
      pybind11::gil_scoped_release release;
      lock_.lock();
    }
  }

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace polyenv::python
