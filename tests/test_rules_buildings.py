"""Building and tile-action rules (issue 3 item 2): RULES.md §9.1 gathering,
§9.2 buildings (costs, techs, terrain, population, score, adjacency, limits,
temples, monuments), §9.3 forest actions and Destroy, §9.4 roads and the trade
network (§3), §11 ruins and §10 diplomacy.

Board: ``duel(11)`` (capitals at (0,0) and (10,10)) plus a player-0 work city
at (5,5) of level 10 (so no level-up interrupts), territory (4..6, 4..6).
"""
from collections import Counter

import numpy as np
import pytest

import polyenv
from polyenv import Bardur, GameEnv

from conftest import act, aid, area, at, attack, duel, end_round, end_turn, ensure_tech, is_legal, move


def score(env, p=0):
    return env.player(p)["score"]


def pop(env, tile):
    return env.city_at(tile)["population"]


def advertised_gain(env, kind, target, arg):
    """The population_gain column of the action row of a legal action (the encoder's preview)."""
    obs = env.observe(max_actions=4096)
    row = np.flatnonzero(obs["action_id"] == aid(env, kind, target=target, arg=arg))
    assert row.size == 1
    return int(obs["action_features"][row[0], polyenv.ACTION_FEATURE_NAMES.index("population_gain")])


def work_city(map_size=11, level=10, **kw):
    env = duel(map_size)
    c = at(env, 5, 5)
    env.place_city(0, c, level=level, **kw)
    return env, c, (lambda x, y: at(env, x, y))


def available(env, p=0):
    return set(env.player(p)["monuments_available"])


def allegiance(env, a, b):
    return env.player(a)["allegiance"][b]


# ---------------------------------------------------------------- §9.2 buildings: cost, tech, terrain, effect

# (building, techs, cost, terrain, required resource, population, temple)
BASE_BUILDINGS = [
    ("farm", ("organization", "farming"), 5, "plain", "crops", 2, False),
    ("lumber_hut", ("hunting", "forestry"), 2, "forest", None, 1, False),
    ("mine", ("climbing", "mining"), 5, "mountain", "ore", 2, False),
    ("port", ("fishing", "sailing"), 10, "shallow_water", None, 2, False),
    ("temple", ("riding", "free_spirit"), 20, "plain", None, 1, True),
    ("water_temple", ("fishing", "whaling", "aquatism"), 20, "shallow_water", None, 1, True),
    ("water_temple", ("fishing", "whaling", "aquatism"), 20, "deep_water", None, 1, True),
    ("forest_temple", ("hunting", "archery", "spiritualism"), 15, "forest", None, 1, True),
    ("mountain_temple", ("climbing", "meditation"), 20, "mountain", None, 1, True),
]
INCIDENTAL = {"plain": "fruit", "forest": "animal", "mountain": "ore", "shallow_water": "fish", "deep_water": "whales"}


@pytest.mark.parametrize("building, techs, cost, terrain, resource, population, temple", BASE_BUILDINGS)
def test_building_cost_tech_terrain_population_score(building, techs, cost, terrain, resource, population, temple):
    # RULES §9.2 table: Farm 5 Farming plain with crops +2; Lumber Hut 2 Forestry forest +1 ("the tile
    # becomes plain"); Mine 5 Mining mountain with ore +2; Port 10 Sailing shallow water +2; Temple 20
    # Free Spirit plain; Water Temple 20 Aquatism shallow or deep water; Forest Temple 15 Spiritualism
    # forest; Mountain Temple 20 Meditation mountain: "+1 population, +100 score".
    # "The tribe must have the tech and the stars." "Building removes the tile's resource."
    # §12.3: "Population change | ±5 per point"; "Temple | +100 when built"
    env, c, T = work_city()
    t = T(5, 6)
    env.set_terrain(t, terrain)
    env.set_resource(t, resource or INCIDENTAL[terrain])
    env.set_stars(0, cost)
    assert not is_legal(env, "build", target=t, arg=building)  # tech missing
    ensure_tech(env, 0, *techs)
    env.set_stars(0, cost - 1)
    assert not is_legal(env, "build", target=t, arg=building)  # one star short
    env.set_stars(0, cost)
    p, s = pop(env, c), score(env)
    act(env, "build", target=t, arg=building)
    tile = env.tile(t)
    assert tile["building"] == building
    assert tile["resource"] is None
    assert tile["terrain"] == ("plain" if building == "lumber_hut" else terrain)  # [quirk 5]
    assert env.stars(0) == 0
    assert pop(env, c) == p + population
    assert score(env) == s + 5 * population + (100 if temple else 0)


ALLOWED_TERRAIN = {
    "farm": {"plain"}, "lumber_hut": {"forest"}, "mine": {"mountain"}, "port": {"shallow_water"},
    "temple": {"plain"}, "water_temple": {"shallow_water", "deep_water"}, "forest_temple": {"forest"},
    "mountain_temple": {"mountain"},
}


@pytest.mark.parametrize("building", sorted(ALLOWED_TERRAIN))
def test_building_only_on_its_terrain(building):
    # RULES §9.2: "The tile must ... be the right terrain and (where listed) have the right resource."
    techs = next(row[1] for row in BASE_BUILDINGS if row[0] == building)
    resource = next(row[4] for row in BASE_BUILDINGS if row[0] == building)
    env, c, T = work_city()
    ensure_tech(env, 0, *techs)
    env.set_stars(0, 50)
    t = T(5, 6)
    for terrain in ("plain", "forest", "mountain", "shallow_water", "deep_water"):
        env.set_terrain(t, terrain)
        env.set_resource(t, resource)
        assert is_legal(env, "build", target=t, arg=building) == (terrain in ALLOWED_TERRAIN[building]), terrain


@pytest.mark.parametrize("building, terrain, techs", [
    ("farm", "plain", ("organization", "farming")), ("mine", "mountain", ("climbing", "mining"))])
def test_farm_and_mine_need_their_resource(building, terrain, techs):
    # RULES §9.2: Farm "plain with crops", Mine "mountain with ore"
    env, c, T = work_city()
    ensure_tech(env, 0, *techs)
    env.set_stars(0, 10)
    t = T(5, 6)
    env.set_terrain(t, terrain)
    assert not is_legal(env, "build", target=t, arg=building)
    env.set_resource(t, "fruit" if terrain == "plain" else "animal")
    assert not is_legal(env, "build", target=t, arg=building)
    env.set_resource(t, "crops" if building == "farm" else "ore")
    assert is_legal(env, "build", target=t, arg=building)


def test_units_on_the_tile_do_not_matter_for_building():
    # RULES §9.2: "Units on the tile do not matter."
    env, c, T = work_city()
    ensure_tech(env, 0, "organization", "farming")
    env.set_stars(0, 5)
    t = T(5, 6)
    env.set_resource(t, "crops")
    env.place_unit(1, "warrior", t)
    act(env, "build", target=t, arg="farm")
    assert env.tile(t)["building"] == "farm"


def test_no_building_on_a_tile_that_has_one():
    # RULES §9.2: the tile must "have no building"
    env, c, T = work_city()
    ensure_tech(env, 0, "riding", "free_spirit", "organization", "farming")
    env.set_stars(0, 50)
    t = T(5, 6)
    env.set_resource(t, "crops")
    act(env, "build", target=t, arg="farm")
    assert not is_legal(env, "build", target=t, arg="temple")


def test_building_outside_the_city_territory_is_not_legal():
    # RULES §9.2: "The tile must be in the city's territory"
    env, c, T = work_city()
    ensure_tech(env, 0, "riding", "free_spirit")
    env.set_stars(0, 20)
    assert is_legal(env, "build", target=T(5, 6), arg="temple")
    assert not is_legal(env, "build", target=T(5, 7), arg="temple")  # distance 2, unowned
    assert not is_legal(env, "build", target=T(9, 9), arg="temple")  # the enemy's territory


# ---------------------------------------------------------------- §9.2 adjacency buildings

# (bonus building, its techs, base building, base terrain, base resource, base population, bonus per base)
BONUS_BUILDINGS = [
    ("windmill", ("organization", "farming", "construction"), "farm", "plain", "crops", 2, 1),
    ("sawmill", ("hunting", "forestry", "mathematics"), "lumber_hut", "forest", None, 1, 1),
    ("forge", ("climbing", "mining", "smithery"), "mine", "mountain", "ore", 2, 2),
]


def prepare_base(env, tile, terrain, resource):
    env.set_terrain(tile, terrain)
    if resource:
        env.set_resource(tile, resource)


@pytest.mark.parametrize("bonus, techs, base, terrain, resource, base_pop, per_base", BONUS_BUILDINGS)
def test_bonus_building_counts_bases_built_before_and_after(bonus, techs, base, terrain, resource, base_pop,
                                                           per_base):
    # RULES §9.2: Windmill 5 Construction "plain next to a Farm | +1 population per adjacent Farm (also
    # for Farms built later) | 1 per city"; Sawmill 5 Mathematics "plain next to a Lumber Hut | +1 per
    # adjacent Lumber Hut | 1 per city"; Forge 5 Smithery "plain next to a Mine | +2 per adjacent Mine |
    # 1 per city"
    env, c, T = work_city()
    ensure_tech(env, 0, *techs)
    env.set_stars(0, 100)
    a, b, site, second = T(4, 4), T(4, 6), T(4, 5), T(5, 4)
    prepare_base(env, a, terrain, resource)
    prepare_base(env, b, terrain, resource)
    assert not is_legal(env, "build", target=site, arg=bonus)  # no base building next to it yet
    act(env, "build", target=a, arg=base)
    p, s, stars = pop(env, c), score(env), env.stars(0)
    assert advertised_gain(env, "build", site, bonus) == per_base
    act(env, "build", target=site, arg=bonus)
    assert pop(env, c) == p + per_base
    assert score(env) == s + 5 * per_base
    assert env.stars(0) == stars - 5
    p = pop(env, c)
    assert advertised_gain(env, "build", b, base) == base_pop + per_base
    act(env, "build", target=b, arg=base)  # built later, next to the bonus building
    assert pop(env, c) == p + base_pop + per_base
    assert not is_legal(env, "build", target=second, arg=bonus)  # one per city (it is next to `a`)


def test_one_per_city_only_looks_at_this_city():
    # RULES §9.2: "The one-per-city check only looks at this city's tiles."
    env = duel(11)
    T = lambda x, y: at(env, x, y)  # noqa: E731
    env.place_city(0, T(5, 2), level=10)
    env.place_city(0, T(5, 7), level=10)
    ensure_tech(env, 0, "organization", "farming", "construction")
    env.set_stars(0, 100)
    for farm, mill in ((T(4, 1), T(4, 2)), (T(4, 8), T(4, 7))):
        env.set_resource(farm, "crops")
        act(env, "build", target=farm, arg="farm")
        act(env, "build", target=mill, arg="windmill")
        assert env.tile(mill)["building"] == "windmill"


def test_farm_next_to_another_citys_windmill_pays_the_windmill_city():
    # RULES §9.2: "Adjacency bonuses go to the city that owns the *other* building when the pair
    # belongs to two cities of the same tribe."  A Farm built in city A next to city B's Windmill:
    # A gets the Farm's +2, B (the windmill's city) the +1.
    env = duel(11)
    T = lambda x, y: at(env, x, y)  # noqa: E731
    a, b = T(5, 3), T(5, 6)  # territories (4..6, 2..4) and (4..6, 5..7)
    env.place_city(0, a, level=10)
    env.place_city(0, b, level=10)
    ensure_tech(env, 0, "organization", "farming", "construction")
    env.set_stars(0, 100)
    env.set_resource(T(4, 6), "crops")
    act(env, "build", target=T(4, 6), arg="farm")  # B's own farm, so B can build the windmill
    act(env, "build", target=T(4, 5), arg="windmill")
    pa, pb = pop(env, a), pop(env, b)
    env.set_resource(T(4, 4), "crops")
    assert advertised_gain(env, "build", T(4, 4), "farm") == 3  # the tribe's cities gain 2 + 1
    act(env, "build", target=T(4, 4), arg="farm")  # in A, next to B's windmill
    assert pop(env, a) == pa + 2
    assert pop(env, b) == pb + 1


def test_windmill_next_to_another_citys_farm_pays_the_farm_city():
    # RULES §9.2: "Adjacency bonuses go to the city that owns the *other* building when the pair
    # belongs to two cities of the same tribe."  A Windmill built in city B next to a Farm of city A:
    # the +1 goes to A (the farm's city), not to B.
    env = duel(11)
    T = lambda x, y: at(env, x, y)  # noqa: E731
    a, b = T(5, 3), T(5, 6)
    env.place_city(0, a, level=10)
    env.place_city(0, b, level=10)
    ensure_tech(env, 0, "organization", "farming", "construction")
    env.set_stars(0, 100)
    env.set_resource(T(4, 4), "crops")
    act(env, "build", target=T(4, 4), arg="farm")  # A's farm
    pa, pb = pop(env, a), pop(env, b)
    act(env, "build", target=T(4, 5), arg="windmill")  # B's windmill, next to A's farm only
    assert pop(env, a) == pa + 1
    assert pop(env, b) == pb


def test_windmill_next_to_an_enemy_farm_only_is_buildable():
    # RULES §9.2: "Windmill | Construction | plain next to a Farm" — any Farm: Tribes' Build.isBuildable
    # checks the neighbouring buildings on the board, whoever owns them.
    env = duel(11)
    T = lambda x, y: at(env, x, y)  # noqa: E731
    env.place_city(0, T(5, 3), level=10)
    env.place_city(1, T(5, 6), level=10)
    ensure_tech(env, 1, "organization", "farming")
    ensure_tech(env, 0, "organization", "farming", "construction")
    env.set_stars(1, 100)
    env.set_stars(0, 100)
    env.set_resource(T(4, 5), "crops")
    env.set_current_player(1)
    act(env, "build", target=T(4, 5), arg="farm")  # player 1's farm
    env.set_current_player(0)
    assert is_legal(env, "build", target=T(4, 4), arg="windmill")  # player 0's tile, next to it only


def test_customs_house_next_to_another_citys_port_pays_the_port_city():
    # RULES §9.2: "Adjacency bonuses go to the city that owns the *other* building when the pair
    # belongs to two cities of the same tribe."  A Customs House built in city A next to a Port of
    # city B: the +2 production goes to B.
    env = duel(11)
    T = lambda x, y: at(env, x, y)  # noqa: E731
    a, b = T(5, 3), T(5, 6)
    env.place_city(0, a, level=10)
    env.place_city(0, b, level=10)
    env.set_terrain(T(4, 5), "shallow_water")
    env.set_building(T(4, 5), "port")  # B's port
    ensure_tech(env, 0, "riding", "roads", "trade")
    env.set_stars(0, 5)
    prod_a, prod_b = env.city_at(a)["production"], env.city_at(b)["production"]
    assert advertised_gain(env, "build", T(4, 4), "customs_house") == 0  # stars, not population
    act(env, "build", target=T(4, 4), arg="customs_house")  # A's tile, next to B's port only
    assert env.city_at(b)["production"] == prod_b + 2
    assert env.city_at(a)["production"] == prod_a


@pytest.mark.parametrize("foreign_first, expected", [(True, 0), (False, 1)])
def test_adjacency_stops_at_first_foreign_matching_building(foreign_first, expected):
    # RULES §9.2: "They stop at the first *matching* neighbouring building that belongs to another
    # tribe."  Neighbours are visited row by row ((x-1, y-1), (x-1, y), ..., (x+1, y+1)). A Windmill at
    # (5,5) with player 1's Farm and one own Farm next to it: the own Farm counts only if it comes
    # before the foreign one.
    env = duel(11)
    T = lambda x, y: at(env, x, y)  # noqa: E731
    if foreign_first:
        env.place_city(1, T(3, 3))   # owns (4,4), the first neighbour of (5,5)
        env.place_city(0, T(6, 6))   # owns (5,5) and (6,5)
        foreign, own = T(4, 4), T(6, 5)
    else:
        env.place_city(1, T(7, 3))   # owns (6,4), the 6th neighbour
        env.place_city(0, T(4, 6))   # owns (5,5) and (4,5), the 2nd neighbour
        foreign, own = T(6, 4), T(4, 5)
    env.set_building(foreign, "farm")
    env.set_building(own, "farm")
    ensure_tech(env, 0, "organization", "farming", "construction")
    env.set_stars(0, 5)
    city = T(6, 6) if foreign_first else T(4, 6)
    p = pop(env, city)
    assert advertised_gain(env, "build", T(5, 5), "windmill") == expected
    act(env, "build", target=T(5, 5), arg="windmill")
    assert pop(env, city) == p + expected


def test_customs_house_production_per_port_including_later_ports():
    # RULES §9.2: "Customs House | 5 | Trade | plain next to a Port | production +2 per adjacent Port |
    # 1 per city"; §3 "Bonus = ... +2 per port adjacent to the city's Customs House. ... Customs Houses
    # are the only star effect of ports."
    env, c, T = work_city()
    ensure_tech(env, 0, "fishing", "sailing", "riding", "roads", "trade")
    env.set_stars(0, 100)
    for t in (T(4, 4), T(6, 4), T(6, 5)):
        env.set_terrain(t, "shallow_water")
    assert not is_legal(env, "build", target=T(5, 4), arg="customs_house")  # no port yet
    act(env, "build", target=T(4, 4), arg="port")
    act(env, "build", target=T(6, 4), arg="port")
    prod, income, p, s = env.city_at(c)["production"], env.income(0), pop(env, c), score(env)
    act(env, "build", target=T(5, 4), arg="customs_house")
    assert env.city_at(c)["production"] == prod + 4
    assert env.income(0) == income + 4
    assert (pop(env, c), score(env)) == (p, s)  # no population or score
    act(env, "build", target=T(6, 5), arg="port")  # a port built later, next to it
    assert env.city_at(c)["production"] == prod + 6
    assert not is_legal(env, "build", target=T(4, 5), arg="customs_house")  # 1 per city


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
