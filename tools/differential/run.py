#!/usr/bin/env python3
"""Differential test: random games played in lockstep by polyenv and the Java Tribes engine.

    python tools/differential/run.py --tribes GIT_DIR_OR_SOURCE_TREE --games N [--seed S]
                                     [--players 2|4] [--levels PATHS] [--report FILE]

Each game loads one CSV level in both engines (with full observability, the Tribes default, or with fog of
war: Tribes' fog build), then repeatedly picks a random action from one engine's legal list (alternating),
maps it to the other by (kind, source, target, arg) and compares after every action the two legal-action sets
and the whole state (polyenv.evaluation.java.lockstep). Java's random draws (ruins, meetings, explorers) are imposed on
polyenv. A difference that polyenv.evaluation.java.known explains (a documented polyenv choice or Java artefact) is
re-synchronised where possible and the game goes on; any other difference stops the game and is reported
with its reproduction (level, seed, action list, first differing field) and category. The last line is
``differential: G games, A actions compared, U unexplained differences, D deliberate, S stopped early by a
known difference``; the exit status is 0 only when U = 0.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout: polyenv built in place, or installed

from polyenv.evaluation.java import levels  # noqa: E402
from polyenv.evaluation.java.build import build  # noqa: E402
from polyenv.evaluation.java.driver import Driver, java_command  # noqa: E402
from polyenv.evaluation.java.lockstep import LockstepGame  # noqa: E402


def play(driver: Driver, name: str, csv_path: str, csv: str, mode: str, seed: int, max_actions: int,
         fog: bool = False) -> dict:
    """One random game in lockstep; returns {compared, difference (or None), resynced, ended}.

    ``ended`` is True when the game was played to its end (or to ``max_actions``), False when a difference
    stopped it."""
    rnd = random.Random(seed)
    game = LockstepGame(driver, csv, csv_path, mode, seed, fog)
    compared = 0
    while True:
        d = game.check()
        if d is not None:
            d["level"] = name
            return {"compared": compared, "difference": d, "resynced": dict(game.resynced), "ended": False}
        compared += 1
        if game.over or len(game.moves) >= max_actions:
            return {"compared": compared, "difference": None, "resynced": dict(game.resynced), "ended": True}
        # alternate the engine whose list is drawn from (the common list when they differ by a known artefact)
        pool = game.legal if game.jacts.keys() != game.pacts.keys() else \
            sorted(game.jacts) if len(game.moves) % 2 == 0 else sorted(game.pacts)
        while not game.play(act := pool[rnd.randrange(len(pool))], take_back_water_giant=True):
            pool = [a for a in pool if a != act]  # taken back: the Giant on water, drawn again from the rest


class _Games:
    """Plays game ``g`` of a run (its seed, mode, observability and level follow from ``g`` alone, so any number
    of worker processes produce the same games). Each process keeps one Java driver per build (full, fog)."""

    def __init__(self, args, builds: dict):
        self.args, self.builds = args, builds
        self.players = (args.players,) if args.players else (2, 4)
        tree = Path(next(iter(builds.values()))["tree"])
        self.fixed = [(f"file:{p}", Path(p).read_text()) for p in args.levels] if args.levels else \
            levels.tribes_levels(tree, self.players)
        self.modes = args.modes.split(",")
        self.observability = args.observability.split(",")
        self.drivers: dict = {}
        self.tmp = tempfile.mkdtemp(prefix="polyenv-diff-")

    def driver(self, variant: str) -> Driver:
        if variant not in self.drivers:
            paths = self.builds[variant]
            self.drivers[variant] = Driver(java_command(paths, self.args.java_heap), cwd=paths["cwd"])
        return self.drivers[variant]

    def __call__(self, g: int) -> dict:
        args = self.args
        seed = args.seed * 1_000_003 + g
        mode = self.modes[g % len(self.modes)]
        variant = self.observability[(g // 4) % len(self.observability)]
        if args.levels or g % 3 == 0 and self.fixed:
            name, csv = self.fixed[(g // (1 if args.levels else 3)) % len(self.fixed)]
        else:
            np_ = self.players[(g // 2) % len(self.players)]  # independent of the mode (g % 2)
            name, csv = f"generated:seed={seed},players={np_}", levels.generated_csv(seed, np_)
        path = os.path.join(self.tmp, "level.csv")
        Path(path).write_text(csv)
        res = play(self.driver(variant), name, path, csv, mode, seed, args.max_actions, fog=variant == "fog")
        res.update(g=g, name=name, mode=mode, seed=seed, observability=variant)
        if res["difference"] is not None:
            res["difference"]["csv"] = csv
        return res

    def close(self) -> None:
        for d in self.drivers.values():
            d.close()
        self.drivers = {}


_WORKER: _Games | None = None


def _worker_init(args, builds) -> None:
    global _WORKER
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent reports on SIGINT and ends the pool
    _WORKER = _Games(args, builds)
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
    ap.add_argument("--observability", default="full,fog",
                    help="full (Tribes' default), fog (its fog-of-war build) or both, alternating (default)")
    ap.add_argument("--max-actions", type=int, default=100_000, help="actions per game at most")
    ap.add_argument("--report", help="write every difference as JSON lines here")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes, each with its own JVM (same games)")
    ap.add_argument("--only", type=int, nargs="*", help="play only these game numbers of the run (to reproduce)")
    ap.add_argument("--java-heap", default="384m", help="maximum Java heap per JVM (-Xmx)")
    args = ap.parse_args(argv)
    import signal
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started in the background

    variants = args.observability.split(",")
    if not variants or any(v not in ("full", "fog") for v in variants):
        ap.error("--observability takes full, fog or full,fog")
    try:
        builds = {v: build(args.tribes, v) for v in dict.fromkeys(variants)}
    except (ValueError, RuntimeError) as e:
        print(f"differential: {e}", file=sys.stderr)
        return 2
    numbers = args.only if args.only else range(args.games)
    games = actions = 0
    resynced: Counter = Counter()     # known differences re-synchronised (the game went on)
    stopped: Counter = Counter()      # the difference that stopped a game, by category
    by_obs: Counter = Counter()
    unexplained = []
    report = open(args.report, "w") if args.report else None
    t0 = time.time()
    interrupted = False
    local = pool = None
    if args.jobs > 1:
        import multiprocessing
        pool = multiprocessing.get_context("spawn").Pool(args.jobs, _worker_init, (args, builds))
        results = pool.imap(_worker_play, numbers)  # in game order
    else:
        local = _Games(args, builds)
        results = map(local, numbers)
    try:
        for res in results:
            g, name, mode, seed = res["g"], res["name"], res["mode"], res["seed"]
            games += 1
            actions += res["compared"]
            by_obs[res["observability"]] += 1
            resynced.update(res["resynced"])
            d = res["difference"]
            if d is not None:
                cat = d["category"]
                stopped[cat] += 1
                if report:
                    report.write(json.dumps(d) + "\n")
                    report.flush()
                if cat.startswith("unexplained"):
                    unexplained.append(d)
                    print(f"UNEXPLAINED game {g} ({name}, {mode}, {res['observability']}, seed {seed}) after "
                          f"{len(d['actions'])} actions: {d['field']}: java={d['java']!r} polyenv={d['polyenv']!r}; "
                          f"last action {d['actions'][-1] if d['actions'] else None}", flush=True)
            if (g + 1) % 50 == 0:
                print(f"  {g + 1} games, {actions} actions, {actions / (time.time() - t0):.0f} actions/s, "
                      f"stopped {dict(stopped)}", flush=True)
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
    known_met = resynced + Counter({c: n for c, n in stopped.items() if not c.startswith("unexplained")})
    deliberate = sum(n for c, n in known_met.items() if c.startswith("deliberate"))
    early = sum(n for c, n in stopped.items() if c.startswith("deliberate"))
    print(f"differential: {games} games ({', '.join(f'{n} {o}' for o, n in sorted(by_obs.items()))}), "
          f"{actions} actions compared")
    print("  known differences re-synchronised (the game went on):")
    for c, n in sorted(resynced.items()):
        print(f"    {c}: {n}")
    print("  games stopped by a difference:")
    for c, n in sorted(stopped.items()):
        print(f"    {c}: {n}")
    print(f"  {actions / max(time.time() - t0, 1e-9):.0f} actions/s")
    if interrupted:
        print("  (interrupted: the counts cover the games completed before it)")
    print(f"differential: {games} games, {actions} actions compared, {len(unexplained)} unexplained differences, "
          f"{deliberate} deliberate, {early} games stopped early by a deliberate difference")
    return 0 if not unexplained else 1


if __name__ == "__main__":
    sys.exit(main())
