"""Level loading, shared by GameEnv, the Gymnasium env and the PettingZoo env.

A level argument is a Tribes CSV level: a path or the text itself. A level
pool (the environments' ``levels=``) is a path, a glob, CSV text, or a list of
them; every level of a pool is parsed and checked up front (errors name the
level) and all must share one board size and player count.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence

__all__ = ["read_level", "load_level_pool", "LevelPool", "level_pool", "episode_levels"]


def read_level(level) -> str:
    """The CSV text of a level argument (CSV text, or a path to a CSV file); ValueError if unreadable."""
    text = os.fspath(level) if isinstance(level, os.PathLike) else level
    if not isinstance(text, str):
        raise ValueError(f"level must be a path or CSV text, got {type(level).__name__}")
    if "\n" not in text and ":" not in text.split(",")[0] or os.path.isfile(text):
        try:
            with open(text, encoding="utf-8") as f:
                return f.read()
        except OSError as e:
            raise ValueError(f"cannot read level file {text!r}: {e}") from None
    return text


def load_level_pool(levels) -> tuple[list[str], list[str | None]]:
    """Expands ``levels`` (a path, a glob, CSV text, or a list of them) into (texts, paths).

    Globs are expanded in sorted order; CSV text has path None. Raises
    ValueError when an entry matches no file or the pool is empty.
    """
    if isinstance(levels, (str, os.PathLike)):
        levels = [levels]
    if isinstance(levels, (bytes, bytearray)) or not isinstance(levels, Sequence):
        raise ValueError(f"levels must be a path, a glob, CSV text or a list of them, got {type(levels).__name__}")
    texts, paths = [], []
    for entry in levels:
        if isinstance(entry, os.PathLike):
            entry = os.fspath(entry)
        if not isinstance(entry, str):
            raise ValueError(f"a level must be a path, a glob or CSV text, got {type(entry).__name__}")
        if "\n" in entry:  # the CSV text itself
            texts.append(entry)
            paths.append(None)
            continue
        matches = sorted(glob.glob(entry)) if glob.has_magic(entry) else ([entry] if os.path.isfile(entry) else [])
        if not matches:
            raise ValueError(f"level pool entry {entry!r} matches no file")
        for path in matches:
            texts.append(read_level(path))
            paths.append(path)
    if not texts:
        raise ValueError("levels is empty: the level pool needs at least one level")
    return texts, paths


class LevelPool:
    """The levels of an environment, checked against one configuration without building a game.

    Args:
        levels: as :func:`load_level_pool`.
        players: the tribes that play every level (None: each level's own).
        mode, max_turns, full_observability, max_actions: as :func:`polyenv.game_description`.

    ``description`` is the :class:`polyenv.GameDescription` shared by every
    level; ``texts[i]`` / ``paths[i]`` the i-th level (path None for CSV text).
    """

    def __init__(self, levels, players=None, **options):
        from .description import game_description
        self.texts, self.paths = load_level_pool(levels)
        self.description = None
        for i, text in enumerate(self.texts):
            try:
                d = game_description(level=text, players=players, **options)
            except ValueError as e:
                raise ValueError(f"level {self.name(i)}: {e}") from None
            first = self.description
            if first is None:
                self.description = d
            elif (d.map_size, d.num_players) != (first.map_size, first.num_players):
                raise ValueError(f"level {self.name(i)} is {d.map_size}x{d.map_size} with {d.num_players} "
                                 f"players, but {self.name(0)} is {first.map_size}x{first.map_size} with "
                                 f"{first.num_players}: all levels must share one size and player count")

    def __len__(self) -> int:
        return len(self.texts)

    def name(self, i: int) -> str:
        """How errors name level ``i``: its path, or its position for CSV text."""
        path = self.paths[i]
        return repr(path) if path is not None else f"#{i} (CSV text)"


def level_pool(level, levels, players=None, **options) -> LevelPool | None:
    """The ``level`` / ``levels`` arguments of an environment as one checked :class:`LevelPool`
    (None: generated maps); ValueError for both, or for a ``level`` that is not a path or CSV text.

    ``level`` is one level (a path or the CSV text) every episode plays, ``levels`` a pool (a
    path, a glob, CSV text, or a list of them). ``players`` and ``options`` are as for
    :class:`LevelPool`.
    """
    if level is not None and levels is not None:
        raise ValueError("give level (one level) or levels (a pool), not both")
    if level is None and levels is None:
        return None
    if level is not None and not isinstance(level, (str, os.PathLike)):
        raise ValueError(f"level must be a path or CSV text, got {type(level).__name__}")
    return LevelPool([level] if level is not None else levels, players, **options)


def episode_levels(level, levels, map_size, players) -> tuple[list[str], int, Sequence]:
    """The ``level`` / ``levels`` arguments of a batch of live games (VectorGameEnv, the
    search pools) as (CSV texts, map size, tribes), validated (ValueError).

    ``level`` is one level (a path or the CSV text), ``levels`` a pool (a path, a glob,
    CSV text, or a list of them, as the Gymnasium environments take it); at most one
    may be given. Without either: no texts, ``map_size`` (default 11) and ``players``
    (default Bardur, Imperius). With levels every level must share one board size and
    player count; ``map_size`` must be None or that size and ``players`` None (every
    level's own tribes, passed on as ``()``) or as many tribes as the levels have capitals.
    ``levels`` may also be a :class:`LevelPool` its caller already built and checked (TribesVectorEnv's):
    its texts are used as they are, not read and described again.
    """
    if players is not None and not isinstance(players, (str, bytes)) and isinstance(players, Sequence) \
            and len(players) == 0:  # natively no tribes means "every level's own"
        from .description import check_player_count
        check_player_count(0)  # the engine's rule and message
    # Each level is checked with its own tribes here; the native owner checks `players` against them.
    pool = levels if isinstance(levels, LevelPool) and level is None else level_pool(level, levels)
    if pool is None:
        return [], 11 if map_size is None else map_size, (2, 1) if players is None else players
    size = pool.description.map_size
    if map_size is not None and map_size != size:
        raise ValueError(f"map_size={map_size!r} but the levels are {size}x{size}")
    return pool.texts, size, () if players is None else players  # (): every level's own tribes
