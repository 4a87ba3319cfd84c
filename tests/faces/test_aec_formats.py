"""The AEC env's fixed-shape infos, rows action mode and flat observation format."""

import numpy as np
import pytest
from pettingzoo.test import api_test

from polyenv.envs import tribes_aec_v0


def play(env, steps, seed=0):
    """Random masked actions for ``steps`` steps (restarting finished games); yields before each step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(steps):
        if not env.agents:
            env.reset()
        obs, _, term, trunc, _ = env.last()
        yield obs
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_infos_are_empty_by_default_and_padded_on_request():
    env = tribes_aec_v0.raw_env(players=2, map_size=8, max_turns=6)
    for _ in play(env, 200):
        assert all(info == {} for info in env.infos.values())
    env = tribes_aec_v0.raw_env(players=2, map_size=8, max_turns=6, info_legal_actions=True, max_actions=32)
    for _ in play(env, 200):
        for agent, info in env.infos.items():
            assert info["legal_actions"].shape == (32,) and info["legal_actions"].dtype == np.int32
            if agent == env.agent_selection and not env.terminations[agent]:
                legal = env.legal_actions()
                assert info["legal_action_count"] == len(legal)
                n = min(len(legal), 32)
                np.testing.assert_array_equal(info["legal_actions"][:n], legal[:n])
                assert (info["legal_actions"][n:] == -1).all()
            else:
                assert info["legal_action_count"] == 0 and (info["legal_actions"] == -1).all()


def test_rows_mode_masks_rows_and_steps_the_row_id():
    env = tribes_aec_v0.raw_env(players=3, map_size=8, max_turns=6, action_mode="rows", max_actions=24)
    assert env.action_space("player_0").n == 24
    for obs in play(env, 300):
        agent = env.agent_selection
        if env.terminations[agent]:
            continue
        legal = env.legal_actions()
        count = min(len(legal), 24)
        assert obs["action_mask"].shape == (24,) and obs["action_mask"].sum() == count
        ids = obs["observation"]["action_id"]
        assert set(ids[:count]) <= set(legal) and (ids[count:] == -1).all()
        assert env.observation_space(agent).contains(obs)
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()


def test_rows_mode_rejects_a_padding_row_and_nothing_changes():
    env = tribes_aec_v0.raw_env(players=2, map_size=8, action_mode="rows", max_actions=8)
    env.reset(seed=3)
    count = int(env.observe(env.agent_selection)["action_mask"].sum())
    before = env.clone_state()
    with pytest.raises(ValueError, match="row"):
        env.step(7 if count < 8 else 8)
    assert env.clone_state() == before


@pytest.mark.parametrize("action_mode", ["global", "rows"])
def test_flat_observations_are_in_their_space(action_mode):
    env = tribes_aec_v0.raw_env(players=2, map_size=8, max_turns=8, observation_format="flat",
                                action_mode=action_mode, max_actions=16)
    space = env.observation_space("player_0")
    assert space["observation"].dtype == np.float32 and space["observation"].shape[0] > 64
    for obs in play(env, 300):
        assert space.contains(obs), "flat observation outside its Box"
        assert -1 <= obs["observation"].min() and obs["observation"].max() <= 1


@pytest.mark.parametrize("kw", [dict(observation_format="flat"), dict(action_mode="rows", max_actions=32),
                                dict(observation_format="flat", action_mode="rows", max_actions=32),
                                dict(observation_format="box", action_mode="rows", max_actions=32),
                                dict(observation_format="box")])
def test_pettingzoo_api_test_passes(kw):
    api_test(tribes_aec_v0.env(players=2, map_size=8, max_turns=5, **kw), num_cycles=200)


@pytest.mark.parametrize("kw", [dict(action_mode="columns"), dict(observation_format="nested"), dict(max_actions=0),
                                dict(info_legal_actions=1)])
def test_bad_arguments_raise(kw):
    with pytest.raises(ValueError):
        tribes_aec_v0.raw_env(players=2, map_size=8, **kw)


@pytest.mark.parametrize("action_mode", ["global", "rows"])
def test_box_format_puts_the_mask_in_the_infos(action_mode):
    env = tribes_aec_v0.raw_env(players=2, map_size=8, max_turns=6, observation_format="box",
                                action_mode=action_mode, max_actions=16)
    flat = tribes_aec_v0.raw_env(players=2, map_size=8, max_turns=6, observation_format="flat",
                                 action_mode=action_mode, max_actions=16)
    rng = np.random.default_rng(0)
    env.reset(seed=2)
    flat.reset(seed=2)
    for _ in range(200):
        if not env.agents:
            break
        obs, _, term, trunc, info = env.last()
        expected = flat.observe(flat.agent_selection)
        np.testing.assert_array_equal(obs, expected["observation"])
        np.testing.assert_array_equal(info["action_mask"], expected["action_mask"])
        action = None if term or trunc else int(rng.choice(np.flatnonzero(info["action_mask"])))
        env.step(action)
        flat.step(action)
