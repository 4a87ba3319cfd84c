"""The static description of a game configuration: :func:`game_description`.

A :class:`GameDescription` (OpenSpiel's ``Game`` beside ``State``) is what a
configuration implies before any game is built: the board and action-space
sizes, the action-id layout (block offsets and sizes, the block of every action
kind), the fingerprint, the turn limit, the names and indices of the
map-token / state / action-feature columns, the flag bits of the flag columns,
and the value range of every observation column with the rule behind it. The
engine computes it from its rule tables; every Python face reads it instead of
keeping its own copy of these facts.

```python
import polyenv

d = polyenv.game_description(map_size=11, players=2)
d.action_space_size                     # 25452
d.action_blocks["move"]["offset"]       # the id of the first move
d.state_columns["winner"]               # 3
low, high = d.map_token_bounds          # int32 [23] each
```
"""

from __future__ import annotations

from collections.abc import Sequence

from . import _core
from . import _validate as _v
from ._names import mode_code, tribe_code

__all__ = ["GameDescription", "game_description", "MIN_PLAYERS", "MAX_PLAYERS", "check_player_count"]

#: The native description class (read-only attributes; see :func:`game_description`).
GameDescription = _core.GameDescription
#: The engine's one player-count rule: a game has MIN_PLAYERS..MAX_PLAYERS players.
MIN_PLAYERS: int = _core.MIN_PLAYERS
#: The most players a game may have (16).
MAX_PLAYERS: int = _core.MAX_PLAYERS
#: The engine's board sides: ``map_size`` is MIN_MAP_SIZE..MAX_MAP_SIZE (4..40).
MIN_MAP_SIZE: int = _core.MIN_MAP_SIZE
MAX_MAP_SIZE: int = _core.MAX_MAP_SIZE
#: The engine's largest ``max_turns`` (10000).
MAX_TURNS: int = _core.MAX_TURNS
#: The action rows a description assumes when none are given (the environments' default ``max_actions``).
DEFAULT_MAX_ACTIONS = 512


def check_player_count(players: int) -> int:
    """Returns ``players`` (an int) or raises ValueError: the engine's rule (``MIN_PLAYERS..MAX_PLAYERS``)."""
    return _v.player_count(players)


def game_description(map_size: int | None = None, players: int | Sequence | None = None, level=None,
                     mode: str = "capitals", max_turns: int | None = None, full_observability: bool = False,
                     max_actions: int = DEFAULT_MAX_ACTIONS) -> GameDescription:
    """The :class:`GameDescription` of the games a configuration makes, without building one.

    Args:
        map_size: board side of a generated map (default 11); with ``level``
            None or the level's size.
        players: a player count (``MIN_PLAYERS..MAX_PLAYERS``) or a sequence of
            tribes; None: two players, or the level's tribes.
        level: a Tribes CSV level (path or text): it is parsed and checked as a
            game would check it, not played.
        mode: ``"capitals"`` (default) or ``"score"``.
        max_turns: overrides the mode's turn limit.
        full_observability: ``False`` (default) plays with fog of war.
        max_actions: the padded action rows of an observation (>= 1).

    Raises ValueError for any configuration a game would refuse (except a
    generated map too small for its players, which only the generator sees).
    """
    mode_id, limit = mode_code(mode), _v.max_turns(max_turns)
    full = _v.boolean(full_observability, "full_observability")
    rows = _v.native_int(max_actions, "max_actions")  # >= 1: the engine's check
    if level is not None:
        from ._levels import read_level
        tribes = _tribes(players) if players is not None else []
        if players is not None and not tribes:
            check_player_count(0)
        d = _core.describe_level(read_level(level), tribes, mode_id, limit, full, rows)
        if map_size is not None and map_size != d.map_size:
            raise ValueError(f"map_size={map_size!r} but the level is {d.map_size}x{d.map_size}")
        return d
    count = 2 if players is None else len(_tribes(players)) if not _v.is_integer(players) else int(players)
    # The ranges (map size, player count) are describe_config's checks, with the engine's messages.
    size = _v.native_int(11 if map_size is None else map_size, "map_size")
    return _core.describe_config(size, _v.native_int(count, "players"), mode_id, limit, full, rows)


def _tribes(players) -> list[int]:
    """Tribe codes of a sequence of tribes; an int count stands for that many default tribes."""
    if _v.is_integer(players):
        from ._names import resolve_tribes
        return list(resolve_tribes(players, False))
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise ValueError(f"players must be an int or a sequence of tribes, got {players!r}")
    return [tribe_code(p) for p in players]
