// events.hpp — the ground truth of every world action: one WorldEvent holding
// everything any observer could need. encode/event_rows.hpp filters it into one
// observer's row (hidden positions, units and victims become -1, never
// reconstructed). Journals live outside GameState (runtime/event_journal.hpp:
// GameEnv keeps a full per-player list, VectorGameEnv a bounded ring), so clone
// stays a copy.
#pragma once
#include <array>
#include <cstdint>

#include "state.hpp"

namespace polyenv {

inline constexpr int kEventAffectedRows = 9;  // affected units an event records

// Event types (the type_id field): the action kinds of actions.hpp (kEndTurnKind ...).

// One affected unit (ground truth; uid is global and never leaves the engine).
// `alias` holds every player's observed unit id of it (0 unseen), read when the
// unit was last on the board, so a unit destroyed by the action keeps its ids.
struct AffectedUnit {
  int32_t uid = 0;
  std::array<int32_t, kMaxPlayers> alias{};
  int16_t tile = -1;
  int8_t type = kNoUnit;
  int8_t owner = -1;
  int16_t damage = 0;
  int16_t hp_before = 0;
  int16_t hp_after = 0;
  uint8_t destroyed = 0;
  uint8_t splash = 0;
};

// Ground truth of one world action, written by apply_action.
struct WorldEvent {
  int32_t round = 0, turn = 0;
  int32_t type_id = -1;           // ActionKind
  int32_t flags = 0;              // EventFlag bits
  int16_t source_tile = -1, target_tile = -1;
  int8_t actor_player = -1, actor_tribe = -1;
  int8_t tile_action_kind = -1, building_type = -1, spawn_type = -1;
  int8_t unit_upgrade_kind = -1, upgraded_unit_type = -1;
  int8_t target_player = -1;      // declare war / send stars: the target tribe (absolute seat)
  int16_t stars_sent = 0;         // send stars: the amount
  AffectedUnit source;            // the acting unit (uid 0: none)
  AffectedUnit target;            // the unit acted upon (uid 0: none)
  int32_t damage = 0, hp_before = 0, hp_after = 0;  // on the target
  int affected_count = 0;
  std::array<AffectedUnit, kEventAffectedRows> affected{};
};

enum EventFlag : int32_t {
  kEventKill = 1, kEventCounter = 2, kEventSourceKilled = 4, kEventCapture = 8, kEventLevelUp = 16,
  kEventEmbark = 32, kEventDisembark = 64, kEventTurnEnded = 128,
};

// Receives each world event right after its action is applied (state = after).
struct EventSink {
  virtual ~EventSink() = default;
  virtual void on_event(const GameState& s, const WorldEvent& e) = 0;
};

// Snapshot before applying action `id`, and completion after it (step.cpp).
WorldEvent begin_event(const GameState& s, int32_t id);
void finish_event(const GameState& s, WorldEvent& e);

}  // namespace polyenv
