"""Fixed cost of an MctsPool ``*_into`` call in this build next to another build, in one run.

``root_policy_into`` on a 2-game pool (11x11 2p, max_actions 64) does almost no native work, so its
time per call is the binding's fixed cost: argument checks and looking up / validating the caller's
output buffers (the same ``SpecOutputs`` path every MctsPool / SelfPlayPool ``*_into`` call takes).
Each round times both builds in child processes, alternating; printed: microseconds per call
(best of the repeats in a round; median and min..max over rounds) and the per-round ratio
other / this (> 1: this build is faster).

Usage::

    python benchmarks/pool_call_vs_build.py --other /path/to/previous/build [--rounds 4] [--calls 20000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import sys, time
import numpy as np
from polyenv.selfplay.mcts_pool import MctsPool
calls = int(sys.argv[1])
pool = MctsPool(num_envs=2, seed=1, map_size=11, max_actions=64, num_threads=1)
alloc = lambda spec: {k: np.zeros(v["shape"], v["dtype"]) for k, v in spec.items()}
pool.reset_into(alloc(pool.batch_spec()), seed=1)
buffers = alloc(pool.root_policy_spec())
best = float("inf")
for _ in range(3):
    t = time.perf_counter()
    for _ in range(calls):
        pool.root_policy_into(buffers)
    best = min(best, (time.perf_counter() - t) / calls)
pool.close()
print(best * 1e6)
"""


def measure(path: str, calls: int) -> float:
    env = dict(os.environ, PYTHONPATH=path, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CHILD, str(calls)], env=env, cwd=path, capture_output=True,
                         text=True, check=True).stdout
    return float(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, help="PYTHONPATH of the build to compare with")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    this, other = [], []
    for _ in range(args.rounds):
        this.append(measure(str(HERE.parent), args.calls))
        other.append(measure(args.other, args.calls))

    def spread(v, d=2):
        return f"{statistics.median(v):.{d}f} ({min(v):.{d}f}..{max(v):.{d}f})"

    print(f"MctsPool.root_policy_into, 2 games, {args.calls} calls x 3 per round, {args.rounds} rounds")
    print(f"  this build : {spread(this)} us per call")
    print(f"  other build: {spread(other)} us per call")
    print(f"  ratio other / this: {spread([b / a for a, b in zip(this, other)])}")


if __name__ == "__main__":
    main()
