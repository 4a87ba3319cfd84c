"""Vector environments over :class:`polyenv.VectorGameEnv` (the models that train on them are in
:mod:`polyenv.train`, win rates and tournaments in :mod:`polyenv.evaluation`).

* :class:`TribesVectorEnv` — ``polyenv/Tribes-v0`` as a Gymnasium ``VectorEnv``
  (``gym.make_vec("polyenv/Tribes-v0", num_envs=N, vectorization_mode="vector_entry_point")``).
* :func:`to_sb3` / :class:`TribesSB3VecEnv` — an SB3 ``VecEnv`` over it for
  ``PPO`` / ``MaskablePPO`` (needs stable-baselines3; imported on first use).
* :func:`allocate` — the exact NumPy arrays that ``reset_into``, ``step_into``,
  ``observe_slots_into`` and the checked ``*_into`` calls write:

>>> from polyenv.vector import allocate
>>> buffers = allocate(env.batch_spec())            # doctest: +SKIP
>>> env.reset_into(buffers, seed=1234)              # doctest: +SKIP
"""

from __future__ import annotations

from .._lazy import lazy_attributes
from ..vector_env import allocate

__all__ = ["allocate", "TribesVectorEnv", "TribesSB3VecEnv", "to_sb3"]

_LAZY = {"TribesVectorEnv": ".gym_vector", "TribesSB3VecEnv": ".sb3", "to_sb3": ".sb3"}


__getattr__ = lazy_attributes(__name__, _LAZY, globals())
