// game_handle.hpp — the native object behind polyenv.GameEnv, shared by the
// binding files (game.cpp, bots.cpp, ...): the runtime's GameHandle (state,
// caches, ids, the unbounded event journal) plus what only GameEnv needs: the
// level to reset to and the lock that serialises the bindings.
#pragma once
#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <mutex>
#include <vector>

#include "../engine/game.hpp"
#include "../runtime/game_handle.hpp"

namespace polyenv::python {

enum class Source { kGenerated, kLevel, kBlank };

// A per-instance mutex that copies of a Game do not share (clone makes a new one).
struct InstanceMutex {
  mutable std::mutex m;
  InstanceMutex() = default;
  InstanceMutex(const InstanceMutex&) {}
  InstanceMutex& operator=(const InstanceMutex&) { return *this; }
};

struct Game : GameHandle {
  GameConfig config;
  Source source = Source::kGenerated;
  Level level;
  int blank_terrain = kPlain;
  bool blank_revealed = true;
  uint64_t seed = 0;
  InstanceMutex busy;  // serialises the bindings: several release the GIL while they work

  void new_episode(uint64_t new_seed) {
    seed = new_seed;
    switch (source) {
      case Source::kGenerated: new_game(state, config, seed); break;
      case Source::kLevel: setup_game(state, level, config, seed); break;
      case Source::kBlank:
        blank_game(state, config.map_size, config.tribes, blank_terrain, config.mode, config.max_turns, seed,
                   blank_revealed, config.full_observability);
        break;
    }
    new_episode_id();
    touched();
    journal.configure(state.num_players, 0);
  }
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
