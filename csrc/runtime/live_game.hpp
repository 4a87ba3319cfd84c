// live_game.hpp — LiveGame: one game of a batch of live episodes (each
// VectorGameEnv environment, each search-pool game) as LiveBatch keeps it:
// the runtime's GameHandle plus its place in the episode sequence, the
// player its live row shows, and the ids it is owed.
//
// Workers change games in parallel and only raise new_state / new_episode;
// the caller then gives the fresh ids in row order (assign_ids), so ids stay
// deterministic for any thread count.
#pragma once
#include <cstdint>

#include "game_handle.hpp"

namespace polyenv {

struct LiveGame : GameHandle {
  uint64_t episode_index = 0;  // k of episode k of this environment (episodes.hpp)
  int observer = 0;            // the player the live row shows
  bool new_state = false;      // set by workers: the position changed, a new state id is owed
  bool new_episode = false;    // set by workers: an episode started, a new episode id is owed

  // Gives the ids the flags ask for (the episode id first, then the state id)
  // and clears both flags. Call on the caller's thread, in row order.
  void assign_ids() {
    if (new_episode) new_episode_id();
    if (new_state) new_state_id();
    new_episode = new_state = false;
  }
};

}  // namespace polyenv
