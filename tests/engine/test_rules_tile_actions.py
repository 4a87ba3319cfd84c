"""Tile actions (RULES.md §9.1, §9.3): gathering each resource, the forest actions
(clear, burn, grow) and Destroy, which reverses a building's population, adjacency and score.

Board: the work city of rules_board.py (player 0's level-10 city at (5,5) on ``duel(11)``).
"""
import pytest

import polyenv

from conftest import act, end_round, ensure_tech, is_legal
from rules_board import score, pop, work_city


# ---------------------------------------------------------------- §9.3 forest actions

def forest_city():
    env, c, T = work_city()
    t = T(5, 6)
    env.set_terrain(t, "forest")
    env.set_resource(t, "animal")
    return env, c, T, t


def test_clear_forest():
    # RULES §9.3: "Clear Forest | Forestry | +2 (gain) | forest → plain; any resource stays"
    env, c, T, t = forest_city()
    assert not is_legal(env, "clear_forest", target=t)
    ensure_tech(env, 0, "hunting", "forestry")
    act(env, "clear_forest", target=t)
    assert env.tile(t)["terrain"] == "plain" and env.tile(t)["resource"] == "animal"
    assert env.stars(0) == 2
    assert not is_legal(env, "clear_forest", target=t)  # no longer a forest


def test_burn_forest():
    # RULES §9.3: "Burn Forest | Chivalry | −5 | forest → plain with Crops (replaces any resource)"
    env, c, T, t = forest_city()
    env.set_stars(0, 5)
    assert not is_legal(env, "burn_forest", target=t)
    ensure_tech(env, 0, "riding", "free_spirit", "chivalry")
    env.set_stars(0, 4)
    assert not is_legal(env, "burn_forest", target=t)
    env.set_stars(0, 5)
    act(env, "burn_forest", target=t)
    assert env.tile(t)["terrain"] == "plain" and env.tile(t)["resource"] == "crops"
    assert env.stars(0) == 0


def test_grow_forest():
    # RULES §9.3: "Grow Forest | Spiritualism | −5 | plain → forest; resource removed"
    env, c, T = work_city()
    t = T(5, 6)
    env.set_resource(t, "fruit")
    env.set_stars(0, 5)
    assert not is_legal(env, "grow_forest", target=t)
    ensure_tech(env, 0, "hunting", "archery", "spiritualism")
    env.set_stars(0, 4)
    assert not is_legal(env, "grow_forest", target=t)
    env.set_stars(0, 5)
    act(env, "grow_forest", target=t)
    assert env.tile(t)["terrain"] == "forest" and env.tile(t)["resource"] is None
    assert env.stars(0) == 0
    assert not is_legal(env, "grow_forest", target=t)


def test_forest_actions_need_territory():
    # RULES §9.3: "The tile must be in the city's territory."
    env, c, T = work_city()
    ensure_tech(env, 0, "hunting", "forestry", "archery", "spiritualism", "riding", "free_spirit", "chivalry")
    env.set_stars(0, 20)
    out = T(5, 7)
    env.set_terrain(out, "forest")
    assert not is_legal(env, "clear_forest", target=out)
    assert not is_legal(env, "burn_forest", target=out)
    assert not is_legal(env, "grow_forest", target=T(5, 8))


def test_forest_actions_ignore_units_and_buildings_quirk():
    # RULES §9.3: "None of these checks whether the tile has a building or a unit **[quirk]**."
    env, c, T = work_city()
    ensure_tech(env, 0, "hunting", "forestry", "archery", "spiritualism", "riding", "free_spirit", "chivalry")
    env.set_stars(0, 20)
    f = T(5, 6)
    env.set_terrain(f, "forest")
    env.set_building(f, "forest_temple")
    env.place_unit(1, "warrior", f)
    assert is_legal(env, "clear_forest", target=f)
    assert is_legal(env, "burn_forest", target=f)
    p = T(4, 4)
    env.set_building(p, "temple")
    env.place_unit(0, "warrior", p)
    assert is_legal(env, "grow_forest", target=p)


# ---------------------------------------------------------------- §9.3 destroy

def test_destroy_farm_reverses_population_and_score():
    # RULES §9.3: "Destroy | Construction | 0 | removes this city's building and reverses its
    # population, production and score effects"
    env, c, T = work_city()
    ensure_tech(env, 0, "organization", "farming")
    env.set_stars(0, 5)
    env.set_resource(T(5, 6), "crops")
    p, s = pop(env, c), score(env)
    act(env, "build", target=T(5, 6), arg="farm")
    assert not is_legal(env, "destroy", target=T(5, 6))  # Construction missing
    ensure_tech(env, 0, "construction")
    act(env, "destroy", target=T(5, 6))
    assert env.tile(T(5, 6))["building"] is None
    assert pop(env, c) == p and score(env) == s  # back to before the farm
    # (the 5 stars are not refunded)
    assert env.stars(0) == 0


def test_destroy_windmill_and_farm_reverse_adjacency():
    # RULES §9.3: Destroy "reverses its population ... effects" (adjacency included)
    env, c, T = work_city()
    ensure_tech(env, 0, "organization", "farming", "construction")
    env.set_stars(0, 100)
    for t in (T(4, 4), T(4, 6)):
        env.set_resource(t, "crops")
        act(env, "build", target=t, arg="farm")
    act(env, "build", target=T(4, 5), arg="windmill")
    p = pop(env, c)
    act(env, "destroy", target=T(4, 5))
    assert pop(env, c) == p - 2
    act(env, "build", target=T(4, 5), arg="windmill")
    p = pop(env, c)
    act(env, "destroy", target=T(4, 4))  # a farm next to the windmill: -2 and the windmill's -1
    assert pop(env, c) == p - 3


def test_destroy_customs_house_reverses_production():
    # RULES §9.3: Destroy reverses "production" effects
    env, c, T = work_city()
    ensure_tech(env, 0, "fishing", "sailing", "riding", "roads", "trade", "organization", "farming",
                "construction")
    env.set_stars(0, 100)
    env.set_terrain(T(4, 4), "shallow_water")
    act(env, "build", target=T(4, 4), arg="port")
    prod = env.city_at(c)["production"]
    act(env, "build", target=T(5, 4), arg="customs_house")
    assert env.city_at(c)["production"] == prod + 2
    act(env, "destroy", target=T(5, 4))
    assert env.city_at(c)["production"] == prod


def test_destroy_temple_removes_its_points_deliberate_fix():
    # RULES header: polyenv fixes quirk 6: "destroying a temple *removes* its points" (Tribes adds them,
    # §9.3 [quirk]); §9.3 "reverses its population ... and score effects"
    env, c, T = work_city()
    ensure_tech(env, 0, "riding", "free_spirit", "organization", "farming", "construction")
    env.set_stars(0, 20)
    s0, w0 = score(env), env.city_at(c)["worth"]
    act(env, "build", target=T(5, 6), arg="temple")
    for _ in range(6):
        end_round(env)
    assert env.tile(T(5, 6))["building_level"] == 3
    assert score(env) == s0 + 100 + 50 + 50 + 5
    act(env, "destroy", target=T(5, 6))
    assert env.tile(T(5, 6))["building"] is None
    assert score(env) == s0
    assert env.city_at(c)["worth"] == w0


def test_destroy_monument_removes_400():
    # RULES §12.3: "Monument | +400 (−400 if destroyed)"
    env, c, T = work_city()
    ensure_tech(env, 0, "climbing", "meditation", "organization", "farming", "construction")
    for _ in range(5):
        end_round(env)
    act(env, "build", target=T(5, 6), arg="altar_of_peace")
    s, p = score(env), pop(env, c)
    act(env, "destroy", target=T(5, 6))
    assert score(env) == s - 400 - 15
    assert pop(env, c) == p - 3


def test_destroy_only_own_city_buildings():
    # RULES §9.3: "removes this city's building"; "The tile must be in the city's territory."
    env, c, T = work_city()
    ensure_tech(env, 0, "organization", "farming", "construction")
    env.set_building(T(9, 9), "farm")  # player 1's territory
    assert not is_legal(env, "destroy", target=T(9, 9))


# ---------------------------------------------------------------- §9.1 gathering

@pytest.mark.parametrize("resource, terrain, techs, cost, population, stars_gain", [
    ("fruit", "plain", ("organization",), 2, 1, 0),
    ("animal", "forest", ("hunting",), 2, 1, 0),
    ("fish", "shallow_water", ("fishing",), 2, 1, 0),
    ("whales", "deep_water", ("fishing", "whaling"), 0, 0, 10),
    ("whales", "shallow_water", ("fishing", "whaling"), 0, 0, 10),
])
def test_gather_each_resource(resource, terrain, techs, cost, population, stars_gain):
    # RULES §9.1: "Fruit | Organization | 2 | +1 population", "Animal | Hunting | 2 | +1 population",
    # "Fish | Fishing | 2 | +1 population", "Whales | Whaling | 0 | +10 stars"; "The resource is
    # removed."  §1.2: whales "can end up on shallow after the capital fix-up step"
    env, c, T = work_city()
    t = T(5, 6)
    env.set_terrain(t, terrain)
    env.set_resource(t, resource)
    env.set_stars(0, cost)
    ensure_tech(env, 0, *techs[:-1])
    assert not is_legal(env, "gather", target=t)  # the last tech is missing
    ensure_tech(env, 0, techs[-1])
    if cost:
        env.set_stars(0, cost - 1)
        assert not is_legal(env, "gather", target=t)
        env.set_stars(0, cost)
    p, s = pop(env, c), score(env)
    act(env, "gather", target=t)
    assert env.tile(t)["resource"] is None
    assert env.stars(0) == stars_gain
    assert pop(env, c) == p + population
    assert score(env) == s + 5 * population
    assert not is_legal(env, "gather", target=t)


@pytest.mark.parametrize("resource, terrain", [("crops", "plain"), ("ore", "mountain"), ("ruins", "plain")])
def test_crops_ore_ruins_cannot_be_gathered(resource, terrain):
    # RULES §9.1: "Crops, Ore | — | — | cannot be gathered; they are Farm and Mine sites" (ruins are examined)
    env, c, T = work_city()
    t = T(5, 6)
    env.set_terrain(t, terrain)
    env.set_resource(t, resource)
    ensure_tech(env, 0, *polyenv.TECHS)
    env.set_stars(0, 50)
    assert not is_legal(env, "gather", target=t)
