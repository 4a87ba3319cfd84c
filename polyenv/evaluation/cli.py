"""``polyenv tournament``: rate bots and checkpoints against each other (see :func:`polyenv.evaluation.tournament`).

    polyenv tournament --players random,greedy,runs/ppo/best.pt --games 100
    polyenv tournament --players random,greedy,mcts:200 --games 60 --players-per-game 4 --map-size 14
    polyenv tournament --players java:MCTS,java:RHEA,mcts,greedy --games 120 --tribes PATH/TO/Tribes

Java Tribes agents (``java:NAME[:fm=N|ms=N|iters=N][:depth=N][:pop=N]``) need ``--tribes`` (a checkout of
GAIGResearch/Tribes) and a JDK; their games are played in lockstep by both engines (docs/java_crossplay.md).

Checkpoint inference runs on one torch thread (the simulation threads use the
other cores). Prints the rating table and the win matrix, writes ``win_matrix.csv`` and
``ratings.png`` into ``--out`` (default ``tournament/``). Bad arguments print
one line ``polyenv tournament: <reason>`` on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys

__all__ = ["add_parser", "run"]


def add_parser(sub) -> argparse.ArgumentParser:
    """Adds the ``tournament`` subcommand to the ``polyenv`` subparsers ``sub``."""
    p = sub.add_parser("tournament", help="rate bots and checkpoints (OpenSkill) in many native games")
    p.add_argument("--players", required=True,
                   help="comma-separated players: bot names (random, greedy, mcts:200, az, az:64@weights.paz, ...) "
                        "or checkpoint files")
    p.add_argument("--games", type=int, default=100, help="total games (default 100)")
    p.add_argument("--players-per-game", type=int, default=2, help="seats per game, 2..16 (default 2)")
    p.add_argument("--map-size", type=int, default=11, help="board side (default 11)")
    p.add_argument("--threads", type=int, default=None, help="simulation threads (default: CPU count)")
    p.add_argument("--format", default="auto", help="2 players: auto | round-robin | swiss (default auto)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--max-actions", type=int, default=None,
                   help="action-row capacity (default: the checkpoints', else 256)")
    p.add_argument("--max-turns", type=int, default=None, help="turn limit (default: the capitals mode's 50)")
    p.add_argument("--full-observability", action="store_true", help="play without fog of war (default: fog on)")
    p.add_argument("--out", default="tournament", help="directory for win_matrix.csv and ratings.png")
    java = p.add_argument_group("Java Tribes agents (java:MCTS, java:RHEA:fm=1000, ...)")
    java.add_argument("--tribes", default=None, help="a Tribes checkout (git directory or source tree)")
    java.add_argument("--java-jobs", type=int, default=1, help="worker processes, one JVM each (default 1)")
    java.add_argument("--java-cpu", type=int, default=None,
                      help="pin worker k and its JVM to core JAVA_CPU + k (default: no pinning)")
    java.add_argument("--java-warmup", type=int, default=30,
                      help="decisions per Java agent before its first game, for the JIT (default 30)")
    java.add_argument("--java-heap", default="384m", help="maximum heap per JVM (default 384m)")
    p.set_defaults(handler=run)
    return p


def _progress(done: int, total: int) -> None:
    width = 30
    filled = int(width * done / total)
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games", end="" if done < total else "\n",
          file=sys.stderr, flush=True)


def run(args) -> int:
    """Runs the subcommand; returns the exit code (2 with a one-line message on bad arguments)."""
    from .tournament import tournament
    players = [p for p in args.players.split(",") if p.strip()]
    if any(os.path.isfile(p.strip()) and not p.strip().endswith(".paz") for p in players):
        import torch
        torch.set_num_threads(1)   # checkpoint batches are small; the cores belong to the game workers
    try:
        result = tournament(players, games=args.games, players_per_game=args.players_per_game,
                            map_size=args.map_size, threads=args.threads, seed=args.seed, format=args.format,
                            max_actions=args.max_actions, max_turns=args.max_turns, out_dir=args.out, progress=_progress,
                            full_observability=args.full_observability, tribes=args.tribes, java_jobs=args.java_jobs,
                            java_heap=args.java_heap, java_cpu=args.java_cpu, java_warmup=args.java_warmup)
    except (ValueError, ImportError) as e:  # polyenv.evaluation.java raises ValueError for a missing JDK or checkout
        print(f"polyenv tournament: {e}", file=sys.stderr)
        return 2
    print(result.table())
    for spec, settings in sorted(result.java_settings.items()):
        print(f"  {spec}: " + ", ".join(f"{k}={v}" for k, v in settings.items()))
    print()
    print(result.matrix_text())
    print(f"\nwrote {result.files['win_matrix']} and {result.files['ratings']}" +
          (f"; stopped games in {result.files['stopped']}" if "stopped" in result.files else ""))
    return 0
