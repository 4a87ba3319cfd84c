// polyenv._core.Game: the native half of polyenv.GameEnv. Arguments arrive
// already converted to ints by polyenv/game_env.py; everything is validated
// here (or in the engine) before any change. This file binds a Game's
// construction, serialization, play, action ids and properties; game_class.hpp
// names the files that bind the rest.
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../engine/playout.hpp"
#include "config_args.hpp"
#include "game_class.hpp"

namespace polyenv::python {

namespace {

// A new game whose episodes come from `source`, started at episode `seed` (`setup` sets what the
// episode itself does not, e.g. auto_end_turn, before the first episode starts).
template <class Setup>
std::unique_ptr<Game> make_game(EpisodeSource source, uint64_t seed, Setup&& setup) {
  auto g = std::make_unique<Game>();
  g->source = std::move(source);
  setup(*g);
  g->new_episode(seed);
  return g;
}

void def_construction(GameClass& c) {
  c.def_static("generated", [](int map_size, std::vector<int8_t> tribes, int mode, int max_turns, bool full_obs,
                               bool auto_end, uint64_t seed) {
         return make_game(EpisodeSource::generated(game_config(map_size, std::move(tribes), mode, max_turns, full_obs)),
                          seed, [&](Game& g) { g.state.auto_end_turn = auto_end; });
       }, POLYENV_GAME_ARGS, py::arg("auto_end"), py::arg("seed"))
      .def_static("from_level", [](const std::string& csv, std::vector<int8_t> tribes, int mode, int max_turns,
                                   bool full_obs, bool auto_end, uint64_t seed) {
        Level level = parse_level_csv(csv);
        GameConfig config = game_config(level.size, std::move(tribes), mode, max_turns, full_obs);
        return make_game(EpisodeSource::of_level(std::move(level), std::move(config)), seed,
                         [&](Game& g) { g.state.auto_end_turn = auto_end; });
      }, py::arg("csv"), POLYENV_GAME_RULE_ARGS, py::arg("auto_end"), py::arg("seed"))
      .def_static("blank", [](int map_size, std::vector<int8_t> tribes, int mode, int max_turns, bool full_obs,
                              int terrain, uint64_t seed, bool revealed) {
        return make_game(
            EpisodeSource::blank(game_config(map_size, std::move(tribes), mode, max_turns, full_obs), terrain, revealed),
            seed, [](Game&) {});
      }, POLYENV_GAME_ARGS, py::arg("terrain"), py::arg("seed"), py::arg("revealed"))
      .def_static("from_bytes", [](py::bytes data) {
        auto g = std::make_unique<Game>();
        deserialize(g->state, std::string_view(data));
        const GameState& s = g->state;
        std::vector<int8_t> tribes;
        for (const Player& p : s.players) tribes.push_back(p.tribe);
        g->source = EpisodeSource::generated(game_config(s.map_size, tribes, s.mode, s.turn_limit, s.full_observability));
        g->journal.configure(s.num_players, 0);
        g->new_episode_id();
        g->touched();
        return g;
      }, py::arg("data"))
      .def("reset", [](Game& g, uint64_t seed) { GameLock lock(g); g.new_episode(seed); }, py::arg("seed"))
      .def("clone", [](const Game& g) { GameLock lock(g);
        auto copy = std::make_unique<Game>(g);
        copy->new_state_id();  // a clone is a new live position
        return copy;
      });
}

void def_serialization(GameClass& c) {
  c.def("load_bytes", [](Game& g, py::bytes data) { GameLock lock(g);
         // Replaces the position, keeping this object's source (level, blank board) for reset().
         GameState loaded;
         deserialize(loaded, std::string_view(data));
         if (loaded.num_players != g.state.num_players || loaded.map_size != g.state.map_size) {
           throw InvalidArgument("the saved game has another board size or player count");
         }
         g.state = std::move(loaded);
         g.journal.configure(g.state.num_players, 0);
         g.touched();
       }, py::arg("data"))
      .def("to_bytes", [](const Game& g) { GameLock lock(g); return py::bytes(serialize(g.state)); })
      .def("equals", [](const Game& a, const Game& b) {
        GameState copy;
        {
          GameLock lock(a);  // one lock at a time: no lock-order deadlock between a.equals(b) and b.equals(a)
          copy = a.state;
        }
        GameLock lock(b);
        return copy == b.state;
      }, py::arg("other"))
      .def("journal_bytes", [](const Game& g) { GameLock lock(g); return py::bytes(g.journal.to_bytes()); })
      .def("load_journal", [](Game& g, py::bytes data) { GameLock lock(g);
        // Parsed and checked completely before the journal is replaced.
        g.journal.load_bytes(std::string_view(data));
      }, py::arg("data"));
}

void def_play(GameClass& c) {
  c.def("legal_actions", [](Game& g) { GameLock lock(g);
         const int total = g.legal_now();
         auto out = new_array<int32_t>({total});
         std::copy(g.legal.begin(), g.legal.begin() + total, out.mutable_data());
         return out;
       })
      .def("is_legal", [](Game& g, int64_t id) { GameLock lock(g);
        if (id < 0 || id >= action_space(g.state).size()) return false;
        const int total = g.legal_now();
        return std::binary_search(g.legal.begin(), g.legal.begin() + total, int32_t(id));
      }, py::arg("action"))
      .def("step", [](Game& g, int64_t id) { GameLock lock(g);
        g.apply_checked(id, &g.journal);
        g.new_state_id();
      }, py::arg("action"))
      .def("playout", [](Game& g, int max_actions, uint64_t seed, bool record_events) { GameLock lock(g);
        int applied;
        {
          py::gil_scoped_release release;
          applied = random_playout(g.state, seed, max_actions, g.legal, &g.moves, record_events ? &g.journal : nullptr);
        }
        if (applied > 0) g.touched();
        return applied;
      }, py::arg("max_actions"), py::arg("seed"), py::arg("record_events"));
}

void def_action_ids(GameClass& c) {
  c.def("describe_action", [](const Game& g, int64_t id) { GameLock lock(g);
         if (id < 0 || id >= action_space(g.state).size()) throw py::index_error("action id out of range");
         return describe_action(g.state, int32_t(id));
       }, py::arg("action"))
      .def("encode_action", [](const Game& g, int block, int source, int target, int arg, int amount) { GameLock lock(g);
        Action a;
        a.block = ActionBlock(block);
        a.source = int16_t(source); a.target = int16_t(target); a.arg = int16_t(arg); a.amount = int16_t(amount);
        int32_t id = action_space(g.state).encode(a);
        if (id < 0) throw InvalidArgument("that target is outside the 7x7 attack window");
        return id;
      }, py::arg("block"), py::arg("source"), py::arg("target"), py::arg("arg"), py::arg("amount"))
      .def("decode_action", [](const Game& g, int64_t id) { GameLock lock(g);
        if (id < 0 || id >= action_space(g.state).size()) throw py::index_error("action id out of range");
        Action a = action_space(g.state).decode(int32_t(id));
        return py::make_tuple(int(a.block), int(a.source), int(a.target), int(a.arg), int(a.amount));
      }, py::arg("action"));
}

void def_properties(GameClass& c) {
  c.def_property_readonly("map_size", [](const Game& g) { GameLock lock(g); return int(g.state.map_size); })
      .def_property_readonly("num_players", [](const Game& g) { GameLock lock(g); return int(g.state.num_players); })
      .def_property_readonly("num_tiles", [](const Game& g) { GameLock lock(g); return int(g.state.num_tiles); })
      .def_property_readonly("current_player", [](const Game& g) { GameLock lock(g); return int(g.state.current_player); })
      .def_property_readonly("turn", [](const Game& g) { GameLock lock(g); return g.state.tick; })
      .def_property_readonly("game_over", [](const Game& g) { GameLock lock(g); return bool(g.state.game_over); })
      .def_property_readonly("winner", [](const Game& g) { GameLock lock(g); return int(g.state.winner); })
      .def_property_readonly("state_id", [](const Game& g) { GameLock lock(g); return g.state_id; })
      .def_property_readonly("episode_id", [](const Game& g) { GameLock lock(g); return g.episode_id; })
      .def_property_readonly("seed", [](const Game& g) { GameLock lock(g); return g.seed; })
      .def_property_readonly("actions_applied", [](const Game& g) { GameLock lock(g); return g.state.actions_applied; })
      .def_property_readonly("action_space_size", [](const Game& g) { GameLock lock(g); return action_space(g.state).size(); })
      .def_property_readonly("action_space_fingerprint", [](const Game& g) { GameLock lock(g); return action_space(g.state).fingerprint(); })
      .def_property_readonly("full_observability", [](const Game& g) { GameLock lock(g); return bool(g.state.full_observability); })
      .def_property_readonly("mode", [](const Game& g) { GameLock lock(g); return int(g.state.mode); })
      .def_property_readonly("turn_limit", [](const Game& g) { GameLock lock(g); return int(g.state.turn_limit); })
      .def_property_readonly("pending_level_up", [](const Game& g) -> py::object { GameLock lock(g);
        const GameState& s = g.state;
        if (s.pending_city < 0) return py::none();
        const City& c = s.cities[s.pending_city];
        return py::make_tuple(int(c.tile), kRewardNames[reward_a(c.level + 1)], kRewardNames[reward_b(c.level + 1)]);
      })
      .def_property_readonly("level_csv", [](const Game& g) -> py::object { GameLock lock(g);
        if (g.source.kind != EpisodeSource::Kind::kLevel) return py::none();
        return py::str(level_to_csv(g.source.level));
      });
}

}  // namespace

void init_game(py::module_& m) {
  GameClass c(m, "Game", "Native game (use polyenv.GameEnv)");
  def_construction(c);
  def_serialization(c);
  def_play(c);
  def_action_ids(c);
  def_game_observation(c);
  def_game_inspection(c);
  def_game_edits(c);
  def_properties(c);
}

}  // namespace polyenv::python
