#!/usr/bin/env python3
"""Replays one reported difference in both engines and prints the fields that differ at each step.

    python tools/differential/replay.py --tribes TRIBES REPORT.jsonl [--index I] [--watch PREFIX] [--last K]

``--watch unit@11`` prints the Java and polyenv values of every field starting with that prefix after each
of the last K actions (default 10), so the step where a value first diverges can be read off. The replay
re-synchronises known differences as the run does (polyenv.evaluation.java.lockstep).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from polyenv.evaluation.java import canon  # noqa: E402
from polyenv.evaluation.java.build import build  # noqa: E402
from polyenv.evaluation.java.driver import Driver, java_command  # noqa: E402
from polyenv.evaluation.java.lockstep import LockstepGame  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tribes", required=True)
    ap.add_argument("report")
    ap.add_argument("--index", type=int, default=0)
    ap.add_argument("--watch", default="")
    ap.add_argument("--last", type=int, default=10)
    args = ap.parse_args(argv)
    d = [json.loads(line) for line in open(args.report)][args.index]
    fog = bool(d.get("fog", False))
    paths = build(args.tribes, "fog" if fog else "full")
    drv = Driver(java_command(paths), cwd=paths["cwd"])
    path = os.path.join(tempfile.mkdtemp(prefix="polyenv-replay-"), "level.csv")
    Path(path).write_text(d["csv"])
    game = LockstepGame(drv, d["csv"], path, d["mode"], d["seed"], fog)
    moves = [tuple(m) for m in d["actions"]]
    print(f"{d['level']} {d['mode']} {'fog' if fog else 'full'} seed {d['seed']}: {len(moves)} actions; first "
          f"difference {d['field']}: java={d['java']!r} polyenv={d['polyenv']!r}")
    first = None
    for k, act in enumerate(moves):
        first = game.check(true_moves=False)
        if first is not None and k < len(moves):
            print(f"stopped before action {k}: {first['field']}: java={first['java']!r} polyenv={first['polyenv']!r}")
            break
        player, tick = game.j["active"], game.j["tick"]
        game.play(act)
        if k >= len(moves) - args.last:
            js, ps = canon.java_state(game.j), canon.polyenv_state(game.env)
            watched = {f: (js.get(f), ps.get(f)) for f in sorted(set(js) | set(ps)) if args.watch
                       and f.startswith(args.watch)}
            draws = f" meetings={game.j['meetings']} explorer={game.j['explorer']}" if fog else ""
            print(f"{k:5d} p{player} t{tick} {act}{draws}  " +
                  " ".join(f"{f}={a!r}/{b!r}" for f, (a, b) in watched.items()))
    else:
        first = game.check()
    print("now: " + ("no difference" if first is None else f"first difference {first['field']}: "
                     f"java={first['java']!r} polyenv={first['polyenv']!r}\ncategory: {first['category']}"))
    if game.resynced:
        print(f"re-synchronised: {dict(game.resynced)}")
    drv.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
