"""Conversions between user-facing names and the engine's integer codes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import _core
from ._validate import ArgumentTypeError, integer, is_integer, player_count

#: Unit type names by engine code (rules §5): warrior, rider, ..., giant.
UNIT_TYPES: tuple[str, ...] = _core.UNIT_TYPES
#: The 24 tech names by engine code (rules §4).
TECHS: tuple[str, ...] = _core.TECHS
#: Tribe names by tribe key 0..11 (rules §2).
TRIBES: tuple[str, ...] = _core.TRIBES
#: The 19 building names by engine code (rules §9.2), monuments included.
BUILDINGS: tuple[str, ...] = _core.BUILDINGS
#: Terrain names by engine code (rules §1.1).
TERRAINS: tuple[str, ...] = _core.TERRAINS
#: Resource names by engine code (rules §1.2; code 4 is unused: "").
RESOURCES: tuple[str, ...] = _core.RESOURCES
#: Action kinds by ``type_id`` (the ``action_features`` column and ``GameEnv.action_id``'s kinds).
ACTION_KINDS: tuple[str, ...] = _core.ACTION_KINDS
#: Unit status names by engine code (rules §5): fresh, moved, attacked, moved_and_attacked, pushed, finished.
UNIT_STATUSES: tuple[str, ...] = _core.UNIT_STATUSES
#: Level-up reward names by engine code (rules §8.2), options A and B of each level in turn.
LEVEL_UP_REWARDS: tuple[str, ...] = _core.LEVEL_UP_REWARDS
#: The tile actions of the TileAction block, in id order: gather, clear_forest, burn_forest, grow_forest, destroy.
TILE_ACTIONS: tuple[str, ...] = _core.TILE_ACTIONS

MODES = {"capitals": 0, "score": 1}

_TRIBE_ALIASES = {name.lower().replace("-", "").replace("_", ""): i for i, name in enumerate(TRIBES)}


def code(value, table: Sequence[str], what: str, allow_none: bool = False) -> int:
    """Returns the index of `value` (a name of `table` or an int index) or raises ValueError."""
    if value is None:
        if allow_none:
            return -1
        raise ValueError(f"{what} is required")
    if isinstance(value, str):
        key = value.lower()
        for i, name in enumerate(table):
            if name and name == key:
                return i
        choices = ", ".join(n for n in table if n)
        raise ValueError(f"unknown {what} {value!r}; expected one of: {choices}")
    if not is_integer(value):
        raise ArgumentTypeError(f"{what} must be a name or an integer, got {value!r}")
    index = int(value)
    if not 0 <= index < len(table) or not table[index]:
        raise ValueError(f"{what} {value!r} is outside 0..{len(table) - 1}")
    return index


def tribe_code(value) -> int:
    """Accepts a tribe constant (int 0..11) or a tribe name such as "Bardur" or "xin-xi"."""
    if isinstance(value, str):
        key = value.lower().replace("-", "").replace("_", "").replace(" ", "")
        if key in _TRIBE_ALIASES:
            return _TRIBE_ALIASES[key]
        raise ValueError(f"unknown tribe {value!r}; expected one of: {', '.join(TRIBES)}")
    return code(value, TRIBES, "tribe")


def mode_code(mode) -> int:
    """"capitals" -> 0, "score" -> 1."""
    if isinstance(mode, str) and mode.lower() in MODES:
        return MODES[mode.lower()]
    raise ValueError(f"mode must be 'capitals' or 'score', got {mode!r}")


def tile_index(tile, map_size: int) -> int:
    """A tile index `x * map_size + y`, from an int or an (x, y) pair; validated."""
    if isinstance(tile, tuple) or isinstance(tile, list):
        if len(tile) != 2:
            raise ValueError(f"a tile pair must be (x, y), got {tile!r}")
        x, y = (integer(v, "a tile coordinate", -(2**31)) for v in tile)
        if not (0 <= x < map_size and 0 <= y < map_size):
            raise ValueError(f"tile {tuple(tile)} is outside the {map_size}x{map_size} board")
        return x * map_size + y
    if not is_integer(tile):
        raise ArgumentTypeError(f"a tile must be an index or an (x, y) pair, got {tile!r}")
    index = int(tile)
    if not 0 <= index < map_size * map_size:
        raise ValueError(f"tile {tile!r} is outside 0..{map_size * map_size - 1}")
    return index


#: Tribes of generated games by seat when only a player count is given: Bardur, Imperius, Xin-Xi, Oumaji, ...
DEFAULT_TRIBES = (2, 1, 0, 3, 4, 5, 6, 7, 8, 9, 10, 11)


def resolve_tribes(players, have_levels: bool, default_count: int = 2):
    """``players`` (None, a player count or a sequence of tribes) as a tuple of tribes, or None for the level's."""
    if players is None:
        return None if have_levels else DEFAULT_TRIBES[:default_count]
    if isinstance(players, (int, np.integer)) and not isinstance(players, bool):
        players = player_count(players)
        return tuple(DEFAULT_TRIBES[i % len(DEFAULT_TRIBES)] for i in range(int(players)))
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise ValueError(f"players must be an int or a sequence of tribes, got {players!r}")
    return tuple(players)
