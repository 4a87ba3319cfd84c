"""The four everyday workloads on this build and on another build (e.g. before a restructure), in one run.

Workloads, each single-threaded and timed in the thread's CPU time (so background load changes both
builds alike and little):

* ``engine`` — ``GameEnv.playout`` random games (11x11, 2 players): actions per CPU-second;
* ``vector`` — ``VectorGameEnv.step_into`` with 256 environments, uniform random legal rows, 1 thread:
  env-steps per CPU-second;
* ``mcts``   — ``MctsPool`` (64 games) select / expand-and-backup rounds with uniform priors: leaf
  evaluations per CPU-second;
* ``gym``    — the native Gymnasium ``TribesVectorEnv`` (64 environments, rows mode) stepped with
  random legal rows: env-steps per CPU-second.

Every round runs every workload once per build, each in a fresh child process that imports polyenv from
that build's PYTHONPATH; rounds alternate the order of the builds. Printed: the median rate of each build
over the rounds and the median of the per-round ratios (this build / other build).

Usage::

    python benchmarks/builds_side_by_side.py --other /path/to/other/checkout [--rounds 5]

``--other`` and ``--this`` are folders that ``import polyenv`` works from (a developer build's checkout,
whose ``polyenv/`` holds ``_core*.so``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
import polyenv
from polyenv import GameEnv, MctsPool, VectorGameEnv

work = sys.argv[2]
rng = np.random.default_rng(0)

def cpu():
    return time.thread_time()

def engine():
    env = GameEnv(seed=0)
    actions, start = 0, cpu()
    for game in range(400):
        env.reset(seed=game)
        actions += env.playout(seed=game, record_events=False)
    return actions / (cpu() - start)

def vector():
    env = VectorGameEnv(256, seed=1, max_actions=256, num_threads=1)
    from polyenv.vector import allocate
    buffers = allocate(env.batch_spec())
    env.reset_into(buffers, seed=1)
    ids = np.empty(256, np.int32)
    steps, start = 0, cpu()
    for _ in range(400):
        counts = buffers["legal_action_count"]
        rows = (rng.random(256) * counts).astype(np.int64)
        ids[:] = buffers["action_id"][np.arange(256), rows]
        env.step_into(ids, buffers)
        steps += 256
    return steps / (cpu() - start)

def mcts():
    pool = MctsPool(64, seed=2, max_actions=256, num_threads=1)
    pool.reset(seed=2)
    leaves, start = 0, cpu()
    for move in range(6):
        for _ in range(32):
            batch = pool.select_leaves()
            n = len(batch["leaf_id"])
            pool.expand_and_backup(batch["leaf_id"], np.zeros((n, pool.max_actions), np.float32), np.zeros(n, np.float32))
            leaves += n
        root = pool.root_policy(1.0)
        pool.step(root["action_id"][np.arange(64), root["visit_count"].argmax(1)])
    return leaves / (cpu() - start)

def gym():
    from polyenv.vector import TribesVectorEnv
    envs = TribesVectorEnv(num_envs=64, action_mode="rows", max_actions=256, num_threads=1, seed=3)
    obs, _ = envs.reset(seed=3)
    steps, start = 0, cpu()
    for _ in range(400):
        counts = obs["action_mask"].sum(1)
        envs_rows = (rng.random(64) * counts).astype(np.int64)
        obs, *_ = envs.step(envs_rows)
        steps += 64
    return steps / (cpu() - start)

print(json.dumps({work: {"engine": engine, "vector": vector, "mcts": mcts, "gym": gym}[work]()}))
"""

WORKLOADS = ("engine", "vector", "mcts", "gym")
UNITS = {"engine": "actions/CPU-s", "vector": "env-steps/CPU-s", "mcts": "leaves/CPU-s", "gym": "env-steps/CPU-s"}


def run(build: str, work: str) -> float:
    out = subprocess.run([sys.executable, "-c", CHILD, build, work], capture_output=True, text=True, check=True,
                         cwd="/")
    return json.loads(out.stdout.strip().splitlines()[-1])[work]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, help="folder importing the other build of polyenv")
    parser.add_argument("--this", default=str(ROOT), help="folder importing this build (default: this checkout)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated subset (default: all)")
    args = parser.parse_args()
    workloads = [w for w in args.workloads.split(",") if w]
    unknown = set(workloads) - set(WORKLOADS)
    if unknown:
        parser.error(f"unknown workloads {sorted(unknown)}; choose from {', '.join(WORKLOADS)}")
    builds = {"this": args.this, "other": args.other}
    rates = {(b, w): [] for b in builds for w in workloads}
    for r in range(args.rounds):
        order = list(builds) if r % 2 == 0 else list(reversed(builds))
        for work in workloads:
            for b in order:
                rates[b, work].append(run(builds[b], work))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    print(f"{'workload':8} {'this':>14} {'other':>14}  this/other (median of rounds)  unit")
    for work in workloads:
        this, other = rates["this", work], rates["other", work]
        ratio = statistics.median(a / b for a, b in zip(this, other))
        print(f"{work:8} {statistics.median(this):14,.0f} {statistics.median(other):14,.0f}  {ratio:8.3f}"
              f" (min {min(a / b for a, b in zip(this, other)):.3f}, max {max(a / b for a, b in zip(this, other)):.3f})"
              f"  {UNITS[work]}")


if __name__ == "__main__":
    main()
