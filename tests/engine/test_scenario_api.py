"""Scenario positions the rule tests need (issue 10): a fully observable blank
board, a city's population changed after place_city, and buildings placed with
their effects (the engine's own build code, no star cost)."""
import pytest

from polyenv import GameEnv


def two_capitals(**kw):
    env = GameEnv.blank(8, (0, 1), **kw)
    env.place_city(0, (3, 3), capital=True)
    env.place_city(1, (7, 7), capital=True)
    return env


def test_blank_full_observability_stays_fully_observable():
    env = two_capitals(full_observability=True)
    assert env.full_observability
    env.place_unit(1, "warrior", (6, 6))
    tokens = env.observe(player=0)["map_tokens"]
    assert (tokens == env.full_map_numpy()).all()
    assert not two_capitals().full_observability  # the default is unchanged
    with pytest.raises(ValueError, match="revealed"):
        GameEnv.blank(8, (0, 1), full_observability=True, revealed=False)


def test_blank_full_observability_survives_reset_and_pickle():
    import pickle

    env = two_capitals(full_observability=True)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.full_observability and copy == env
    env.reset()
    assert env.full_observability


def test_set_population_after_place_city():
    env = two_capitals()
    worth = env.city_at((3, 3))["worth"]
    env.set_population((3, 3), 1)
    city = env.city_at((3, 3))
    assert city["population"] == 1 and city["worth"] == worth + 5
    env.set_population((3, 3), 2)  # level 1 needs 2: the level-up is pending, as in play
    assert env.pending_level_up is not None and env.pending_level_up[0] == 27
    env.check_invariants()


@pytest.mark.parametrize("tile,population,match", [((2, 2), 1, "city centre"), ((3, 3), -2, "population"),
                                                  ((3, 3), 1001, "population")])
def test_set_population_rejects_and_changes_nothing(tile, population, match):
    env = two_capitals()
    before = env.to_bytes()
    with pytest.raises(ValueError, match=match):
        env.set_population(tile, population)
    assert env.to_bytes() == before


def test_buildings_with_effects_match_the_build_action():
    """A Farm placed with effects equals the Farm built by the action, minus its cost."""
    built, placed = two_capitals(), two_capitals()
    for env in (built, placed):
        env.set_resource((2, 3), "crops")
        env.grant_tech(0, "organization")
        env.grant_tech(0, "farming")
    built.set_stars(0, 5)
    built.step(built.action_id("build", target=(2, 3), arg="farm"))
    placed.set_building((2, 3), "farm", with_effects=True)
    assert placed.city_at((3, 3)) == built.city_at((3, 3))
    assert placed.player(0)["score"] == built.player(0)["score"]
    assert placed.tile((2, 3)) == built.tile((2, 3))


def test_customs_house_with_effects_pays_income():
    bare, full = two_capitals(), two_capitals()
    for env, effects in ((bare, False), (full, True)):
        env.set_terrain((3, 4), "shallow_water")
        env.set_building((3, 4), "port", with_effects=effects)
        env.set_building((2, 4), "customs_house", with_effects=effects)
        env.check_invariants()
    assert bare.city_at((3, 3))["population"] == 0 and bare.income(0) == 2
    # Port +2 population (RULES §9), the Customs House +2 production per adjacent port.
    assert full.city_at((3, 3))["population"] == 2 and full.income(0) == 4


def test_with_effects_needs_an_empty_tile():
    env = two_capitals()
    env.set_building((2, 2), "sawmill")
    before = env.to_bytes()
    with pytest.raises(ValueError, match="without a building"):
        env.set_building((2, 2), "farm", with_effects=True)
    assert env.to_bytes() == before
