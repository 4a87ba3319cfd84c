"""Watchable replays of a saved game (``polyenv play --save``): GIF / MP4 frames and the position sequence.

``replay_positions`` re-plays a record and yields the game before every
action and once at the end; ``write_video`` writes ``render_frame`` images
through imageio (GIF with Pillow, MP4 with imageio-ffmpeg). The HTML page is
:mod:`polyenv.replay_html`.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .game_env import GameEnv
from .render import render_frame

__all__ = ["replay_positions", "video_frames", "write_video", "ReplayError"]

VIDEO_SUFFIXES = (".gif", ".mp4")


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
    """``render_frame`` images of a replay: one per turn (``every="turn"``; ``"round"`` is the same) or per
    action (``"action"``), plus the end."""
    if every not in ("turn", "round", "action"):
        raise ValueError(f"every must be 'turn' or 'action', got {every!r}")
    shown = None
    for _, action in replay_positions(game, actions):
        if every == "action" or action is None or game.turn != shown:
            shown = game.turn
            yield render_frame(game, player, tile_px)


def _even(frame: np.ndarray) -> np.ndarray:
    """Pads a frame to even height and width (H.264's 4:2:0 chroma needs them)."""
    h, w = frame.shape[:2]
    return np.pad(frame, ((0, h % 2), (0, w % 2), (0, 0)), mode="edge")


def write_video(frames, path, fps: float = 2.0) -> int:
    """Writes frames to ``path`` (.gif or .mp4, by suffix) with imageio; returns the number of frames.

    Raises ImportError naming the package when imageio (or, for MP4,
    imageio-ffmpeg) is missing, ValueError for another suffix.
    """
    path = str(path)
    suffix = path[path.rfind("."):].lower() if "." in path else ""
    if suffix not in VIDEO_SUFFIXES:
        raise ValueError(f"video files must end in {' or '.join(VIDEO_SUFFIXES)}, got {path!r}")
    try:
        import imageio.v3 as iio
    except ImportError:
        raise ImportError("writing GIF / MP4 needs imageio: pip install imageio imageio-ffmpeg "
                          "(or polyenv[integrations])") from None
    frames = [_even(f) for f in frames]
    if not frames:
        raise ValueError("no frames to write")
    if suffix == ".gif":
        iio.imwrite(path, np.stack(frames), extension=".gif", duration=1000.0 / fps, loop=0)
    else:
        try:
            import imageio_ffmpeg  # noqa: F401
        except ImportError:
            raise ImportError("writing MP4 needs imageio-ffmpeg: pip install imageio-ffmpeg") from None
        iio.imwrite(path, np.stack(frames), extension=".mp4", fps=fps, codec="libx264", macro_block_size=1)
    return len(frames)
