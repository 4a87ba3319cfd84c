"""Building rules (RULES.md §9.2): costs, techs, terrain, population and score of the base
buildings, and the adjacency buildings (windmill, forge, sawmill, customs house) with their
one-per-city limit and the cities they pay.

Board: ``duel(11)`` (capitals at (0,0) and (10,10)) plus a player-0 work city at (5,5) of
level 10 (so no level-up interrupts), territory (4..6, 4..6); see rules_board.py.
"""
import pytest

from conftest import act, at, duel, ensure_tech, is_legal
from rules_board import score, pop, advertised_gain, work_city


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
