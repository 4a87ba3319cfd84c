"""Gymnasium's standard wrappers on polyenv/Tribes-v0 (observation_format="box" and "flat")."""

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import FlattenObservation, NormalizeObservation, RecordEpisodeStatistics, TimeLimit

import polyenv  # noqa: F401


def test_normalize_observation_and_friends_with_a_masked_rollout():
    env = gym.make("polyenv/Tribes-v0", map_size=8, max_turns=5, observation_format="box", action_mode="rows",
                   max_actions=32)
    env = RecordEpisodeStatistics(TimeLimit(NormalizeObservation(env), 400))
    check_env(gym.make("polyenv/Tribes-v0", map_size=8, observation_format="box", invalid_action="end_turn"),
              skip_render_check=True)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(300):
        assert obs.shape == env.observation_space.shape and np.isfinite(obs).all()
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc:
            episodes += 1
            assert "episode" in info
            obs, info = env.reset()
    assert episodes > 0


def test_flatten_observation_on_the_flat_dict():
    env = FlattenObservation(gym.make("polyenv/Tribes-v0", map_size=8, observation_format="flat"))
    obs, _ = env.reset(seed=0)
    assert obs.ndim == 1 and env.observation_space.contains(obs)
