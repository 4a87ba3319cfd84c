"""Text rendering of map tokens (shared by GameEnv.render and the CLI)."""

from __future__ import annotations

import numpy as np

from ._names import UNIT_TYPES

_TERRAIN_CHAR = ".~=^vCf"  # plain, shallow, deep, mountain, village, city, forest
_UNIT_CHAR = "wrdsackmbBSG"  # warrior rider defender swordsman archer catapult knight mind-bender boat ship battleship giant


def render_text(tokens: np.ndarray, map_size: int, header: str = "") -> str:
    """One line per board row: each tile is two characters, terrain then content.

    Content: a unit letter (lowercase for the first player seen as owner 1,
    uppercase otherwise) or the city level digit; ``?`` marks fog.
    """
    lines = [header] if header else []
    assert len(UNIT_TYPES) == len(_UNIT_CHAR)
    for x in range(map_size):
        row = []
        for y in range(map_size):
            t = tokens[x * map_size + y]
            if t[0] == 0:
                row.append("??")
                continue
            ground = _TERRAIN_CHAR[t[1]] if 0 <= t[1] < len(_TERRAIN_CHAR) else "?"
            mark = " "
            if t[14] >= 0:
                letter = _UNIT_CHAR[t[14]]
                mark = letter if t[13] == 1 else letter.upper()
            elif t[9] >= 1:
                mark = str(min(int(t[9]), 9))
            row.append(ground + mark)
        lines.append(" ".join(row))
    return "\n".join(lines)
