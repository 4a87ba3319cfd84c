"""Fog of war as a pairing property: two worlds that differ only in what player 0
cannot see must give player 0 identical observations on every channel — map
tokens, state, action ids, rows, features and argument masks (with the combat
preview), the event journal (features, affected rows, sequence numbers), the
rendered views (text, ANSI, RGB), and the Gymnasium and PettingZoo
observations. Each pair reproduces one side channel found in issue 10.

The legal actions are computed on the true state (README, fog section), so the
hidden differences here stay out of reach of player 0's units and cities.
"""
import numpy as np
import pytest

import polyenv
from polyenv import GameEnv

from fog_pairs import OBSERVER, act, assert_same_view, base, hidden_edit_pairs, level_pair, tile

def test_hidden_spawn_does_not_shift_the_observers_unit_ids():
    # observed_unit_id used to come from the global id counter.
    a, b = base(), base()
    for env, hidden_spawn in ((a, True), (b, False)):
        act(env, "end_turn")
        if hidden_spawn:
            act(env, "spawn", source=tile(9, 9), arg="warrior")
        act(env, "end_turn")
        act(env, "spawn", source=tile(1, 1), arg="warrior")
    assert a.unit_at(tile(9, 9)) is not None and b.unit_at(tile(9, 9)) is None
    assert_same_view(a, b)


def test_hidden_actions_leave_no_gap_in_event_numbering():
    # action_sequence used to be the global action counter; hidden research also moves p1's score
    # (the render header used to print every score).
    a, b = base(), base()
    for env in (a, b):
        env.place_unit(1, "warrior", tile(8, 8))
    for env, hidden in ((a, True), (b, False)):
        act(env, "spawn", source=tile(1, 1), arg="warrior")
        act(env, "end_turn")
        if hidden:
            act(env, "move", source=tile(8, 8), target=tile(7, 7))
            act(env, "research", arg="riding")
        act(env, "end_turn")
        act(env, "move", source=tile(1, 1), target=tile(2, 2))
    assert a.scores()[1] != b.scores()[1]
    assert_same_view(a, b)


def test_territory_does_not_point_at_a_hidden_city():
    # territory_city_tile on a visible tile used to give the hidden centre's position.
    a, b = base(), base()
    a.place_city(1, tile(6, 6))
    b.place_city(1, tile(6, 5))
    for env in (a, b):
        env.reveal(0, [tile(5, 5)])
        assert env.tile(tile(5, 5))["owner"] == 1
    assert_same_view(a, b)


def test_connected_flag_does_not_reveal_hidden_roads():
    # An enemy city p0 sees at (4,4); roads (5,5)..(8,8) to its capital exist only in world a.
    a, b = base(), base()
    for env in (a, b):
        env.place_city(1, tile(4, 4))
    for t in (tile(5, 5), tile(6, 6), tile(7, 7), tile(8, 8)):
        a.set_road(t)
    assert a.city_at(tile(4, 4))["connected"] and not b.city_at(tile(4, 4))["connected"]
    assert_same_view(a, b)


def test_hidden_columns_stay_hidden():
    # Opponents' population, kills and research; crops and ore before Organization and Climbing.
    a, b = base(), base()
    a.place_city(1, tile(3, 4), population=1)
    b.place_city(1, tile(3, 4), population=0)
    a.place_unit(1, "warrior", tile(3, 3), kills=2)
    b.place_unit(1, "warrior", tile(3, 3), kills=0)
    for env in (a, b):
        env.set_terrain(tile(4, 0), "mountain")
    a.set_resource(tile(2, 3), "crops")
    a.set_resource(tile(4, 0), "ore")
    a.grant_tech(1, "organization")
    a.set_stars(1, 7)
    assert_same_view(a, b)
    # Once player 0 has the techs, the resources show (the pair is no longer equal).
    for env in (a, b):
        env.grant_tech(0, "organization")
        env.grant_tech(0, "climbing")
    res = list(polyenv.MAP_TOKEN_FEATURE_NAMES).index("resource")
    assert a.observe(0)["map_tokens"][tile(2, 3), res] != b.observe(0)["map_tokens"][tile(2, 3), res]


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_random_games_with_hidden_terrain_edits(seed):
    pairs = 0
    for a, b, edited in hidden_edit_pairs(seed):
        if edited == 0:
            continue
        assert a.full_map_numpy().tolist() != b.full_map_numpy().tolist()
        # The journal of the clone is the same; the view and every row must be too.
        assert_same_view(a, b)
        pairs += 1
    assert pairs > 0


def test_gymnasium_observations_pair():
    from polyenv.envs.gym_env import TribesEnv
    texts = level_pair()
    for action_mode in ("global", "rows"):
        envs = [TribesEnv(levels=[t], action_mode=action_mode, opponent="random") for t in texts]
        obs = [e.reset(seed=5)[0] for e in envs]
        steps = 0
        for _ in range(3):
            assert obs[0].keys() == obs[1].keys()
            for k in obs[0]:
                assert np.array_equal(obs[0][k], obs[1][k]), (action_mode, k)
            # A move of the learner's own unit (never End Turn: the opponents act on their own tiles).
            # The learner's own actions only (after End Turn the opponent acts on its own tiles).
            ids = np.flatnonzero(obs[0]["action_mask"])  # global ids, or row indices in "rows" mode
            own = [i for i in ids if not envs[0].describe_action(int(i)).startswith("end_turn")]
            if not own:
                break
            obs = [e.step(int(own[-1]))[0] for e in envs]
            steps += 1
        assert steps > 0


def test_pettingzoo_observations_pair():
    from polyenv.envs.tribes_aec import env as make_aec
    texts = level_pair()
    envs = [make_aec(levels=[t]).unwrapped for t in texts]
    for e in envs:
        e.reset(seed=5)
    steps = 0
    for _ in range(3):
        o = [e.observe("player_0") for e in envs]
        for k in ("map_tokens", "state"):
            assert np.array_equal(o[0]["observation"][k], o[1]["observation"][k]), k
        assert np.array_equal(o[0]["action_mask"], o[1]["action_mask"])
        own = [i for i in np.flatnonzero(o[0]["action_mask"])
               if not envs[0].game.describe_action(int(i)).startswith("end_turn")]
        if not own:
            break
        for e in envs:
            e.step(int(own[-1]))
        steps += 1
    assert steps > 0


def test_level_pair_differs_only_where_player_0_cannot_see():
    a, b = (GameEnv(seed=5, level=t) for t in level_pair())
    assert a.full_map_numpy().tolist() != b.full_map_numpy().tolist()
    assert_same_view(a, b)


def test_observed_unit_ids_are_numbered_at_first_sight():
    env = base()
    col = list(polyenv.MAP_TOKEN_FEATURE_NAMES).index("observed_unit_id")
    env.place_unit(1, "warrior", tile(8, 2))      # hidden from player 0
    env.place_unit(0, "warrior", tile(2, 2))
    env.place_unit(1, "rider", tile(9, 1))        # hidden from player 0
    tokens = env.observe(0)["map_tokens"]
    assert tokens[tile(2, 2), col] == 1 and tokens[tile(8, 2), col] == 0  # an unexplored tile is all zeros
    env.reveal(0, [tile(9, 1), tile(8, 2)])        # both at once: numbered in tile order
    tokens = env.observe(0)["map_tokens"]
    assert (tokens[tile(8, 2), col], tokens[tile(9, 1), col]) == (2, 3)
    env.check_invariants()


def test_text_legend_lists_only_what_the_observer_sees():
    # The text map's legend names the unit types, buildings, resources and terrains on the map: in a
    # player's view only those of the tiles it has explored.
    a, b = base(), base()
    for env in (a, b):
        env.place_unit(0, "warrior", tile(2, 2))
    a.place_unit(1, "knight", tile(8, 8))
    a.set_building(tile(8, 9), "sawmill")
    a.set_resource(tile(7, 9), "fruit")
    a.set_road(tile(9, 8))
    a.set_terrain(tile(6, 9), "forest")
    assert_same_view(a, b)
    view = a.render("text", player=OBSERVER)
    legend = view.splitlines()[1 + 11:]
    assert any(line.startswith("units: w warrior") for line in legend)
    for hidden in ("k knight", "S sawmill", "u fruit", "+ road", "f forest"):
        assert hidden not in view
        assert hidden in a.render("text") and hidden not in b.render("text")  # the truth lists it
    assert "players: A p0 Bardur, B p1 Imperius" in view  # the game's configuration
