"""``polyenv replay FILE --html out.html``: one self-contained page that plays a saved game.

The page is the web app's own viewer (``polyenv serve``: the same JavaScript modules, drawing,
legend, tooltips, per-player stats and event log) with the game embedded; it needs no server and no
network. The page itself is built by :mod:`polyenv.viz.replay_page`; this module keeps the name the
command line and older code import.
"""

from __future__ import annotations

import numpy as np

from ..game_env import GameEnv
from .replay_page import replay_page

__all__ = ["replay_html"]


def replay_html(game: GameEnv, actions, title: str = "polyenv replay", tile_px: int | None = None,
                names=None, seats=None) -> str:
    """Re-plays ``actions`` on ``game`` and returns the page (a str of HTML).

    ``tile_px``: a fixed tile size in pixels (>= 16); None (default) scales the board to the window.
    ``names``: per-player labels (default the tribes); ``seats``: who played each seat. Raises
    :class:`polyenv.viz.replay_media.ReplayError` for an action that cannot be played.
    """
    if tile_px is not None and (isinstance(tile_px, bool) or not isinstance(tile_px, (int, np.integer))
                                or tile_px < 16):
        raise ValueError(f"tile_px must be None or an integer >= 16, got {tile_px!r}")
    return replay_page(game, actions, title=title, names=names, tile_px=None if tile_px is None else int(tile_px), seats=seats)
