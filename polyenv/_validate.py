"""Argument validation shared by the Python layer: every bad value raises
ValueError with the argument's name before anything native is called."""

from __future__ import annotations

import numpy as np

_INT32_MAX = 2**31 - 1


def integer(value, name: str, low: int | None = None, high: int | None = None, allow_none: bool = False):
    """An int (Python or NumPy, not bool) within [low, high]; None if allowed."""
    if value is None and allow_none:
        return None
    high = _INT32_MAX if high is None else high
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if (low is not None and value < low) or value > high:
        bounds = f"[{low if low is not None else '-inf'}, {high}]"
        raise ValueError(f"{name} {value!r} is outside {bounds}{' (or None)' if allow_none else ''}")
    return int(value)


def seed(value) -> int:
    """A seed: an integer in [0, 2**64)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not 0 <= value < 2**64:
        raise ValueError(f"seed must be an integer in [0, 2**64), got {value!r}")
    return int(value)


def max_turns(value) -> int:
    """None (the mode's limit) -> -1, else an integer in [0, 10000]."""
    return -1 if value is None else integer(value, "max_turns", 0, 10_000)
