// polyenv._core.Game: the native half of polyenv.GameEnv. Arguments arrive
// already converted to ints by polyenv/game_env.py; everything is validated
// here (or in the engine) before any change.
#include <pybind11/stl.h>

#include <array>
#include <optional>

#include <cstring>
#include <algorithm>
#include <string>
#include <utility>

#include "../encode/encode.hpp"
#include "../engine/counter_limits.hpp"
#include "../engine/ids.hpp"
#include "../engine/playout.hpp"
#include "bindings.hpp"
#include "config_args.hpp"
#include "game_handle.hpp"

namespace polyenv::python {

namespace {

void check_tile(const Game& g, int tile) {
  if (tile < 0 || tile >= g.state.num_tiles) {
    throw py::index_error("tile " + std::to_string(tile) + " is outside the board");
  }
}
void check_player(const Game& g, int player) {
  if (player < 0 || player >= g.state.num_players) {
    throw py::index_error("player " + std::to_string(player) + " is outside 0.." + std::to_string(g.state.num_players - 1));
  }
}

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

void init_game(py::module_& m) {
  py::class_<Game>(m, "Game", "Native game (use polyenv.GameEnv)")
      .def_static("generated", [](int map_size, std::vector<int8_t> tribes, int mode, int max_turns, bool full_obs,
                                  bool auto_end, uint64_t seed) {
        auto g = std::make_unique<Game>();
        g->source = EpisodeSource::generated(game_config(map_size, tribes, mode, max_turns, full_obs));
        g->state.auto_end_turn = auto_end;
        g->new_episode(seed);
        return g;
      }, py::arg("map_size"), py::arg("tribes"), py::arg("mode"), py::arg("max_turns"), py::arg("full_observability"), py::arg("auto_end"), py::arg("seed"))
      .def_static("from_level", [](const std::string& csv, std::vector<int8_t> tribes, int mode, int max_turns,
                                   bool full_obs, bool auto_end, uint64_t seed) {
        auto g = std::make_unique<Game>();
        Level level = parse_level_csv(csv);
        GameConfig config = game_config(level.size, tribes, mode, max_turns, full_obs);
        g->source = EpisodeSource::of_level(std::move(level), std::move(config));
        g->state.auto_end_turn = auto_end;
        g->new_episode(seed);
        return g;
      }, py::arg("csv"), py::arg("tribes"), py::arg("mode"), py::arg("max_turns"), py::arg("full_observability"), py::arg("auto_end"), py::arg("seed"))
      .def_static("blank", [](int map_size, std::vector<int8_t> tribes, int terrain, int mode, int max_turns,
                              uint64_t seed, bool revealed, bool full_obs) {
        auto g = std::make_unique<Game>();
        g->source = EpisodeSource::blank(game_config(map_size, tribes, mode, max_turns, full_obs), terrain, revealed);
        g->new_episode(seed);
        return g;
      }, py::arg("map_size"), py::arg("tribes"), py::arg("terrain"), py::arg("mode"), py::arg("max_turns"), py::arg("seed"), py::arg("revealed"), py::arg("full_observability"))
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
      .def("load_bytes", [](Game& g, py::bytes data) { GameLock lock(g);
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
      .def("clone", [](const Game& g) { GameLock lock(g);
        auto c = std::make_unique<Game>(g);
        c->new_state_id();  // a clone is a new live position
        return c;
      })
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
      .def("legal_actions", [](Game& g) { GameLock lock(g);
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
      }, py::arg("max_actions"), py::arg("seed"), py::arg("record_events"))
      .def("observe", [](Game& g, int player, int max_actions, bool combat_preview) { GameLock lock(g);
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
      .def("describe_action", [](const Game& g, int64_t id) { GameLock lock(g);
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
      }, py::arg("action"))
      .def("visible_events", [](const Game& g, int player, int64_t cursor) { GameLock lock(g);
        check_player(g, player);
        const int64_t kept = g.journal.kept(player);
        if (cursor < 0 || cursor > kept) {
          throw py::index_error("cursor " + std::to_string(cursor) + " is outside 0.." + std::to_string(kept));
        }
        const py::ssize_t n = py::ssize_t(kept - cursor);
        auto features = new_array<int32_t>({n, kEventFeatures});
        auto affected = new_array<int32_t>({n, kEventAffectedRows, kEventAffectedFeatures});
        auto affected_mask = new_array<uint8_t>({n, kEventAffectedRows});
        auto sequence = new_array<uint64_t>({n});
        auto action_sequence = new_array<uint64_t>({n});
        for (py::ssize_t i = 0; i < n; ++i) {
          const EventRecord& r = g.journal.record(player, int(cursor + i));
          std::copy(r.features.begin(), r.features.end(), features.mutable_data() + i * kEventFeatures);
          std::copy(r.affected.begin(), r.affected.end(), affected.mutable_data() + i * r.affected.size());
          std::copy(r.affected_mask.begin(), r.affected_mask.end(), affected_mask.mutable_data() + i * kEventAffectedRows);
          sequence.mutable_data()[i] = r.sequence;
          action_sequence.mutable_data()[i] = r.action_sequence;
        }
        py::dict d;
        d["features"] = features;
        d["affected"] = affected;
        d["affected_mask"] = affected_mask;
        d["sequence"] = sequence;
        d["action_sequence"] = action_sequence;
        return py::make_tuple(d, kept);
      }, py::arg("player"), py::arg("cursor"))
      .def("journal_bytes", [](const Game& g) { GameLock lock(g); return py::bytes(g.journal.to_bytes()); })
      .def("load_journal", [](Game& g, py::bytes data) { GameLock lock(g);
        // Parsed and checked completely before the journal is replaced.
        g.journal.load_bytes(std::string_view(data));
      }, py::arg("data"))
      .def("check_invariants", [](const Game& g) { GameLock lock(g); return check_invariants(g.state); })
      .def("ranking", [](const Game& g) { GameLock lock(g); return ranking(g.state); })
      // -- inspection
      .def("tile", [](const Game& g, int t) { GameLock lock(g); check_tile(g, t); return tile_dict(g.state, t); }, py::arg("tile"))
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
      // -- scenario edits
      .def("set_terrain", [](Game& g, int t, int terrain) { GameLock lock(g); edit_set_terrain(g.state, t, terrain); g.touched(); }, py::arg("tile"), py::arg("terrain"))
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
      .def("remove_unit", [](Game& g, int t) { GameLock lock(g); edit_remove_unit(g.state, t); g.touched(); }, py::arg("tile"))
      // -- properties
      .def_property_readonly("map_size", [](const Game& g) { GameLock lock(g); return int(g.state.map_size); })
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

}  // namespace polyenv::python
