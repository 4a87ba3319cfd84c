"""Engine speed next to the Java Tribes forward model, measured side by side in one run.

The Java side is the Tribes framework's speed harness given by ``--java PATH`` (``AnchorBench fm``: ``GameState.advance(a, true)``
after a uniformly random choice from ``getAllAvailableActions()``, Capitals, full observability, the
framework's default map size: 11x11 for 2 players, 16x16 for 4). The polyenv side is ``GameEnv.playout``:
single thread, uniform random over the full legal list computed after every action, Capitals, no
observation encoding, no event journal; full observability and fog.

The machine is shared, so the two sides run interleaved: ``--chunks`` rounds, each one Java chunk (a
fresh JVM: ``--java-warmup`` seconds of untimed warm-up games, then ``--seconds`` timed) followed by the
polyenv chunks of the same length. Every round gives one ratio per configuration; the table shows the
median and the spread (min..max) over rounds; polyenv's rate per CPU-second (process time) is printed
too. With ``--baseline DIR`` a second polyenv build (a directory holding an importable ``polyenv``, e.g.
the previous commit built elsewhere) runs in the same rounds, so before/after figures come from one run
too.

Usage::

    python benchmarks/engine_vs_java.py --java PATH [--chunks 3] [--seconds 3]
                                        [--baseline /path/to/old/build]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

CONFIGS = {"11x11 2p": 2, "16x16 4p": 4}

# Runs in a child process so that every polyenv build is measured the same way.
POLYENV_CHUNK = r"""
import json, sys, time
import polyenv
from polyenv import GameEnv
name, full_obs, seconds, first_seed = sys.argv[1], sys.argv[2] == "1", float(sys.argv[3]), int(sys.argv[4])
players = {"11x11 2p": (11, (polyenv.Bardur, polyenv.Imperius)),
           "16x16 4p": (16, (polyenv.XinXi, polyenv.Imperius, polyenv.Bardur, polyenv.Oumaji))}[name]
env = GameEnv(map_size=players[0], players=players[1], seed=0, full_observability=full_obs)
env.reset(seed=first_seed + 10_000)
env.playout(seed=1, record_events=False)  # warm caches
actions, elapsed, cpu, game = 0, 0.0, 0.0, first_seed
while elapsed < seconds:
    env.reset(seed=game)
    t0, c0 = time.perf_counter(), time.process_time()
    actions += env.playout(seed=game, record_events=False)
    elapsed += time.perf_counter() - t0
    cpu += time.process_time() - c0
    game += 1
print(json.dumps({"actions_per_s": actions / elapsed, "actions_per_cpu_s": actions / cpu, "games": game - first_seed}))
"""


def java_chunk(java_dir: Path, players: int, seconds: float, warmup: float) -> float:
    """Actions per second of one AnchorBench fm run in a fresh JVM."""
    src = java_dir / "src"
    cmd = ["java", "-Djava.awt.headless=true", "-Xms2g", "-Xmx2g",
           "-cp", "../build/harness:../build/tribes:lib/json.jar",
           "core.game.AnchorBench", "fm", str(players), str(seconds), "1", str(warmup)]
    out = subprocess.run(cmd, cwd=src, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("RUN mode=fm ") and " run=1 " in line:
            return float(re.search(r"applied_per_s=([0-9.]+)", line).group(1))
    raise RuntimeError("no timed run in the Java output:\n" + out)


def polyenv_chunk(pythonpath: str, name: str, full_obs: bool, seconds: float, first_seed: int) -> dict:
    """Actions per second (wall and CPU) of GameEnv.playout in a child process importing polyenv from `pythonpath`."""
    env = dict(os.environ, PYTHONPATH=pythonpath)
    out = subprocess.run([sys.executable, "-c", POLYENV_CHUNK, name, "1" if full_obs else "0", str(seconds),
                          str(first_seed)],
                         env=env, cwd=pythonpath,  # `-c` puts the working directory first on sys.path
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def spread(values: list[float], digits: int = 1) -> str:
    return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f}..{max(values):,.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--java", type=Path, required=True, help="built tribes-speed harness directory")
    parser.add_argument("--chunks", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seconds", type=float, default=3.0, help="timed seconds per chunk (default 3)")
    parser.add_argument("--java-warmup", type=float, default=6.0, help="JVM warm-up seconds per chunk (default 6)")
    parser.add_argument("--baseline", default=None, help="PYTHONPATH of a second polyenv build to compare")
    args = parser.parse_args()
    here = str(Path(__file__).resolve().parents[1])
    builds = {"polyenv": os.environ.get("POLYENV_PATH", here)}
    if args.baseline:
        builds["baseline"] = args.baseline

    load = os.getloadavg()[0]
    print(f"engine vs Java forward model, interleaved: {args.chunks} rounds x {args.seconds:.1f} s per side "
          f"(JVM warm-up {args.java_warmup:.1f} s per chunk), load at start {load:.1f}")
    rates: dict[tuple, list[float]] = {}
    t_start = time.time()
    for r in range(args.chunks):
        for name, players in CONFIGS.items():
            rates.setdefault((name, "java"), []).append(java_chunk(args.java, players, args.seconds, args.java_warmup))
            for build, path in builds.items():
                for full_obs in (True, False):
                    rate = polyenv_chunk(path, name, full_obs, args.seconds, first_seed=1000 * r)
                    rates.setdefault((name, build, full_obs), []).append(rate["actions_per_s"])
                    rates.setdefault((name, build, full_obs, "cpu"), []).append(rate["actions_per_cpu_s"])
    print(f"({time.time() - t_start:.0f} s, load at end {os.getloadavg()[0]:.1f})\n")

    header = f"{'config':<10} {'engine':<22} {'actions/s median (min..max)':>34} {'x Java median (min..max)':>28}"
    print(header)
    print("-" * len(header))
    for name in CONFIGS:
        java = rates[(name, "java")]
        print(f"{name:<10} {'Java forward model':<22} {spread(java, 0):>34} {'1.0':>28}")
        for build in builds:
            for full_obs in (True, False):
                ours = rates[(name, build, full_obs)]
                ratios = [a / j for a, j in zip(ours, java)]  # per round: same load for both sides
                label = f"{build} {'full' if full_obs else 'fog'}"
                print(f"{name:<10} {label:<22} {spread(ours, 0):>34} {spread(ratios):>28}")
        print()
    print("polyenv actions per CPU-second (process time; less disturbed by other load than wall time):")
    for name in CONFIGS:
        for full_obs in (True, False):
            line = f"  {name} {'full' if full_obs else 'fog'}:"
            for build in builds:
                line += f" {build} {spread(rates[(name, build, full_obs, 'cpu')], 0)}"
            if args.baseline:
                new, old = rates[(name, "polyenv", full_obs, "cpu")], rates[(name, "baseline", full_obs, "cpu")]
                line += f"; polyenv / baseline {spread([a / b for a, b in zip(new, old)], 2)}"
            print(line)


if __name__ == "__main__":
    main()
