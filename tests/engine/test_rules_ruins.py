"""Ruins (RULES.md §11): the five outcomes at equal chance, the research redraw when every
tech is known, and the preconditions of Examine.
"""
from collections import Counter

import polyenv
from polyenv import Bardur, GameEnv

from conftest import act, area, at, is_legal
from rules_board import score, pop


# ---------------------------------------------------------------- §11 ruins

OUTCOMES = ("giant", "research", "pop_growth", "explorer", "resources")


def examine_outcome(seed, all_techs=False):
    """Examines ruins at (6,6) with a warrior on a fogged board; returns the outcome observed."""
    env = GameEnv.blank(12, (Bardur, Bardur), seed=seed, revealed=False)
    cap, ruins = at(env, 2, 2), at(env, 6, 6)
    env.place_city(0, cap, capital=True)
    env.reveal(0, area(env, ruins, 1))
    if all_techs:
        for tech in polyenv.TECHS:
            env.grant_tech(0, tech)
    env.set_resource(ruins, "ruins")
    env.place_unit(0, "warrior", ruins)
    before = dict(stars=env.stars(0), techs=len(env.player(0)["techs"]), pop=pop(env, cap), score=score(env),
                  explored={t for t in range(env.num_tiles) if env.tile(t)["explored"][0]})
    act(env, "examine", source=ruins)
    assert env.tile(ruins)["resource"] is None
    explored = {t for t in range(env.num_tiles) if env.tile(t)["explored"][0]} - before["explored"]
    u = env.unit_at(ruins)
    signs = []
    if u["type"] == "giant":
        assert (u["owner"], u["hp"], u["home_city"], u["status"]) == (0, 40, -1, "finished")
        pushed = [t for t in area(env, ruins, 1) if t != ruins and env.unit_at(t) is not None]
        # §11 "the unit becomes FINISHED" wins over the push's PUSHED (Tribes sets it last)
        assert len(pushed) == 1 and env.unit_at(pushed[0])["status"] == "finished"
        assert env.unit_at(pushed[0])["type"] == "warrior"
        # the pushed unit sees from its new tile, as a move ends (Tribes' Board.moveUnit): no exploration
        assert explored <= set(area(env, pushed[0], 1)), explored
        signs.append("giant")
    else:
        assert u["type"] == "warrior" and u["status"] == "finished"
    if len(env.player(0)["techs"]) == before["techs"] + 1:
        assert score(env) == before["score"]  # ruins research gives no score
        signs.append("research")
    if pop(env, cap) == before["pop"] + 3:
        signs.append("pop_growth")
    if explored and "giant" not in signs:
        assert score(env) == before["score"] + 5 * len(explored)
        signs.append("explorer")
    if env.stars(0) == before["stars"] + 10:
        signs.append("resources")
    assert len(signs) == 1, (seed, signs)
    return signs[0]


def test_ruins_outcomes_equal_chance():
    # RULES §11: Examine "one of 5 outcomes with equal chance (20 % each ...). The ruins are removed and
    # the unit becomes FINISHED"; Ruins outcomes: Giant ("a Giant on the unit's tile, supported by no
    # city; the examiner is pushed"), Research ("free, with no score"), Pop Growth ("+3 population in the
    # capital"), Explorer ("15 random steps from the unit, revealing as it goes"), Resources (+10 stars)
    n = 500
    counts = Counter(examine_outcome(seed) for seed in range(n))
    assert set(counts) == set(OUTCOMES)
    for outcome in OUTCOMES:
        assert 60 <= counts[outcome] <= 140, counts  # expected 100 (sd ~9)


def test_ruins_with_all_techs_known_redraw_research():
    # RULES §11: "if all techs are known, Research is redrawn, giving 25 % each"
    n = 400
    counts = Counter(examine_outcome(seed, all_techs=True) for seed in range(n))
    assert "research" not in counts
    assert set(counts) == set(OUTCOMES) - {"research"}
    for outcome in counts:
        assert 65 <= counts[outcome] <= 135, counts  # expected 100 (sd ~8.7)


def test_examine_preconditions():
    # RULES §11: "Examine | FRESH, standing on ruins, tribe owns ≥ 1 city"
    env = GameEnv.blank(8, (0, 1))
    t = at(env, 4, 4)
    env.set_resource(t, "ruins")
    env.place_unit(0, "warrior", t)
    assert not is_legal(env, "examine", source=t)  # no city
    env.place_city(0, at(env, 1, 1))
    assert is_legal(env, "examine", source=t)
    env.remove_unit(t)
    env.place_unit(0, "warrior", t, status="moved")
    assert not is_legal(env, "examine", source=t)
    env.remove_unit(t)
    env.set_resource(t, None)
    env.place_unit(0, "warrior", t)
    assert not is_legal(env, "examine", source=t)
