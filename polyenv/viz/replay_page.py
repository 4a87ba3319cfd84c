"""The self-contained HTML replay: the web app's own viewer (the same JavaScript modules) and a record.

:func:`replay_page` re-plays a saved game and writes one page that needs no server and no network:
the viewer's modules are inlined (an import map of ``data:`` URLs), the game is embedded as JSON —
the full view of the first position, then per action the tiles that changed, the turn, the player
to move, the per-player stats and how many log entries exist. Position ``k`` is the game after ``k``
actions: its highlighted log entry and the arrow on the board are the action that produced it.
Controls: a slider over the positions, play / pause, speed; ``#frame=K`` opens position K,
``#play`` starts playing, ``#speed=S`` plays S positions a second.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np

from ..game_env import GameEnv
from .replay_media import ReplayError
from .style import style
from .view import WorldLog, build_view

__all__ = ["replay_page", "replay_data", "MODULES", "ReplayError"]

STATIC = Path(__file__).resolve().parent / "static"
#: The viewer's modules the page inlines (the web app loads the same files from /static/js/).
MODULES = ("board.js", "panels.js", "viewer.js", "replay.js")
_FRAME_KEYS = ("turn", "current_player", "game_over", "winner", "players", "result")


def replay_data(game: GameEnv, actions, names=None, seats=None) -> dict:
    """The embedded game: ``first`` (the full view of the position before any action, without
    events), ``frames`` (per position: ``d`` the changed tiles as ``[tile, values...]`` rows flattened,
    ``e`` the number of log entries so far, and the view fields that change), ``log`` (every entry)."""
    world = WorldLog(game.num_players, keep=10**9)
    first = build_view(game, None)
    tiles = np.asarray(first["tiles"], np.int32).reshape(game.num_tiles, -1)
    frames = [{"d": [], "e": 0, **{k: first[k] for k in _FRAME_KEYS}}]
    for k, action in enumerate(actions):
        try:
            game.step(int(action))
        except ValueError as e:
            raise ReplayError(f"action {k} ({action}) cannot be replayed: {e}") from None
        world.update(game)
        view = build_view(game, None)
        now = np.asarray(view["tiles"], np.int32).reshape(game.num_tiles, -1)
        changed = np.flatnonzero((now != tiles).any(axis=1))
        delta = np.concatenate([changed[:, None], now[changed]], axis=1).ravel().tolist()
        tiles = now
        frames.append({"d": delta, "e": len(world.entries), **{key: view[key] for key in _FRAME_KEYS}})
    if names is not None:
        first["tribes"] = list(names)
    if seats is not None and len(seats) == game.num_players:
        first["seats"] = [str(s) for s in seats]
    first["events"] = []
    return {"first": first, "frames": frames, "log": world.entries, "style": style()}


def _module_url(name: str) -> str:
    return "data:text/javascript;base64," + base64.b64encode((STATIC / "js" / name).read_bytes()).decode()


def replay_page(game: GameEnv, actions, title: str = "polyenv replay", names=None, tile_px: int | None = None,
                seats=None) -> str:
    """Re-plays ``actions`` on ``game`` and returns the page (HTML text).

    ``names``: per-player labels instead of the tribe names; ``tile_px``: a fixed tile size (None:
    the board is scaled to the window); ``seats``: who played each seat (a record's ``bots``).
    Raises :class:`ReplayError` for an action that cannot be played.
    """
    data = replay_data(game, actions, names, seats)
    data["tile_px"] = tile_px
    heading = " vs ".join(data["first"]["tribes"])
    imports = {f"polyenv/{m}": _module_url(m) for m in MODULES}
    page = (STATIC / "replay.html").read_text(encoding="utf-8")
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return (page.replace("__STYLE__", (STATIC / "style.css").read_text(encoding="utf-8"))
            .replace("__IMPORTS__", json.dumps({"imports": imports}))
            .replace("__TITLE__", _escape(f"{title} — {heading}"))
            .replace("__DATA__", payload))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
