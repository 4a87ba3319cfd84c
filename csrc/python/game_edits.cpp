// Scenario edits of a polyenv._core.Game (game_class.hpp): terrain, resources, units, cities,
// buildings, roads, techs, stars, revealed tiles and the player to move. The engine checks
// each edit (engine/scenario.cpp); touched() marks the position as changed.
#include <pybind11/stl.h>

#include <vector>

#include "game_class.hpp"

namespace polyenv::python {

void def_game_edits(GameClass& c) {
  c.def("set_terrain", [](Game& g, int t, int terrain) { GameLock lock(g); edit_set_terrain(g.state, t, terrain); g.touched(); }, py::arg("tile"), py::arg("terrain"))
      .def("set_resource", [](Game& g, int t, int r) { GameLock lock(g); edit_set_resource(g.state, t, r); g.touched(); }, py::arg("tile"), py::arg("resource"))
      .def("place_unit", [](Game& g, int player, int type, int t, int hp, bool veteran, int kills, int status, int carried) { GameLock lock(g);
        edit_place_unit(g.state, player, type, t, hp, veteran, kills, status, carried);
        g.touched();
      }, py::arg("player"), py::arg("type"), py::arg("tile"), py::arg("hp"), py::arg("veteran"), py::arg("kills"), py::arg("status"), py::arg("carried"))
      .def("place_city", [](Game& g, int player, int t, int level, int pop, bool walls, bool capital) { GameLock lock(g);
        edit_place_city(g.state, player, t, level, pop, walls, capital);
        g.touched();
      }, py::arg("player"), py::arg("tile"), py::arg("level"), py::arg("population"), py::arg("walls"), py::arg("capital"))
      .def("set_building", [](Game& g, int t, int b, bool with_effects) { GameLock lock(g);
        edit_set_building(g.state, t, b, with_effects);
        g.touched();
      }, py::arg("tile"), py::arg("building"), py::arg("with_effects"))
      .def("set_population", [](Game& g, int t, int pop) { GameLock lock(g); edit_set_population(g.state, t, pop); g.touched(); }, py::arg("tile"), py::arg("population"))
      .def("set_road", [](Game& g, int t) { GameLock lock(g); edit_set_road(g.state, t); g.touched(); }, py::arg("tile"))
      .def("grant_tech", [](Game& g, int p, int tech) { GameLock lock(g); edit_grant_tech(g.state, p, tech); g.touched(); }, py::arg("player"), py::arg("tech"))
      .def("set_stars", [](Game& g, int p, int n) { GameLock lock(g); edit_set_stars(g.state, p, n); g.touched(); }, py::arg("player"), py::arg("stars"))
      .def("reveal", [](Game& g, int p, std::vector<int> tiles) { GameLock lock(g); edit_reveal(g.state, p, tiles); g.touched(); }, py::arg("player"), py::arg("tiles"))
      .def("set_current_player", [](Game& g, int p) { GameLock lock(g); edit_set_current_player(g.state, p); g.touched(); }, py::arg("player"))
      .def("remove_unit", [](Game& g, int t) { GameLock lock(g); edit_remove_unit(g.state, t); g.touched(); }, py::arg("tile"));
}

}  // namespace polyenv::python
