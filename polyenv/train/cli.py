"""``polyenv train az``: AlphaZero-style training of the ``"az"`` network (:mod:`polyenv.train.alphazero`).

    polyenv train az --out runs/az --minutes 110 --expert-games 600
    polyenv train az --out runs/az --minutes 150 --resume          # continue a run to 150 minutes
    polyenv train az --out runs/az --curve-only --curve-games 20   # measure the checkpoints, draw the curve

Every field of :class:`~polyenv.train.alphazero.AlphaZeroConfig` is a flag (``--envs``,
``--simulations``, ``--fog``, ...; see ``--help``). After training, ``--curve-games N``
measures every checkpoint against random, greedy, mcts:200 and mcts:2000 (N games each) and
writes ``learning_curve.png``. Needs ``pip install "polyenv[train]"`` (torch). Bad arguments
print one line ``polyenv train: <reason>`` on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

__all__ = ["add_parser", "run"]

_NET = ("tile_dim", "layers", "global_dim", "row_dim", "value_hidden")
_SKIP = ("net", "out_dir", "progress")


def _fields():
    from .config import FIELD_HELP, AlphaZeroConfig
    return AlphaZeroConfig, [f for f in dataclasses.fields(AlphaZeroConfig) if f.name not in _SKIP], FIELD_HELP


def add_parser(sub) -> argparse.ArgumentParser:
    """Adds ``train`` (with its ``az`` subcommand) to the ``polyenv`` subparsers ``sub``."""
    p = sub.add_parser("train", help="train an agent (az: AlphaZero-style, on the search pools)")
    kinds = p.add_subparsers(dest="trainer", required=True)
    az = kinds.add_parser("az", help="AlphaZero-style training of the az network (torch)",
                          description=__doc__.split("\n\n")[0])
    az.add_argument("--out", default="runs/az", help="run directory (checkpoints, logs, curve)")
    az.add_argument("--resume", action="store_true", help="continue the run in --out from latest.pt")
    az.add_argument("--quiet", action="store_true", help="no progress bar")
    az.add_argument("--curve-only", action="store_true", help="only measure the checkpoints and draw the curve")
    az.add_argument("--curve-games", type=int, default=0, help="games per opponent and checkpoint (0: no curve)")
    az.add_argument("--curve-simulations", type=int, default=32, help="the checkpoints play az:<this>")
    az.add_argument("--curve-fog", action="store_true", help="measure the curve in fog games")
    config, fields, helps = _fields()
    defaults = config()
    for f in fields:
        flag = "--" + f.name.replace("_", "-")
        value = getattr(defaults, f.name)
        if isinstance(value, bool):
            az.add_argument(flag, action=argparse.BooleanOptionalAction, default=value, help=helps[f.name])
        else:
            kind = float if isinstance(value, float) else int if isinstance(value, int) else str
            az.add_argument(flag, type=kind, default=value, help=f"{helps[f.name]} (default {value})")
    for name in _NET:
        az.add_argument("--" + name.replace("_", "-"), type=int, default=defaults.net[name],
                        help="network width" if name != "layers" else "tile mixing layers")
    az.set_defaults(handler=run)
    return p


def run(args) -> int:
    """Runs ``polyenv train az``; returns the exit code."""
    try:
        config, fields, _ = _fields()
        from .alphazero import learning_curve, train
    except ImportError as e:
        print(f"polyenv train: needs torch ({e}); pip install 'polyenv[train]'", file=sys.stderr)
        return 2
    values = {f.name: getattr(args, f.name) for f in fields}
    cfg = config(**values, out_dir=args.out, progress=not args.quiet,
                 net={name: getattr(args, name) for name in _NET})
    try:
        cfg.check()
        if not args.curve_only:
            paz = train(cfg, resume=args.resume)
            print(f"weights: {paz}")
        if args.curve_games > 0 or args.curve_only:
            png = learning_curve(args.out, games=max(args.curve_games, 2), simulations=args.curve_simulations,
                                 full_observability=not args.curve_fog)
            print(f"learning curve: {png}")
    except ValueError as e:
        print(f"polyenv train: {e}", file=sys.stderr)
        return 2
    return 0
