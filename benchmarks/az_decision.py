"""CPU time per decision of the az bot (one core), next to mcts:2000, in the same games.

    PYTHONPATH=. python benchmarks/az_decision.py --games 4 --bots az:1 az:16 az:32 az:64 mcts:2000

Each bot plays ``--games`` games against greedy (11x11, 2 players, seats alternating, seeds
``--seed``...), fully observable unless ``--fog``; the decisions run natively on the calling
thread, so the process CPU time per decision is the cost on one core.
"""
from __future__ import annotations

import argparse
import time

from polyenv import GameEnv, bots


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--seed", type=int, default=9000)
    p.add_argument("--bots", nargs="+", default=["az:1", "az:16", "az:32", "az:64", "mcts:2000"])
    p.add_argument("--fog", action="store_true")
    args = p.parse_args()
    print(f"CPU time per decision, {args.games} games each against greedy, "
          f"{'fog' if args.fog else 'full observability'}, seeds {args.seed}..")
    for bot in args.bots:
        think, decisions, worst = 0.0, 0, 0.0
        for g in range(args.games):
            game = GameEnv(seed=args.seed + g, map_size=11, full_observability=not args.fog)
            seat = g % 2
            while not game.game_over:
                if game.current_player == seat:
                    t0 = time.process_time()
                    bots.play(game, bot)
                    dt = time.process_time() - t0
                    think += dt
                    worst = max(worst, dt)
                    decisions += 1
                else:
                    bots.play(game, "greedy")
        print(f"  {bot:<10} {1e3 * think / decisions:7.2f} ms per decision (max {1e3 * worst:6.1f} ms, "
              f"{decisions} decisions)", flush=True)


if __name__ == "__main__":
    main()
