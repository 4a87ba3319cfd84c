"""Win rate of the native MCTS bot against the greedy bot, with alternating seats.

    PYTHONPATH=. python benchmarks/mcts_strength.py --games 200 --simulations 800

Game i is ``GameEnv(seed=seed + i)`` (11x11, 2 players, Capitals); the MCTS bot
plays seat ``i % 2``. The games run one after another on one core (the bots
think natively with the GIL released), so the decision times printed are
process CPU times per MCTS decision, insensitive to other load on the machine.
Several budgets can be given (``--simulations 200 2000 6000``). ``--eval
margin|rollout`` swaps the shipped leaf value (the greedy evaluation) for the
score margin, or the score margin after a short uniformly random rollout
(``--rollout-actions``), or the greedy evaluation after the greedy bot played on
from the leaf until ``--rollout-turns`` player turns have ended since the root
(``greedy-rollout``: every leaf judged at a turn boundary), through the native
tuning hook ``_core._mcts_play``; ``--c-puct`` sets its exploration constant and
``--root-prior-temperature T`` sets the root prior softmax(greedy one-ply gain /
T) (default: the shipped ``_core.DEFAULT_MCTS_ROOT_PRIOR_TEMPERATURE``; 0: the
uniform prior); ``--prior-scope 0|1|2`` gives that prior to the root only, to
every node of the mover's current turn (shipped), or to every node; ``--turn-horizon H`` stops the tree H player turns after
the root (1, shipped: End Turn is a leaf, evaluated, and the tree plans the mover's
turn only; 0: unlimited, the earlier bot).
"""
from __future__ import annotations

import argparse
import time

from polyenv import GameEnv, _core, bots

EVALS = ("heuristic", "margin", "rollout", "greedy-rollout")
SHIPPED = ("heuristic", 2.0, _core.DEFAULT_MCTS_ROOT_PRIOR_TEMPERATURE, _core.DEFAULT_MCTS_PRIOR_SCOPE,
           _core.DEFAULT_MCTS_TURN_HORIZON, _core.DEFAULT_MCTS_PROBE_VISITS)  # what bots.play(game, "mcts:N") runs


def match(simulations: int, games: int, seed: int, map_size: int, progress: int = 0, evaluation: str = "heuristic",
          rollout_actions: int = 20, c_puct: float = 2.0, rollout_turns: int = 1,
          root_prior_temperature: float = _core.DEFAULT_MCTS_ROOT_PRIOR_TEMPERATURE, prior_scope: int = _core.DEFAULT_MCTS_PRIOR_SCOPE,
          turn_horizon: int = _core.DEFAULT_MCTS_TURN_HORIZON, probe_visits: int = _core.DEFAULT_MCTS_PROBE_VISITS):
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
                if (evaluation, c_puct, root_prior_temperature, prior_scope, turn_horizon, probe_visits) == SHIPPED:
                    bots.play(game, f"mcts:{simulations}")
                else:  # same search, other leaf value, c_puct or root prior (default value scales)
                    _core._mcts_play(game._game, simulations, EVALS.index(evaluation), c_puct, rollout_actions, 0.0,
                                     rollout_turns, root_prior_temperature, prior_scope, turn_horizon, probe_visits)
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
    p.add_argument("--simulations", type=int, nargs="+", default=[800])
    p.add_argument("--map-size", type=int, default=11)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--eval", choices=EVALS, default="heuristic", help="leaf value")
    p.add_argument("--rollout-actions", type=int, default=20,
                   help="rollout: its length; greedy-rollout: a cap on its actions")
    p.add_argument("--rollout-turns", type=int, default=1, help="greedy-rollout: turn ends since the root")
    p.add_argument("--c-puct", type=float, default=2.0)
    p.add_argument("--root-prior-temperature", type=float, default=_core.DEFAULT_MCTS_ROOT_PRIOR_TEMPERATURE,
                   help="root prior softmax(greedy gain / T); 0: uniform")
    p.add_argument("--prior-scope", type=int, choices=(0, 1, 2, 3), default=_core.DEFAULT_MCTS_PRIOR_SCOPE,
                   help="nodes with the greedy-gain prior: 0 the root, 1 the mover's whole turn, 2 every node")
    p.add_argument("--turn-horizon", type=int, default=_core.DEFAULT_MCTS_TURN_HORIZON,
                   help="> 0: nodes this many turns after the root are evaluated, never expanded; 0: unlimited")
    p.add_argument("--probe-visits", type=int, default=_core.DEFAULT_MCTS_PROBE_VISITS,
                   help="prior scope 3: a node's newly legal actions are probed once it has this many visits")
    p.add_argument("--progress", type=int, default=0, help="print the running tally every N games")
    args = p.parse_args()
    print(f"MCTS vs greedy: {args.games} games per budget, {args.map_size}x{args.map_size}, 2 players, "
          f"alternating seats, seeds {args.seed}..{args.seed + args.games - 1}, leaf value: {args.eval}, "
          f"c_puct {args.c_puct}, root prior " +
          (f"greedy gains / {args.root_prior_temperature} (scope {args.prior_scope})" if args.root_prior_temperature > 0 else "uniform") + (f", rollout turns {args.rollout_turns}" if args.eval == "greedy-rollout" else "") +
          f", turn horizon {args.turn_horizon or 'unlimited'}" +
          (f", probe visits {args.probe_visits}" if args.prior_scope == 3 else ""))
    for sims in args.simulations:
        wins, draws, decisions, think = match(sims, args.games, args.seed, args.map_size, args.progress, args.eval,
                                                args.rollout_actions, args.c_puct, args.rollout_turns,
                                                args.root_prior_temperature, args.prior_scope,
                                                args.turn_horizon, args.probe_visits)
        print(f"  mcts:{sims:<6} wins {wins:4d}/{args.games} ({100 * wins / args.games:5.1f}%), no winner {draws}; "
              f"{1e3 * think / decisions:6.2f} ms CPU per decision ({decisions} decisions, "
              f"{1e6 * think / (decisions * sims):.2f} us per simulation)", flush=True)


if __name__ == "__main__":
    main()
