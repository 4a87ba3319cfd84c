"""PPO on :class:`TribesMultiAgentEnv` with one shared masked policy for every seat (self-play)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from .multi_agent import TribesMultiAgentEnv, register_env
from .rl_module import TribesMaskedRLModule

__all__ = ["ppo_config", "SHARED_POLICY", "win_rate_vs_random"]

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


def _greedy_action(module, obs: dict) -> int:
    """The module's most likely (masked) action for one observation."""
    batch = {Columns.OBS: {"observations": {k: torch.from_numpy(v[None]) for k, v in obs["observations"].items()},
                           "action_mask": torch.from_numpy(obs["action_mask"][None])}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    return int(logits[0].argmax())


def win_rate_vs_random(module, env_config: Mapping | None = None, games: int = 20, seed: int = 0) -> dict:
    """Plays ``games`` games of ``module`` (greedy, one seat, rotating) against uniformly random legal play.

    Game g is ``reset(seed=seed + g)`` with the module in seat ``g % players``.
    Returns ``{"games", "wins", "draws", "win_rate"}`` (draws: no winner at the turn limit).
    """
    env = TribesMultiAgentEnv(dict(env_config or {}))
    rng = np.random.default_rng(seed)
    wins = draws = 0
    for g in range(games):
        seat = env.possible_agents[g % env.num_players]
        obs, _ = env.reset(seed=seed + g)
        while obs:
            (agent, o), = obs.items()
            action = _greedy_action(module, o) if agent == seat else int(rng.choice(np.flatnonzero(o["action_mask"])))
            obs, _, terminateds, truncateds, _ = env.step({agent: action})
            if terminateds["__all__"] or truncateds["__all__"]:
                break
        winner = env.game.winner
        wins += winner >= 0 and env.possible_agents[winner] == seat
        draws += winner < 0
    return {"games": games, "wins": int(wins), "draws": int(draws), "win_rate": wins / games}
