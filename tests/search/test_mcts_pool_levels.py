"""MctsPool on Tribes CSV levels: ``level`` (one level) and ``levels`` (a pool, as the
Gymnasium environments take it), the episode-to-level rule, validation (ValueError,
nothing built) and determinism across thread counts."""

import numpy as np
import pytest

import polyenv
from polyenv import GameEnv, MctsPool

from level_fixtures import (ARCHIPELAGO, DUEL, FOUR_11, LEVELS, MAX_ACTIONS, PLAIN_DUEL, assert_episodes_follow_the_pool,
                            assert_row_is)

pool_max_actions = MAX_ACTIONS


def test_single_level_plays_every_episode_on_it():
    with MctsPool(3, seed=40, level=DUEL, max_actions=pool_max_actions) as pool:
        assert (pool.map_size, pool.player_count) == (11, 2)
        batch = pool.reset()
        for env in range(3):
            assert_row_is(batch, env, GameEnv(seed=40 + env, level=DUEL, full_observability=True))
        batch = pool.reset()  # episode 1 of game i: seed 40 + i + 3
        for env in range(3):
            assert_row_is(batch, env, GameEnv(seed=43 + env, level=DUEL, full_observability=True))


def test_level_pool_round_robin_over_episodes():
    with MctsPool(3, seed=7, levels=[DUEL, PLAIN_DUEL], max_actions=pool_max_actions) as pool:
        assert_episodes_follow_the_pool(pool, 3, 7, full_observability=True)


def test_glob_and_level_tribes_and_explicit_players():
    with MctsPool(2, levels=str(LEVELS / "duel_*.csv"), max_actions=pool_max_actions) as pool:
        assert pool.player_count == 2
    # Explicit tribes replace the level's (as GameEnv(level=..., players=...)).
    players = (polyenv.Oumaji, polyenv.Vengir)
    with MctsPool(2, seed=3, level=DUEL, players=players, max_actions=pool_max_actions) as pool:
        batch = pool.reset(seed=3)
        assert_row_is(batch, 1, GameEnv(seed=4, level=DUEL, players=players, full_observability=True))


def test_search_runs_on_a_level_and_is_thread_independent():
    def run(threads):
        with MctsPool(4, seed=11, levels=[DUEL, PLAIN_DUEL], max_actions=pool_max_actions, num_threads=threads,
                      max_pending_leaves_per_tree=2) as pool:
            pool.reset(seed=11)
            for _ in range(6):
                leaves = pool.select_leaves()
                L = len(leaves["leaf_id"])
                pool.expand_and_backup(leaves["leaf_id"], np.zeros((L, pool.max_actions), np.float32),
                                       np.zeros(L, np.float32))
            root = pool.root_policy(1.0)
            live = pool.step(root["action_id"][np.arange(4), root["visit_count"].argmax(1)])
            return root["visit_count"].copy(), live["map_tokens"].copy()
    a, b = run(1), run(2)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert a[0].sum() > 0


@pytest.mark.parametrize("kwargs, message", [
    (dict(level=DUEL, levels=[DUEL]), "not both"),
    (dict(levels=[]), "levels is empty"),
    (dict(levels=[DUEL, ARCHIPELAGO]), "share one size"),
    (dict(level=DUEL, map_size=14), "map_size=14"),
    (dict(level=DUEL, players=(1, 2, 3)), "players names 3"),
    (dict(level=DUEL, players=()), "got 0"),
    (dict(level=3), "level must be a path or CSV text"),
    (dict(levels=[DUEL, 7]), "a level must be"),
    (dict(levels=str(LEVELS / "no_such_*.csv")), "matches no file"),
    (dict(level="c:2,.:\n.:,x:\n"), "level"),  # malformed CSV
])
def test_bad_levels_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MctsPool(2, max_actions=pool_max_actions, **kwargs)


def test_native_pool_checks_every_level_up_front():
    # The native constructor rejects a level that does not fit, even one no game plays yet (B < levels).
    with pytest.raises(ValueError, match="level 1"):
        polyenv._core.MctsPool(1, 0, 11, [2, 1], 0, -1, True, 1, 256, True, True, 1.5, 1, 1.0, 0, 0, 0.0, 0.25,
                               [DUEL.read_text(), ARCHIPELAGO.read_text()])
    with pytest.raises(ValueError, match="level 1 has 4 capitals but level 0 has 2"):
        polyenv._core.MctsPool(1, 0, 11, [], 0, -1, True, 1, 256, True, True, 1.5, 1, 1.0, 0, 0, 0.0, 0.25,
                               [DUEL.read_text(), FOUR_11])
    with pytest.raises(ValueError, match="level 0 has 2 capitals but players names 3"):
        polyenv._core.MctsPool(1, 0, 11, [2, 1, 3], 0, -1, True, 1, 256, True, True, 1.5, 1, 1.0, 0, 0, 0.0, 0.25,
                               [DUEL.read_text()])
