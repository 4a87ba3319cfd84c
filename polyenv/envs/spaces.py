"""Observation spaces of the Gymnasium environments, from the engine's game description.

The Box bounds are the engine's real value ranges
(:attr:`polyenv.GameDescription.map_token_bounds` and friends, each with the
rule behind it in ``bound_reasons``; docs/gymnasium.md lists each column).
"""

from __future__ import annotations

import math

import numpy as np
from gymnasium import spaces

from .. import _core
from ..description import GameDescription
from .flat import FlatEncoder
from .options import OBSERVATION_FORMATS, choice

__all__ = ["description_bounds", "observation_bounds", "observation_space", "flat_encoder"]


def description_bounds(d: GameDescription) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Lower and upper bounds (int32 arrays) of every observation field of the games ``d`` describes.

    Returns ``{name: (low, high)}`` for ``map_tokens`` ``[tiles, 23]``, ``state``
    ``[11]``, ``action_id`` ``[max_actions]`` and ``action_features``
    ``[max_actions, 17]``. Unexplored tiles and padding rows are zeros, inside
    every range.
    """
    def rows(bounds, n):
        low, high = bounds
        return np.tile(low, (n, 1)), np.tile(high, (n, 1))

    A = d.max_actions
    return {
        "map_tokens": rows(d.map_token_bounds, d.num_tiles),
        "state": d.state_bounds,
        "action_id": (np.full(A, -1, np.int32), np.full(A, d.action_space_size - 1, np.int32)),
        "action_features": rows(d.action_feature_bounds, A),
    }


def observation_bounds(num_tiles: int, num_players: int, turn_limit: int, max_actions: int,
                       action_space_size: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """:func:`description_bounds` of a board of ``num_tiles`` tiles (a square) and ``num_players`` players."""
    map_size = math.isqrt(int(num_tiles))
    if map_size * map_size != num_tiles:
        raise ValueError(f"num_tiles must be a square board's, got {num_tiles!r}")
    d = _core.describe_config(map_size, int(num_players), 0, int(turn_limit), False, int(max_actions),
                            num_players == 1)
    if d.action_space_size != action_space_size:
        raise ValueError(f"action_space_size {action_space_size} is not that of a {map_size}x{map_size} board with "
                         f"{num_players} players ({d.action_space_size})")
    return description_bounds(d)


def observation_space(d: GameDescription, action_mode: str) -> spaces.Dict:
    """The ``spaces.Dict`` observation space of one environment (see polyenv.envs.gym_env)."""
    b = description_bounds(d)
    fields = {
        "map_tokens": spaces.Box(*b["map_tokens"], dtype=np.int32),
        "state": spaces.Box(*b["state"], dtype=np.int32),
        "action_mask": spaces.Box(0, 1, (d.action_space_size if action_mode == "global" else d.max_actions,),
                                  np.int8),
    }
    if action_mode == "rows":
        fields["action_id"] = spaces.Box(*b["action_id"], dtype=np.int32)
        fields["action_features"] = spaces.Box(*b["action_features"], dtype=np.int32)
    return spaces.Dict(fields)


def flat_encoder(observation_format, d: GameDescription, action_mode: str) -> FlatEncoder | None:
    """The encoder of ``observation_format="flat"`` or ``"box"`` (None for ``"dict"``); ValueError for another."""
    if choice(observation_format, OBSERVATION_FORMATS, "observation_format") == "dict":
        return None
    return FlatEncoder(d.map_size, d.num_players, d.turn_limit, d.max_actions if action_mode == "rows" else 0)
