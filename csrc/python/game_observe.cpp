// Observations of a polyenv._core.Game (game_class.hpp): one player's tensors (map tokens,
// state, action rows), the board alone, the full map, and a player's visible events.
#include <pybind11/stl.h>

#include <algorithm>
#include <string>

#include "../encode/encode.hpp"
#include "game_class.hpp"

namespace polyenv::python {

namespace {

py::dict observe(Game& g, int player, int max_actions, bool combat_preview) {
  const GameState& s = g.state;
  const int tiles = s.num_tiles;
  auto tokens = new_array<int32_t>({tiles, kMapTokenFeatures});
  auto state = new_array<int32_t>({kStateFeatures});
  // Without a row capacity the rows are exactly the legal list (computed once).
  const bool exact = max_actions < 0;
  const bool acting = player == s.current_player && !s.game_over;
  int rows = max_actions;
  if (exact) rows = acting ? g.legal_now() : 0;
  auto ids = new_array<int32_t>({rows});
  auto features = new_array<int32_t>({rows, kActionFeatures});
  auto arg_mask = new_array<uint8_t>({rows, kActionArgFeatures});
  auto mask = new_array<uint8_t>({rows});
  ActionRows result;
  {
    py::gil_scoped_release release;
    encode_map_tokens(s, player, tokens.mutable_data());
    encode_state(s, player, state.mutable_data());
    if (exact) {
      std::copy(g.legal.begin(), g.legal.begin() + rows, ids.mutable_data());
      encode_listed_rows(s, player, rows, combat_preview, ids.data(), features.mutable_data(), arg_mask.mutable_data(),
                         mask.mutable_data());
      result.rows = result.total = rows;
    } else {
      result = encode_action_rows(s, player, rows, combat_preview, ids.mutable_data(), features.mutable_data(),
                                  arg_mask.mutable_data(), mask.mutable_data(), &g.moves);
    }
  }
  py::dict d;
  d["map_tokens"] = tokens;
  d["state"] = state;
  d["action_id"] = ids;
  d["action_features"] = features;
  d["action_arg_mask"] = arg_mask;
  d["action_mask"] = mask;
  d["legal_action_count"] = result.rows;
  d["total_legal_action_count"] = result.total;
  d["action_truncated"] = result.truncated;
  return d;
}

auto visible_events(const Game& g, int player, int64_t cursor) {
  const int n = g.journal.rows_after(player, cursor);
  auto features = new_array<int32_t>({n, kEventFeatures});
  auto affected = new_array<int32_t>({n, kEventAffectedRows, kEventAffectedFeatures});
  auto affected_mask = new_array<uint8_t>({n, kEventAffectedRows});
  auto sequence = new_array<uint64_t>({n});
  auto action_sequence = new_array<uint64_t>({n});
  {
    py::gil_scoped_release release;
    g.journal.write_rows(player, int(cursor), n,
                         EventRowsOut{features.mutable_data(), affected.mutable_data(), affected_mask.mutable_data(),
                                      sequence.mutable_data(), action_sequence.mutable_data()});
  }
  py::dict d;
  d["features"] = features;
  d["affected"] = affected;
  d["affected_mask"] = affected_mask;
  d["sequence"] = sequence;
  d["action_sequence"] = action_sequence;
  return py::make_tuple(d, g.journal.kept(player));
}

}  // namespace

void def_game_observation(GameClass& c) {
  c.def("observe", [](Game& g, int player, int max_actions, bool combat_preview) { GameLock lock(g);
        check_player(g, player);
        return observe(g, player, max_actions, combat_preview);
      }, py::arg("player"), py::arg("max_actions"), py::arg("combat_preview"))
      .def("observe_board", [](const Game& g, int player) { GameLock lock(g);
        // map_tokens and state only: no action rows, no legal-action enumeration.
        check_player(g, player);
        auto tokens = new_array<int32_t>({g.state.num_tiles, kMapTokenFeatures});
        auto state = new_array<int32_t>({kStateFeatures});
        {
          py::gil_scoped_release release;
          encode_map_tokens(g.state, player, tokens.mutable_data());
          encode_state(g.state, player, state.mutable_data());
        }
        return py::make_tuple(tokens, state);
      }, py::arg("player"))
      .def("full_map", [](const Game& g) { GameLock lock(g);
        GameState open = g.state;
        open.full_observability = 1;
        auto tokens = new_array<int32_t>({open.num_tiles, kMapTokenFeatures});
        encode_map_tokens(open, open.current_player, tokens.mutable_data());
        return tokens;
      })
      .def("visible_events", [](const Game& g, int player, int64_t cursor) { GameLock lock(g);
        check_player(g, player);
        return visible_events(g, player, cursor);
      }, py::arg("player"), py::arg("cursor"));
}

}  // namespace polyenv::python
