"""The lockstep games' action and state mapping (polyenv/evaluation/java/canon.py) and the known differences, without Java.

The Java side is represented by hand-written driver lines in the format DiffDriver.java prints.
"""

import pytest

from polyenv import GameEnv
from polyenv.evaluation.java import canon, known
from polyenv.evaluation.java.lockstep import ruins_outcome
from polyenv._core import _testing

LEVEL = "\n".join([
    ".:,.:,.:,.:,.:,.:,.:,.:",
    ".:,.:,c:2,.:,.:,.:,.:,.:",
    ".:,.:,.:,.:,f:a,.:,.:,.:",
    ".:,.:,.:,.:,.:,.:,.:,.:",
    ".:,.:,.:,.:,v:,.:,.:,.:",
    ".:,.:,.:,.:,.:,.:,c:1,.:",
    ".:,.:,.:,.:,.:,.:,.:,.:",
    ".:,.:,.:,.:,.:,.:,.:,.:",
]) + "\n"


def env():
    return GameEnv(level=LEVEL, players=None, full_observability=True, auto_end_turn=False)


def test_java_actions_map_to_polyenv_forms():
    assert canon.java_action(["RESEARCH_TECH", -1, -1, 4, 0]) == ("research", -1, -1, "riding", 0)
    assert canon.java_action(["BUILD", 10, 11, "GRAND_BAZAR", 0]) == ("build", -1, 11, "grand_bazaar", 0)
    assert canon.java_action(["LEVEL_UP", 10, -1, 5, 0]) == ("level_up", 10, -1, "border_growth", 0)
    assert canon.java_action(["SPAWN", 10, -1, 3, 0]) == ("spawn", 10, -1, "swordsman", 0)
    assert canon.java_action(["SEND_STARS", -1, -1, 1, 3]) == ("send_stars", -1, -1, 1, 3)
    assert canon.java_action(["UPGRADE_SHIP", 7, -1, -1, 0]) == ("upgrade", 7, -1, None, 0)
    assert canon.java_action(["RESOURCE_GATHERING", 10, 20, 2, 0]) == ("gather", -1, 20, None, 0)
    assert canon.java_action(["MOVE", 10, 19, -1, 0]) == ("move", 10, 19, None, 0)


def test_every_polyenv_legal_action_has_a_distinct_form_that_maps_back_to_its_id():
    g = env()
    forms = canon.polyenv_actions(g)
    assert len(forms) == len(g.legal_actions())
    assert sorted(forms.values()) == sorted(g.legal_actions().tolist())
    # the same actions as the Java driver would list them at the start of MinimalLevel-like play
    java_lines = [["END_TURN", -1, -1, -1, 0], ["RESEARCH_TECH", -1, -1, 0, 0], ["DECLARE_WAR", -1, -1, 1, 0],
                  ["MOVE", 10, 9, -1, 0], ["SEND_STARS", -1, -1, 1, 4]]
    for line in java_lines:
        assert canon.java_action(line) in forms, line


def test_relative_players_become_absolute():
    g = env()
    g.step(g.action_id("end_turn"))
    forms = canon.polyenv_actions(g)
    assert g.current_player == 1
    assert ("declare_war", -1, -1, 0, 0) in forms  # relative 1 from player 1 is player 0


def test_java_state_and_polyenv_state_agree_on_a_hand_written_report():
    g = env()
    n = g.map_size
    terrain = {"plain": 0, "forest": 6, "village": 4, "city": 5}
    resource_key = {None: -1, "animal": 2}
    report = {
        "tick": 0, "active": 0, "over": False, "winner": -1,
        "tribes": [{"stars": g.player(p)["stars"], "score": g.player(p)["score"], "techs": 1 << (2 if p == 0 else 3),
                    "kills": 0, "cities": 1, "result": "INCOMPLETE", "wars": 0, "sent": 0, "capital": 0,
                    "allegiance": [0, 0],
                    "monuments": []} for p in range(2)],
        "units": [[t, u["owner"], 0, 10, 10, 0 if u["owner"] == 0 else 5, 0, 0, t, -1]
                  for t in range(n * n) if (u := g.unit_at(t)) is not None],
        "cities": [[t, c["owner"], 1, 0, 2, 1, 0, 1, c["worth"], 1] for t in range(n * n) if (c := g.city_at(t))],
        "terrain": [terrain[g.tile(t)["terrain"]] for t in range(n * n)],
        "resource": [resource_key[g.tile(t)["resource"]] for t in range(n * n)],
        "building": ["" for _ in range(n * n)],
        "road": [0] * (n * n),
        "territory": [g.tile(t)["city"] if g.tile(t)["city"] is not None else -1 for t in range(n * n)],
        "fog": False,
    }
    js, ps = canon.java_state(report), canon.polyenv_state(g)
    assert canon.first_difference(js, ps) is None
    report["units"][0][3] = 9
    field, java, poly = canon.first_difference(canon.java_state(report), ps)
    assert field.endswith(".hp") and (java, poly) == (9, 10)


def test_forced_ruins_outcome_is_imposed_once_and_validated():
    # The test-only hook the differential runner uses to impose Java's ruins draw (RULES §11 outcomes).
    g = GameEnv.blank(8, (2, 1), seed=3)
    g.place_city(0, (0, 0), capital=True)
    g.place_city(1, (7, 7), capital=True)
    g.set_stars(0, 0)
    for bad in ((5, -1), (1, -1), (4, 3), (1, 24)):
        with pytest.raises(ValueError):
            _testing.force_ruins(g._game, *bad)
    for x in (2, 4):
        g.set_resource((x, 4), "ruins")
        g.place_unit(0, "warrior", (x, 4))
    _testing.force_ruins(g._game, 4, -1)  # resources: +10 stars
    g.step(g.action_id("examine", source=(2, 4)))
    assert g.stars(0) == 10
    _testing.force_ruins(g._game, 1, 0)  # research: climbing
    g.step(g.action_id("examine", source=(4, 4)))
    assert "climbing" in g.player(0)["techs"]


def _tribe(score, cities, stars=0, techs=0):
    return {"score": score, "cities": cities, "stars": stars, "techs": techs, "result": "INCOMPLETE"}


def test_eliminated_winner_is_classified_only_in_its_exact_case():
    # Deliberate (README "The game", RULES §12.2 ranking): polyenv ranks an eliminated tribe below every
    # surviving one. Only that case is classified; any other winner difference stays unexplained.
    before = {"tribes": [_tribe(900, 0), _tribe(500, 2), _tribe(400, 1)]}
    end = ("end_turn", -1, -1, None, 0)

    def cat(java, poly, act=end, field="winner"):
        return known.classify({"field": field, "java": java, "polyenv": poly}, before, act, False)

    assert cat(0, 1) == known.DELIBERATE_ELIMINATED_RANK
    assert cat(0, 2).startswith("unexplained")  # polyenv's winner is not the top survivor
    assert cat(1, 2).startswith("unexplained")  # Java's winner survived
    assert cat(0, 1, act=("move", 3, 4, None, 0)).startswith("unexplained")
    assert cat(0, 1, field="player[0].score").startswith("unexplained")
    before["tribes"][0]["score"] = 450  # the eliminated tribe was not first by score: Java would not pick it
    assert cat(0, 1).startswith("unexplained")


def test_ruins_giant_found_when_the_examiner_is_a_giant():
    # RULES §11 ruins Giant: a Giant appears on the tile and the examiner is pushed; a Giant examiner looks
    # like the new Giant, so the outcome is read from the unit count.
    tribe = {"techs": 1, "stars": 4}
    giant = [206, 3, 10, 40, 40, 0, 0, 0, -1, -1]
    before = {"tribes": [tribe] * 4, "cities": [], "units": [giant]}
    after = {"tribes": [tribe] * 4, "cities": [],
             "units": [giant[:5] + [3] + giant[6:], [207, 3, 10, 40, 40, 3] + giant[6:]]}
    assert ruins_outcome(before, after, 206, 3) == ("giant", -1)
    same = {"tribes": [tribe] * 4, "cities": [], "units": [giant[:5] + [3] + giant[6:]]}
    assert ruins_outcome(before, same, 206, 3) == ("explorer", -1)


def test_ruins_giant_found_when_its_push_met_a_tribe():
    # RULES §11 ruins Giant: the examiner is pushed, and the push reveals (§8.5): meeting a tribe there draws a
    # tech (§2), which is the meeting's, not a ruins Research (differential game 814 of seed 10).
    examiner = [132, 2, 0, 10, 10, 0, 0, 0, -1, -1]
    before = {"tribes": [{"techs": 1, "stars": 6}] * 4, "cities": [], "units": [examiner], "meetings": []}
    met = {"techs": 1 | 1 << 13, "stars": 6}
    after = {"tribes": [before["tribes"][0], before["tribes"][1], met, before["tribes"][3]], "cities": [],
             "units": [[133] + examiner[1:], [132, 2, 10, 40, 40, 3, 0, 0, -1, -1]], "meetings": [[2, 0, 13]]}
    assert ruins_outcome(before, after, 132, 2) == ("giant", -1)
    after["meetings"] = []
    assert ruins_outcome(before, after, 132, 2) == ("research", 13)
