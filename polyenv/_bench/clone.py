"""State copy speed: ns per copy of a game state, next to the Java Tribes framework's ``GameState.copy``.

The timing loop is native (``polyenv._core.Game.clone_benchmark``, engine/playout.cpp): a copy
takes ~100 ns, far below what a Python loop can time. Figures are medians over random positions of
different games, each the best of 5 timed batches (on a shared machine preemption only ever adds
time): copy-assign into a reused state (what a search tree does), copy-construct a fresh state (like
Java's ``GameState.copy``, which allocates) and ``GameEnv.clone()`` from Python, overhead included.
``benchmarks/clone.py`` prints them alone; the engine part prints them in its table.
"""

from __future__ import annotations

import time

import numpy as np

import polyenv
from polyenv import GameEnv
from .._core import _testing

# The Java Tribes framework, us per GameState.copy (recorded on the project's development machine).
JAVA_COPY_US = {"11x11 2p": 5.9, "16x16 4p": 10.8}
SCENARIOS = {
    "11x11 2p": dict(map_size=11, players=(polyenv.Bardur, polyenv.Imperius)),
    "16x16 4p": dict(map_size=16, players=(polyenv.XinXi, polyenv.Imperius, polyenv.Bardur, polyenv.Oumaji)),
}


def measure_clone(name: str, full_obs: bool, positions: int, iterations: int) -> dict:
    """Native ns per state copy and Python GameEnv.clone() us: medians over random positions of
    different games (each the best of 5 timed batches)."""
    env = GameEnv(seed=0, full_observability=full_obs, **SCENARIOS[name])
    assign, construct, py_clone = [], [], []
    rng = np.random.default_rng(1)
    for p in range(positions):
        env.reset(seed=1000 + p)
        total = env.clone().playout(seed=p, record_events=False)
        env.playout(max_actions=int(rng.integers(0, total)), seed=p, record_events=False)  # a random point
        # Best of 5 batches: on a shared machine preemption only ever adds time.
        batches = [_testing.clone_benchmark(env.native, max(iterations // 5, 1)) for _ in range(5)]
        assign.append(min(b[0] for b in batches))
        construct.append(min(b[1] for b in batches))
        reps = max(iterations // 20, 50)
        t0 = time.perf_counter()
        for _ in range(reps):
            env.clone()
        py_clone.append((time.perf_counter() - t0) / reps * 1e6)
    return dict(assign_ns=float(np.median(assign)), construct_ns=float(np.median(construct)),
                py_clone_us=float(np.median(py_clone)))
