"""Java agents as players (polyenv.evaluation.java.crossplay, tournament with java:...) over the driver protocol.

No JDK is needed: tests/helpers/java_stand_in.py speaks the driver's protocol with polyenv as the "Java" engine, so
these tests cover the protocol, the lockstep loop, the timing and the stopping of a diverging game. The real
run against Tribes is documented in docs/java_crossplay.md.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

from polyenv import GameEnv
from polyenv.evaluation.java import crossplay, known, levels
from polyenv.evaluation.java.driver import Driver, DriverError
from polyenv.evaluation.java.lockstep import LockstepGame
from polyenv._core import _testing

STAND_IN = [sys.executable, str(Path(__file__).resolve().parents[1] / "helpers" / "java_stand_in.py")]


def session(fog=False, *extra):
    return crossplay.CrossplaySession(None, fog, command=STAND_IN + (["--fog"] if fog else []) + list(extra))


def test_java_agent_specs():
    a = crossplay.parse_java_agent("java:MCTS:fm=500:depth=10")
    assert (a.name, a.settings_dict()) == ("MCTS", {"fm": 500, "depth": 10})
    assert crossplay.parse_java_agent("java:pmcts:ms=40").name == "PMCTS"      # names are case-insensitive
    assert crossplay.parse_java_agent("java:RHEA:pop=1:fm=200").settings_dict() == {"pop": 1, "fm": 200}
    for bad, why in [("java:Nope", "unknown Java agent"), ("java:RHEA:ms=40", "reads no time budget"),
                     ("java:MCTS:fm=10:ms=40", "one budget"), ("java:Random:fm=10", "takes no settings"),
                     ("java:MCTS:pop=3", "takes no 'pop'"), ("java:MCTS:fm=0", "positive integer"),
                     ("java:MCTS:fm", "positive integer"), ("java:MCTS:fm=1:fm=2", "twice"), ("MCTS", "java:NAME")]:
        with pytest.raises(ValueError, match=why):
            crossplay.parse_java_agent(bad)
    assert crossplay.parse_timed_mcts("mcts:ms=40") == 40.0 and crossplay.parse_timed_mcts("mcts:200") is None
    with pytest.raises(ValueError):
        crossplay.parse_timed_mcts("mcts:ms=0")


@pytest.mark.parametrize("fog", [False, True])
def test_a_lockstep_game_is_played_to_its_end_and_timed(fog):
    with session(fog) as s:
        csv, path = s.level(3, 2, (2, 1), 8)
        seats = [crossplay.JavaAgent("SimpleAgent", (), "java:SimpleAgent"), crossplay.PolyenvSeat("greedy", seed=1)]
        rec = crossplay.play_game(s.driver, seats, csv, path, 3, fog)
    assert rec.difference is None and rec.winner in (-1, 0, 1)
    assert all(d > 0 for d in rec.decisions) and all(ms > 0 for ms in rec.cpu_ms)
    assert rec.actions >= sum(rec.decisions) and rec.agents == {0: {}}
    # the same game in polyenv alone ends the same way: the lockstep game is polyenv's game
    assert GameEnv(level=csv, players=None, full_observability=not fog, auto_end_turn=False, seed=3).num_players == 2


def test_a_divergence_stops_the_game_with_a_report():
    with session(False, "--diverge-at", "5") as s:
        csv, path = s.level(3, 2, (2, 1), 8)
        seats = [crossplay.JavaAgent("Random", (), "java:Random"), crossplay.PolyenvSeat("random", seed=1)]
        rec = crossplay.play_game(s.driver, seats, csv, path, 3, False)
    assert rec.winner is None and rec.actions == 5
    d = rec.difference
    assert (d["field"], d["java"] - d["polyenv"]) == ("player[0].stars", 1)
    assert d["category"].startswith("unexplained") and len(d["actions"]) == 5 and d["csv"] == csv


def test_a_refused_java_choice_changes_nothing_and_the_agent_is_asked_again():
    # Tribes' Game applies an action its state does not allow as nothing and asks the agent again.
    for refused, finished in ((3, True), (crossplay.MAX_REFUSED + 1, False)):
        with session(False, "--refuse", str(refused)) as s:
            csv, path = s.level(3, 2, (2, 1), 8)
            seats = [crossplay.JavaAgent("SimpleAgent", (), "java:SimpleAgent"), crossplay.PolyenvSeat("greedy")]
            rec = crossplay.play_game(s.driver, seats, csv, path, 3, False)
        assert (rec.difference is None) == finished
        if finished:
            assert rec.decisions[0] > rec.actions - rec.decisions[1]      # the refused choices were timed too
        else:
            assert rec.actions == 0 and "in a row" in rec.difference["category"]


def test_driver_errors_are_reported(tmp_path):
    path = tmp_path / "level.csv"
    path.write_text(levels.generated_csv(1, 2, tribes=(2, 1), map_size=8))
    with Driver(STAND_IN) as d:
        with pytest.raises(DriverError, match="unknown command"):
            d.call("nonsense")
        d.load(str(path), "capitals", 1)
        with pytest.raises(DriverError, match="unknown Tribes agent"):
            d.agent(0, 1, "Nope", {})
    with pytest.raises(DriverError, match="exited"):
        d.call("act")


def test_tournament_with_java_players_rates_and_times_them(tmp_path):
    pytest.importorskip("openskill")
    from polyenv.evaluation import tournament
    r = tournament(["java:SimpleAgent", "greedy", "mcts:ms=5"], games=3, map_size=8, java_command=STAND_IN,
                   out_dir=tmp_path, seed=2)
    assert r.stopped == [] and (r.winners >= -1).all()
    assert r.games.tolist() == [2, 2, 2]
    ms = r.ms_per_decision
    assert np.isfinite(ms).all() and (r.decisions > 0).all()     # every player was timed in these games
    assert "ms/dec" in r.table().splitlines()[0]
    assert r.java_settings == {"java:SimpleAgent": {}}


def test_tournament_leaves_a_diverging_game_unrated(tmp_path):
    pytest.importorskip("openskill")
    from polyenv.evaluation import tournament
    r = tournament(["java:Random", "random"], games=2, map_size=8, java_command=STAND_IN + ["--diverge-at", "3"],
                   out_dir=tmp_path)
    assert (r.winners == -3).all() and r.games.tolist() == [0, 0] and len(r.stopped) == 2
    assert np.allclose(r.mu, r.mu[0]) and "stopped" in r.files and "2 lockstep game(s) stopped" in r.table()


def test_tournament_rejects_java_players_without_a_checkout():
    pytest.importorskip("openskill")
    from polyenv.evaluation import tournament
    with pytest.raises(ValueError, match="tribes="):
        tournament(["java:MCTS", "greedy"], games=1)
    with pytest.raises(ValueError, match="not a directory"):
        tournament(["java:MCTS", "greedy"], games=1, tribes="/nonexistent/tribes")
    with pytest.raises(ValueError, match="turn limit"):
        tournament(["java:MCTS", "greedy"], games=1, java_command=STAND_IN, max_turns=10)
    with pytest.raises(ValueError, match="unknown Java agent"):
        tournament(["java:Nope", "greedy"], games=1, java_command=STAND_IN)


def test_fog_view_hides_what_the_player_has_not_revealed():
    g = GameEnv.blank(8, (2, 1), seed=3, revealed=False)
    g.place_city(0, (0, 0), capital=True)
    g.place_city(1, (7, 7), capital=True)
    g.place_unit(1, "warrior", (6, 6))
    g.reveal(0, [(x, y) for x in range(3) for y in range(3)])
    g.set_stars(1, 9)
    view = crossplay.fog_view(g, 0)
    assert view.unit_at((6, 6)) is None and view.stars(1) == 0 and g.unit_at((6, 6)) is not None
    g.reveal(0, [(6, 6)])
    assert crossplay.fog_view(g, 0).unit_at((6, 6)) is not None


def test_forced_meeting_draw_and_explorer_steps_are_imposed():
    # The test-only hooks that impose Java's draws (RULES §6: meeting a tribe gives one of its techs; §8.2
    # and §11: an explorer's 15 random steps reveal radius 1 each).
    g = GameEnv.blank(8, (2, 1), seed=3, revealed=False)
    g.place_city(0, (0, 0), capital=True)
    g.place_city(1, (7, 7), capital=True)
    for tech in ("climbing", "fishing", "organization"):
        g.grant_tech(1, tech)
    g.place_unit(0, "warrior", (5, 5))
    g.reveal(0, [(x, y) for x in range(8) for y in range(6)])
    for bad in (([(0, 0, 1)], None), ([(0, 1, 99)], None), ([], [64]), ([], list(range(16)))):
        with pytest.raises(ValueError):
            _testing.force_draws(g._game, *bad)
    _testing.force_draws(g._game, [(0, 1, 3)], None)           # the meeting draws organization
    g.step(g.action_id("move", source=(5, 5), target=(6, 5)))
    _testing.force_draws(g._game, [], None)
    assert g.player(0)["met"] == [1] and "organization" in g.player(0)["techs"]


def test_impose_sets_only_valid_fields():
    g = GameEnv(seed=1, full_observability=False)
    before = g.to_bytes()
    for bad in (("score", 5, 1), ("worth", 0, 1), ("nope", 0, 1), ("allegiance", 0, 1), ("met", 0, 1),
                ("techs", 0, 1 << 30), ("home_city", 0, -1), ("home_city", g.player(0)["capital"], 0)):
        with pytest.raises(ValueError):
            _testing.impose(g._game, *bad)
    assert g.to_bytes() == before                           # a rejected call changes nothing
    _testing.impose(g._game, "score", 1, 77)
    _testing.impose(g._game, "techs", 0, 0b101)
    _testing.impose(g._game, "met", 0, 0b10)
    _testing.impose(g._game, "allegiance", 1, -3)               # players 0 and 1, both directions
    assert g.player(1)["score"] == 77 and g.player(0)["techs"] == ["climbing", "hunting"]
    assert g.player(0)["met"] == [1] and g.player(1)["allegiance"][0] == -3 == g.player(0)["allegiance"][1]
    capital, other = g.player(0)["capital"], g.player(1)["capital"]
    production = g.city_at(capital)["production"]
    _testing.impose(g._game, "production", capital, production + 2)  # through the Workshop count
    assert g.city_at(capital)["production"] == production + 2
    with pytest.raises(ValueError):
        _testing.impose(g._game, "production", capital, 0)       # below what the city makes without bonuses
    with pytest.raises(ValueError):
        _testing.impose(g._game, "home_city", capital, other)    # another tribe's city
    _testing.impose(g._game, "home_city", capital, -1)           # the capital's warrior becomes a tribe-level unit
    assert g.unit_at(capital)["home_city"] == -1 and g.city_at(capital)["supported"] == 0
    _testing.impose(g._game, "population", capital, 2)           # grows the engine's own way: a level-up is due
    assert g.pending_level_up is not None and g.pending_level_up[0] == capital
    g.check_invariants()


def test_impose_takes_a_customs_house_pair_to_another_city():
    # Tribes' City.applyBonus may pay a Customs House pair's +2 to another city of the tribe (known's sticky
    # bonus): below the city's Workshop count, its production is imposed through its pairs, never below none.
    g = GameEnv.blank(8, (0, 1))
    city = 3 * 8 + 3
    g.place_city(0, city, capital=True)
    g.place_city(1, 7 * 8 + 7, capital=True)
    g.set_terrain(3 * 8 + 4, "shallow_water")
    g.set_building(3 * 8 + 4, "port", with_effects=True)
    g.set_building(2 * 8 + 4, "customs_house", with_effects=True)
    production = g.city_at(city)["production"]
    _testing.impose(g._game, "production", city, production - 2)   # the pair's bonus paid elsewhere
    assert g.city_at(city)["production"] == production - 2
    before = g.to_bytes()
    for bad in (production - 4, production - 3):               # no second pair; not a pair's multiple
        with pytest.raises(ValueError):
            _testing.impose(g._game, "production", city, bad)
    assert g.to_bytes() == before
    g.check_invariants()


def test_one_sided_meeting_is_classified_only_in_its_exact_case():
    # Tribes' Tribe.clearView: only the tribe clearing view meets (see known._one_sided_meeting).
    tribe = lambda met, techs: {"met": met, "techs": techs}  # noqa: E731
    before = {"fog": True, "active": 1, "tribes": [tribe([], 0b1), tribe([0], 0b1000)]}
    move = ("move", 3, 4, None, 0)

    def cat(field, java, poly, b=before):
        return known.classify({"field": field, "java": java, "polyenv": poly}, b, move, False)

    assert cat("player[0].met", (), (1,)) == known.JAVA_ONE_SIDED_MEETING
    assert cat("player[0].techs", ("climbing",), ("climbing", "organization")) == known.JAVA_ONE_SIDED_MEETING
    assert cat("player[0].techs", ("climbing",), ("climbing", "fishing")).startswith("unexplained")  # 1 lacks it
    after = {"fog": True, "active": 1, "tribes": [tribe([], 0b1), tribe([0, 2], 0b1010)]}
    assert known.classify({"field": "player[0].techs", "java": ("climbing",), "polyenv": ("climbing", "fishing")},
                          before, move, False, after) == known.JAVA_ONE_SIDED_MEETING  # 1 drew fishing by this move
    assert cat("player[1].met", (0,), (0,)).startswith("unexplained")          # the acting tribe
    assert cat("player[0].techs", ("climbing",), ("climbing", "organization"),
               dict(before, fog=False)).startswith("unexplained")               # no meetings without fog


def test_lockstep_game_with_the_stand_in_has_no_difference(tmp_path):
    csv = levels.generated_csv(4, 2, tribes=(2, 1), map_size=8)
    path = tmp_path / "level.csv"
    path.write_text(csv)
    with Driver(STAND_IN + ["--fog"]) as d:
        game = LockstepGame(d, csv, str(path), "capitals", 4, True)
        for _ in range(60):
            assert game.check() is None
            if game.over:
                break
            game.play(game.legal[len(game.moves) % len(game.legal)])
        assert not game.resynced
        with pytest.raises(ValueError, match="fog build"):
            LockstepGame(d, csv, str(path), "capitals", 4, False)


def test_sticky_bonus_is_recognised_for_a_build_and_for_its_destroy():
    # Tribes' City.applyBonus pays every matching neighbour met after another own city's one to that city;
    # City.removeBuilding takes the bonuses back through the same loop (multiplier -1).
    n = 4
    def board(building_at_tile):  # noqa: E306
        building = [None] * (n * n)
        territory = [10] * (n * n)           # city 10's territory, but for the first neighbour (0,1)
        territory[0 * n + 1] = 20            # city 20, the same tribe's
        building[0 * n + 1] = "PORT"         # met first (x-major order): the bonus sticks to city 20
        building[1 * n + 2] = "PORT"         # city 10's own port, met later: paid to city 20 too
        building[1 * n + 1] = building_at_tile
        return {"terrain": [0] * (n * n), "territory": territory, "building": building,
                "cities": [(10, 0), (20, 0)]}
    tile = 1 * n + 1
    assert known._sticky_bonus(board(None), ("build", -1, tile, "customs_house", 0))
    assert known._sticky_bonus(board("CUSTOMS_HOUSE"), ("destroy", -1, tile, None, 0))
    alone = board("CUSTOMS_HOUSE")
    alone["building"][0 * n + 1] = None      # no other city's port first: nothing sticks
    assert not known._sticky_bonus(alone, ("destroy", -1, tile, None, 0))
