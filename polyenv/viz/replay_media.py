"""Watchable replays of a saved game (``polyenv play --save``): GIF / MP4 frames and the position sequence.

``replay_positions`` re-plays a record and yields the game before every
action and once at the end; ``video_frames`` draws readable frames of it
(:mod:`polyenv.viz.frames`) and ``write_video`` writes them through imageio
(GIF with Pillow, MP4 with imageio-ffmpeg: the ``media`` extra,
``pip install "polyenv[media]"``; ``missing_video_support`` says what is missing). The HTML page is
:mod:`polyenv.viz.replay_html`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import numpy as np

from ..game_env import GameEnv

__all__ = ["replay_positions", "video_frames", "write_video", "missing_video_support", "ReplayError"]

VIDEO_SUFFIXES = (".gif", ".mp4")
# What each kind of video needs (import name, pip name): the ``media`` extra, ``pip install "polyenv[media]"``.
_VIDEO_NEEDS = {".gif": (("imageio.v3", "imageio"),),
                ".mp4": (("imageio.v3", "imageio"), ("imageio_ffmpeg", "imageio-ffmpeg"))}


class ReplayError(ValueError):
    """An action of the record cannot be played in the re-played game."""


def replay_positions(game: GameEnv, actions) -> Iterator[tuple[int, int | None]]:
    """Plays ``actions`` on ``game``; yields ``(k, action)`` before action k, then ``(len, None)`` at the end.

    The game is the position at each yield (do not modify it). Raises
    :class:`ReplayError` for an action that is not legal when it is played.
    """
    for k, action in enumerate(actions):
        yield k, int(action)
        try:
            game.step(int(action))
        except ValueError as e:
            raise ReplayError(f"action {k} ({action}) cannot be replayed: {e}") from None
    yield len(actions), None


def video_frames(game: GameEnv, actions, every: str = "turn", tile_px: int = 32,
                 player: int | None = None) -> Iterator[np.ndarray]:
    """Readable frames of a replay (:func:`polyenv.viz.frames.frame`: header with tribes and stats, the
    board with coordinates, the legend): one per turn (``every="turn"``; ``"round"`` is the same) or per
    action (``"action"``), plus the end. Each frame's caption is the last action before it (``player``:
    the last one that player saw)."""
    from .frames import frame
    from .view import EventLog, WorldLog
    if every not in ("turn", "round", "action"):
        raise ValueError(f"every must be 'turn' or 'action', got {every!r}")
    log = WorldLog(game.num_players) if player is None else EventLog(int(player))
    shown = None
    for k, action in replay_positions(game, actions):
        log.update(game)
        if every == "action" or action is None or game.turn != shown:
            shown = game.turn
            caption = f"after action {k}: {log.entries[-1]['text']}" if k and log.entries else "the start of the game"
            yield frame(game, player, tile_px, caption)


def _even(frame: np.ndarray) -> np.ndarray:
    """Pads a frame to even height and width (H.264's 4:2:0 chroma needs them)."""
    h, w = frame.shape[:2]
    return np.pad(frame, ((0, h % 2), (0, w % 2), (0, 0)), mode="edge")


def _suffix(path) -> str:
    path = str(path)
    suffix = path[path.rfind("."):].lower() if "." in path else ""
    if suffix not in VIDEO_SUFFIXES:
        raise ValueError(f"video files must end in {' or '.join(VIDEO_SUFFIXES)}, got {path!r}")
    return suffix


def missing_video_support(path) -> str | None:
    """None when a video can be written to ``path`` (.gif or .mp4), else one line: what is missing and the
    pip command (``imageio`` for both, ``imageio-ffmpeg`` too for MP4: the ``media`` extra)."""
    suffix = _suffix(path)
    missing = []
    for module, package in _VIDEO_NEEDS[suffix]:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(package)
    if not missing:
        return None
    return (f"writing {suffix[1:].upper()} needs {' and '.join(missing)}, which {'is' if len(missing) == 1 else 'are'} "
            f"not installed: pip install {' '.join(p for _, p in _VIDEO_NEEDS['.mp4'])} "
            f"(the extra polyenv[media])")


def write_video(frames, path, fps: float = 2.0) -> int:
    """Writes frames to ``path`` (.gif or .mp4, by suffix) with imageio; returns the number of frames.

    Raises ImportError with :func:`missing_video_support`'s line when imageio (or, for
    MP4, imageio-ffmpeg) is missing, ValueError for another suffix.
    """
    suffix = _suffix(path)
    missing = missing_video_support(path)
    if missing is not None:
        raise ImportError(missing)
    import imageio.v3 as iio
    frames = [_even(f) for f in frames]
    if not frames:
        raise ValueError("no frames to write")
    if suffix == ".gif":
        iio.imwrite(str(path), np.stack(frames), extension=".gif", duration=1000.0 / fps, loop=0)
    else:
        iio.imwrite(str(path), np.stack(frames), extension=".mp4", fps=fps, codec="libx264", macro_block_size=1)
    return len(frames)
