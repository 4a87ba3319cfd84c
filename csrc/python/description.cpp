// The static game description (csrc/encode/description.hpp) as
// _core.GameDescription, the player-count rule, and the engine's elimination
// record of a live game (what the PettingZoo env terminates agents by).
#include <pybind11/stl.h>

#include "../encode/description.hpp"
#include "../encode/layout.hpp"
#include "bindings.hpp"
#include "config_args.hpp"
#include "game_handle.hpp"

namespace polyenv::python {

namespace {

template <class Names>
py::dict columns(const Names& names) {
  py::dict d;
  for (size_t i = 0; i < names.size(); ++i) d[py::str(names[i])] = int(i);
  return d;
}

template <size_t N>
py::dict flags(const std::array<TokenFlag, N>& table) {
  py::dict d;
  for (const TokenFlag& f : table) d[py::str(f.name)] = int(f.bit);
  return d;
}

template <size_t N>
py::tuple bounds(const std::array<ColumnRange, N>& ranges) {
  auto low = new_array<int32_t>({py::ssize_t(N)}), high = new_array<int32_t>({py::ssize_t(N)});
  for (size_t i = 0; i < N; ++i) {
    low.mutable_at(i) = ranges[i].low;
    high.mutable_at(i) = ranges[i].high;
  }
  return py::make_tuple(low, high);
}

template <size_t N>
py::tuple reasons(const std::array<ColumnRange, N>& ranges) {
  py::tuple t(N);
  for (size_t i = 0; i < N; ++i) t[i] = py::str(ranges[i].why);
  return t;
}

}  // namespace

void init_description(py::module_& m) {
  m.attr("MIN_PLAYERS") = kMinPlayers;
  static const std::string check_doc = "Raises ValueError unless " + std::to_string(kMinPlayers) +
                                       " <= players <= " + std::to_string(kMaxPlayers) +
                                       " (the engine's one player-count rule).";
  m.def("check_player_count", [](int players) { check_player_count(players); }, py::arg("players"),
        check_doc.c_str());

  using D = GameDescription;
  // The column-name tuples init_constants exported (generated from the column tables of encode/layout.hpp).
  const py::tuple tokens = m.attr("MAP_TOKEN_FEATURE_NAMES"), state = m.attr("STATE_FEATURE_NAMES"),
                  features = m.attr("ACTION_FEATURE_NAMES"), arg_mask = m.attr("ACTION_ARG_MASK_NAMES");
  py::class_<D> cls(m, "GameDescription",
                    "The static facts of a game configuration, computed without building a game: sizes, the "
                    "action-id layout, the turn limit, the column layouts with their flag bits and value ranges. "
                    "Build it with polyenv.game_description(...).");
  cls.attr("MIN_PLAYERS") = kMinPlayers;
  cls.attr("MAX_PLAYERS") = kMaxPlayers;
  cls.def_readonly("map_size", &D::map_size, "Board side N.")
      .def_readonly("num_players", &D::num_players, "Number of players.")
      .def_readonly("num_tiles", &D::num_tiles, "N * N.")
      .def_property_readonly("mode", [](const D& d) { return d.mode == kScore ? "score" : "capitals"; },
                             "\"capitals\" or \"score\".")
      .def_readonly("turn_limit", &D::turn_limit, "Last round played before the game ends (§12.2).")
      .def_readonly("full_observability", &D::full_observability, "False when fog of war is on.")
      .def_readonly("max_actions", &D::max_actions, "Padded legal-action rows of an observation.")
      .def_readonly("action_space_size", &D::action_space_size, "Number of stable action ids.")
      .def_readonly("action_space_fingerprint", &D::action_space_fingerprint,
                    "Fingerprint of the action-id layout (map size, players, version).")
      .def_property_readonly("action_blocks", [](const D& d) {
        py::dict out;
        for (int b = 0; b < kNumBlocks; ++b) {
          const ActionBlockInfo& info = d.blocks[b];
          py::dict block;
          block["index"] = b; block["offset"] = info.offset; block["size"] = info.size;
          block["uses_source"] = info.uses_source; block["uses_target"] = info.uses_target;
          out[py::str(info.name)] = block;
        }
        return out;
      }, "{block name: {index, offset, size, uses_source, uses_target}} in id order (blocks are contiguous).")
      .def_property_readonly("action_kinds", [](const D&) {
        py::dict out;
        for (int k = 0; k < kNumActionKinds; ++k) {
          const ActionKindLayout layout = action_kind_layout(k);
          out[py::str(kActionKindNames[k])] = py::make_tuple(layout.block, layout.arg);
        }
        return out;
      }, "{action kind: (block index, fixed arg within the block or -1)}; the same for every configuration.")
      .def_property_readonly("map_token_features", [tokens](const D&) { return tokens; },
                             "Names of the map-token columns (MAP_TOKEN_FEATURE_NAMES).")
      .def_property_readonly("state_features", [state](const D&) { return state; },
                             "Names of the state columns (STATE_FEATURE_NAMES).")
      .def_property_readonly("action_features", [features](const D&) { return features; },
                             "Names of the action-feature columns (ACTION_FEATURE_NAMES).")
      .def_property_readonly("action_arg_mask_features", [arg_mask](const D&) { return arg_mask; },
                             "Names of the action-arg-mask columns (ACTION_ARG_MASK_NAMES).")
      .def_property_readonly("map_token_columns", [](const D&) { return columns(kMapTokenFeatureNames); },
                             "{map-token column name: index}.")
      .def_property_readonly("state_columns", [](const D&) { return columns(kStateFeatureNames); },
                             "{state column name: index}.")
      .def_property_readonly("action_feature_columns", [](const D&) { return columns(kActionFeatureNames); },
                             "{action-feature column name: index}.")
      .def_property_readonly("city_flags", [](const D&) { return flags(kCityTokenFlags); },
                             "{flag: bit} of the city_flags map-token column.")
      .def_property_readonly("unit_flags", [](const D&) { return flags(kUnitTokenFlags); },
                             "{flag: bit} of the unit_flags map-token column.")
      .def_property_readonly("map_token_bounds", [](const D& d) { return bounds(d.map_token_ranges); },
                             "(low, high) int32 [23]: the value range of every map-token column.")
      .def_property_readonly("state_bounds", [](const D& d) { return bounds(d.state_ranges); },
                             "(low, high) int32 [11]: the value range of every state column.")
      .def_property_readonly("action_feature_bounds", [](const D& d) { return bounds(d.action_feature_ranges); },
                             "(low, high) int32 [17]: the value range of every action-feature column.")
      .def_property_readonly("bound_reasons", [](const D& d) {
        py::dict out;
        out["map_tokens"] = reasons(d.map_token_ranges);
        out["state"] = reasons(d.state_ranges);
        out["action_features"] = reasons(d.action_feature_ranges);
        return out;
      }, "{layout: the rule (a section of the rules, §) or storage type behind each column's range}.")
      .def("__repr__", [](const D& d) {
        return "GameDescription(map_size=" + std::to_string(d.map_size) + ", num_players=" +
               std::to_string(d.num_players) + ", turn_limit=" + std::to_string(d.turn_limit) +
               ", action_space_size=" + std::to_string(d.action_space_size) + ")";
      });

  m.def("describe_config", &describe_config, py::arg("map_size"), py::arg("num_players"), py::arg("mode"),
        py::arg("max_turns"), py::arg("full_observability"), py::arg("max_actions"),
        py::arg("single_tribe_level") = false, "The description of a generated map (ValueError for a bad config).");
  m.def("describe_level", [](const std::string& csv, std::vector<int8_t> tribes, int mode, int max_turns,
                             bool full_observability, int max_actions) {
    return describe_level(csv, tribes, mode, max_turns, full_observability, max_actions);
  }, py::arg("csv"), POLYENV_GAME_RULE_ARGS, py::arg("max_actions"), "The description of a game on a Tribes CSV level (parsed and checked, not played).");

  // The players the engine has eliminated (lost their last city), as a bit mask.
  auto game = py::reinterpret_borrow<py::class_<Game>>(m.attr("Game"));
  game.def_property_readonly("eliminated_mask", [](const Game& g) {
    GameLock lock(g);
    return eliminated_mask(g.state);
  });
}

}  // namespace polyenv::python
