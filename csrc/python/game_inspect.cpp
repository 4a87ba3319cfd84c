// Inspection of a polyenv._core.Game (game_class.hpp): readable dicts of a tile, a unit, a
// city and a player (GameEnv.tile, unit_at, city_at, player), tech costs, income, combat
// previews and scores.
#include <pybind11/stl.h>

#include <vector>

#include "../encode/encode.hpp"
#include "game_class.hpp"

namespace polyenv::python {

namespace {

py::dict unit_dict(const GameState& s, const Unit& u) {
  py::dict d;
  d["type"] = kUnits[u.type].name;
  d["owner"] = int(u.owner);
  d["hp"] = int(u.hp);
  d["max_hp"] = int(u.max_hp);
  d["status"] = kUnitStatusNames[u.status];
  d["kills"] = int(u.kills);
  d["veteran"] = bool(u.veteran);
  d["home_city"] = u.home_city >= 0 ? int(s.cities[u.home_city].tile) : -1;
  d["carried"] = u.land_type >= 0 ? py::object(py::str(kUnits[u.land_type].name)) : py::object(py::none());
  d["uid"] = u.uid;
  return d;
}

py::dict city_dict(const GameState& s, int c) {
  const City& city = s.cities[c];
  py::dict d;
  d["owner"] = int(city.owner);
  d["level"] = int(city.level);
  d["population"] = int(city.population);
  d["need"] = city.level + 1;
  d["walls"] = city.walls();
  d["capital"] = city.capital();
  d["production"] = city_production(s, c);
  d["bound"] = int(city.bound);
  d["workshops"] = int(city.workshops);
  d["parks"] = int(city.parks);
  d["supported"] = int(city.supported);
  d["worth"] = city.worth;
  d["connected"] = bool(city.connected);
  d["tile"] = int(city.tile);
  return d;
}

py::dict player_dict(const GameState& s, int p) {
  const Player& pl = s.players[p];
  py::list techs, met;
  for (int t = 0; t < kNumTechs; ++t) if (pl.has(t)) techs.append(kTechs[t].name);
  for (int q = 0; q < s.num_players; ++q) if ((pl.met >> q) & 1u) met.append(q);
  py::list monuments;
  for (int m = 0; m < kNumMonuments; ++m) if ((pl.monuments_available >> m) & 1u) monuments.append(kBuildings[kFirstMonument + m].name);
  py::list allegiance;
  for (int q = 0; q < s.num_players; ++q) allegiance.append(int(pl.allegiance[q]));
  py::dict d;
  d["tribe"] = kTribes[pl.tribe].name;
  d["tribe_key"] = int(pl.tribe);
  d["stars"] = pl.stars;
  d["score"] = pl.score;
  d["techs"] = techs;
  d["kills"] = int(pl.kills);
  d["num_cities"] = int(pl.num_cities);
  d["alive"] = bool(pl.alive);
  d["result"] = pl.result == kWin ? "win" : pl.result == kLoss ? "loss" : "playing";
  d["capital"] = pl.capital_city >= 0 ? int(s.cities[pl.capital_city].tile) : -1;
  d["met"] = met;
  d["monuments_available"] = monuments;
  d["allegiance"] = allegiance;
  d["wars_declared"] = int(pl.wars_declared);
  d["stars_sent"] = pl.stars_sent;
  d["connected_cities"] = int(pl.connected_cities);
  return d;
}

py::dict tile_dict(const GameState& s, int t) {
  const Tile& tile = s.tiles[t];
  py::list explored;
  for (int p = 0; p < s.num_players; ++p) explored.append(tile_explored(s, p, t));
  py::dict d;
  d["terrain"] = kTerrainNames[tile.terrain];
  d["resource"] = tile.resource >= 0 ? py::object(py::str(kResourceNames[tile.resource])) : py::object(py::none());
  d["building"] = tile.building >= 0 ? py::object(py::str(kBuildings[tile.building].name)) : py::object(py::none());
  d["building_level"] = int(tile.building_level);
  d["road"] = bool(tile.road);
  d["owner"] = s.tile_owner(t);
  d["city"] = tile.city >= 0 ? int(s.cities[tile.city].tile) : -1;
  d["explored"] = explored;
  return d;
}

}  // namespace

void def_game_inspection(GameClass& c) {
  c.def("tile", [](const Game& g, int t) { GameLock lock(g); check_tile(g, t); return tile_dict(g.state, t); }, py::arg("tile"))
      .def("unit_at", [](const Game& g, int t) -> py::object { GameLock lock(g);
        check_tile(g, t);
        const Unit* u = g.state.unit_at(t);
        return u ? py::object(unit_dict(g.state, *u)) : py::object(py::none());
      }, py::arg("tile"))
      .def("city_at", [](const Game& g, int t) -> py::object { GameLock lock(g);
        check_tile(g, t);
        int c = g.state.tiles[t].city;
        if (c < 0 || g.state.cities[c].tile != t) return py::none();
        return city_dict(g.state, c);
      }, py::arg("tile"))
      .def("player", [](const Game& g, int p) { GameLock lock(g); check_player(g, p); return player_dict(g.state, p); }, py::arg("player"))
      .def("tech_cost", [](const Game& g, int p, int tech) { GameLock lock(g);
        check_player(g, p);
        if (tech < 0 || tech >= kNumTechs) throw py::index_error("tech out of range");
        return tech_cost(g.state, p, tech);
      }, py::arg("player"), py::arg("tech"))
      .def("income", [](const Game& g, int p) { GameLock lock(g); check_player(g, p); return star_income(g.state, p); }, py::arg("player"))
      .def("combat_preview", [](const Game& g, int a, int d) { GameLock lock(g);
        check_tile(g, a); check_tile(g, d);
        CombatOutcome o = combat_preview(g.state, a, d);
        return py::make_tuple(o.dealt, o.retaliation, o.kills, o.counter);
      }, py::arg("attacker"), py::arg("defender"))
      .def("scores", [](const Game& g) { GameLock lock(g);
        std::vector<int> out;
        for (const Player& p : g.state.players) out.push_back(p.score);
        return out;
      })
      .def("score_margin", [](const Game& g, int p) { GameLock lock(g); check_player(g, p); return score_margin(g.state, p); }, py::arg("player"))
      .def("check_invariants", [](const Game& g) { GameLock lock(g); return check_invariants(g.state); })
      .def("ranking", [](const Game& g) { GameLock lock(g); return ranking(g.state); });
}

}  // namespace polyenv::python
