// polyenv._core._testing: test oracles and benchmark hooks on a Game, kept out of the Game
// class that polyenv.GameEnv wraps: reference enumerations and checked playouts (the tests),
// state-copy timing and legal-list sizes (polyenv/_bench), and the draws and values another
// engine imposes in lockstep games (polyenv.evaluation.java, tools/differential).
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "../engine/check/oracles.hpp"
#include "../engine/playout.hpp"
#include "../encode/encode.hpp"
#include "../players/observer_world.hpp"
#include "bindings.hpp"
#include "game_handle.hpp"

namespace polyenv::python {

void init_game_testing(py::module_& m) {
  py::module_ testing = m.def_submodule(
      "_testing", "Test oracles and benchmark hooks on a Game (private: not part of the GameEnv API)");
  testing.def("legal_actions_uncached", [](const Game& g) { GameLock lock(g);
    // The same list computed without the move cache (tests compare the two).
    const int total = legal_actions(g.state, nullptr, 0);
    auto out = new_array<int32_t>({total});
    legal_actions(g.state, out.mutable_data(), total);
    return out;
  }, py::arg("game"));
  testing.def("playout_stats", [](Game& g, int max_actions, uint64_t seed) { GameLock lock(g);
    // playout(max_actions, seed, record_events=False), also returning the legal-list
    // size of every decision (int32 [actions applied]).
    std::vector<int32_t> counts;
    {
      py::gil_scoped_release release;
      random_playout(g.state, seed, max_actions, g.legal, &g.moves, nullptr, &counts);
    }
    if (!counts.empty()) g.touched();
    auto out = new_array<int32_t>({py::ssize_t(counts.size())});
    std::copy(counts.begin(), counts.end(), out.mutable_data());
    return out;
  }, py::arg("game"), py::arg("max_actions"), py::arg("seed"));
  testing.def("legal_actions_reference", [](const Game& g) { GameLock lock(g);
    // The plain reference enumeration (slow; tests compare it with legal_actions).
    const int total = legal_actions_reference(g.state, nullptr, 0);
    auto out = new_array<int32_t>({total});
    legal_actions_reference(g.state, out.mutable_data(), total);
    return out;
  }, py::arg("game"));
  testing.def("checked_playout", [](Game& g, int max_actions, uint64_t seed) { GameLock lock(g);
    // Random play checking the legal list against the reference (and the state against a
    // full check of observed ids and every invariant) after every action.
    int checked;
    {
      py::gil_scoped_release release;
      checked = checked_playout(g.state, seed, max_actions, g.legal, &g.moves);
    }
    if (checked > 0) g.touched();
    return checked;
  }, py::arg("game"), py::arg("max_actions"), py::arg("seed"));
  testing.def("clone_benchmark", [](const Game& g, int iterations) { GameLock lock(g);
    // (ns per copy-assign, ns per copy-construct) of this game's state; single thread.
    if (iterations < 1) throw InvalidArgument("iterations must be >= 1");
    py::gil_scoped_release release;
    return clone_benchmark(g.state, iterations);
  }, py::arg("game"), py::arg("iterations"));
  // Test-only (tools/differential): impose the next ruins outcome (0 giant, 1 research,
  // 2 pop growth, 3 explorer, 4 resources; tech for research, else -1), as another engine drew it.
  testing.def("force_ruins", [](Game& g, int outcome, int tech) { GameLock lock(g);
    if (outcome < 0 || outcome >= kNumRuinsOutcomes) {
      throw py::value_error("ruins outcome must be 0.." + std::to_string(kNumRuinsOutcomes - 1));
    }
    if (tech < -1 || tech >= kNumTechs || (outcome == kRuinsResearch) != (tech >= 0)) {
      throw py::value_error("tech must be a tech index for the research outcome (1), else -1");
    }
    g.state.forced_ruins_outcome = int8_t(outcome);
    g.state.forced_ruins_tech = int8_t(tech);
  }, py::arg("game"), py::arg("outcome"), py::arg("tech"));
  // Test-only (polyenv.evaluation.java lockstep games): the next action's meeting draws [(player, tribe met, tech)]
  // and explorer steps [tiles] (None: the explorer draws its own) as another engine drew them; a
  // meeting without an entry draws as usual. Call with ([], None) after the action to clear them.
  testing.def("force_draws", [](Game& g, const std::vector<std::array<int, 3>>& meetings,
                               const std::optional<std::vector<int>>& explorer) { GameLock lock(g);
    GameState::ForcedDraws f;
    const int players = g.state.num_players;
    if (int(meetings.size()) > GameState::ForcedDraws::kMeetings) throw py::value_error("too many meetings");
    for (const auto& m : meetings) {
      if (m[0] < 0 || m[0] >= players || m[1] < 0 || m[1] >= players || m[0] == m[1] || m[2] < 0 ||
          m[2] >= kNumTechs) {
        throw py::value_error("a meeting is (player, another player, tech index)");
      }
      f.meeting[f.meetings++] = {int8_t(m[0]), int8_t(m[1]), int8_t(m[2])};
    }
    if (explorer) {
      if (int(explorer->size()) > kExplorerSteps) {
        throw py::value_error("an explorer takes at most " + std::to_string(kExplorerSteps) + " steps");
      }
      for (int t : *explorer) {
        if (t < 0 || t >= g.state.num_tiles) throw py::value_error("explorer step off the board");
      }
      f.explorer_steps = int8_t(explorer->size());
      std::copy(explorer->begin(), explorer->end(), f.explorer.begin());
    }
    g.state.forced_draws = f;
  }, py::arg("game"), py::arg("meetings"), py::arg("explorer"));
  // Test-only (polyenv.evaluation.java lockstep games): give a field the value another engine has where a known
  // difference between the two explains it (engine/game.hpp, impose_value).
  testing.def("impose", [](Game& g, const std::string& field, int index, int value) { GameLock lock(g);
    impose_value(g.state, field, index, value);
    g.touched();
  }, py::arg("game"), py::arg("field"), py::arg("index"), py::arg("value"));
  // Test-only: the current player's baseline-belief world (players/observer_world.hpp), as the
  // "az" player builds it under fog: (reproduces the live legal list, the completed and fitted
  // tokens [tiles, 23], the built world's map tokens for that player [tiles, 23] or None).
  testing.def("observer_world", [](const Game& g, uint64_t seed) { GameLock lock(g);
    if (g.state.game_over) throw py::value_error("the game is over: there is no player to move");
    ObserverWorldScratch sc;
    GameState world;
    bool ok;
    {
      py::gil_scoped_release release;
      ok = observer_world(g.state, seed, sc, world);
    }
    const int T = g.state.num_tiles;
    auto tokens = new_array<int32_t>({T, kMapTokenFeatures});
    std::copy(sc.tokens.begin(), sc.tokens.begin() + ptrdiff_t(T) * kMapTokenFeatures, tokens.mutable_data());
    py::object seen = py::none();
    if (ok) {
      auto view = new_array<int32_t>({T, kMapTokenFeatures});
      encode_map_tokens(world, world.current_player, view.mutable_data());
      seen = view;
    }
    return py::make_tuple(ok, tokens, seen);
  }, py::arg("game"), py::arg("seed") = 0);
}

}  // namespace polyenv::python
