"""The hidden observation columns, tested from Python (they were only checked
by the C++ self-tests, which ``pytest`` does not run): an opponent's city
population and production, its units' kills and home city read -1; crops, ore
and whales read -1 until the observer has Organization, Climbing and Fishing, or a
tech with a legal action on them (Farming, Mining, Whaling): whenever a legal action
of the observer depends on a resource, the observation shows it."""
import pytest

import polyenv
from polyenv import Bardur, GameEnv, Imperius

C = {name: i for i, name in enumerate(polyenv.MAP_TOKEN_FEATURE_NAMES)}
R = {name: i for i, name in enumerate(polyenv.RESOURCES)}


def board():
    env = GameEnv.blank(8, (Bardur, Imperius))
    env.place_city(0, 0, capital=True)
    env.place_city(1, 63, capital=True)
    city = 3 * 8 + 3
    env.place_city(1, city, level=2, population=2)
    env.place_unit(1, "warrior", city, kills=2)   # supported by the city on its tile
    return env, city


def test_opponents_city_and_unit_columns_are_hidden():
    env, city = board()
    assert env.unit_at(city)["kills"] == 2
    theirs = env.observe(player=0)["map_tokens"][city]
    mine = env.observe(player=1)["map_tokens"][city]
    for col in ("city_population", "city_production", "unit_kills", "unit_home_city_tile"):
        assert theirs[C[col]] == -1, col
    assert mine[C["city_population"]] == 2
    assert mine[C["city_production"]] == env.city_at(city)["production"] > 0
    assert mine[C["unit_kills"]] == 2
    assert mine[C["unit_home_city_tile"]] == city
    # The public columns are the same for both observers.
    for col in ("city_level", "unit_type", "unit_hp"):
        assert theirs[C[col]] == mine[C[col]], col


@pytest.mark.parametrize("terrain,resource,tech", [("plain", "crops", "organization"),
                                                   ("mountain", "ore", "climbing"),
                                                   ("shallow_water", "whales", "fishing")])
def test_resources_hidden_until_their_tech(terrain, resource, tech):
    env, _ = board()
    t = 5 * 8 + 1
    env.set_terrain(t, terrain)
    env.set_resource(t, resource)
    assert env.tile(t)["resource"] == resource
    assert env.observe(player=0)["map_tokens"][t, C["resource"]] == -1
    env.grant_tech(0, tech)
    assert env.observe(player=0)["map_tokens"][t, C["resource"]] == R[resource]
    assert env.observe(player=1)["map_tokens"][t, C["resource"]] == -1  # per observer


def test_whaling_without_fishing_shows_the_whales_it_can_gather():
    # Whaling can arrive without Fishing (a ruins or tribe-meeting tech); the whale gather is then
    # legal, so the token must show the whales the action rows already reveal.
    env, _ = board()
    t = 1 * 8 + 1  # inside player 0's capital territory
    env.set_terrain(t, "shallow_water")
    env.set_resource(t, "whales")
    env.grant_tech(0, "whaling")
    assert "fishing" not in env.player(0)["techs"]
    assert env.observe(player=0)["map_tokens"][t, C["resource"]] == R["whales"]


@pytest.mark.parametrize("terrain,resource", [("plain", "crops"), ("mountain", "ore"), ("shallow_water", "whales"),
                                              ("deep_water", "whales"), ("shallow_water", "fish"),
                                              ("plain", "fruit"), ("forest", "animal")])
def test_a_resource_shows_whenever_a_legal_action_depends_on_it(terrain, resource):
    # The observation must explain the observer's own legal list: whenever a legal action of the
    # observer is there only because of the resource (gathering it, a building that needs it), the
    # token shows it, whatever reveals it otherwise (RULES §2: Zebasi starts with Farming without
    # Organization, so "build farm" is legal on crops §4 would hide). Each tech alone, stars to spare.
    t = 1 * 8 + 1  # inside player 0's capital territory
    for tech in polyenv.TECHS:
        env, _ = board()
        env.set_terrain(t, terrain)
        env.set_stars(0, 100)
        env.grant_tech(0, tech)
        without = set(env.legal_actions().tolist())
        env.set_resource(t, resource)
        depends = set(env.legal_actions().tolist()) != without
        shown = env.observe(player=0)["map_tokens"][t, C["resource"]] == R[resource]
        assert shown or not depends, f"{tech}: a legal action depends on the {resource} the token hides"


@pytest.mark.parametrize("tech,terrain,resource,building", [("farming", "plain", "crops", "farm"),
                                                            ("mining", "mountain", "ore", "mine")])
def test_building_tech_without_the_revealing_tech_shows_the_resource(tech, terrain, resource, building):
    # Farming without Organization (Zebasi's start, RULES §2), Mining without Climbing: the building
    # is legal on the resource, so the observer sees it (only there: the other player does not).
    env, _ = board()
    t = 1 * 8 + 1
    env.set_terrain(t, terrain)
    env.set_resource(t, resource)
    env.set_stars(0, 10)
    env.grant_tech(0, tech)
    assert env.is_legal(env.action_id("build", target=t, arg=building))
    assert env.observe(player=0)["map_tokens"][t, C["resource"]] == R[resource]
    assert env.observe(player=1)["map_tokens"][t, C["resource"]] == -1
