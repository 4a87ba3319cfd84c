// polyenv._core.bot_play_until: the engine's one bot turn loop (play_until,
// engine/bots.hpp) on the native game of a GameEnv, for Python faces that
// play opponents (the Gymnasium env): the same loop and bot streams as
// VectorGameEnv's opponents, recorded in the game's event journal; and the
// one reward of an action (runtime/reward.hpp), as VectorGameEnv pays it.
#include <cmath>
#include <string>

#include "../engine/bots.hpp"
#include "../runtime/reward.hpp"
#include "../players/mcts_bot.hpp"
#include "bindings.hpp"
#include "game_handle.hpp"

namespace polyenv::python {

void init_play(py::module_& m) {
  m.def("bot_play_until", [](Game& g, int bot, int64_t stop_seats, int simulations, int model) { GameLock lock(g);
    const BotSpec spec = make_bot_spec(bot, simulations, model);
    const int players = g.state.num_players;
    if (stop_seats < 0 || stop_seats >= (int64_t(1) << players)) {
      throw InvalidArgument("stop_seats must be a bit set of seats in [0, " + std::to_string(players) + ")");
    }
    int applied;
    {
      py::gil_scoped_release release;
      thread_local PlayerScratch scratch;  // no allocation per decision once warm
      applied = play_until(g.state, uint32_t(stop_seats), -1, g.bot_stream, false, &g.journal,
                           [&](const GameState& s, Rng& rng) { return player_action(s, spec, rng, scratch); });
    }
    if (applied > 0) g.touched();
    return applied;
  }, py::arg("game"), py::arg("bot"), py::arg("stop_seats"), py::arg("simulations") = kDefaultMctsSimulations,
     py::arg("model") = -1,
     "Plays `bot` for every seat outside the bit set stop_seats until a stop seat is to move or the game ends "
     "(each bot turn's stream derived from its starting position); returns the number of actions applied.");

  m.def("action_reward", [](const Game& g, int actor, int margin_before, double score_scale) { GameLock lock(g);
    if (actor < 0 || actor >= g.state.num_players) {
      throw InvalidArgument("actor must be a seat in [0, " + std::to_string(g.state.num_players) + ")");
    }
    if (!std::isfinite(score_scale) || score_scale < 0) throw InvalidArgument("score_scale must be finite and >= 0");
    return action_reward(g.state, actor, margin_before, score_scale);
  }, py::arg("game"), py::arg("actor"), py::arg("margin_before"), py::arg("score_scale"),
     "The reward of `actor`'s action once it and the replies that followed are applied (VectorGameEnv's): the "
     "change of score_margin(actor) since margin_before divided by score_scale (nothing when 0), plus +1 / -1 "
     "when the game ended with the actor's win / loss. A float32 value.");
}

}  // namespace polyenv::python
