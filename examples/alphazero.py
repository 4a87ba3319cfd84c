"""AlphaZero-style training of the ``az`` network, then a tournament of the result (needs torch).

    PYTHONPATH=. python examples/alphazero.py --minutes 5 --expert-games 20     # a short demonstration

The same loop as ``polyenv train az`` (:mod:`polyenv.train.alphazero`), written out with the
Python API: a warm start from the native MCTS bot's games (expert iteration), then self-play
rounds of the native az player itself (Gumbel root, its improved policy as the target) in worker
processes, a learner thread beside them, checkpoints in ``--out``; ``--fog`` is the fraction of
games played under fog of war, where the player searches its own baseline belief. At the end the
last checkpoint plays as a native bot (no torch: ``"az:<N>@<file>.paz"``) against random, greedy
and MCTS in a rated tournament. docs/training.md has the command of the run whose weights ship in
the package.
"""
from __future__ import annotations

import argparse

from polyenv.evaluation import tournament
from polyenv.train.alphazero import train
from polyenv.train.config import AlphaZeroConfig


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default="runs/alphazero_example")
    p.add_argument("--minutes", type=float, default=5.0)
    p.add_argument("--expert-games", type=int, default=20)
    p.add_argument("--simulations", type=int, default=16, help="the az player's simulations in self-play")
    p.add_argument("--fog", type=float, default=0.0, help="fraction of games under fog of war")
    p.add_argument("--resume", action="store_true")
    p.add_argument("--games", type=int, default=20, help="tournament games per pairing")
    args = p.parse_args()
    cfg = AlphaZeroConfig(out_dir=args.out, minutes=args.minutes, expert_games=args.expert_games,
                          expert_simulations=200, selfplay_games=8, simulations=args.simulations, fog=args.fog,
                          checkpoint_minutes=max(args.minutes / 4, 0.5))
    weights = train(cfg, resume=args.resume)
    print(f"trained weights: {weights}")
    players = [f"az:32@{weights}", "random", "greedy", "mcts:200"]
    result = tournament(players, games=args.games * 6, full_observability=args.fog < 0.5, max_actions=512)
    print(result.table())
    print(result.matrix_text())


if __name__ == "__main__":
    main()
