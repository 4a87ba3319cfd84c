#!/usr/bin/env python3
"""Replays one reported difference in both engines and prints the fields that differ at each step.

    python tools/differential/replay.py --tribes TRIBES REPORT.jsonl [--index I] [--watch PREFIX] [--last K]

``--watch unit@11`` prints the Java and polyenv values of every field starting with that prefix after each
of the last K actions (default 10), so the step where a value first diverges can be read off.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from polyenv import GameEnv  # noqa: E402

from tools.differential import canon, known  # noqa: E402
from tools.differential.java_driver import Driver, build  # noqa: E402
from tools.differential.run import RUINS, ruins_outcome  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tribes", required=True)
    ap.add_argument("report")
    ap.add_argument("--index", type=int, default=0)
    ap.add_argument("--watch", default="")
    ap.add_argument("--last", type=int, default=10)
    args = ap.parse_args(argv)
    d = [json.loads(line) for line in open(args.report)][args.index]
    paths = build(args.tribes)
    drv = Driver(paths)
    path = os.path.join(tempfile.mkdtemp(prefix="polyenv-replay-"), "level.csv")
    Path(path).write_text(d["csv"])
    j = drv.load(path, d["mode"], d["seed"])
    env = GameEnv(level=d["csv"], players=None, mode=d["mode"], full_observability=True, auto_end_turn=False,
                  seed=d["seed"])
    moves = [tuple(m) for m in d["actions"]]
    before = j
    print(f"{d['level']} {d['mode']} seed {d['seed']}: {len(moves)} actions; first difference {d['field']}: "
          f"java={d['java']!r} polyenv={d['polyenv']!r}")
    for k, act in enumerate(moves):
        jacts = {canon.java_action(a): i for i, a in enumerate(j["actions"])}
        pacts = canon.polyenv_actions(env)
        before = j
        j = drv.step(jacts[act])
        if act[0] == "examine":
            outcome, tech = ruins_outcome(before, j, act[1], before["active"])
            env._game._test_force_ruins(RUINS[outcome], tech)
            print(f"   ruins outcome {outcome} {tech}")
        env.step(pacts[act])
        if k >= len(moves) - args.last:
            js, ps = canon.java_state(j), canon.polyenv_state(env)
            watched = {f: (js.get(f), ps.get(f)) for f in sorted(set(js) | set(ps)) if f.startswith(args.watch)
                       and args.watch}
            print(f"{k:5d} p{before['active']} t{before['tick']} {act}  " +
                  " ".join(f"{f}={a!r}/{b!r}" for f, (a, b) in watched.items()))
    js, ps = canon.java_state(j), canon.polyenv_state(env)
    first = canon.first_difference(js, ps)
    if first is None:
        jacts = {canon.java_action(a) for a in j["actions"]}
        pacts = set(canon.polyenv_actions(env)) if not env.game_over else set()
        if jacts != pacts:
            first = ("legal_actions", sorted(map(repr, jacts - pacts))[:5], sorted(map(repr, pacts - jacts))[:5])
    print("now: " + ("no difference" if first is None else f"first difference {first[0]}: java={first[1]!r} "
                     f"polyenv={first[2]!r}"))
    if first is not None and moves:
        d = {"field": first[0], "java": first[1], "polyenv": first[2]}
        print("category: " + known.classify(d, before, moves[-1], False))
    drv.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
