"""The ``"az"`` player's network: its input features, its weight file, and loading it natively (NumPy only).

The network (trained by :mod:`polyenv.train.alphazero` in PyTorch, played natively by the
``"az"`` bot without torch) reads one player's observation exactly as the pools' leaf
batches give it — ``map_tokens`` [tiles, 23], ``state`` [11], ``action_features`` [A, 17] —
and returns one logit per action row and a value per relative seat (index 0 the observer,
1 the next player in turn order, ...; 16 entries, the first P used). Ownership columns are
relative to the observer, so one network serves every seat, and it never reads anything but
that player's own observation.

Which columns feed the network, and how, is defined here once (:data:`TILE_CATEGORIES` ...)
and written into every weight file, so the torch module and the native forward pass read
the same inputs:

* a *category* ``(column, shift, size)`` selects embedding row
  ``clip(x[column] + shift, 0, size - 1)`` of its table (tables are stacked in order);
* a *numeric op* ``(kind, column, arg)`` with ``(scale, lo, hi)``: ``LINEAR``
  ``clip(x[column] * scale, lo, hi)``, ``BIT`` ``(x[column] >> arg) & 1``, ``DIFF``
  ``clip((x[column] - x[arg]) * scale, lo, hi)``, ``NON_NEGATIVE`` ``x[column] >= 0``;
* a *distance field* ``(column, lo, hi)`` gives every tile ``min(d, FIELD_CAP) / FIELD_CAP``,
  ``d`` the Chebyshev distance to the nearest tile with ``lo <= x[column] <= hi`` (the cap when
  there is none): how far the nearest enemy city, village, unexplored tile, ... is, beyond what
  the tile mixing layers can see.

Weight file (``.paz``): the magic ``b"POLYAZ\\x00\\x01"``, uint32 format version 1, uint32
tensor count, then per tensor: uint32 name length, the name (ASCII), uint8 dtype (0 float32,
1 int32), uint32 ndim, uint32 dims, the little-endian data. Dense layers are stored
``[in, out]``. :func:`write_weights` / :func:`read_weights` handle it; the native reader
(``csrc/players/az_net.cpp``) checks every name, dtype and shape.
"""

from __future__ import annotations

import os
import struct
import threading
from pathlib import Path

import numpy as np

from . import _core
from ._names import ACTION_KINDS, BUILDINGS, LEVEL_UP_REWARDS, RESOURCES, TECHS, TERRAINS, TILE_ACTIONS, UNIT_TYPES
from .description import game_description

__all__ = ["TILE_CATEGORIES", "TILE_NUMERIC", "TILE_FIELDS", "FIELD_CAP", "STATE_NUMERIC", "ROW_CATEGORIES", "ROW_NUMERIC",
           "PLAYER_TARGET_KINDS", "VALUE_SIZE", "LINEAR", "BIT", "DIFF", "NON_NEGATIVE", "SHIPPED_WEIGHTS",
           "feature_tensors", "write_weights", "read_weights", "load", "shipped"]

_LAYOUT = game_description()
_T, _S, _F = _LAYOUT.map_token_columns, _LAYOUT.state_columns, _LAYOUT.action_feature_columns
_CITY_FLAGS, _UNIT_FLAGS = _LAYOUT.city_flags, _LAYOUT.unit_flags

#: Numeric op: ``clip(x[column] * scale, lo, hi)``.
LINEAR = 0
#: Numeric op: bit ``arg`` of ``x[column]``, ``(x[column] >> arg) & 1``.
BIT = 1
#: Numeric op: ``clip((x[column] - x[arg]) * scale, lo, hi)``.
DIFF = 2
#: Numeric op: ``x[column] >= 0`` (1.0 or 0.0).
NON_NEGATIVE = 3
#: Values per relative seat (the most players a game can have).
VALUE_SIZE = 16

#: Map-token columns embedded as categories: (column, shift, size). Owners clip to none / self / other.
TILE_CATEGORIES = (
    (_T["explored"], 0, 2),
    (_T["terrain"], 0, len(TERRAINS)),
    (_T["resource"], 1, len(RESOURCES) + 1),          # -1 none
    (_T["building"], 1, len(BUILDINGS) + 1),
    (_T["building_level"], 0, 6),
    (_T["road"], 0, 2),
    (_T["territory_owner"], 0, 3),
    (_T["city_owner"], 0, 3),
    (_T["city_level"], 1, 8),                         # -1 none, clipped at 6
    (_T["unit_owner"], 0, 3),
    (_T["unit_type"], 1, len(UNIT_TYPES) + 1),
    (_T["unit_status"], 1, 7),
    (_T["unit_carried_type"], 1, len(UNIT_TYPES) + 1),
)
#: Map-token numeric inputs: (kind, column, arg, scale, lo, hi).
TILE_NUMERIC = (
    (LINEAR, _T["unit_hp"], 0, 0.1, -1.0, 5.0),
    (LINEAR, _T["unit_max_hp"], 0, 0.1, -1.0, 5.0),
    (LINEAR, _T["city_population"], 0, 0.2, -2.0, 4.0),
    (LINEAR, _T["city_production"], 0, 0.2, -2.0, 4.0),
    (LINEAR, _T["unit_kills"], 0, 1 / 3, -1.0, 3.0),
    *((BIT, _T["city_flags"], int(_CITY_FLAGS[name]).bit_length() - 1, 1.0, 0.0, 1.0)
      for name in ("capital", "walls", "workshop", "park", "connected")),
    (BIT, _T["unit_flags"], int(_UNIT_FLAGS["veteran"]).bit_length() - 1, 1.0, 0.0, 1.0),
)
#: Distance fields of the tiles: (column, lo, hi) selects the tiles measured to.
TILE_FIELDS = (
    (_T["city_owner"], 2, 16),                        # enemy cities
    (_T["city_owner"], 1, 1),                         # own cities
    (_T["terrain"], TERRAINS.index("village"), TERRAINS.index("village")),
    (_T["unit_owner"], 2, 16),                        # enemy units
    (_T["unit_owner"], 1, 1),                         # own units
    (_T["explored"], 0, 0),                           # unexplored tiles
)
#: Distances are capped here (and scaled by it).
FIELD_CAP = 8
#: State numeric inputs.
STATE_NUMERIC = (
    (LINEAR, _S["turn"], 0, 1 / 50, 0.0, 2.0),
    (LINEAR, _S["player_stars"], 0, 1 / 20, 0.0, 5.0),
    (LINEAR, _S["owns_units"], 0, 1 / 10, 0.0, 5.0),
    (LINEAR, _S["own_cities"], 0, 1 / 5, 0.0, 5.0),
    (LINEAR, _S["next_turn_star_income"], 0, 1 / 20, 0.0, 5.0),
    (NON_NEGATIVE, _S["pending_city_id"], 0, 1.0, 0.0, 1.0),
)
#: Action-row columns embedded as categories.
ROW_CATEGORIES = (
    (_F["type_id"], 0, len(ACTION_KINDS)),
    (_F["tech"], 1, len(TECHS) + 1),
    (_F["building"], 1, len(BUILDINGS) + 1),
    (_F["spawn_type"], 1, 9),
    (_F["upgrade"], 1, len(LEVEL_UP_REWARDS) + 1),
    (_F["tile_action"], 1, len(TILE_ACTIONS) + 1),
    (_F["unit_upgrade"], 1, len(UNIT_TYPES) + 1),
)
#: Action-row numeric inputs.
ROW_NUMERIC = (
    (LINEAR, _F["population_gain"], 0, 0.25, 0.0, 4.0),
    (LINEAR, _F["cost_stars"], 0, 0.1, -2.0, 5.0),
    (LINEAR, _F["affordable"], 0, 1.0, 0.0, 1.0),
    (DIFF, _F["stars_before"], _F["cost_stars"], 0.1, -5.0, 5.0),
    # the combat preview of an attack row (-1 on every other row): what greedy simulates
    (LINEAR, _F["damage_dealt"], 0, 0.1, -0.1, 5.0),
    (LINEAR, _F["damage_received"], 0, 0.1, -0.1, 5.0),
)
#: Action kinds whose target column names a player (relative), not a tile.
PLAYER_TARGET_KINDS = tuple(ACTION_KINDS.index(k) for k in ("declare_war", "send_stars"))

_MAGIC = b"POLYAZ\x00\x01"
_VERSION = 1
_DTYPES = {0: np.dtype("<f4"), 1: np.dtype("<i4")}

#: The weights the package ships (the ``"az"`` bot).
SHIPPED_WEIGHTS = Path(__file__).resolve().parent / "models" / "az.paz"


def _numeric(ops) -> tuple[np.ndarray, np.ndarray]:
    a = np.array([op[:3] for op in ops], np.int32).reshape(-1, 3)
    return a, np.array([op[3:] for op in ops], np.float32).reshape(-1, 3)


def feature_tensors() -> dict[str, np.ndarray]:
    """The feature spec as the tensors every weight file holds (see the module docstring)."""
    out = {"tile_categories": np.array(TILE_CATEGORIES, np.int32), "row_categories": np.array(ROW_CATEGORIES, np.int32),
           "player_target_kinds": np.array(PLAYER_TARGET_KINDS, np.int32),
           "tile_fields": np.array(TILE_FIELDS, np.int32), "field_cap": np.array([FIELD_CAP], np.int32)}
    for name, ops in (("tile_numeric", TILE_NUMERIC), ("state_numeric", STATE_NUMERIC), ("row_numeric", ROW_NUMERIC)):
        out[name + "_ops"], out[name + "_scales"] = _numeric(ops)
    return out


def write_weights(path, tensors: dict[str, np.ndarray]) -> None:
    """Writes named float32 / int32 tensors as a weight file (atomically: a temporary file is renamed)."""
    path = Path(path)
    chunks = [_MAGIC, struct.pack("<II", _VERSION, len(tensors))]
    for name, value in tensors.items():
        a = np.asarray(value)
        code = 1 if a.dtype.kind in "iu" else 0
        a = np.ascontiguousarray(a, dtype=_DTYPES[code])
        raw = name.encode("ascii")
        chunks.append(struct.pack("<I", len(raw)) + raw + struct.pack("<BI", code, a.ndim) +
                      struct.pack(f"<{a.ndim}I", *a.shape) + a.tobytes())
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(b"".join(chunks))
    os.replace(tmp, path)


def read_weights(path) -> dict[str, np.ndarray]:
    """The named tensors of a weight file. ValueError when it is not one."""
    data = Path(path).read_bytes()
    if data[:8] != _MAGIC:
        raise ValueError(f"{str(path)!r} is not a polyenv az weight file")
    version, count = struct.unpack_from("<II", data, 8)
    if version != _VERSION:
        raise ValueError(f"{str(path)!r}: unsupported az weight format {version}")
    pos, out = 16, {}
    try:
        for _ in range(count):
            (n,) = struct.unpack_from("<I", data, pos)
            name = data[pos + 4:pos + 4 + n].decode("ascii")
            pos += 4 + n
            code, ndim = struct.unpack_from("<BI", data, pos)
            pos += 5
            shape = struct.unpack_from(f"<{ndim}I", data, pos)
            pos += 4 * ndim
            size = int(np.prod(shape, dtype=np.int64)) * 4
            out[name] = np.frombuffer(data, _DTYPES[code], size // 4, pos).reshape(shape).copy()
            pos += size
    except (struct.error, KeyError, ValueError, UnicodeDecodeError) as e:
        raise ValueError(f"{str(path)!r}: malformed az weight file ({e})") from None
    return out


_loaded: dict[tuple, int] = {}
_lock = threading.Lock()


def load(path) -> int:
    """Registers the network of a weight file natively (once per file version) and returns its index,
    as ``bots`` and ``VectorGameEnv`` take it. ValueError when the file is missing or malformed."""
    p = Path(path).expanduser().resolve()
    try:
        st = p.stat()
    except OSError as e:
        raise ValueError(f"cannot read az weights {str(path)!r}: {e.strerror}") from None
    key = (str(p), st.st_mtime_ns, st.st_size)
    with _lock:
        if key not in _loaded:
            _loaded[key] = int(_core.az_register(p.read_bytes()))
        return _loaded[key]


def shipped() -> int:
    """The native index of the network the package ships (loaded on first use)."""
    return load(SHIPPED_WEIGHTS)
