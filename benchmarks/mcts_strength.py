"""Win rate of the native MCTS bot against the greedy bot, with alternating seats.

    PYTHONPATH=. python benchmarks/mcts_strength.py --games 200 --simulations 6000

Game i is ``GameEnv(seed=seed + i)`` (11x11, 2 players, Capitals); the MCTS bot
plays seat ``i % 2``. The games run one after another on one core (the bots
think natively with the GIL released), so the decision times printed are
process CPU times per MCTS decision, insensitive to other load on the machine.
Several budgets can be given (``--simulations 200 2000 6000``).
"""
from __future__ import annotations

import argparse
import time

from polyenv import GameEnv, bots


def match(simulations: int, games: int, seed: int, map_size: int, progress: int = 0):
    wins = draws = decisions = 0
    think = 0.0
    for i in range(games):
        if progress and i and i % progress == 0:
            print(f"    after {i} games: {wins} wins", flush=True)
        game = GameEnv(seed=seed + i, map_size=map_size)
        seat = i % 2
        while not game.game_over:
            if game.current_player == seat:
                c0 = time.process_time()
                bots.play(game, f"mcts:{simulations}")
                think += time.process_time() - c0
                decisions += 1
            else:
                bots.play(game, "greedy")
        wins += game.winner == seat
        draws += game.winner < 0
    return wins, draws, decisions, think


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--simulations", type=int, nargs="+", default=[6000])
    p.add_argument("--map-size", type=int, default=11)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--progress", type=int, default=0, help="print the running tally every N games")
    args = p.parse_args()
    print(f"MCTS vs greedy: {args.games} games per budget, {args.map_size}x{args.map_size}, 2 players, "
          f"alternating seats, seeds {args.seed}..{args.seed + args.games - 1}")
    for sims in args.simulations:
        wins, draws, decisions, think = match(sims, args.games, args.seed, args.map_size, args.progress)
        print(f"  mcts:{sims:<6} wins {wins:4d}/{args.games} ({100 * wins / args.games:5.1f}%), no winner {draws}; "
              f"{1e3 * think / decisions:6.2f} ms CPU per decision ({decisions} decisions, "
              f"{1e6 * think / (decisions * sims):.2f} us per simulation)", flush=True)


if __name__ == "__main__":
    main()
