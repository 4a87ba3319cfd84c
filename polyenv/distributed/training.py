"""PPO on :class:`TribesMultiAgentEnv` with one shared masked policy for every seat (self-play)."""

from __future__ import annotations

from collections.abc import Mapping

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from .multi_agent import register_env
from .rl_module import TribesMaskedRLModule

__all__ = ["ppo_config", "SHARED_POLICY"]

#: The module id every seat maps to.
SHARED_POLICY = "shared"


def _every_seat(agent_id, episode, **kwargs) -> str:
    return SHARED_POLICY


def ppo_config(env_config: Mapping | None = None, hidden: int = 64) -> PPOConfig:
    """A ``PPOConfig`` (new API stack) on the registered env with one shared :class:`TribesMaskedRLModule`.

    RLlib's env pre-check is off: it steps an unmasked random action, which the
    env's default ``invalid_action="raise"`` rejects (so any unmasked sample during
    training fails loudly). Adjust the rest as usual, e.g. ``.env_runners(num_env_runners=2)`` and
    ``.training(train_batch_size_per_learner=4000)``; ``config.build_algo()``.
    """
    name = register_env()
    return (
        PPOConfig()
        .environment(name, env_config=dict(env_config or {}), disable_env_checking=True)
        .multi_agent(policies={SHARED_POLICY}, policy_mapping_fn=_every_seat)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            SHARED_POLICY: RLModuleSpec(module_class=TribesMaskedRLModule, model_config={"hidden": hidden})}))
    )
