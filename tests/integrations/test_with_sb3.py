"""SB3 / sb3-contrib: the checker and MaskablePPO with its default policy on Tribes-v0 (flat) and on the
AEC env through the PettingZoo MaskablePPO tutorial's wrapper."""

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (pip install polyenv[integrations])")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.policies import (MaskableActorCriticPolicy,  # noqa: E402
                                                  MaskableMultiInputActorCriticPolicy)
from sb3_contrib.common.wrappers import ActionMasker  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402

import polyenv  # noqa: E402,F401
from polyenv.envs import tribes_aec_v0  # noqa: E402




def tutorial_env(**kw):
    """PettingZoo's "SB3: Action Masked PPO for Connect Four" wrapper, verbatim in substance."""
    from pettingzoo.utils import BaseWrapper

    class SB3ActionMaskWrapper(BaseWrapper, gym.Env):
        def reset(self, seed=None, options=None):
            super().reset(seed, options)
            self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
            self.action_space = super().action_space(self.possible_agents[0])
            return self.observe(self.agent_selection), {}

        def step(self, action):
            current_agent = self.agent_selection
            super().step(action)
            next_agent = self.agent_selection
            return (self.observe(next_agent), self._cumulative_rewards[current_agent],
                    self.terminations[current_agent], self.truncations[current_agent], self.infos[current_agent])

        def observe(self, agent):
            return super().observe(agent)["observation"]

        def action_mask(self):
            return super().observe(self.agent_selection)["action_mask"]

    env = SB3ActionMaskWrapper(tribes_aec_v0.env(**kw))
    env.reset(seed=0)
    return ActionMasker(env, lambda e: e.action_mask())


@pytest.mark.parametrize("action_mode", ["global", "rows"])
def test_tribes_v0_flat_maskable_ppo(action_mode):
    kw = dict(map_size=8, max_turns=5, observation_format="flat", action_mode=action_mode, max_actions=32)
    # The checker steps unmasked random actions: they must not raise.
    check_env(gym.make("polyenv/Tribes-v0", invalid_action="end_turn", **kw).unwrapped)
    env = gym.make("polyenv/Tribes-v0", **kw)
    # {"observation": Box, "action_mask": Box} is a Dict: SB3's "MultiInputPolicy"; masks come from action_masks().
    model = MaskablePPO(MaskableMultiInputActorCriticPolicy, env, n_steps=128, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256


def test_pettingzoo_tutorial_maskable_ppo():
    env = tutorial_env(players=2, map_size=8, max_turns=5, action_mode="rows", max_actions=32,
                       observation_format="flat")
    assert isinstance(env.observation_space, gym.spaces.Box) and env.observation_space.dtype == np.float32
    model = MaskablePPO(MaskableActorCriticPolicy, env, n_steps=128, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256


def test_vector_env_flat_through_to_sb3():
    from polyenv.vector import TribesVectorEnv, to_sb3
    venv = to_sb3(TribesVectorEnv(num_envs=4, map_size=8, max_turns=5, action_mode="rows", max_actions=32,
                                  observation_format="flat", seed=0))
    model = MaskablePPO(MaskableMultiInputActorCriticPolicy, venv, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256
