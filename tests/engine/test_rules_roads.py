"""Roads and the trade network (RULES.md §10, §9.4, §3): road cost, tech and terrain, and
which cities a road or port connects to the capital, and when the population is paid.

Board: ``duel(11)`` and the work city of rules_board.py.
"""
import pytest

from polyenv import GameEnv

from conftest import act, at, duel, end_round, end_turn, ensure_tech, is_legal
from rules_board import score, pop


# ---------------------------------------------------------------- §10 / §9.4 roads

def road_env():
    env = duel(11)
    ensure_tech(env, 0, "riding", "roads")
    env.set_stars(0, 2)
    return env, (lambda x, y: at(env, x, y))


def test_build_road_cost_and_tech():
    # RULES §10: "Build Road | Roads tech, 2 stars. Tile must be revealed, plain/forest/village, neutral
    # or own territory, not already a network tile, and without an enemy unit"
    env = duel(11)
    t = at(env, 5, 5)
    env.set_stars(0, 2)
    assert not is_legal(env, "build_road", target=t)  # no Roads
    ensure_tech(env, 0, "riding", "roads")
    env.set_stars(0, 1)
    assert not is_legal(env, "build_road", target=t)
    env.set_stars(0, 2)
    act(env, "build_road", target=t)
    assert env.tile(t)["road"] is True
    assert env.stars(0) == 0
    env.set_stars(0, 2)
    assert not is_legal(env, "build_road", target=t)  # already a road


@pytest.mark.parametrize("terrain, legal", [("plain", True), ("forest", True), ("village", True),
                                            ("mountain", False), ("shallow_water", False), ("deep_water", False)])
def test_build_road_terrain(terrain, legal):
    # RULES §10: Build Road tile must be "plain/forest/village"; "Tribes has no bridges" (issue 3)
    env, T = road_env()
    env.set_terrain(T(5, 5), terrain)
    assert is_legal(env, "build_road", target=T(5, 5)) == legal


def test_build_road_territory_units_and_cities():
    # RULES §10: "neutral or own territory ... without an enemy unit"
    env, T = road_env()
    assert is_legal(env, "build_road", target=T(0, 1))      # own territory
    assert is_legal(env, "build_road", target=T(5, 5))      # neutral, far from any city
    assert not is_legal(env, "build_road", target=T(9, 9))  # enemy territory
    assert not is_legal(env, "build_road", target=T(0, 0))  # a city centre is not plain/forest/village
    env.place_unit(1, "warrior", T(5, 5))
    env.place_unit(0, "warrior", T(5, 6))
    assert not is_legal(env, "build_road", target=T(5, 5))  # enemy unit
    assert is_legal(env, "build_road", target=T(5, 6))      # own unit is fine


def test_build_road_needs_revealed_tile():
    # RULES §10: "Tile must be revealed"
    env = GameEnv.blank(8, (0, 1), revealed=False)
    ensure_tech(env, 0, "riding", "roads")
    env.set_stars(0, 2)
    t = at(env, 4, 4)
    assert not is_legal(env, "build_road", target=t)
    env.reveal(0, [t])
    assert is_legal(env, "build_road", target=t)


# ---------------------------------------------------------------- §3 / §9.4 trade network

def test_road_connection_gives_population_to_city_and_capital():
    # RULES §3: "The trade network gives population, not stars: a city that connects to the capital gets
    # +1 ... and the capital gets +1 per connected city"; §9.4 network tiles: "its own city centres; its
    # own ports; road tiles that are neutral or in its own territory"
    env = GameEnv.blank(11, (0, 1))
    T = lambda x, y: at(env, x, y)  # noqa: E731
    cap, city = T(2, 2), T(2, 6)
    env.place_city(1, T(10, 10), capital=True)
    env.place_city(0, cap, level=10, capital=True)
    env.place_city(0, city)
    env.set_road(T(2, 3))  # capital territory
    env.set_road(T(2, 4))  # neutral
    assert not env.city_at(city)["connected"]
    ensure_tech(env, 0, "riding", "roads")
    env.set_stars(0, 2)
    pc, pcity, s, income = pop(env, cap), pop(env, city), score(env), env.income(0)
    act(env, "build_road", target=T(2, 5))  # the new city's territory closes the link
    assert env.city_at(city)["connected"]
    assert pop(env, city) == pcity + 1
    assert pop(env, cap) == pc + 1
    assert score(env) == s + 10
    assert env.income(0) == income  # population, not stars
    assert env.player(0)["connected_cities"] == 1


def test_connection_made_on_another_tribes_turn_gives_the_city_nothing():
    # RULES §3: "a city that connects to the capital gets +1 (on its owner's turn) and the capital gets +1
    # per connected city". Tribes (Tribe.updateNetwork) pays the city only when the link appears on its
    # owner's turn; a link closed by another tribe's neutral road pays the capital alone, and the city
    # never gets it later.
    env = GameEnv.blank(11, (0, 1))
    T = lambda x, y: at(env, x, y)  # noqa: E731
    cap, city = T(2, 2), T(2, 6)
    env.place_city(1, T(10, 10), capital=True)
    env.place_city(0, cap, level=10, capital=True)
    env.place_city(0, city)
    env.set_road(T(2, 3))
    env.set_road(T(2, 5))
    env.set_current_player(1)
    ensure_tech(env, 1, "riding", "roads")
    env.set_stars(1, 2)
    pc, pcity = pop(env, cap), pop(env, city)
    act(env, "build_road", target=T(2, 4))  # neutral: player 1 closes player 0's link
    assert env.city_at(city)["connected"]
    assert pop(env, cap) == pc + 1
    assert pop(env, city) == pcity
    end_round(env)
    assert pop(env, city) == pcity


def test_village_captured_by_another_tribe_cuts_a_road_through_its_new_territory():
    # RULES §9.4: network road tiles are "neutral or in its own territory"; §3: "disconnecting reverses both"
    # (the city's +1 and the capital's +1). A village captured by another tribe claims the neutral road tile:
    # the link breaks at once (Tribes' Board.capture recomputes every tribe's network).
    env = GameEnv.blank(11, (0, 1))
    T = lambda x, y: at(env, x, y)  # noqa: E731
    cap, city, village = T(2, 2), T(2, 6), T(3, 4)
    env.place_city(1, T(10, 10), capital=True)
    env.place_city(0, cap, level=10, capital=True)
    env.place_city(0, city)
    for y in (3, 4, 5):
        env.set_road(T(2, y))  # (2,4) is neutral
    assert env.city_at(city)["connected"]
    env.set_terrain(village, "village")
    env.set_current_player(1)
    env.place_unit(1, "warrior", village)
    pc, pcity = pop(env, cap), pop(env, city)
    act(env, "capture", source=village)
    assert env.tile(T(2, 4))["owner"] == 1
    assert not env.city_at(city)["connected"] and env.player(0)["connected_cities"] == 0
    assert (pop(env, cap), pop(env, city)) == (pc - 1, pcity - 1)


def test_any_road_drops_a_link_an_enemy_border_growth_cut():
    # RULES §9.4: network road tiles are "neutral or in its own territory"; §3: "disconnecting reverses both".
    # Tribes recomputes every tribe's network only at a road, a port or a capture (TradeNetwork
    # .setTradeNetwork), not at a Border Growth: the cut link stays counted until then, and the next road
    # anywhere drops it, even on a tribe whose cities all looked linked (differential game 714 of seed 10).
    env = GameEnv.blank(11, (0, 1))
    T = lambda x, y: at(env, x, y)  # noqa: E731
    cap, city, enemy = T(2, 2), T(2, 6), T(4, 4)
    env.place_city(0, cap, level=10, capital=True)
    env.place_city(0, city)
    env.place_city(1, enemy, level=3, population=3, capital=True)
    for y in (3, 4, 5):
        env.set_road(T(2, y))  # (2,4) is neutral, two tiles from the enemy city
    assert env.city_at(city)["connected"]
    env.set_current_player(1)
    env.set_resource(T(4, 5), "fruit")
    ensure_tech(env, 1, "organization")
    env.set_stars(1, 10)
    act(env, "gather", target=T(4, 5))
    act(env, "level_up", arg="border_growth")
    assert env.tile(T(2, 4))["owner"] == 1
    assert env.city_at(city)["connected"]  # no recomputation yet
    act(env, "end_turn")
    assert env.current_player == 0 and env.city_at(city)["connected"]
    ensure_tech(env, 0, "riding", "roads")
    env.set_stars(0, 2)
    pc, pcity, s = pop(env, cap), pop(env, city), score(env)
    act(env, "build_road", target=T(8, 0))  # far from both cities
    assert not env.city_at(city)["connected"] and env.player(0)["connected_cities"] == 0
    assert (pop(env, cap), pop(env, city), score(env)) == (pc - 1, pcity - 1, s - 10)


def test_road_through_enemy_territory_does_not_link():
    # RULES §9.4: "road tiles that are neutral or in its own territory"
    env = GameEnv.blank(11, (0, 1))
    T = lambda x, y: at(env, x, y)  # noqa: E731
    env.place_city(1, T(1, 4), capital=True)  # owns (0..2, 3..5)
    env.place_city(0, T(2, 1), level=10, capital=True)
    env.place_city(0, T(2, 7))
    for y in range(2, 7):
        env.set_road(T(2, y))
    assert not env.city_at(T(2, 7))["connected"]
    assert env.player(0)["connected_cities"] == 0


@pytest.mark.parametrize("steps, linked", [(4, True), (5, False)])
def test_ports_link_over_at_most_4_water_steps(steps, linked):
    # RULES §9.4: "Two of its own ports are also linked if a water path of ≤ 4 steps exists over revealed
    # water tiles that are neutral or its own."  Ports are network nodes ("Port ... trade-network node").
    env = GameEnv.blank(12, (0, 1))
    T = lambda x, y: at(env, x, y)  # noqa: E731
    for y in range(12):
        env.set_terrain(T(2, y), "shallow_water")
    env.place_city(1, T(10, 10), capital=True)
    env.place_city(0, T(1, 1), level=10, capital=True)
    env.place_city(0, T(1, 1 + steps))
    env.set_building(T(2, 1), "port")
    ensure_tech(env, 0, "fishing", "sailing")
    env.set_stars(0, 10)
    act(env, "build", target=T(2, 1 + steps), arg="port")
    assert env.city_at(T(1, 1 + steps))["connected"] == linked


def test_destroying_a_port_leaves_the_network():
    # RULES §9.3: "A removed port also leaves the trade network"; §3 "disconnecting reverses both"
    env = GameEnv.blank(12, (0, 1))
    T = lambda x, y: at(env, x, y)  # noqa: E731
    for y in range(12):
        env.set_terrain(T(2, y), "shallow_water")
    env.place_city(1, T(10, 10), capital=True)
    cap, city = T(1, 1), T(1, 4)
    env.place_city(0, cap, level=10, capital=True)
    env.place_city(0, city, level=10)
    env.set_building(T(2, 1), "port")
    ensure_tech(env, 0, "fishing", "sailing", "organization", "farming", "construction")
    env.set_stars(0, 10)
    pc, pcity = pop(env, cap), pop(env, city)
    act(env, "build", target=T(2, 4), arg="port")
    assert env.city_at(city)["connected"]
    assert pop(env, city) == pcity + 2 + 1 and pop(env, cap) == pc + 1
    act(env, "destroy", target=T(2, 4))
    assert not env.city_at(city)["connected"]
    assert pop(env, city) == pcity and pop(env, cap) == pc


def test_captured_connected_city_leaves_the_network_after_its_worth_moved():
    # RULES §8.4: "Its worth moves from the old owner's score to the captor's"; §3: disconnecting reverses the
    # network's +1s. Tribes moves the worth first (CaptureCommand) and then drops the city from the loser's
    # network (Tribe.updateNetwork), charging that population point to the loser.
    env = GameEnv.blank(11, (0, 1))
    T = lambda x, y: at(env, x, y)  # noqa: E731
    cap, city = T(2, 2), T(2, 5)
    env.place_city(1, T(10, 10), capital=True)
    env.place_city(0, cap, level=10, capital=True)
    env.place_city(0, city)
    env.set_road(T(2, 3))
    env.set_road(T(2, 4))
    assert env.city_at(city)["connected"]
    env.place_unit(1, "warrior", city)
    end_turn(env)
    worth, s0, s1 = env.city_at(city)["worth"], score(env, 0), score(env, 1)
    act(env, "capture", source=city)
    assert score(env, 1) == s1 + worth
    assert score(env, 0) == s0 - worth - 5 - 5  # the city's and the capital's network point
    assert env.city_at(city)["worth"] == worth - 5


def test_no_network_without_the_capital():
    # RULES §9.4: "Network for a tribe (only while it holds its own capital)"
    env = GameEnv.blank(11, (0, 1))
    T = lambda x, y: at(env, x, y)  # noqa: E731
    cap, city = T(2, 2), T(2, 5)
    env.place_city(1, T(10, 10), capital=True)
    env.place_city(0, cap, level=10, capital=True)
    env.place_city(0, city)
    env.set_road(T(2, 3))
    env.set_road(T(2, 4))
    assert env.city_at(city)["connected"]
    env.place_unit(1, "warrior", cap)
    end_turn(env)
    p = pop(env, city)
    act(env, "capture", source=cap)
    assert env.city_at(cap)["owner"] == 1
    assert not env.city_at(city)["connected"]
    assert env.player(0)["connected_cities"] == 0
    # Tribes' Tribe.updateNetwork just clears the network of a tribe without its capital: the cities keep
    # the population their link gave them.
    assert pop(env, city) == p
