"""Temples and monuments (RULES.md §9.2): temple levels over turns, the seven monuments'
conditions, costs and score, and what a capture moves.

Board: the work city of rules_board.py (player 0's level-10 city at (5,5) on ``duel(11)``).
"""
import pytest

import polyenv
from polyenv import GameEnv

from conftest import act, at, attack, duel, end_round, end_turn, ensure_tech, is_legal, move
from rules_board import score, pop, work_city, available


# ---------------------------------------------------------------- §9.2 temples

TEMPLES = [("temple", "plain", ("riding", "free_spirit")),
           ("water_temple", "shallow_water", ("fishing", "whaling", "aquatism")),
           ("forest_temple", "forest", ("hunting", "archery", "spiritualism")),
           ("mountain_temple", "mountain", ("climbing", "meditation"))]


@pytest.mark.parametrize("temple, terrain, techs", TEMPLES)
def test_temple_levels_over_turns(temple, terrain, techs):
    # RULES §9.2: "Temples: they start at level 1 with a 3-turn counter, which ticks at the start of
    # each of the owner's turns. Levels 2, 3, 4 and 5 are reached after 3, 6, 9 and 12 turns and give
    # +50, +50, +50 and +150 score (total 400 with the initial 100). The level-up points are added to
    # the city's worth."
    env, c, T = work_city()
    t = T(5, 6)
    env.set_terrain(t, terrain)
    ensure_tech(env, 0, *techs)
    env.set_stars(0, 20)
    s0 = score(env)
    act(env, "build", target=t, arg=temple)
    assert env.tile(t)["building_level"] == 1
    base, worth = score(env), env.city_at(c)["worth"]
    assert base == s0 + 100 + 5
    expected = {3: (2, 50), 6: (3, 100), 9: (4, 150), 12: (5, 300), 15: (5, 300)}
    for rounds in range(1, 16):
        end_round(env)
        level, points = max(((lv, pts) for r, (lv, pts) in expected.items() if r <= rounds), default=(1, 0))
        assert env.tile(t)["building_level"] == level, rounds
        assert score(env) == base + points, rounds
        assert env.city_at(c)["worth"] == worth + points, rounds
    assert score(env) - s0 == 400 + 5  # 100 + 50 + 50 + 50 + 150, plus the population point


def test_temple_counter_ticks_only_on_owner_turns():
    # RULES §9.2: the counter "ticks at the start of each of the owner's turns"
    env, c, T = work_city()
    ensure_tech(env, 0, "riding", "free_spirit")
    env.set_stars(0, 20)
    act(env, "build", target=T(5, 6), arg="temple")
    for _ in range(2):
        end_round(env)
    end_turn(env)  # player 1's turn starts: not the owner's
    assert env.tile(T(5, 6))["building_level"] == 1
    end_turn(env)  # player 0's third turn start
    assert env.tile(T(5, 6))["building_level"] == 2


def test_captured_temple_and_monument_move_only_the_city_worth():
    # RULES header: polyenv fixes quirk 6: "a captured monument or temple moves no extra points"
    # (Tribes: "the captor also gains +100 per temple and +400 per monument there", §8.4 [quirk]);
    # §8.4 "Its worth moves from the old owner's score to the captor's"
    env = duel(11)
    T = lambda x, y: at(env, x, y)  # noqa: E731
    c = T(5, 5)
    env.place_city(1, c, level=10)
    ensure_tech(env, 1, "riding", "free_spirit")
    env.set_current_player(1)
    env.set_stars(1, 20)
    act(env, "build", target=T(5, 6), arg="temple")
    for _ in range(3):
        end_round(env)  # the temple reaches level 2 (+50, part of the worth)
    env.set_building(T(4, 4), "gate_of_power")
    worth = env.city_at(c)["worth"]
    env.place_unit(0, "warrior", c)
    end_turn(env)  # player 0 to act
    s0, s1 = score(env, 0), score(env, 1)
    act(env, "capture", source=c)
    assert env.city_at(c)["owner"] == 0
    assert score(env, 0) == s0 + worth
    assert score(env, 1) == s1 - worth


# ---------------------------------------------------------------- §9.2 monuments

def test_monument_build_effect_cost_terrain_and_once():
    # RULES §9.2: "Monument (×7) | 0 | see below | plain or shallow water | +3 population, +400 score |
    # each once per tribe, once available"; §12.3 "Monument | +400"
    env, c, T = work_city()
    ensure_tech(env, 0, "riding", "roads", "trade")
    env.set_stars(0, 99)
    end_round(env)  # income: >= 100 stars after a gain
    assert "emperors_tomb" in available(env)
    env.set_terrain(T(5, 6), "forest")
    env.set_terrain(T(4, 6), "shallow_water")
    stars = env.stars(0)
    assert not is_legal(env, "build", target=T(5, 6), arg="emperors_tomb")  # forest
    assert is_legal(env, "build", target=T(4, 6), arg="emperors_tomb")  # shallow water is allowed
    p, s = pop(env, c), score(env)
    act(env, "build", target=T(5, 4), arg="emperors_tomb")
    assert env.stars(0) == stars  # costs 0
    assert pop(env, c) == p + 3
    assert score(env) == s + 400 + 15
    assert "emperors_tomb" not in available(env)
    assert not is_legal(env, "build", target=T(4, 6), arg="emperors_tomb")
    end_round(env)  # another star gain with >= 100 stars: built monuments do not return
    assert "emperors_tomb" not in available(env)


def test_emperors_tomb_needs_100_stars_after_a_gain_and_trade_to_build():
    # RULES §9.2: "Emperor's Tomb | Trade | stars ≥ 100 after any star gain"
    env, c, T = work_city()
    env.set_stars(0, 100)
    assert "emperors_tomb" not in available(env)  # no gain yet (an edit is not a gain)
    env.set_terrain(T(5, 6), "deep_water")
    env.set_resource(T(5, 6), "whales")
    ensure_tech(env, 0, "fishing", "whaling")
    act(env, "gather", target=T(5, 6))  # +10 stars
    assert "emperors_tomb" in available(env)
    assert not is_legal(env, "build", target=T(5, 4), arg="emperors_tomb")  # no Trade
    ensure_tech(env, 0, "riding", "roads", "trade")
    assert is_legal(env, "build", target=T(5, 4), arg="emperors_tomb")


def test_emperors_tomb_not_below_100():
    # RULES §9.2: "stars ≥ 100"
    env, c, T = work_city()
    env.set_stars(0, 80)
    end_round(env)  # income 2 (capital) + 10 (level-10 city)
    assert env.stars(0) < 100
    assert "emperors_tomb" not in available(env)


def test_altar_of_peace_five_pacifist_turns_with_meditation():
    # RULES §9.2: "Altar of Peace | Meditation | the tribe has gone 5 of its own turns without attacking
    # (counted only once Meditation is known). [quirk] It can become available again after it has been
    # built"; §12.1 "Pacifist counter +1 if Meditation is known"
    env, c, T = work_city()
    for _ in range(6):
        end_round(env)
    assert "altar_of_peace" not in available(env)  # no Meditation: nothing counted
    ensure_tech(env, 0, "climbing", "meditation")
    for _ in range(4):
        end_round(env)
    assert "altar_of_peace" not in available(env)
    end_round(env)
    assert "altar_of_peace" in available(env)
    p, s = pop(env, c), score(env)
    act(env, "build", target=T(5, 6), arg="altar_of_peace")
    assert pop(env, c) == p + 3 and score(env) == s + 415
    assert "altar_of_peace" not in available(env)
    for _ in range(5):
        end_round(env)
    # The count goes on past 5 and only its 5th turn makes the Altar available (Tribes checks == 5).
    assert "altar_of_peace" not in available(env)
    env.place_unit(0, "archer", T(3, 3))
    env.place_unit(1, "giant", T(3, 5))
    attack(env, T(3, 3), T(3, 5))  # restarts the count
    for _ in range(5):
        end_round(env)
    assert "altar_of_peace" in available(env)  # [quirk 7]
    assert is_legal(env, "build", target=T(5, 4), arg="altar_of_peace")


def test_attacking_resets_the_pacifist_count():
    # RULES §9.2: "5 of its own turns without attacking"
    env, c, T = work_city()
    ensure_tech(env, 0, "climbing", "meditation")
    env.place_unit(0, "archer", T(3, 3))
    env.place_unit(1, "giant", T(3, 5))
    for _ in range(3):
        end_round(env)
    attack(env, T(3, 3), T(3, 5))
    for _ in range(4):
        end_round(env)
    assert "altar_of_peace" not in available(env)
    end_round(env)
    assert "altar_of_peace" in available(env)


def test_gate_of_power_after_ten_kills_defensive_included():
    # RULES §9.2: "Gate of Power | — | the tribe has ≥ 10 kills"; §5 "(defensive kills count)"
    # (polyenv follows Java: a defensive kill also counts for the tribe)
    env, c, T = work_city()
    for y in range(9):
        env.place_unit(0, "warrior", T(2, y))
        env.place_unit(1, "warrior", T(3, y), hp=1)
    for y in range(9):
        attack(env, T(2, y), T(3, y))
    assert env.player(0)["kills"] == 9
    assert "gate_of_power" not in available(env)
    env.place_unit(1, "warrior", T(1, 10), hp=1)
    env.place_unit(0, "warrior", T(0, 9))
    end_turn(env)
    attack(env, T(1, 10), T(0, 9))  # player 1 attacks and dies to the retaliation
    assert env.unit_at(T(1, 10)) is None
    assert env.player(0)["kills"] == 10
    assert "gate_of_power" in available(env)
    end_turn(env)
    s = score(env)
    act(env, "build", target=T(5, 6), arg="gate_of_power")  # no tech needed
    assert score(env) == s + 415


def test_park_of_fortune_when_a_city_reaches_level_5():
    # RULES §9.2: "Park of Fortune | — | any city reaches level 5 or higher"; §8.2 "Reaching L5+
    # (either option) makes Park of Fortune available."
    env = duel(11)
    c = at(env, 5, 5)
    env.place_city(0, c, level=4, population=5)
    assert env.pending_level_up is not None
    assert "park_of_fortune" not in available(env)
    act(env, "level_up", arg="super_unit")
    assert env.city_at(c)["level"] == 5
    assert "park_of_fortune" in available(env)
    assert is_legal(env, "build", target=at(env, 5, 6), arg="park_of_fortune")


def test_grand_bazaar_with_five_connected_cities():
    # RULES §9.2: "Grand Bazaar | Roads | ≥ 5 cities connected to the capital"
    env = GameEnv.blank(14, (0, 1))
    T = lambda x, y: at(env, x, y)  # noqa: E731
    env.place_city(1, T(12, 12), capital=True)
    env.place_city(0, T(1, 1), level=20, capital=True)
    for y in (3, 5, 7, 9, 11):
        env.place_city(0, T(1, y))
    for y in (2, 4, 6, 8):
        env.set_road(T(1, y))
    assert env.player(0)["connected_cities"] == 4
    assert "grand_bazaar" not in available(env)
    ensure_tech(env, 0, "riding", "roads")
    env.set_stars(0, 2)
    act(env, "build_road", target=T(1, 10))
    assert env.player(0)["connected_cities"] == 5
    assert "grand_bazaar" in available(env)
    assert is_legal(env, "build", target=T(0, 1), arg="grand_bazaar")


def test_tower_of_wisdom_after_researching_all_24_techs():
    # RULES §9.2: "Tower of Wisdom | Philosophy | all 24 techs researched through the Research action"
    env = duel(11)
    env.set_stars(0, 10000)
    for i, tech in enumerate(polyenv.TECHS):
        assert "tower_of_wisdom" not in available(env), tech
        act(env, "research", arg=tech)
    assert len(env.player(0)["techs"]) == 24
    assert "tower_of_wisdom" in available(env)
    assert is_legal(env, "build", target=at(env, 0, 1), arg="tower_of_wisdom")


def test_tower_of_wisdom_needs_the_research_action_to_complete_the_tree():
    # RULES §15 quirk 9: "Ruins research gives no score and does not unlock Tower of Wisdom." Tribes
    # (ResearchTechCommand, TechnologyTree.doResearch) checks for a complete tree only after a Research
    # action whose tech is a leaf (Shields or tier 3): a tech gained otherwise still counts towards the 24,
    # but a tree completed by ruins, or by researching a non-leaf tech last, never unlocks the Tower.
    env = duel(11)
    env.grant_tech(0, "climbing")
    env.set_stars(0, 10000)
    for tech in polyenv.TECHS:
        if tech != "climbing":
            act(env, "research", arg=tech)
    assert "tower_of_wisdom" in available(env)  # completed by Philosophy, a leaf
    env = duel(11)
    env.set_stars(0, 10000)
    climbing_subtree = ("meditation", "philosophy", "mining", "smithery")
    for tech in climbing_subtree:
        env.grant_tech(0, tech)
    for tech in polyenv.TECHS[1:]:
        if tech not in climbing_subtree:
            act(env, "research", arg=tech)
    act(env, "research", arg="climbing")  # completes the tree, but Climbing is no leaf
    assert len(env.player(0)["techs"]) == 24
    assert "tower_of_wisdom" not in available(env)


def test_eye_of_god_when_the_whole_map_is_revealed():
    # RULES §9.2: "Eye of God | Navigation | the whole map is revealed (fog mode only ...)"; §6 "revealing
    # the whole map makes Eye of God available"
    env = GameEnv.blank(8, (0, 1), revealed=False)
    T = lambda x, y: at(env, x, y)  # noqa: E731
    env.place_city(0, T(1, 1), capital=True)
    env.place_city(1, T(1, 6), capital=True)
    env.reveal(0, [t for t in range(env.num_tiles) if t != T(7, 7)])
    env.place_unit(0, "warrior", T(5, 5))
    assert "eye_of_god" not in available(env)
    move(env, T(5, 5), T(6, 6))  # reveals (7,7), the last tile
    assert all(env.tile(t)["explored"][0] for t in range(env.num_tiles))
    assert "eye_of_god" in available(env)
    assert not is_legal(env, "build", target=T(1, 2), arg="eye_of_god")  # Navigation missing
    ensure_tech(env, 0, "fishing", "sailing", "navigation")
    assert is_legal(env, "build", target=T(1, 2), arg="eye_of_god")
