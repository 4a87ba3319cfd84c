// game_class.hpp — the binding of polyenv._core.Game, split by concept over several files:
// game.cpp (construction, play, serialization, properties), game_observe.cpp (observations
// and the event journal), game_inspect.cpp (readable dicts of tiles, units, cities and
// players; scores) and game_edits.cpp (scenario edits).
#pragma once
#include <string>

#include "bindings.hpp"
#include "game_handle.hpp"

namespace polyenv::python {

using GameClass = py::class_<Game>;

void def_game_observation(GameClass& c);  // game_observe.cpp
void def_game_inspection(GameClass& c);   // game_inspect.cpp
void def_game_edits(GameClass& c);        // game_edits.cpp

inline void check_tile(const Game& g, int tile) {
  if (tile < 0 || tile >= g.state.num_tiles) {
    throw py::index_error("tile " + std::to_string(tile) + " is outside the board");
  }
}

inline void check_player(const Game& g, int player) {
  if (player < 0 || player >= g.state.num_players) {
    throw py::index_error("player " + std::to_string(player) + " is outside 0.." +
                          std::to_string(g.state.num_players - 1));
  }
}

}  // namespace polyenv::python
