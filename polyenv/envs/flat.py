"""The flat observation (``observation_format="flat"``): one float32 vector of small, scaled features.

The native observation (``map_tokens`` / ``state`` / ``action_features``) is
int32 with raw engine values: category codes, tile indices, observed unit ids
up to 2^24. Libraries that expect one ``Box`` of comparable magnitudes
(SB3's ``MaskablePPO`` tutorial policy, SuperSuit's ``flatten_v0`` /
``normalize_obs_v0``, Gymnasium's ``NormalizeObservation``, Tianshou, TorchRL)
get this encoding instead, computed natively for a whole batch with the GIL
released (``polyenv._core.encode_flat``; ``tests/helpers/flat_reference.py`` is a NumPy
version of the same encoding, checked bit for bit):

* per tile (``FLAT_TILE_FEATURE_NAMES``, ``[num_tiles, F]``, tile index
  ``x * N + y``): one-hot categories (terrain, resource, building, unit type,
  unit status, carried type), 0/1 flags (explored, road, own / other
  territory, city, unit, city flags, veteran, the pending level-up city),
  clipped scalings (levels, hp, population, production, kills), and the
  *relative* position of the owning / home city as ``(dx, dy) / (N - 1)``
  instead of a tile index; observed unit ids are left out. Unexplored tiles
  are all zeros.
* scalars (``FLAT_STATE_FEATURE_NAMES``): turn progress, whose turn (relative
  to the observer), game over, won / lost, stars, units, cities, income, and
  the pending level-up choices one-hot.
* rows mode only, per legal-action row (``FLAT_ACTION_FEATURE_NAMES``,
  ``[max_actions, Fa]``): the action kind one-hot, source / target / city
  tile coordinates ``/ (N - 1)`` with presence flags, the relative target
  player of ``declare_war`` / ``send_stars``, category arguments as
  ``(code + 1) / count`` (0 = none), population gain, cost and affordability.
  Padding rows are zeros.

The vector is ``concat(tiles.ravel(), state, rows.ravel())``; every value is
in [-1, 1] (:meth:`FlatEncoder.bounds`). :func:`flat_feature_names` names every
element; docs/integrations.md lists every column with its scaling.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from .. import _core

__all__ = ["FLAT_TILE_FEATURE_NAMES", "FLAT_STATE_FEATURE_NAMES", "FLAT_ACTION_FEATURE_NAMES", "FlatEncoder",
           "flat_feature_names"]

# The native encoder's columns, block by block: (name, low) in column order, every value in [low, 1]
# (csrc/encode/flat.hpp owns the layout, its names, scalings and ranges).
_TILE_COLUMNS, _STATE_COLUMNS, _ACTION_COLUMNS = (_core.FLAT_LAYOUT[b] for b in ("tile", "state", "action"))
# Widths of the native int32 inputs.
_TOKEN_WIDTH, _STATE_WIDTH, _ROW_WIDTH = (len(_core.MAP_TOKEN_FEATURE_NAMES), len(_core.STATE_FEATURE_NAMES),
                                          len(_core.ACTION_FEATURE_NAMES))

#: The names of the 89 flat features of one tile, in order.
FLAT_TILE_FEATURE_NAMES: tuple[str, ...] = tuple(name for name, _ in _TILE_COLUMNS)
#: The names of the 27 flat scalar features, in order.
FLAT_STATE_FEATURE_NAMES: tuple[str, ...] = tuple(name for name, _ in _STATE_COLUMNS)
#: The names of the 42 flat features of one action row, in order.
FLAT_ACTION_FEATURE_NAMES: tuple[str, ...] = tuple(name for name, _ in _ACTION_COLUMNS)

# The lower bound of every column of a block (0, or -1 for a signed column).
_TILE_LOW, _STATE_LOW, _ACTION_LOW = (np.array([low for _, low in columns], np.float32)
                                      for columns in (_TILE_COLUMNS, _STATE_COLUMNS, _ACTION_COLUMNS))


def flat_feature_names(num_tiles: int, max_actions: int = 0) -> tuple[str, ...]:
    """The name of every element of the flat vector: ``tile{t}.{feature}``, ``{feature}``, ``row{r}.{feature}``."""
    return (tuple(f"tile{t}.{n}" for t in range(num_tiles) for n in FLAT_TILE_FEATURE_NAMES)
            + FLAT_STATE_FEATURE_NAMES
            + tuple(f"row{r}.{n}" for r in range(max_actions) for n in FLAT_ACTION_FEATURE_NAMES))


class FlatEncoder:
    """Encodes native observations of one board size into flat float32 vectors (see the module docstring).

    Args:
        map_size: board side N.
        num_players: players P (for the relative current player).
        turn_limit: the game's last round (for turn progress).
        max_actions: rows encoded per observation (0: global action mode, no rows).
    """

    def __init__(self, map_size: int, num_players: int, turn_limit: int, max_actions: int = 0):
        self.map_size, self.num_players, self.turn_limit = int(map_size), int(num_players), int(turn_limit)
        self.max_actions = int(max_actions)
        self.num_tiles = T = self.map_size ** 2
        F = len(FLAT_TILE_FEATURE_NAMES)
        self._tile_end = T * F
        self._state_end = self._tile_end + len(FLAT_STATE_FEATURE_NAMES)
        self.size = self._state_end + self.max_actions * len(FLAT_ACTION_FEATURE_NAMES)
        self._no_rows: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # global mode: empty rows per batch size

    def _empty_rows(self, batch: int) -> tuple[np.ndarray, np.ndarray]:
        """Global action mode: no rows (``action_features [B, 0, 17]``, counts 0)."""
        if batch not in self._no_rows:
            self._no_rows[batch] = (np.zeros((batch, 0, _ROW_WIDTH), np.int32), np.zeros(batch, np.int32))
        return self._no_rows[batch]

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Elementwise (low, high) float32 arrays of the flat vector: 0..1, or -1..1 for signed columns."""
        low = np.empty(self.size, np.float32)
        low[:self._tile_end].reshape(self.num_tiles, len(_TILE_LOW))[:] = _TILE_LOW
        low[self._tile_end:self._state_end] = _STATE_LOW
        low[self._state_end:].reshape(self.max_actions, len(_ACTION_LOW))[:] = _ACTION_LOW
        return low, np.ones(self.size, np.float32)

    def space(self, mask_size: int) -> spaces.Dict:
        """``Dict(observation=Box(float32, [size]), action_mask=Box(0, 1, [mask_size], int8))``."""
        return spaces.Dict({"observation": spaces.Box(*self.bounds(), dtype=np.float32),
                            "action_mask": spaces.Box(0, 1, (int(mask_size),), np.int8)})

    def feature_names(self) -> tuple[str, ...]:
        """The name of every element (``flat_feature_names``)."""
        return flat_feature_names(self.num_tiles, self.max_actions)

    def encode(self, map_tokens: np.ndarray, state: np.ndarray, observer, action_features: np.ndarray | None = None,
               legal_count=None, out: np.ndarray | None = None) -> np.ndarray:
        """Flat float32 ``[..., size]`` from ``map_tokens [..., T, 23]``, ``state [..., 11]`` and the observer seat(s).

        In rows mode also ``action_features [..., max_actions, 17]`` and the
        number of legal rows (``legal_count``, rows beyond it are padding).
        ``out`` (float32 ``[..., size]``, C-contiguous) is filled in place.
        """
        tokens = np.asarray(map_tokens)
        batch = tokens.shape[:-2]
        if out is None:
            out = np.empty(batch + (self.size,), np.float32)
        elif not (isinstance(out, np.ndarray) and out.dtype == np.float32 and out.shape == batch + (self.size,)
                  and out.flags.c_contiguous and out.flags.writeable):
            raise ValueError(f"out must be a writeable C-contiguous float32 array of shape {batch + (self.size,)}, "
                             f"got {getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}")
        B = int(np.prod(batch, dtype=np.int64))
        tok = np.ascontiguousarray(tokens.reshape(B, self.num_tiles, _TOKEN_WIDTH), dtype=np.int32)
        st = np.ascontiguousarray(np.asarray(state).reshape(B, _STATE_WIDTH), dtype=np.int32)
        seats = np.ascontiguousarray(np.broadcast_to(np.asarray(observer, np.int32), batch).reshape(B))
        if self.max_actions:
            rows = np.ascontiguousarray(np.asarray(action_features).reshape(B, self.max_actions, _ROW_WIDTH),
                                        dtype=np.int32)
            count = np.ascontiguousarray(np.broadcast_to(np.asarray(legal_count, np.int32), batch).reshape(B))
        else:
            rows, count = self._empty_rows(B)
        _core.encode_flat(tok, st, seats, rows, count, out.reshape(B, self.size), self.map_size, self.num_players,
                          self.turn_limit)
        return out
