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

from . import _core
from .description import game_description
from ._names import ACTION_KINDS, BUILDINGS, LEVEL_UP_REWARDS, RESOURCES, TECHS, TERRAINS, TILE_ACTIONS, \
    UNIT_STATUSES, UNIT_TYPES

__all__ = ["FLAT_TILE_FEATURE_NAMES", "FLAT_STATE_FEATURE_NAMES", "FLAT_ACTION_FEATURE_NAMES", "FlatEncoder",
           "flat_feature_names"]

# Column indices and flag bits of the engine's layouts (polyenv.GameDescription).
_LAYOUT = game_description()
_T, _S, _F = _LAYOUT.map_token_columns, _LAYOUT.state_columns, _LAYOUT.action_feature_columns
_EXPLORED, _TERRAIN, _RESOURCE, _BUILDING, _BUILDING_LEVEL, _ROAD, _TERRITORY_OWNER, _TERRITORY_CITY = (_T[n] for n in (
    "explored", "terrain", "resource", "building", "building_level", "road", "territory_owner", "territory_city_tile"))
_CITY_OWNER, _CITY_LEVEL, _CITY_POPULATION, _CITY_FLAGS, _CITY_PRODUCTION, _UNIT_OWNER, _UNIT_TYPE = (_T[n] for n in (
    "city_owner", "city_level", "city_population", "city_flags", "city_production", "unit_owner", "unit_type"))
_UNIT_HP, _UNIT_MAX_HP, _UNIT_STATUS, _UNIT_FLAGS, _UNIT_KILLS, _UNIT_CARRIED, _OBSERVED_ID, _HOME_CITY = (_T[n] for n in (
    "unit_hp", "unit_max_hp", "unit_status", "unit_flags", "unit_kills", "unit_carried_type", "observed_unit_id",
    "unit_home_city_tile"))
_TURN, _CURRENT, _GAME_OVER, _WINNER, _STARS, _UNITS, _CITIES, _INCOME, _PENDING_CITY, _UPGRADE_A, _UPGRADE_B = (
    _S[n] for n in _LAYOUT.state_features)
_KIND, _SOURCE, _TARGET, _CITY = _F["type_id"], _F["source_index"], _F["target_index"], _F["city"]
_ARG_COLUMNS = {"tech": (_F["tech"], TECHS), "building": (_F["building"], BUILDINGS),
                "spawn_type": (_F["spawn_type"], UNIT_TYPES), "upgrade": (_F["upgrade"], LEVEL_UP_REWARDS),
                "tile_action": (_F["tile_action"], TILE_ACTIONS), "unit_upgrade": (_F["unit_upgrade"], UNIT_TYPES)}
_POPULATION_GAIN, _COST, _AFFORDABLE = _F["population_gain"], _F["cost_stars"], _F["affordable"]


def _one_hot(prefix: str, column: int, table) -> list[tuple[str, int, int]]:
    """(name, token column, code) for every named code of ``table``."""
    return [(f"{prefix}_{name}", column, code) for code, name in enumerate(table) if name]


# Tile features that are "token column == code", zeroed on unexplored tiles (all-zero tokens).
_TILE_EQUAL = ([("explored", _EXPLORED, 1)] + _one_hot("terrain", _TERRAIN, TERRAINS)
               + _one_hot("resource", _RESOURCE, RESOURCES) + _one_hot("building", _BUILDING, BUILDINGS)
               + [("road", _ROAD, 1), ("territory_own", _TERRITORY_OWNER, 1), ("city_own", _CITY_OWNER, 1),
                  ("unit_own", _UNIT_OWNER, 1)]
               + _one_hot("unit", _UNIT_TYPE, UNIT_TYPES) + _one_hot("unit_status", _UNIT_STATUS, UNIT_STATUSES)
               + _one_hot("carried", _UNIT_CARRIED, UNIT_TYPES))
# Owner columns: 0 none, 1 self, 2.. others.
_TILE_OTHER = [("territory_other", _TERRITORY_OWNER), ("city_other", _CITY_OWNER), ("unit_other", _UNIT_OWNER)]
_TILE_BITS = ([(f"city_{flag}", _CITY_FLAGS, bit) for flag, bit in _LAYOUT.city_flags.items()]
              + [(f"unit_{flag}", _UNIT_FLAGS, bit) for flag, bit in _LAYOUT.unit_flags.items()])
# (name, token column, divisor, low, high): clip(value / divisor, low, high); -1 "none" clips to 0. The
# level and hp divisors are the columns' largest values (the temple's level 5, the veteran Giant's 45 hp);
# kills are scaled by the 3 that make a veteran (RULES §5).
_MAX_TEMPLE_LEVEL = int(_LAYOUT.map_token_bounds[1][_BUILDING_LEVEL])
_MAX_UNIT_HP = int(_LAYOUT.map_token_bounds[1][_UNIT_HP])
_VETERAN_KILLS = _core.VETERAN_KILLS
_TILE_SCALED = [("building_level", _BUILDING_LEVEL, _MAX_TEMPLE_LEVEL, 0, 1), ("city_level", _CITY_LEVEL, 10, 0, 1),
                ("unit_hp", _UNIT_HP, _MAX_UNIT_HP, 0, 1), ("unit_max_hp", _UNIT_MAX_HP, _MAX_UNIT_HP, 0, 1),
                ("unit_kills", _UNIT_KILLS, _VETERAN_KILLS, 0, 1)]
# Own cities only (the token is -1 for others): clip(value / 10, -1, 1).
_TILE_OWN_CITY = [("city_population", _CITY_POPULATION), ("city_production", _CITY_PRODUCTION)]
_TILE_RELATIVE = [("territory_city", _TERRITORY_CITY), ("home_city", _HOME_CITY)]

#: The names of the 89 flat features of one tile, in order.
FLAT_TILE_FEATURE_NAMES: tuple[str, ...] = tuple(
    [n for n, _, _ in _TILE_EQUAL] + [n for n, _ in _TILE_OTHER] + [n for n, _, _ in _TILE_BITS]
    + [n for n, *_ in _TILE_SCALED] + [n for n, _ in _TILE_OWN_CITY]
    + [f"{n}_{axis}" for n, _ in _TILE_RELATIVE for axis in ("dx", "dy")] + ["pending_city"])

# (name, state column, divisor): clip(value / divisor, 0, 1).
_STATE_SCALED = [("stars", _STARS, 100), ("units", _UNITS, 20), ("cities", _CITIES, 10), ("income", _INCOME, 50)]
#: The names of the 27 flat scalar features, in order.
FLAT_STATE_FEATURE_NAMES: tuple[str, ...] = tuple(
    ["turn_progress", "my_turn", "current_player_relative", "game_over", "won", "lost"]
    + [n for n, _, _ in _STATE_SCALED] + ["pending_level_up"]
    + [f"upgrade_a_{n}" for n in LEVEL_UP_REWARDS] + [f"upgrade_b_{n}" for n in LEVEL_UP_REWARDS])

#: The names of the 42 flat features of one action row, in order.
FLAT_ACTION_FEATURE_NAMES: tuple[str, ...] = tuple(
    [f"kind_{n}" for n in ACTION_KINDS]
    + [f"{w}_{a}" for w in ("source", "target", "city") for a in ("x", "y", "present")]
    + ["target_player_relative"] + list(_ARG_COLUMNS) + ["population_gain", "cost", "affordable"])


# The native encoder (csrc/encode/flat.cpp) writes exactly these blocks.
assert _core.FLAT_LAYOUT == (len(FLAT_TILE_FEATURE_NAMES), len(FLAT_STATE_FEATURE_NAMES),
                             len(FLAT_ACTION_FEATURE_NAMES)), "polyenv._core is out of date: rebuild it"


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
            self._no_rows[batch] = (np.zeros((batch, 0, 17), np.int32), np.zeros(batch, np.int32))
        return self._no_rows[batch]

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Elementwise (low, high) float32 arrays of the flat vector: 0..1, or -1..1 for signed columns."""
        low = np.zeros(self.size, np.float32)
        F = len(FLAT_TILE_FEATURE_NAMES)
        tiles = low[:self._tile_end].reshape(self.num_tiles, F)
        for name in ("city_population", "city_production", "territory_city_dx", "territory_city_dy",
                     "home_city_dx", "home_city_dy"):
            tiles[:, FLAT_TILE_FEATURE_NAMES.index(name)] = -1
        rows = low[self._state_end:].reshape(self.max_actions, len(FLAT_ACTION_FEATURE_NAMES))
        rows[:, FLAT_ACTION_FEATURE_NAMES.index("cost")] = -1
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
        tok = np.ascontiguousarray(tokens.reshape(B, self.num_tiles, 23), dtype=np.int32)
        st = np.ascontiguousarray(np.asarray(state).reshape(B, 11), dtype=np.int32)
        seats = np.ascontiguousarray(np.broadcast_to(np.asarray(observer, np.int32), batch).reshape(B))
        if self.max_actions:
            rows = np.ascontiguousarray(np.asarray(action_features).reshape(B, self.max_actions, 17), dtype=np.int32)
            count = np.ascontiguousarray(np.broadcast_to(np.asarray(legal_count, np.int32), batch).reshape(B))
        else:
            rows, count = self._empty_rows(B)
        _core.encode_flat(tok, st, seats, rows, count, out.reshape(B, self.size), self.map_size, self.num_players,
                          self.turn_limit)
        return out
