"""A viewer's board as plain per-tile values: map tokens with absolute owners and nothing for fog.

Map tokens (``polyenv.MAP_TOKEN_FEATURE_NAMES``) name owners relative to the observer and are all
zeros on unexplored tiles. The viewers want absolute seats (colours follow a player whoever looks)
and an unmistakable "unknown": :func:`board_tiles` turns one into the other, ``-1`` for none or
unknown. A player's board is decoded from that player's own map tokens only.
"""

from __future__ import annotations

import numpy as np

from ..description import game_description

__all__ = ["TILE_FIELDS", "FIELD", "board_tiles", "tile_name"]

#: The per-tile values of a board, in order (owners are absolute seats).
TILE_FIELDS = ("explored", "terrain", "resource", "building", "building_level", "road", "territory",
               "city_owner", "city_level", "city_population", "city_flags", "unit_owner", "unit_type", "unit_hp",
               "unit_max_hp", "unit_status", "unit_flags", "unit_kills", "unit_carried_type")
#: Index of each field in a board row.
FIELD = {name: j for j, name in enumerate(TILE_FIELDS)}

_COL = game_description().map_token_columns
_OWNER_COLUMNS = {"territory": _COL["territory_owner"], "city_owner": _COL["city_owner"],
                  "unit_owner": _COL["unit_owner"]}
_SOURCE = [_COL.get(name, _OWNER_COLUMNS.get(name)) for name in TILE_FIELDS]


def board_tiles(tokens: np.ndarray, observer: int, num_players: int) -> np.ndarray:
    """int32 ``[tiles, len(TILE_FIELDS)]`` from map tokens seen by ``observer``.

    Owner fields become absolute seats (``-1``: none); every field of an unexplored tile but
    ``explored`` (0) is ``-1``; a tile without a unit has ``-1`` in every unit field.
    """
    tokens = np.asarray(tokens)
    out = tokens[:, _SOURCE].astype(np.int32)
    for name, col in _OWNER_COLUMNS.items():
        rel = tokens[:, col]
        out[:, FIELD[name]] = np.where(rel > 0, (observer + rel - 1) % max(num_players, 1), -1)
    no_unit = out[:, FIELD["unit_type"]] < 0
    for name in ("unit_owner", "unit_hp", "unit_max_hp", "unit_status", "unit_flags", "unit_kills",
                 "unit_carried_type"):
        out[no_unit, FIELD[name]] = -1
    hidden = tokens[:, _COL["explored"]] == 0
    out[hidden] = -1
    out[hidden, FIELD["explored"]] = 0
    return out


def tile_name(tile: int, map_size: int) -> str:
    """``(x,y)`` of a tile index ``x * map_size + y`` (x = row), as the engine writes it; ``?`` when unknown."""
    if tile is None or tile < 0:
        return "(?)"
    return f"({tile // map_size},{tile % map_size})"
