"""VectorGameEnv.reset_slots: the listed games start their next episode of the seed sequence
(the episode an automatic reset would start), the others are untouched, bad ids change nothing."""
import numpy as np
import pytest

from polyenv import Bardur, Imperius, VectorGameEnv
from polyenv.vector import allocate

from vector_reference import assert_batches_equal, random_actions

B = 5
GAME = dict(map_size=8, players=(Bardur, Imperius), max_turns=3, max_actions=48, num_threads=2)
OBSERVATION_KEYS = ("map_tokens", "state", "action_id", "action_features", "action_mask", "legal_action_count")


def test_a_finished_game_restarts_with_the_episode_an_automatic_reset_starts():
    """Both envs step alike; each game that ends in ``held`` restarts alone and must equal ``auto``'s row."""
    with VectorGameEnv(B, seed=40, auto_reset=True, **GAME) as auto, \
         VectorGameEnv(B, seed=40, auto_reset=False, **GAME) as held:
        a, h = auto.reset(seed=40), held.reset(seed=40)
        rng = np.random.default_rng(1)
        restarted = 0
        for _ in range(400):
            actions = random_actions(a, rng)
            a, h = auto.step(actions), held.step(actions)
            done = np.flatnonzero(h["terminated"])
            if done.size:
                before = held.observe_slots(np.arange(B))
                fresh = held.reset_slots(done)
                np.testing.assert_array_equal(fresh["env_id"], done)
                assert not fresh["reward"].any() and not fresh["terminated"].any() and not fresh["action_valid"].any()
                for key in OBSERVATION_KEYS:
                    np.testing.assert_array_equal(fresh[key], a[key][done], err_msg=key)
                assert (fresh["episode_id"] != before["episode_id"][done]).all()
                after = held.observe_slots(np.arange(B))
                running = np.setdiff1d(np.arange(B), done)
                for key in ("state_id", "episode_id", "map_tokens"):
                    np.testing.assert_array_equal(after[key][running], before[key][running], err_msg=key)
                restarted += done.size
    assert restarted >= 3


def test_a_running_game_can_be_restarted_alone_and_into_buffers():
    with VectorGameEnv(B, seed=7, **GAME) as env, VectorGameEnv(B, seed=7, **GAME) as twin:
        env.reset(seed=7)
        twin.reset(seed=7)
        rng = np.random.default_rng(2)
        for _ in range(6):
            env.step(random_actions(env.observe_slots(np.arange(B)), rng))
        buffers = allocate(env.slot_batch_spec(2))
        env.reset_slots_into(np.array([3, 1], np.int64), buffers)
        expected = twin.reset()  # every game's next episode
        for key in OBSERVATION_KEYS:
            np.testing.assert_array_equal(buffers[key], expected[key][[3, 1]], err_msg=key)
        fresh = env.reset_slots([0])
        for key in OBSERVATION_KEYS:
            np.testing.assert_array_equal(fresh[key], expected[key][[0]], err_msg=key)


@pytest.mark.parametrize("ids, error", [([1, 1], ValueError), ([B], IndexError), ([-1], IndexError),
                                        (np.array([0.0]), ValueError), (np.zeros((1, 1), np.int32), ValueError),
                                        (list(range(B + 1)), ValueError)])
def test_bad_ids_are_refused_and_change_nothing(ids, error):
    with VectorGameEnv(B, seed=9, **GAME) as env, VectorGameEnv(B, seed=9, **GAME) as twin:
        env.reset(seed=9)
        twin.reset(seed=9)
        before = env.observe_slots(np.arange(B))
        with pytest.raises(error):
            env.reset_slots(ids)
        assert_batches_equal(env.observe_slots(np.arange(B)), before, skip=())
        # The episode sequence did not advance either.
        assert_batches_equal(env.reset_slots([2]), twin.reset_slots([2]))


def test_a_closed_environment_refuses():
    env = VectorGameEnv(B, seed=9, **GAME)
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.reset_slots([0])
