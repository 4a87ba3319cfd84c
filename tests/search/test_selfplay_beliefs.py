"""The baseline belief (polyenv.selfplay.beliefs.empty_world_completion) and SelfPlayPool.fit_beliefs:
the actor's own legal list is part of its observation, so the baseline adds what that list proves
about hidden rows (units whose zone of control ends a move, own territory and buildings on hidden
tiles) and is accepted in every position; what it adds depends on nothing the actor cannot see;
rejections name the game, the player and what to do."""
import os

import numpy as np
import pytest

import polyenv
from polyenv import Bardur, GameEnv, Imperius, SelfPlayPool
from polyenv.selfplay.beliefs import EMPTY_HIDDEN_ROW, empty_world_completion

from conftest import act, at, ensure_tech

C = {name: i for i, name in enumerate(polyenv.MAP_TOKEN_FEATURE_NAMES)}


def pool_at(env):
    """A one-game pool whose live game is `env` (player 0 to move), and its request."""
    players = tuple(env.player(p)["tribe_key"] for p in range(env.num_players))
    pool = SelfPlayPool(1, seed=0, map_size=env.map_size, players=players, num_threads=1, max_actions=0)
    pool.reset(seed=0)
    pool._native._load_state(0, env.to_bytes())
    return pool, pool.belief_requests()


def baseline(pool, req):
    return empty_world_completion(pool.all_player_belief_requests()["map_tokens"][:, :, None], request=req, pool=pool)


def hole_board(hidden, terrain="plain"):
    """An 8x8 fog board where player 0 has explored every tile but `hidden` (player 1: every tile)."""
    env = GameEnv.blank(8, (Bardur, Imperius), revealed=False, terrain=terrain)
    env.place_city(0, at(env, 0, 0), capital=True)
    env.place_city(1, at(env, 7, 7), capital=True)
    env.reveal(0, [t for t in range(64) if t not in hidden])
    env.reveal(1)
    return env


def rejected_without(pool, req, beliefs, tile, text):
    """`beliefs` with hidden `tile` emptied again is refused, for the reason `text`."""
    plain = beliefs.copy()
    plain[0, 0, 0, tile] = EMPTY_HIDDEN_ROW
    plain[0, 0, 0, tile, C["terrain"]] = beliefs[0, 0, 0, tile, C["terrain"]]
    with pytest.raises(ValueError, match=text):
        pool.submit_beliefs(req["state_id"], plain)


def test_a_hidden_units_zone_of_control_gets_a_stand_in():
    # RULES §6: entering a "tile next to any unit of another tribe (zone of control)" costs "all
    # remaining movement". Player 1's Warrior stands on the one tile player 0 has not explored, next
    # to the Rider's first steps: the live list lacks moves an empty hidden tile would allow.
    enemy = 2 * 8 + 4  # (2,4)
    env = hole_board({enemy})
    rider = at(env, 3, 3)
    env.place_unit(0, "rider", rider)
    env.place_unit(1, "warrior", enemy)
    pool, req = pool_at(env)
    beliefs = baseline(pool, req)
    row = beliefs[0, 0, 0, enemy]
    assert row[C["unit_owner"]] == 2 and row[C["explored"]] == 0  # another tribe's stand-in, still hidden
    pool.submit_beliefs(req["state_id"], beliefs)
    rejected_without(pool, req, beliefs, enemy, r"move rider \(3,3\) -> .* is legal only in the hypothesis")
    # Without the Warrior nothing is proven and nothing is added.
    env.remove_unit(enemy)
    pool, req = pool_at(env)
    beliefs = baseline(pool, req)
    assert beliefs[0, 0, 0, enemy, C["unit_owner"]] == 0
    pool.submit_beliefs(req["state_id"], beliefs)


def border_board():
    """RULES §8.2 Border Growth: the border grows to radius 2 over tiles the owner never explored
    (as in test_rules_cities): player 0's city at (5,5) owns the unexplored forest (5,7)."""
    env = GameEnv.blank(11, (Bardur, Imperius), revealed=False)
    env.place_city(0, at(env, 0, 0), capital=True)
    env.place_city(1, at(env, 10, 10), capital=True)
    c, far = at(env, 5, 5), at(env, 5, 7)
    env.place_city(0, c, level=3, population=3)
    env.reveal(0, [t for t in range(env.num_tiles) if max(abs(t // 11 - 5), abs(t % 11 - 5)) <= 1 or t in (0, 1, 11, 12)])
    env.reveal(1)
    env.set_terrain(far, "forest")
    env.set_resource(at(env, 5, 4), "fruit")
    ensure_tech(env, 0, "organization", "forestry")
    env.set_stars(0, 10)
    act(env, "gather", target=at(env, 5, 4))  # the fruit fills the level-3 city
    env.step(env.action_id("level_up", arg="border_growth"))
    assert env.tile(far)["owner"] == 0 and not env.tile(far)["explored"][0]
    return env, c, far


def test_own_territory_on_a_hidden_tile_is_filled_as_the_list_proves():
    env, centre, far = border_board()
    assert env.is_legal(env.action_id("build", target=far, arg="lumber_hut"))
    pool, req = pool_at(env)
    beliefs = baseline(pool, req)
    row = beliefs[0, 0, 0, far]
    assert (row[C["territory_owner"]], row[C["territory_city_tile"]], row[C["terrain"]]) == (
        1, centre, polyenv.TERRAINS.index("forest"))
    pool.submit_beliefs(req["state_id"], beliefs)
    rejected_without(pool, req, beliefs, far, r"build lumber_hut at \(5,7\)\) is legal only in the live game")


def test_a_hidden_base_building_next_to_a_listed_bonus_building():
    # RULES §9.2: a Sawmill needs a Lumber Hut next to it. The only Lumber Hut is on a hidden tile.
    hut = 1 * 8 + 1  # (1,1), in the capital's territory
    env = hole_board({hut})
    env.set_terrain(hut, "forest")
    ensure_tech(env, 0, "hunting", "forestry", "mathematics")
    env.set_stars(0, 10)
    env.step(env.action_id("build", target=hut, arg="lumber_hut"))  # building does not explore the tile
    env.set_stars(0, 10)
    sawmill = env.action_id("build", target=at(env, 1, 0), arg="sawmill")
    assert env.is_legal(sawmill) and not env.tile(hut)["explored"][0]
    pool, req = pool_at(env)
    beliefs = baseline(pool, req)
    assert beliefs[0, 0, 0, hut, C["building"]] == polyenv.BUILDINGS.index("lumber_hut")
    pool.submit_beliefs(req["state_id"], beliefs)
    rejected_without(pool, req, beliefs, hut, "is legal only in the live game")


def test_the_helper_needs_the_request_and_the_pool():
    # Without the request and the pool no opponent gets a capital (every End Turn in the belief world
    # ended the game: trees two nodes deep) and nothing explains the actor's legal list.
    pool = SelfPlayPool(2, seed=3, map_size=8, players=(Bardur, Imperius), num_threads=1, max_actions=256)
    req = pool.reset(seed=3)
    tokens = pool.all_player_belief_requests()["map_tokens"][:, :, None]
    with pytest.raises(TypeError, match="request"):
        empty_world_completion(tokens)
    with pytest.raises(TypeError, match="pool"):
        empty_world_completion(tokens, request=req)
    for bad in (None, {}, {"state_id": req["state_id"][:1]}):
        with pytest.raises(ValueError, match="request must be"):
            empty_world_completion(tokens, request=bad, pool=pool)
    with pytest.raises(ValueError, match="pool must be"):
        empty_world_completion(tokens, request=req, pool=None)
    with pytest.raises(ValueError, match="map_tokens must have shape"):
        empty_world_completion(tokens[:, :, :, :-1], request=req, pool=pool)
    beliefs = empty_world_completion(tokens, request=req, pool=pool)
    pool.submit_beliefs(req["state_id"], beliefs)
    # Every opponent has a capital in every particle, so End Turn does not end the belief game.
    flags = beliefs[..., C["city_flags"]] & 1
    owners = beliefs[..., C["city_owner"]]
    assert ((flags == 1) & (owners == 2)).any(axis=-1).all()


def test_a_raw_observation_is_refused_with_what_to_do():
    pool = SelfPlayPool(2, seed=3, map_size=8, players=(Bardur, Imperius), num_threads=1, max_actions=256)
    req = pool.reset(seed=3)
    raw = pool.all_player_belief_requests()["map_tokens"]
    with pytest.raises(ValueError) as e:
        pool.submit_beliefs(req["state_id"], raw)
    text = str(e.value)
    for words in ("env_id 0", "player 0", "hidden row", "must be filled", "empty_world_completion", "nothing changed"):
        assert words in text, (words, text)


def test_fit_beliefs_changes_only_the_actors_hidden_rows_and_validates():
    env = hole_board({2 * 8 + 4})
    env.place_unit(0, "rider", at(env, 3, 3))
    env.place_unit(1, "warrior", 2 * 8 + 4)
    pool, req = pool_at(env)
    allp = pool.all_player_belief_requests()
    raw = empty_world_completion(allp["map_tokens"][:, :, None], request=req, pool=pool)
    raw[0, 0, 0, 2 * 8 + 4] = EMPTY_HIDDEN_ROW  # the stand-in taken away again
    before = raw.copy()
    fitted = pool.fit_beliefs(req["state_id"], raw)
    assert np.array_equal(raw, before)  # a copy; the input is not changed
    changed = np.flatnonzero((fitted != raw).any(-1).reshape(-1))
    assert changed.tolist() == [2 * 8 + 4]  # player 0's (the actor's) particle, that hidden row only
    with pytest.raises(polyenv.StaleStateError):
        pool.fit_beliefs(req["state_id"] + np.uint64(1), raw)
    with pytest.raises(ValueError):
        pool.fit_beliefs(req["state_id"], raw.astype(np.int64))
    with pytest.raises(ValueError):
        pool.fit_beliefs(req["state_id"], raw[:, :, :, :-1])


def test_the_fit_depends_on_nothing_the_actor_cannot_see():
    # Twin games that differ only in what player 0 (to move) has not explored (a far hidden tile's terrain and
    # a unit on it whose zone of control changes no legal action): the actor's legal lists are
    # equal, and so are the baselines, stand-ins included. Random-game twins as well.
    twins = []
    for terrain, unit in (("plain", None), ("forest", "warrior")):
        env = hole_board({2 * 8 + 4, 7 * 8 + 0})
        env.place_unit(0, "rider", at(env, 3, 3))
        env.place_unit(1, "warrior", 2 * 8 + 4)
        env.set_terrain(7 * 8 + 0, terrain)
        if unit:
            env.place_unit(1, unit, 7 * 8 + 0)
        twins.append(env)
    assert twins[0].legal_actions().tolist() == twins[1].legal_actions().tolist()
    outs = [baseline(*pool_at(env)) for env in twins]
    assert outs[0][0, 0, 0, 2 * 8 + 4, C["unit_owner"]] == 2  # the fit did work here
    assert np.array_equal(outs[0][:, 0], outs[1][:, 0])  # player 0's (player 1 sees the difference)
    from selfplay_helpers import twin_pools
    for players in ((Bardur, Imperius), (Bardur, Imperius, polyenv.Oumaji, polyenv.XinXi)):
        _, _, pools = twin_pools(players, moves=40, seed=5)
        outs = [baseline(pool, pool.belief_requests()) for pool in pools]
        assert np.array_equal(outs[0], outs[1])


# ---------------------------------------------------------------------------------------------- many positions

def _positions():
    return int(os.environ.get("POLYENV_BELIEF_POSITIONS", "10000"))


def _baseline_accepted_over_random_games(positions, seed, num_envs=16, moves=210):
    """Random 2-4 player games with random tribes (every tribe's starting tech), uniformly random
    legal moves, auto-reset: the baseline of every player is submitted in every position and must be
    accepted. Returns the number of positions checked."""
    rng = np.random.default_rng(seed)
    checked, config = 0, 0
    while checked < positions:
        players = 2 + config % 3
        tribes = tuple(int(t) for t in rng.choice(len(polyenv.TRIBES), players, replace=False))
        pool = SelfPlayPool(num_envs, seed=seed + config, map_size=(10, 11, 12)[config % 3], players=tribes,
                            num_threads=2, max_actions=512)
        req = pool.reset(seed=seed + config)
        for _ in range(moves):
            beliefs = baseline(pool, req)
            pool.submit_beliefs(req["state_id"], beliefs)
            checked += num_envs
            rows = (rng.random(num_envs) * req["legal_action_count"]).astype(int)
            req = pool.step(req["action_id"][np.arange(num_envs), rows].astype(np.int32))
        pool.close()
        config += 1
    return checked


def test_baseline_is_accepted_over_random_games():
    assert _baseline_accepted_over_random_games(1500, seed=11, num_envs=8, moves=64) >= 1500


@pytest.mark.soak
def test_baseline_is_accepted_in_ten_thousand_positions():
    """POLYENV_BELIEF_POSITIONS (default 10,000) positions of 2-4 player games, 0 rejections."""
    assert _baseline_accepted_over_random_games(_positions(), seed=int(os.environ.get("POLYENV_SOAK_SEED", "0"))) \
        >= _positions()
