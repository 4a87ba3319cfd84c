"""SuperSuit 3.x observation wrappers on tribes_aec_v0 with observation_format="box" (mask in the infos)."""

import numpy as np
import pytest

ss = pytest.importorskip("supersuit", reason="supersuit is not installed (pip install polyenv[integrations])")

from pettingzoo.test import api_test  # noqa: E402

from polyenv.envs import tribes_aec_v0  # noqa: E402


def test_observation_wrappers_and_masked_rollout():
    env = tribes_aec_v0.env(players=2, map_size=8, max_turns=5, observation_format="box", action_mode="rows",
                            max_actions=32)
    env = ss.normalize_obs_v0(ss.dtype_v0(ss.flatten_v0(env), np.float32), env_min=-1, env_max=1)
    api_test(env, num_cycles=100)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    while steps < 300:
        if not env.agents:
            env.reset()
        obs, _, term, trunc, info = env.last()
        assert obs.dtype == np.float32 and -1 <= obs.min() and obs.max() <= 1
        action = None if term or trunc else int(rng.choice(np.flatnonzero(info["action_mask"])))
        env.step(action)
        steps += 1
