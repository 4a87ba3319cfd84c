"""Beyond one machine: Ray rollout actors and an RLlib multi-agent environment (``pip install "polyenv[ray]"``).

* :class:`TribesMultiAgentEnv` — RLlib ``MultiAgentEnv`` (new API stack), turn-based,
  fog-of-war observations with the action mask inside; :func:`register_env`
  registers it with ``ray.tune.registry`` as :data:`ENV_NAME`.
* :class:`TribesMaskedRLModule` — a PPO-ready torch RLModule that masks illegal actions.
* :func:`ppo_config` — PPO with one shared masked policy for every seat;
  :func:`win_rate_vs_random` evaluates a trained module.
* :class:`RolloutFleet` — Ray actors each owning a :class:`polyenv.VectorGameEnv`,
  dense NumPy batches to one learner, restarted and re-seeded when they die.
* :class:`RolloutWorker`, :class:`RolloutBatch`, :func:`random_policy`,
  :func:`actor_seed` — the actor's loop and batch, usable without Ray's actors.

Everything is imported on first use, so ``import polyenv.distributed`` works
without Ray; using a name then raises an ImportError that says what to install.
"""

from __future__ import annotations

import importlib

__all__ = ["TribesMultiAgentEnv", "ENV_NAME", "register_env", "TribesMaskedRLModule", "ppo_config",
           "win_rate_vs_random", "RolloutFleet", "RolloutWorker", "RolloutBatch", "random_policy", "actor_seed"]

_LAZY = {"TribesMultiAgentEnv": ".multi_agent", "ENV_NAME": ".multi_agent", "register_env": ".multi_agent",
         "TribesMaskedRLModule": ".rl_module", "ppo_config": ".training", "win_rate_vs_random": ".training",
         "RolloutFleet": ".fleet",
         "RolloutWorker": ".worker", "RolloutBatch": ".worker", "random_policy": ".worker", "actor_seed": ".worker"}


def __getattr__(name: str):
    if name in _LAZY:
        try:
            module = importlib.import_module(_LAZY[name], __name__)
        except ModuleNotFoundError as e:
            if e.name and e.name.split(".")[0] in ("ray", "torch"):
                raise ImportError(f"polyenv.distributed.{name} needs Ray (RLlib) and torch: "
                                  f"pip install torch==2.13.0 \"polyenv[ray]\" (missing module {e.name!r})") from e
            raise
        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
