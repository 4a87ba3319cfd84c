"""Argument validation shared by the Python layer: every bad value raises with
the argument's name before anything native is called.

A value of the wrong type (a float, str or bool where an integer is expected, a
str where a bool is expected, None where buffers are expected) raises
:class:`ArgumentTypeError`, which is both a ``TypeError`` and a ``ValueError``:
the type is what is wrong, and ``except ValueError`` still catches every
malformed argument (the project's error contract). Values of the right type out
of their range raise ``ValueError``.
"""

from __future__ import annotations

import numpy as np

from . import _core

_INT32_MAX = 2**31 - 1


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong type (also a ValueError: a malformed argument)."""


def is_integer(value) -> bool:
    """True for Python and NumPy integers; bools are not integers here."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def integer(value, name: str, low: int | None = None, high: int | None = None, allow_none: bool = False):
    """An int (Python or NumPy, not bool, not float) within [low, high]; None if allowed."""
    if value is None and allow_none:
        return None
    high = _INT32_MAX if high is None else high
    if not is_integer(value):
        raise ArgumentTypeError(f"{name} must be an integer, got {value!r}")
    if (low is not None and value < low) or value > high:
        bounds = f"[{low if low is not None else '-inf'}, {high}]"
        raise ValueError(f"{name} {value!r} is outside {bounds}{' (or None)' if allow_none else ''}")
    return int(value)


def native_int(value, name: str) -> int:
    """An int (Python or NumPy, not bool, not float) that fits the native int: for an argument whose
    range the native owner checks (its message and ValueError), converted here once."""
    if not is_integer(value):
        raise ArgumentTypeError(f"{name} must be an integer, got {value!r}")
    if not -(2**31) <= value <= _INT32_MAX:
        raise ValueError(f"{name} {value!r} does not fit a 32-bit integer")
    return int(value)


def boolean(value, name: str) -> bool:
    """A bool (Python or NumPy): a string such as "False" or a number is rejected."""
    if not isinstance(value, (bool, np.bool_)):
        raise ArgumentTypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def buffers(value, name: str = "buffers") -> dict:
    """The caller-owned output buffers of an ``*_into`` call: a dict, never None."""
    if not isinstance(value, dict):
        raise ArgumentTypeError(f"{name} must be a dict of NumPy arrays (see batch_spec()), got {value!r:.60}")
    return value


def seed(value) -> int:
    """A seed: an integer in [0, 2**64)."""
    if not is_integer(value):
        raise ArgumentTypeError(f"seed must be an integer in [0, 2**64), got {value!r}")
    if not 0 <= value < 2**64:
        raise ValueError(f"seed must be an integer in [0, 2**64), got {value!r}")
    return int(value)


def max_turns(value) -> int:
    """None (the mode's limit) -> -1, else an integer in [0, MAX_TURNS] (10000, the engine's limit)."""
    return -1 if value is None else integer(value, "max_turns", 0, _core.MAX_TURNS)


def player_count(value) -> int:
    """A player count: an integer the engine's one rule accepts (``MIN_PLAYERS..MAX_PLAYERS``, 2..16)."""
    players = integer(value, "players", -(2**31))
    _core.check_player_count(players)  # the rule and its message live in the engine only
    return players
