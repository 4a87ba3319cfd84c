"""Videos: ``polyenv replay --gif/--mp4`` through imageio and Gymnasium's ``RecordVideo`` on Tribes-v0."""

import gymnasium as gym
import numpy as np
import pytest

iio = pytest.importorskip("imageio.v3", reason="imageio is not installed (pip install polyenv[integrations])")

import polyenv  # noqa: E402,F401
from polyenv.cli import main  # noqa: E402


def test_replay_writes_gif_and_mp4(tmp_path, capsys):
    pytest.importorskip("imageio_ffmpeg", reason="imageio-ffmpeg is not installed")
    record = tmp_path / "game.json"
    assert main(["play", "--players", "2", "--map-size", "8", "--bots", "greedy,random", "--seed", "3",
                 "--max-turns", "6", "--render", "none", "--save", str(record)]) == 0
    gif, mp4 = tmp_path / "game.gif", tmp_path / "game.mp4"
    assert main(["replay", str(record), "--render", "none", "--gif", str(gif), "--mp4", str(mp4),
                 "--tile-px", "40", "--frames", "action"]) == 0
    written = [int(line.split()[1]) for line in capsys.readouterr().out.splitlines() if line.startswith("wrote ")]
    frames = iio.imread(gif)  # Pillow merges identical consecutive GIF frames
    # The board (8 x 40 px) with its coordinates, under the header and above the legend.
    assert frames.ndim == 4 and 8 < frames.shape[0] <= written[0] and frames.shape[2] > 8 * 40
    assert not np.array_equal(frames[0], frames[-1]), "the game moves"
    video = iio.imread(mp4, extension=".mp4")
    assert video.shape[0] == written[1] == written[0] and video.shape[1:3] == frames.shape[1:3]
    assert main(["replay", str(record), "--render", "none", "--gif", str(tmp_path / "x.mp4")]) == 2


def test_record_video_wrapper(tmp_path):
    pytest.importorskip("moviepy", reason="moviepy (Gymnasium's RecordVideo backend) is not installed")
    env = gym.make("polyenv/Tribes-v0", map_size=8, max_turns=4, render_mode="rgb_array", render_tile_px=24)
    env = gym.wrappers.RecordVideo(env, str(tmp_path), episode_trigger=lambda e: True, disable_logger=True)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        obs, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = term or trunc
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000
