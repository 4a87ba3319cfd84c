"""Training loops and the models they use (PyTorch: ``pip install "polyenv[train]"``).

* :mod:`polyenv.train.policies` — :class:`TribesPointerPolicy` / :class:`TribesPointerPPOPolicy`, SB3
  policies scoring the legal-action rows of ``action_mode="rows"`` (need stable-baselines3);
* :mod:`polyenv.train.pointer_net` — :class:`PointerActorCritic`, the same pointer network in plain
  PyTorch over the dense ``VectorGameEnv`` batch, with checkpoint files;
* :mod:`polyenv.train.az_net` — the ``"az"`` policy/value network in PyTorch and its export
  to the native weight file the ``"az"`` bot plays with;
* :mod:`polyenv.train.alphazero` — AlphaZero-style training on the search pools
  (``polyenv train az``).

The model classes are imported on first use (torch is not imported by ``import polyenv.train``).
"""

from __future__ import annotations

from .._lazy import lazy_attributes

__all__ = ["TribesPointerPolicy", "TribesPointerPPOPolicy", "PointerActorCritic"]

_LAZY = {"TribesPointerPolicy": ".policies", "TribesPointerPPOPolicy": ".policies", "PointerActorCritic": ".pointer_net"}


__getattr__ = lazy_attributes(__name__, _LAZY, globals())
