// game_handle.hpp — the native object behind polyenv.GameEnv, shared by the
// binding files (game.cpp, bots.cpp, ...). It owns one GameState plus what lives
// outside the state: the level to reset to, ids, and the per-player event journals.
#pragma once
#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <mutex>
#include <vector>

#include "../engine/events.hpp"
#include "../engine/game.hpp"
#include "../engine/ids.hpp"

namespace polyenv::python {

// One fog-filtered record of a player's journal.
struct JournalRecord {
  uint64_t sequence = 0;         // private to the observer: 1, 2, 3, ...
  uint64_t action_sequence = 0;  // the observer's own numbering of the world actions it saw (== sequence)
  std::array<int32_t, kEventFeatures> features{};
  std::array<int32_t, kEventAffectedRows * kEventAffectedFeatures> affected{};
  std::array<uint8_t, kEventAffectedRows> affected_mask{};
};

// Appends each world event to the journal of every player who could see it.
struct Journal final : EventSink {
  std::vector<std::vector<JournalRecord>> records;  // per player
  void clear(int players) { records.assign(size_t(players), {}); }
  void on_event(const GameState& s, const WorldEvent& e) override {
    for (int p = 0; p < s.num_players; ++p) {
      JournalRecord r;
      if (!visible_record(s, e, p, r.features.data(), r.affected.data(), r.affected_mask.data())) continue;
      r.sequence = records[p].size() + 1;
      // Per observer: a shared counter's gaps would count hidden actions.
      r.action_sequence = r.sequence;
      records[p].push_back(r);
    }
  }
};

enum class Source { kGenerated, kLevel, kBlank };

// A per-instance mutex that copies of a Game do not share (clone makes a new one).
struct InstanceMutex {
  mutable std::mutex m;
  InstanceMutex() = default;
  InstanceMutex(const InstanceMutex&) {}
  InstanceMutex& operator=(const InstanceMutex&) { return *this; }
};

struct Game {
  GameState state;
  GameConfig config;
  Source source = Source::kGenerated;
  Level level;
  int blank_terrain = kPlain;
  bool blank_revealed = true;
  uint64_t seed = 0;
  uint64_t state_id = 0;
  uint64_t episode_id = 0;
  std::vector<int32_t> legal;  // scratch for the legal list (grows, never per action)
  MoveCache moves;             // reach of units between enumerations
  uint64_t legal_for = 0;      // state_id the legal list was computed for
  int legal_count = 0;

  Journal journal;
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
    episode_id = next_opaque_id();
    state_id = next_opaque_id();
    journal.clear(state.num_players);
  }
  void touched() { state_id = next_opaque_id(); }

  // The legal list of the current position, computed once per state_id (every
  // change of the state through this object renews state_id).
  int legal_now() {
    if (legal_for != state_id) {
      legal_count = fill_legal();
      legal_for = state_id;
    }
    return legal_count;
  }

  int fill_legal() {
    int total = legal_actions(state, legal.data(), int(legal.size()), &moves);
    if (total > int(legal.size())) {
      legal.resize(size_t(total) * 2);
      total = legal_actions(state, legal.data(), int(legal.size()), &moves);
    }
    return total;
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
