"""Level pools on every owner of a batch of live games: VectorGameEnv, TribesVectorEnv and
SelfPlayPool take ``level`` / ``levels`` as MctsPool does (one episode rule, runtime/episodes.hpp):
episode k of environment i plays ``levels[(i + k * B) % len(levels)]`` with seed ``seed + i + k * B``."""
import numpy as np
import pytest

import polyenv
from polyenv import GameEnv, SelfPlayPool, VectorGameEnv
from polyenv.vector import TribesVectorEnv

from level_fixtures import (ARCHIPELAGO, DUEL, FOUR, LEVELS, MAX_ACTIONS, PLAIN_DUEL, assert_episodes_follow_the_pool,
                            assert_row_is)

def test_vector_env_plays_one_level_in_every_episode():
    with VectorGameEnv(3, seed=40, level=DUEL, max_actions=MAX_ACTIONS) as env:
        assert (env.map_size, env.num_players, env.learner_seats) == (11, 2, (0, 1))
        batch = env.reset()
        for i in range(3):
            assert_row_is(batch, i, GameEnv(seed=40 + i, level=DUEL))
        batch = env.reset()  # episode 1 of environment i: seed 40 + i + 3
        for i in range(3):
            assert_row_is(batch, i, GameEnv(seed=43 + i, level=DUEL))


def test_vector_env_level_pool_round_robin_and_auto_reset():
    with VectorGameEnv(3, seed=7, levels=[DUEL, PLAIN_DUEL], max_actions=MAX_ACTIONS,
                       full_observability=True) as env:
        assert_episodes_follow_the_pool(env, 3, 7, full_observability=True)
    with VectorGameEnv(3, seed=8, levels=[DUEL, PLAIN_DUEL], max_actions=MAX_ACTIONS) as env:  # fog
        assert_episodes_follow_the_pool(env, 3, 8, full_observability=False)


def test_vector_env_level_with_an_opponent_and_its_own_four_tribes():
    with VectorGameEnv(2, seed=5, level=FOUR, opponent="random", max_actions=MAX_ACTIONS) as env:
        assert (env.map_size, env.num_players, env.learner_seats) == (16, 4, (0,))
        batch = env.reset()
        assert (batch["state"][:, polyenv.STATE_FEATURE_NAMES.index("current_player")] == 0).all()
        steps = 0
        while steps < 200 and not batch["terminated"].any():
            batch = env.step(batch["action_id"][:, 0])  # End Turn: the bots play seats 1..3 natively
            steps += 1
        assert batch["action_valid"].all()


def test_vector_env_levels_are_thread_independent():
    def run(threads):
        with VectorGameEnv(4, seed=11, levels=[DUEL, PLAIN_DUEL], num_threads=threads, max_actions=MAX_ACTIONS) as env:
            batch = env.reset(seed=11)
            rng = np.random.default_rng(0)
            for _ in range(40):
                counts = batch["legal_action_count"]
                rows = (rng.random(4) * counts).astype(np.int64)
                batch = env.step(batch["action_id"][np.arange(4), rows])
            return batch["map_tokens"].copy(), batch["state"].copy()
    a, b = run(1), run(2)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


@pytest.mark.parametrize("kwargs, message", [
    (dict(level=DUEL, levels=[DUEL]), "not both"),
    (dict(levels=[]), "levels is empty"),
    (dict(levels=[DUEL, ARCHIPELAGO]), "share one size"),
    (dict(level=DUEL, map_size=14), "map_size=14"),
    (dict(level=DUEL, players=(1, 2, 3)), "players names 3"),
    (dict(level=3), "level must be a path or CSV text"),
    (dict(levels=str(LEVELS / "no_such_*.csv")), "matches no file"),
    (dict(level=DUEL, opponent="random", learner_seats=(2,)), "learner seat 2"),
])
def test_vector_env_bad_levels_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        VectorGameEnv(2, max_actions=MAX_ACTIONS, **kwargs)


def test_native_vector_env_checks_every_level_up_front():
    # One level that does not fit is rejected even when no environment plays it yet (B < levels).
    core = polyenv._core
    with pytest.raises(ValueError, match="level 1"):
        core.VectorEnv(1, 0, 11, [2, 1], 0, -1, False, 1, 64, True, 0, False, False, -1, [],
                       levels=[DUEL.read_text(), ARCHIPELAGO.read_text()])
    with pytest.raises(ValueError, match="level 0: "):
        core.VectorEnv(1, 0, 11, [2, 1], 0, -1, False, 1, 64, True, 0, False, False, -1, [], levels=["c:2,.:\n"])


def test_tribes_vector_env_plays_the_level_pool_in_round_robin_order():
    envs = TribesVectorEnv(num_envs=2, levels=[DUEL, PLAIN_DUEL], opponent=None, action_mode="rows",
                           max_actions=MAX_ACTIONS, seed=3)
    assert (envs.map_size, envs.num_players) == (11, 2)
    obs, _ = envs.reset(seed=3)
    for i, text in enumerate([DUEL.read_text(), PLAIN_DUEL]):
        np.testing.assert_array_equal(obs["map_tokens"][i], GameEnv(seed=3 + i, level=text).observe()["map_tokens"])
    assert envs.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    envs.close()


def test_tribes_vector_env_level_plays_one_level_as_vector_game_env_does():
    # level= is VectorGameEnv's: every episode on that level, episode k of environment i seeded seed + i + k * B,
    # played natively (the terminal episodes reset inside the step), the same for a path and the CSV text.
    def run(level):
        envs = TribesVectorEnv(num_envs=2, level=level, opponent="random", action_mode="rows", max_actions=MAX_ACTIONS,
                               seed=5)
        assert (envs.map_size, envs.num_players) == (11, 2)
        obs, _ = envs.reset(seed=5)
        for i in range(2):
            np.testing.assert_array_equal(obs["map_tokens"][i], GameEnv(seed=5 + i, level=DUEL).observe()["map_tokens"])
        rng, seen = np.random.default_rng(0), [obs["state"].copy()]
        for _ in range(60):
            rows = (rng.random(2) * obs["action_mask"].sum(1)).astype(np.int64)
            obs, rewards, terminations, _, infos = envs.step(rows)
            assert not infos["invalid_action"].any()
            seen.append(obs["state"].copy())
        envs.close()
        return np.array(seen)
    np.testing.assert_array_equal(run(DUEL), run(str(DUEL)))
    np.testing.assert_array_equal(run(DUEL), run(DUEL.read_text()))
    with VectorGameEnv(2, seed=5, level=DUEL, opponent="random", max_actions=MAX_ACTIONS) as native:
        np.testing.assert_array_equal(native.reset()["state"], run(DUEL)[0])


@pytest.mark.parametrize("kwargs, message", [
    (dict(level=DUEL, levels=[DUEL]), "not both"),
    (dict(level=3), "level must be a path or CSV text"),
    (dict(level=str(LEVELS / "no_such.csv")), "matches no file"),
    (dict(level=DUEL, map_size=14), "map_size=14"),
    (dict(level=DUEL, players=(1, 2, 3)), "capitals"),
])
def test_tribes_vector_env_bad_level_raises_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        TribesVectorEnv(num_envs=2, max_actions=MAX_ACTIONS, **kwargs)


def test_tribes_vector_env_via_make_vec_takes_levels():
    import gymnasium as gym
    envs = gym.make_vec("polyenv/Tribes-v0", num_envs=2, vectorization_mode="vector_entry_point", levels=str(DUEL))
    obs, _ = envs.reset(seed=0)
    np.testing.assert_array_equal(obs["map_tokens"][1], GameEnv(seed=1, level=DUEL).observe()["map_tokens"])
    envs.close()


def test_selfplay_pool_on_a_level():
    with SelfPlayPool(2, seed=9, level=DUEL, max_actions=MAX_ACTIONS) as pool:
        assert (pool.map_size, pool.player_count) == (11, 2)
        request = pool.reset()
        tokens = request["map_tokens"] if "map_tokens" in request else request["observation"]["map_tokens"]
        for i in range(2):
            np.testing.assert_array_equal(tokens[i], GameEnv(seed=9 + i, level=DUEL).observe()["map_tokens"])
    with pytest.raises(ValueError, match="share one size"):
        SelfPlayPool(2, levels=[DUEL, ARCHIPELAGO])
