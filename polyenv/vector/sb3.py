"""Stable-Baselines3 adapter: SB3's ``PPO`` and sb3-contrib's ``MaskablePPO`` on the native batch.

```python
import gymnasium as gym
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor
import polyenv
from polyenv.vector import to_sb3

envs = gym.make_vec("polyenv/Tribes-v0", num_envs=16, vectorization_mode="vector_entry_point")
venv = VecMonitor(to_sb3(envs))               # episode statistics for SB3's logger
model = MaskablePPO("MultiInputPolicy", venv, n_steps=128).learn(100_000)
```

:class:`TribesSB3VecEnv` is an SB3 ``VecEnv`` whose every ``step`` is one
``TribesVectorEnv.step`` (one native call for all environments): there is no
``DummyVecEnv`` and no Python environment per game. SB3's protocol does need
one ``info`` dict per environment; they are empty except for the environments
that just finished (``terminal_observation``, ``TimeLimit.truncated``).
``env_method("action_masks")`` returns the whole bool mask batch (what
MaskablePPO reads).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from .gym_vector import TribesVectorEnv

__all__ = ["TribesSB3VecEnv", "to_sb3"]


def to_sb3(vec_env) -> "TribesSB3VecEnv":
    """Wraps a :class:`TribesVectorEnv` (as returned by ``gym.make_vec``) as an SB3 ``VecEnv``."""
    return TribesSB3VecEnv(vec_env)


class TribesSB3VecEnv(VecEnv):
    """An SB3 ``VecEnv`` over a :class:`TribesVectorEnv` (see the module docstring).

    Both ``copy`` settings of the vector env work: SB3's algorithms keep only
    the previous observation while they step, which ``copy=False``'s two
    alternating buffer sets preserve (and ``copy=False`` allocates nothing per
    step). Terminal observations are always copies.
    """

    def __init__(self, vec_env):
        env = getattr(vec_env, "unwrapped", vec_env)
        if not isinstance(env, TribesVectorEnv):
            raise ValueError(f"to_sb3 needs a polyenv TribesVectorEnv (gym.make_vec(..., "
                             f"vectorization_mode='vector_entry_point')), got {type(vec_env).__name__}")
        self.venv = env
        self._actions: np.ndarray | None = None
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    # ------------------------------------------------------------------ VecEnv API
    def reset(self):
        """Resets every environment (with the seed given to ``seed()``, if any); returns the observations."""
        seed = self._seeds[0]
        obs, _ = self.venv.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Stores the actions (int [num_envs]) of the next ``step_wait``."""
        self._actions = np.asarray(actions)

    def step_wait(self):
        """Steps every environment natively; returns ``(obs, rewards, dones, infos)``."""
        if self._actions is None:
            raise RuntimeError("step_async must be called before step_wait")
        actions, self._actions = self._actions, None
        obs, rewards, terminations, truncations, infos = self.venv.step(actions.astype(np.int64, copy=False))
        dones = terminations | truncations
        step_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final_obs, won = infos["final_obs"], infos["final_info"]["is_success"]
            for i in np.flatnonzero(dones):
                step_infos[i]["terminal_observation"] = final_obs[i]
                step_infos[i]["is_success"] = bool(won[i])
                step_infos[i]["TimeLimit.truncated"] = bool(truncations[i] and not terminations[i])
        return obs, rewards.astype(np.float32), dones, step_infos

    def close(self) -> None:
        """Closes the vector env (joins the native threads)."""
        self.venv.close()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seeds the next ``reset``: environment i plays ``seed + i``."""
        if seed is None:
            seed = int(np.random.randint(0, 2**31 - 1))
        self._seeds = [seed + i for i in range(self.num_envs)]
        return self._seeds

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The attribute of the shared vector env, once per selected environment."""
        value = getattr(self.venv, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Sets an attribute of the shared vector env (every environment)."""
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs) -> Any:
        """``"action_masks"``: the bool masks [selected envs, n] (one array). Other methods are per game
        and do not exist natively: AttributeError."""
        if method_name != "action_masks":
            raise AttributeError(f"the native vector has no per-environment method {method_name!r}")
        masks = self.venv.action_masks()
        return masks if indices is None else masks[list(self._get_indices(indices))]

    def has_attr(self, attr_name: str) -> bool:
        """True for the vector env's attributes and ``action_masks``."""
        return hasattr(self.venv, attr_name)

    def env_is_wrapped(self, wrapper_class, indices: VecEnvIndices = None) -> list[bool]:
        """No environment is wrapped (there are no per-game Python environments)."""
        return [False for _ in self._get_indices(indices)]

    def get_images(self):
        """The rendered boards (``render_mode="rgb_array"``)."""
        return list(self.venv.render() or [])

    def action_masks(self) -> np.ndarray:
        """The bool mask batch [num_envs, n] (MaskablePPO also finds it through ``env_method``)."""
        return self.venv.action_masks()
