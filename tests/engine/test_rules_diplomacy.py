"""Diplomacy (RULES.md §10): allegiance after attacks, kills, captures, conversions, wars
declared and stars sent, its knock-on for third parties, its clamp to 60, and that it never
restricts an action.
"""
from polyenv import GameEnv

from conftest import act, area, at, attack, ensure_tech
from rules_board import score, allegiance


# ---------------------------------------------------------------- §10 diplomacy

def three_players():
    env = GameEnv.blank(11, (0, 1, 2))
    for p, pos in ((0, (0, 0)), (1, (10, 10)), (2, (0, 10))):
        env.place_city(p, at(env, *pos), capital=True)
    return env


def test_allegiance_attack_and_kill_symmetric():
    # RULES §10: "an allegiance matrix starting at 0, kept symmetric ... Events: attack −5 (−5 more on a kill)"
    env = three_players()
    assert allegiance(env, 0, 1) == 0
    env.place_unit(0, "archer", at(env, 5, 3))
    env.place_unit(1, "warrior", at(env, 5, 5))
    attack(env, at(env, 5, 3), at(env, 5, 5))  # 10 -> 5, no kill
    assert allegiance(env, 0, 1) == allegiance(env, 1, 0) == -5
    env.place_unit(0, "archer", at(env, 5, 7))
    attack(env, at(env, 5, 7), at(env, 5, 5))  # kill
    assert allegiance(env, 0, 1) == allegiance(env, 1, 0) == -15
    assert allegiance(env, 0, 2) == 0


def test_allegiance_capture_minus_30():
    # RULES §10: "city capture −30"
    env = three_players()
    env.place_city(1, at(env, 5, 5))
    env.place_unit(0, "warrior", at(env, 5, 5))
    act(env, "capture", source=at(env, 5, 5))
    assert allegiance(env, 0, 1) == allegiance(env, 1, 0) == -30


def test_allegiance_convert_minus_5():
    # RULES §10: "convert −5"
    env = three_players()
    ensure_tech(env, 0, "climbing", "meditation", "philosophy")
    env.place_unit(0, "mind_bender", at(env, 5, 5))
    env.place_unit(1, "warrior", at(env, 5, 6))
    act(env, "convert", source=at(env, 5, 5), target=at(env, 5, 6))
    assert env.unit_at(at(env, 5, 6))["owner"] == 0
    assert allegiance(env, 0, 1) == -5


def test_allegiance_knock_on_for_third_parties():
    # RULES §10: "The knock-on effect for third parties is trunc(value / −2), applied to tribes with a
    # negative allegiance towards the target."  Player 2 dislikes player 1; player 0 attacks player 1
    # (−5, knock-on trunc(2.5) = +2 between 2 and 0), then attacks again and kills (−5 and −5 more:
    # +2 and +2).
    env = three_players()
    env.set_current_player(2)
    act(env, "declare_war", target=2)  # relative player 2 of player 2 = player 1
    assert allegiance(env, 2, 1) == -30
    env.set_current_player(0)
    env.place_unit(0, "archer", at(env, 5, 3))
    env.place_unit(1, "warrior", at(env, 5, 5))
    attack(env, at(env, 5, 3), at(env, 5, 5))
    assert allegiance(env, 2, 0) == allegiance(env, 0, 2) == 2
    env.place_unit(0, "archer", at(env, 5, 7))
    attack(env, at(env, 5, 7), at(env, 5, 5))
    assert env.unit_at(at(env, 5, 5)) is None
    assert allegiance(env, 2, 0) == 6


def test_declare_war_knock_on_plus_15():
    # RULES §10: Declare War "Sets the pair to −30. Every other tribe with a negative allegiance towards
    # the target moves +15 towards the declarer"
    env = three_players()
    env.set_current_player(2)
    act(env, "declare_war", target=2)  # player 2 on player 1
    env.set_current_player(0)
    act(env, "declare_war", target=1)  # player 0 on player 1
    assert allegiance(env, 0, 1) == allegiance(env, 1, 0) == -30
    assert allegiance(env, 2, 0) == allegiance(env, 0, 2) == 15
    assert env.player(0)["wars_declared"] == 1


def test_send_stars_allegiance_and_knock_on():
    # RULES §10: Send Stars "The sender loses n stars and gains n score; the receiver gains n stars;
    # allegiance +n; every other tribe with a negative allegiance towards the receiver moves by
    # trunc(n/−2) towards the sender"
    env = three_players()
    env.set_current_player(2)
    act(env, "declare_war", target=2)  # player 2 on player 1
    env.set_current_player(0)
    env.set_stars(0, 10)
    s = score(env)
    act(env, "send_stars", target=1, arg=5)
    assert env.stars(0) == 5 and env.stars(1) == 5
    assert score(env) == s + 5
    assert allegiance(env, 0, 1) == allegiance(env, 1, 0) == 5
    assert allegiance(env, 2, 0) == -2  # trunc(5 / -2) = -2
    assert env.player(0)["stars_sent"] == 5


def test_allegiance_clamped_to_60():
    # RULES §10: "clamped to ±60"
    env = three_players()
    act(env, "declare_war", target=1)
    env.place_unit(1, "giant", at(env, 5, 5))
    ring = [t for t in area(env, at(env, 5, 5), 2) if max(abs(t // 11 - 5), abs(t % 11 - 5)) == 2]
    for t in ring[:7]:
        env.place_unit(0, "archer", t)
        attack(env, t, at(env, 5, 5))
    assert env.unit_at(at(env, 5, 5)) is not None
    assert allegiance(env, 0, 1) == -60


def test_diplomacy_never_restricts_actions():
    # RULES §10: "Diplomacy **never restricts any action**."
    env = three_players()
    env.set_stars(0, 15)
    for _ in range(2):
        act(env, "send_stars", target=1, arg=7)
    assert allegiance(env, 0, 1) == 14
    env.place_unit(0, "warrior", at(env, 5, 5))
    env.place_unit(1, "warrior", at(env, 5, 6))
    attack(env, at(env, 5, 5), at(env, 5, 6))
    assert allegiance(env, 0, 1) == 9
