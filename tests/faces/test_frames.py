"""Readable video frames (``polyenv replay --gif / --mp4``): header with the tribes and stats, the action
that produced the frame, coordinates, the legend of the web viewer; a player's frame is fog-safe."""
import numpy as np
from fog_pairs import hidden_edit_pairs

from polyenv import GameEnv
from polyenv.viz.render import PLAYER_COLORS, render_rgb
from polyenv.viz.replay_media import video_frames
from polyenv.viz.frames import frame, legend_strip


def game(actions=80, seed=11, size=8):
    g, rng, played = GameEnv(seed=seed, map_size=size), np.random.default_rng(seed), []
    while len(played) < actions and not g.game_over:
        legal = g.legal_actions()
        played.append(int(legal[rng.integers(len(legal))]))
        g.step(played[-1])
    return g, played


def find(image, block):
    """Top-left corners where ``block`` appears exactly in ``image``."""
    h, w = block.shape[:2]
    hits = []
    for y in range(image.shape[0] - h + 1):
        rows = np.flatnonzero((image[y, : image.shape[1] - w + 1] == block[0, 0]).all(axis=1))
        hits += [(y, x) for x in rows if np.array_equal(image[y:y + h, x:x + w], block)]
    return hits


def test_frame_holds_the_board_header_and_legend():
    g, _ = game()
    img = frame(g, None, 32, "after action 80: something")
    board = render_rgb(g.full_map_numpy(), g.map_size, g.current_player, g.num_players, tile_px=32)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[1] >= board.shape[1]
    assert len(find(img, board)) == 1, "the board is drawn by render_rgb, unchanged"
    legend = legend_strip(img.shape[1], 1.0)
    assert np.array_equal(img[-legend.shape[0]:], legend)
    for p in range(g.num_players):  # a colour chip per player in the header
        header = img[:60].reshape(-1, 3)
        assert (header == PLAYER_COLORS[p]).all(axis=1).sum() > 20
    assert not np.array_equal(img, frame(g, None, 32, "another caption")), "the caption is drawn"
    np.testing.assert_array_equal(img, frame(g, None, 32, "after action 80: something"))  # deterministic


def test_video_frames_are_captioned_by_the_action_that_produced_them():
    g, played = game(40)
    start = GameEnv(seed=11, map_size=8)
    frames = list(video_frames(start, played, every="action", tile_px=32))
    assert len(frames) == len(played) + 1
    # Each frame is captioned by its own action, so consecutive frames always differ.
    assert all(not np.array_equal(a, b) for a, b in zip(frames[1:], frames[2:]))
    rounds = list(video_frames(GameEnv(seed=11, map_size=8), played, every="round", tile_px=32))
    assert 1 < len(rounds) < len(frames)


def test_a_players_frame_is_fog_safe():
    pairs = 0
    for a, b, edited in hidden_edit_pairs(4):
        if edited:
            assert np.array_equal(frame(a, 0, 24, "x"), frame(b, 0, 24, "x"))
            assert not np.array_equal(frame(a, None, 24, "x"), frame(b, None, 24, "x"))
            pairs += 1
    assert pairs
