// game_handle.hpp — GameHandle: one live game as every owner holds it
// (polyenv.GameEnv's native Game, each VectorGameEnv environment, each game of
// the search pools). Pybind-free: a search rooted at a GameEnv needs no
// binding code.
//
// It owns the state and what lives beside it: the move cache, the legal-list
// cache, the opaque state/episode ids, the fog-safe event journal and the bot
// stream. Every change of `state` made through an owner is followed by
// state_changed() (the legal cache is dropped) and, when the owner assigns
// ids at once, by new_state_id() — touched() does both. Batch owners assign
// ids later, in row order, so ids stay deterministic for any thread count.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "../engine/game.hpp"
#include "../engine/ids.hpp"
#include "event_journal.hpp"

namespace polyenv {

// Why an action id cannot be played now.
enum class Refusal : int8_t { kNone, kOutOfRange, kGameOver, kIllegal };

struct GameHandle {
  GameState state;
  uint64_t state_id = 0;
  uint64_t episode_id = 0;
  MoveCache moves;  // unit reach between enumerations of this game
  // The legal-list cache: legal[0, legal_count) is the start of the current
  // position's list (ascending) while legal_valid, the whole list when also
  // legal_complete (a truncated row keeps only its first rows).
  std::vector<int32_t> legal;
  int legal_count = 0;
  bool legal_valid = false;
  bool legal_complete = false;
  EventJournal journal;
  Rng bot_stream;   // the opponents' / bots' random stream (play_until reseeds it per turn)

  void state_changed() {
    legal_valid = legal_complete = false;
    legal_count = 0;
  }
  void new_state_id() { state_id = next_opaque_id(); }
  void new_episode_id() { episode_id = next_opaque_id(); }
  void touched() {
    state_changed();
    new_state_id();
  }

  // The whole legal list of the current position (computed once per position).
  int legal_now();
  // Stores the first `rows` ids of the current list (as an encoded row holds them).
  void cache_legal(const int32_t* ids, int rows, bool complete);
  // Whether `id` can be played now: from the cached list when it is complete, else is_legal.
  Refusal check(int64_t id) const;
  bool accepts(int64_t id) const { return check(id) == Refusal::kNone; }
  // The one checked step: throws InvalidArgument (naming the action) and
  // changes nothing when `id` cannot be played; else applies it with `sink`
  // and calls state_changed(). The caller renews the state id.
  void apply_checked(int64_t id, EventSink* sink);
};

}  // namespace polyenv
