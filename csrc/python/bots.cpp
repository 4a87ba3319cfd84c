// polyenv._core bot functions: the built-in players (engine/bots.hpp) acting
// on the native game of a GameEnv. The bots think with the GIL released;
// actions they apply are recorded in the game's event journal like step().
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "../engine/bots.hpp"
#include "bindings.hpp"
#include "game_handle.hpp"

namespace polyenv::python {

namespace {

BotKind bot_kind(int bot) {
  if (bot < 0 || bot >= kNumBots) throw InvalidArgument("bot code " + std::to_string(bot) + " is unknown");
  return BotKind(bot);
}

// The bot's random stream: from `seed`, or (None) from the position itself, so
// the same position and seed always give the same choice.
Rng bot_stream(const GameState& s, std::optional<uint64_t> seed) {
  return seed ? bot_rng(*seed) : bot_rng_for_position(s);
}

void check_playing(const Game& g) {
  if (g.state.game_over) throw InvalidArgument("the game is over; call reset()");
}

// Per-thread scratch: no allocation per decision once warm.
BotScratch& scratch() {
  thread_local BotScratch s;
  return s;
}

}  // namespace

void init_bots(py::module_& m) {
  py::tuple names(kNumBots);
  for (int i = 0; i < kNumBots; ++i) names[i] = py::str(kBotNames[i]);
  m.attr("BOT_NAMES") = names;

  m.def("bot_choose", [](const Game& g, int bot, std::optional<uint64_t> seed) { GameLock lock(g);
    const BotKind kind = bot_kind(bot);
    check_playing(g);
    py::gil_scoped_release release;
    Rng rng = bot_stream(g.state, seed);
    return bot_action(g.state, kind, rng, scratch());
  }, py::arg("game"), py::arg("bot"), py::arg("seed") = py::none(),
     "The action id the bot would play now (nothing is applied).");

  m.def("bot_play", [](Game& g, int bot, std::optional<uint64_t> seed) { GameLock lock(g);
    const BotKind kind = bot_kind(bot);
    check_playing(g);
    int32_t id;
    {
      py::gil_scoped_release release;
      Rng rng = bot_stream(g.state, seed);
      id = bot_action(g.state, kind, rng, scratch());
      apply_action(g.state, id, &g.journal);
    }
    g.touched();
    return id;
  }, py::arg("game"), py::arg("bot"), py::arg("seed") = py::none(),
     "Chooses and applies one action; returns its id.");

  m.def("bot_play_turn", [](Game& g, int bot, std::optional<uint64_t> seed) { GameLock lock(g);
    const BotKind kind = bot_kind(bot);
    check_playing(g);
    int applied = 0;
    {
      py::gil_scoped_release release;
      GameState& s = g.state;
      Rng rng = bot_stream(s, seed);
      BotScratch& sc = scratch();
      const int player = s.current_player;
      const int32_t turn = s.turns_played;
      // The loop of bot_play_turn, with the journal as event sink.
      while (!s.game_over && s.current_player == player && s.turns_played == turn) {
        apply_action(s, bot_action(s, kind, rng, sc), &g.journal);
        ++applied;
      }
    }
    if (applied > 0) g.touched();
    return applied;
  }, py::arg("game"), py::arg("bot"), py::arg("seed") = py::none(),
     "Plays the current player's turn to its end (or the game's); returns the number of actions.");
}

}  // namespace polyenv::python
