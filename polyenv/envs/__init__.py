"""Environments in the standard Python RL interfaces.

* ``tribes_aec_v0`` — PettingZoo AEC environment for 2-16 players
  (``from polyenv.envs import tribes_aec_v0``; ``tribes_aec_v0.env()``,
  ``tribes_aec_v0.raw_env``). Imported on first use, so ``import polyenv.envs``
  does not require PettingZoo.
"""

from __future__ import annotations

import importlib

__all__ = ["default_map_size", "tribes_aec_v0"]


def default_map_size(players: int) -> int:
    """The board side the environments and the CLI use when none is given: 11, 14, 16, 18 or 20 by player count."""
    return 11 if players <= 2 else 14 if players <= 4 else 16 if players <= 8 else 18 if players <= 12 else 20


_LAZY = {"tribes_aec_v0": ".tribes_aec"}


def __getattr__(name: str):
    if name in _LAZY:
        module = importlib.import_module(_LAZY[name], __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
