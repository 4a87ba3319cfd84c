#!/usr/bin/env python3
"""Differential test: random games played in lockstep by polyenv and the Java Tribes engine.

    python tools/differential/run.py --tribes GIT_DIR_OR_SOURCE_TREE --games N [--seed S]
                                     [--players 2|4] [--levels PATHS] [--report FILE]

Each game loads one CSV level in both engines (polyenv with full_observability=True, the Tribes default),
then repeatedly picks a random action from one engine's legal list (alternating), maps it to the other by
(kind, source, target, arg) and compares after every action the two legal-action sets and the whole state.
Ruins outcomes are drawn by Java and imposed on polyenv (GameEnv._test_force_ruins). A game stops at its
first difference, which is reported with its reproduction (level, seed, action list, first differing field)
and classified by tools/differential/known.py as deliberate (a documented polyenv choice) or unexplained.
The last line is ``differential: G games, A actions compared, U unexplained differences, D deliberate``;
the exit status is 0 only when U = 0.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tools.differential; polyenv: built in place or installed

from polyenv import TECHS, GameEnv  # noqa: E402

from tools.differential import canon, known, levels  # noqa: E402
from tools.differential.java_driver import Driver, build  # noqa: E402

RUINS = {"giant": 0, "research": 1, "pop_growth": 2, "explorer": 3, "resources": 4}


def ruins_outcome(before: dict, after: dict, tile: int, player: int) -> tuple[str, int]:
    """The outcome Java drew for an Examine at ``tile``, read from its states before and after."""
    tb, ta = before["tribes"][player], after["tribes"][player]
    new_techs = ta["techs"] & ~tb["techs"]
    if new_techs:
        return "research", (new_techs & -new_techs).bit_length() - 1
    if ta["stars"] == tb["stars"] + 10:
        return "resources", -1
    pop = {c[0]: c[3] for c in before["cities"]}
    if any(c[1] == player and c[3] == pop.get(c[0], 0) + 3 for c in after["cities"]):
        return "pop_growth", -1
    # A Giant appears on the tile and pushes the examiner (a Giant examiner too: compare counts, not types).
    mine = [sum(u[1] == player for u in s["units"]) for s in (before, after)]
    at = [next((u[1:5] + u[6:9] for u in s["units"] if u[0] == tile), None) for s in (before, after)]
    if mine[1] > mine[0] or at[1] != at[0]:
        return "giant", -1
    return "explorer", -1


def _true_moves_match(driver: Driver, jacts: dict, pacts: dict) -> bool:
    """True if the legal sets differ only in moves and polyenv's moves are exactly those of an exact
    shortest-path search over Java's own step costs (so the difference is Java's visiting-order artefact)."""
    diff = jacts.keys() ^ pacts.keys()
    if not diff or any(a[0] != "move" for a in diff):
        return False
    true = {("move", s, t, None, 0) for s, t in driver.true_moves()}
    return true == {a for a in pacts if a[0] == "move"}


def play(driver: Driver, name: str, csv_path: str, csv: str, mode: str, seed: int, max_actions: int) -> dict:
    """One game in lockstep; returns {actions, difference (or None), moves}."""
    rnd = random.Random(seed)
    j = driver.load(csv_path, mode, seed)
    env = GameEnv(level=csv, players=None, mode=mode, full_observability=True, auto_end_turn=False, seed=seed)
    moves: list[tuple] = []
    compared = 0
    before, last = j, None

    def diff(field, jv, pv, kind):
        return {"level": name, "mode": mode, "seed": seed, "actions": list(moves), "field": field,
                "java": jv, "polyenv": pv, "kind": kind}

    while True:
        js, ps = canon.java_state(j), canon.polyenv_state(env)
        d = canon.first_difference(js, ps)
        if d is not None:
            out = diff(*d, "state")
            out["category"] = known.classify(out, before, last, False)
            return {"compared": compared, "difference": out}
        jacts = {canon.java_action(a): i for i, a in enumerate(j["actions"])}
        pacts = canon.polyenv_actions(env) if not env.game_over else {}
        if jacts.keys() != pacts.keys():
            only_j = sorted(map(repr, jacts.keys() - pacts.keys()))
            only_p = sorted(map(repr, pacts.keys() - jacts.keys()))
            out = diff("legal_actions", only_j[:5], only_p[:5], "legal")
            out["category"] = known.classify(out, before, last, _true_moves_match(driver, jacts, pacts))
            return {"compared": compared, "difference": out}
        compared += 1
        if j["over"] or len(moves) >= max_actions:
            return {"compared": compared, "difference": None}
        pool = sorted(jacts) if len(moves) % 2 == 0 else sorted(pacts)  # alternate the picking engine
        act = pool[rnd.randrange(len(pool))]
        moves.append(act)
        before, last = j, act
        j = driver.step(jacts[act])
        if act[0] == "examine":
            outcome, tech = ruins_outcome(before, j, act[1], before["active"])
            env._game._test_force_ruins(RUINS[outcome], tech)
        env.step(pacts[act])


class _Games:
    """Plays game ``g`` of a run (its seed, mode and level follow from ``g`` alone, so any number of worker
    processes produce the same games). Each process keeps one Java driver."""

    def __init__(self, args, paths: dict):
        self.args, self.paths = args, paths
        self.players = (args.players,) if args.players else (2, 4)
        self.fixed = [(f"file:{p}", Path(p).read_text()) for p in args.levels] if args.levels else \
            levels.tribes_levels(Path(paths["tree"]), self.players)
        self.modes = args.modes.split(",")
        self.driver = None
        self.tmp = None

    def __call__(self, g: int) -> dict:
        args = self.args
        if self.driver is None:
            self.driver = Driver(self.paths, args.java_heap)
            self.tmp = tempfile.mkdtemp(prefix="polyenv-diff-")
        seed = args.seed * 1_000_003 + g
        mode = self.modes[g % len(self.modes)]
        if args.levels or g % 3 == 0 and self.fixed:
            name, csv = self.fixed[(g // (1 if args.levels else 3)) % len(self.fixed)]
        else:
            np_ = self.players[(g // 2) % len(self.players)]  # independent of the mode (g % 2)
            name, csv = f"generated:seed={seed},players={np_}", levels.generated_csv(seed, np_)
        path = os.path.join(self.tmp, "level.csv")
        Path(path).write_text(csv)
        res = play(self.driver, name, path, csv, mode, seed, args.max_actions)
        res.update(g=g, name=name, mode=mode, seed=seed)
        if res["difference"] is not None:
            res["difference"]["csv"] = csv
        return res

    def close(self) -> None:
        if self.driver is not None:
            self.driver.close()
            self.driver = None


_WORKER: _Games | None = None


def _worker_init(args, paths) -> None:
    global _WORKER
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent reports on SIGINT and ends the pool
    _WORKER = _Games(args, paths)
    import atexit
    atexit.register(_WORKER.close)


def _worker_play(g: int) -> dict:
    return _WORKER(g)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tribes", required=True, help="git dir or source tree of GAIGResearch/Tribes (270e7e5)")
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, choices=(2, 4), help="only 2- or 4-player levels (default both)")
    ap.add_argument("--levels", nargs="*", help="CSV level files (default: Tribes' own levels + generated maps)")
    ap.add_argument("--modes", default="capitals,score")
    ap.add_argument("--max-actions", type=int, default=100_000, help="actions per game at most")
    ap.add_argument("--report", help="write every difference as JSON lines here")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes, each with its own JVM (same games)")
    ap.add_argument("--only", type=int, nargs="*", help="play only these game numbers of the run (to reproduce)")
    ap.add_argument("--java-heap", default="384m", help="maximum Java heap per JVM (-Xmx)")
    args = ap.parse_args(argv)
    import signal
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started in the background

    paths = build(args.tribes)
    numbers = args.only if args.only else range(args.games)
    games = actions = 0
    by_cat: Counter = Counter()
    unexplained = []
    report = open(args.report, "w") if args.report else None
    t0 = time.time()
    interrupted = False
    local = pool = None
    if args.jobs > 1:
        import multiprocessing
        pool = multiprocessing.get_context("spawn").Pool(args.jobs, _worker_init, (args, paths))
        results = pool.imap(_worker_play, numbers)  # in game order
    else:
        local = _Games(args, paths)
        results = map(local, numbers)
    try:
        for res in results:
            g, name, mode, seed = res["g"], res["name"], res["mode"], res["seed"]
            games += 1
            actions += res["compared"]
            d = res["difference"]
            if d is not None:
                cat = d["category"]
                by_cat[cat] += 1
                if report:
                    report.write(json.dumps(d) + "\n")
                    report.flush()
                if cat.startswith("unexplained"):
                    unexplained.append(d)
                    print(f"UNEXPLAINED game {g} ({name}, {mode}, seed {seed}) after {len(d['actions'])} actions: "
                          f"{d['field']}: java={d['java']!r} polyenv={d['polyenv']!r}; last action "
                          f"{d['actions'][-1] if d['actions'] else None}", flush=True)
            if (g + 1) % 50 == 0:
                print(f"  {g + 1} games, {actions} actions, {actions / (time.time() - t0):.0f} actions/s, "
                      f"{dict(by_cat)}", flush=True)
    except KeyboardInterrupt:  # SIGINT: report the games completed so far
        interrupted = True
    finally:
        if pool is not None:
            pool.terminate() if interrupted else pool.close()
            pool.join()
        if local is not None:
            local.close()
        if report:
            report.close()
    deliberate = sum(n for c, n in by_cat.items() if c.startswith("deliberate"))
    print(f"differential: {games} games, {actions} actions compared; by category:")
    for c, n in sorted(by_cat.items()):
        print(f"  {c}: {n}")
    print(f"  {actions / max(time.time() - t0, 1e-9):.0f} actions/s")
    if interrupted:
        print("  (interrupted: the counts cover the games completed before it)")
    print(f"differential: {games} games, {actions} actions compared, {len(unexplained)} unexplained differences, "
          f"{deliberate} deliberate")
    return 0 if not unexplained else 1


if __name__ == "__main__":
    sys.exit(main())
