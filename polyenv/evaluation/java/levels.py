"""Levels for lockstep games: Tribes' own CSV files and polyenv-generated maps written as Tribes CSV."""

from __future__ import annotations

import random
from pathlib import Path

from ...game_env import GameEnv

_TERRAIN_CHAR = {"plain": ".", "shallow_water": "s", "deep_water": "d", "mountain": "m", "village": "v",
                 "city": "c", "forest": "f"}
_RESOURCE_CHAR = {"fish": "h", "fruit": "f", "animal": "a", "whales": "w", "ore": "o", "crops": "c", "ruins": "r"}
MAP_SIZE = {2: 11, 4: 16}


def capitals(csv: str) -> int:
    """Number of tribes (capital tokens) of a CSV level."""
    return sum(tok.strip().startswith("c:") for line in csv.splitlines() for tok in line.split(","))


def tribes_levels(tree: Path, players: tuple[int, ...]) -> list[tuple[str, str]]:
    """(name, csv) of Tribes' level files with 2 or 4 tribes (or the given counts)."""
    out = []
    for p in sorted((tree / "levels").glob("*.csv")):
        text = p.read_text()
        if capitals(text) in players:
            out.append((f"tribes:{p.name}", text))
    return out


def generated_csv(seed: int, players: int, tribes=None, map_size: int | None = None) -> str:
    """A map from polyenv's §1.4 generator written as Tribes CSV.

    ``tribes``: the tribe of each seat (tribe keys or names, as ``GameEnv`` takes them); default: ``players``
    distinct tribes drawn from ``seed``. ``map_size``: default 11 for 2 players, 16 for 4.
    """
    if tribes is None:
        tribes = random.Random(seed).sample(range(12), players)
    env = GameEnv(seed=seed, map_size=map_size or MAP_SIZE[players], players=list(tribes), full_observability=True)
    n = env.map_size
    lines = []
    for x in range(n):
        toks = []
        for y in range(n):
            t = env.tile(x * n + y)
            c = env.city_at(x * n + y)
            if c is not None:
                toks.append(f"c:{env.player(c['owner'])['tribe_key']}")
            else:
                toks.append(_TERRAIN_CHAR[t["terrain"]] + ":" + _RESOURCE_CHAR.get(t["resource"] or "", ""))
        lines.append(",".join(toks))
    return "\n".join(lines) + "\n"
