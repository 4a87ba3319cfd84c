"""Renders a bot game as PNG images (one per turn) and, with Pillow, an animated GIF.

    python examples/render_game.py --out game_png --players 2 --bots greedy,random --seed 1

Every image is ``GameEnv.render("rgb_array")`` (polyenv.viz.render.render_rgb): the
ground truth, terrain colours, owner tints and borders, cities with their level,
units with their letter and hp bar. ``--player P`` renders P's fog-of-war view.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import polyenv
from polyenv import bots
from polyenv.envs import default_map_size
from polyenv.viz.render import render, save_png


def main() -> None:
    """Plays a game between bots and writes turn_XXX.png (and game.gif)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="game_png", help="output directory")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--map-size", type=int, default=None)
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-turns", type=int, default=20)
    parser.add_argument("--tile-px", type=int, default=24)
    parser.add_argument("--player", type=int, default=None, help="render this player's view (default: no fog)")
    args = parser.parse_args()

    names = args.bots.split(",")
    tribes = [(2, 1, 0, 3, 4, 5, 6, 7, 8, 9, 10, 11)[i % 12] for i in range(args.players)]
    game = polyenv.GameEnv(seed=args.seed, map_size=args.map_size or default_map_size(args.players), players=tribes,
                           max_turns=args.max_turns)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    frames = []

    def snapshot(name: str) -> None:
        image = render(game, "rgb_array", player=args.player, tile_px=args.tile_px)
        save_png(image, out / name)
        frames.append(image)

    shown = -1
    while not game.game_over:
        if game.turn != shown:
            shown = game.turn
            snapshot(f"turn_{game.turn_number:03d}.png")
        bots.play(game, names[game.current_player % len(names)], seed=int(rng.integers(2**63)))
    snapshot("final.png")
    print(f"winner p{game.winner} in turn {game.turn_number} of {game.turn_limit}; scores {game.scores()}; "
          f"{len(frames)} PNG files in {out}")
    try:
        from PIL import Image
    except ImportError:
        return
    images = [Image.fromarray(f) for f in frames]
    images[0].save(out / "game.gif", save_all=True, append_images=images[1:], duration=400, loop=0)
    print(f"animated GIF: {out / 'game.gif'}")


if __name__ == "__main__":
    main()
