// polyenv._core bot functions: the built-in players (engine/bots.hpp) acting
// on the native game of a GameEnv. The bots think with the GIL released;
// actions they apply are recorded in the game's event journal like step().
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "../engine/bots.hpp"
#include "../players/mcts_bot.hpp"
#include "bindings.hpp"
#include "game_handle.hpp"

namespace polyenv::python {

namespace {

BotSpec bot_spec(int bot, int simulations, int model) { return make_bot_spec(bot, simulations, model); }

// The bot's random stream: from `seed`, or (None) from the position itself, so
// the same position and seed always give the same choice.
Rng bot_stream(const GameState& s, std::optional<uint64_t> seed) {
  return seed ? bot_rng(*seed) : bot_rng_for_position(s);
}

void check_playing(const Game& g) {
  if (g.state.game_over) throw InvalidArgument("the game is over; call reset()");
}

// Per-thread scratch: no allocation per decision once warm.
PlayerScratch& scratch() {
  thread_local PlayerScratch s;
  return s;
}

}  // namespace

void init_bots(py::module_& m) {
  py::tuple names(kNumPlayers);
  for (int i = 0; i < kNumBots; ++i) names[i] = py::str(kBotNames[i]);
  names[kMctsBot] = py::str(kMctsBotName);
  names[kAzBot] = py::str(kAzBotName);
  m.attr("BOT_NAMES") = names;
  m.attr("DEFAULT_MCTS_SIMULATIONS") = kDefaultMctsSimulations;
  m.attr("DEFAULT_AZ_SIMULATIONS") = kDefaultAzSimulations;
  m.attr("DEFAULT_MCTS_ROOT_PRIOR_TEMPERATURE") = kDefaultRootPriorTemperature;
  m.attr("DEFAULT_MCTS_TURN_HORIZON") = kDefaultTurnHorizon;
  m.attr("DEFAULT_MCTS_PRIOR_SCOPE") = kDefaultPriorScope;
  m.attr("DEFAULT_MCTS_PROBE_VISITS") = kDefaultProbeVisits;

  m.def("bot_choose", [](const Game& g, int bot, std::optional<uint64_t> seed, int simulations, int model) { GameLock lock(g);
    const BotSpec kind = bot_spec(bot, simulations, model);
    check_playing(g);
    py::gil_scoped_release release;
    Rng rng = bot_stream(g.state, seed);
    return player_action(g.state, kind, rng, scratch());
  }, py::arg("game"), py::arg("bot"), py::arg("seed") = py::none(), py::arg("simulations") = kDefaultMctsSimulations,
     py::arg("model") = -1, "The action id the bot would play now (nothing is applied).");

  m.def("bot_play", [](Game& g, int bot, std::optional<uint64_t> seed, int simulations, int model) { GameLock lock(g);
    const BotSpec kind = bot_spec(bot, simulations, model);
    check_playing(g);
    int32_t id;
    {
      py::gil_scoped_release release;
      Rng rng = bot_stream(g.state, seed);
      id = player_action(g.state, kind, rng, scratch());
      apply_action(g.state, id, &g.journal);
    }
    g.touched();
    return id;
  }, py::arg("game"), py::arg("bot"), py::arg("seed") = py::none(), py::arg("simulations") = kDefaultMctsSimulations,
     py::arg("model") = -1, "Chooses and applies one action; returns its id.");

  // Tuning hook (benchmarks): one MCTS decision with every knob, applied to the game.
  m.def("_mcts_play", [](Game& g, int simulations, int eval, double c_puct, int rollout_actions, double scale,
                         int rollout_turns, double root_prior_temperature, int prior_scope, int turn_horizon,
                         int probe_visits) { GameLock lock(g);
    check_playing(g);
    if (simulations < 1 || eval < 0 || eval > 3 || rollout_turns < 0 || !(root_prior_temperature >= 0) ||
        prior_scope < 0 || prior_scope > 3 || turn_horizon < 0 || probe_visits < 0) {
      throw InvalidArgument("MCTS settings out of range: need simulations >= 1, eval in [0, 3], rollout_turns >= 0, "
                            "root_prior_temperature >= 0, prior_scope in [0, 3], turn_horizon >= 0, probe_visits >= 0");
    }
    int32_t id;
    {
      py::gil_scoped_release release;
      MctsBotConfig cfg;
      cfg.simulations = simulations;
      cfg.eval = MctsEval(eval);
      cfg.c_puct = c_puct;
      cfg.rollout_actions = rollout_actions;
      cfg.scale = scale;
      cfg.rollout_turns = rollout_turns;
      cfg.root_prior_temperature = root_prior_temperature;
      cfg.prior_scope = prior_scope;
      cfg.turn_horizon = turn_horizon;
      cfg.probe_visits = probe_visits;
      PlayerScratch& sc = scratch();
      if (!sc.mcts) sc.mcts = std::make_unique<MctsBotScratch>();
      Rng rng = bot_rng_for_position(g.state);
      id = mcts_bot_action(g.state, cfg, rng, *sc.mcts);
      apply_action(g.state, id, &g.journal);
    }
    g.touched();
    return id;
  }, py::arg("game"), py::arg("simulations"), py::arg("eval"), py::arg("c_puct"), py::arg("rollout_actions"),
     py::arg("scale"), py::arg("rollout_turns") = 1, py::arg("root_prior_temperature") = kDefaultRootPriorTemperature,
     py::arg("prior_scope") = kDefaultPriorScope, py::arg("turn_horizon") = kDefaultTurnHorizon,
     py::arg("probe_visits") = kDefaultProbeVisits);

  // Expert data (polyenv.train.expert): the shipped MCTS bot's decision and its root visit count per
  // legal action (in legal order, as the observation's rows), nothing applied.
  m.def("_mcts_root_visits", [](const Game& g, int simulations) { GameLock lock(g);
    const BotSpec kind = bot_spec(kMctsBot, simulations, -1);
    check_playing(g);
    PlayerScratch& sc = scratch();
    int32_t id;
    {
      py::gil_scoped_release release;
      Rng rng = bot_stream(g.state, std::nullopt);
      id = player_action(g.state, kind, rng, sc);
    }
    const int n = legal_actions(g.state, nullptr, 0);
    auto visits = new_array<int32_t>({n});
    mcts_root_visits(*sc.mcts, n, visits.mutable_data());
    return py::make_tuple(id, visits);
  }, py::arg("game"), py::arg("simulations") = kDefaultMctsSimulations);

  // Training targets of the az player (polyenv.train.expert): its choice with `gumbel_scale`
  // root noise and its root policy over the legal rows (players/az_bot.hpp, az_root_policy).
  m.def("_az_root_policy", [](const Game& g, int model, int simulations, double gumbel_scale,
                              std::optional<uint64_t> seed) { GameLock lock(g);
    const BotSpec kind = bot_spec(kAzBot, simulations, model);
    check_playing(g);
    if (!(gumbel_scale >= 0)) throw InvalidArgument("gumbel_scale must be >= 0");
    const int n = legal_actions(g.state, nullptr, 0);
    auto policy = new_array<float>({n});
    int32_t id;
    {
      py::gil_scoped_release release;
      Rng rng = bot_stream(g.state, seed);
      PlayerScratch& sc = scratch();
      if (!sc.az) sc.az = std::make_unique<AzBotScratch>();
      id = az_root_policy(g.state, *kind.net, simulations, gumbel_scale, rng, *sc.az, policy.mutable_data());
    }
    return py::make_tuple(id, policy);
  }, py::arg("game"), py::arg("model"), py::arg("simulations"), py::arg("gumbel_scale") = 1.0,
     py::arg("seed") = py::none());

  m.def("bot_play_turn", [](Game& g, int bot, std::optional<uint64_t> seed, int simulations, int model) { GameLock lock(g);
    const BotSpec kind = bot_spec(bot, simulations, model);
    check_playing(g);
    int applied = 0;
    {
      py::gil_scoped_release release;
      Rng rng = bot_stream(g.state, seed);
      PlayerScratch& sc = scratch();
      // One turn of this player (max_turns 1), from the stream chosen above.
      applied = play_until(g.state, 0u, 1, rng, true, &g.journal,
                           [&](const GameState& s, Rng& r) { return player_action(s, kind, r, sc); });
    }
    if (applied > 0) g.touched();
    return applied;
  }, py::arg("game"), py::arg("bot"), py::arg("seed") = py::none(), py::arg("simulations") = kDefaultMctsSimulations,
     py::arg("model") = -1, "Plays the current player's turn to its end (or the game's); returns the number of actions.");
}

}  // namespace polyenv::python
