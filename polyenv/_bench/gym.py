"""The Gymnasium layer's cost, the quick form: ``TribesVectorEnv.step`` next to the raw
``VectorGameEnv`` calls it wraps, printed as overheads from one run.

64 games, 11x11, Bardur vs Imperius, the native random opponent, one simulation thread, so every
loop uses one core and is timed in CPU seconds of the calling thread (``time.thread_time``: other
load on the machine does not distort the ratios). Loops: ``raw step_into`` into one pinned buffer set
(the floor), ``raw step`` (fresh arrays, as ``copy=True``), ``TribesVectorEnv`` with
``action_mode="rows"`` and ``copy=False`` / ``copy=True``. Every loop plays a uniformly random
represented legal row per game, chosen outside the timed region; the loops run interleaved.
``benchmarks/gym.py`` (source tree) is the long form: global action ids, double-buffered raw steps,
Gymnasium's Sync / Async vector envs.

Usage: ``python -m polyenv._bench.gym [--quick] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import polyenv
from polyenv._bench import budget
from polyenv.vector import TribesVectorEnv, allocate

N = 64
KW = dict(map_size=11, opponent="random", max_actions=512)
_clock = time.thread_time  # CPU seconds of this thread (the simulation thread too: num_threads=1)


def _pick(rng: np.random.Generator, ids: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A uniformly random represented legal row per game -> (rows int64 [B], global ids int32 [B])."""
    rows = (rng.random(len(counts)) * counts).astype(np.int64)
    return rows, ids[np.arange(len(counts)), rows].astype(np.int32)


class Raw:
    """``VectorGameEnv.step_into`` into one pinned buffer set (``mode="into"``) or the allocating ``step``."""

    def __init__(self, mode: str, seed: int = 1):
        self.name, self.mode = f"raw {'step_into' if mode == 'into' else 'step'}", mode
        self.env = polyenv.VectorGameEnv(num_envs=N, seed=seed, num_threads=1, keep_terminal_observation=True, **KW)
        self.batch = allocate(self.env.batch_spec())
        self.env.reset_into(self.batch, seed=seed)
        self.buffers, self.rng = self.batch, np.random.default_rng(seed)

    def run(self, steps: int) -> float:
        t = 0.0
        for _ in range(steps):
            _, ids = _pick(self.rng, self.batch["action_id"], self.batch["legal_action_count"])
            t0 = _clock()
            if self.mode == "into":
                self.env.step_into(ids, self.buffers)
            else:
                self.batch = self.env.step(ids)
            t += _clock() - t0
        return t


class Tribes:
    """``TribesVectorEnv.step`` with ``action_mode="rows"``."""

    def __init__(self, copy: bool, seed: int = 1):
        self.name = f"Tribes rows{'' if copy else ' nc'}"
        self.env = TribesVectorEnv(num_envs=N, num_threads=1, action_mode="rows", copy=copy, seed=seed, **KW)
        self.env.reset(seed=seed)
        self.rng = np.random.default_rng(seed)

    def run(self, steps: int) -> float:
        t = 0.0
        for _ in range(steps):
            b = self.env._batch  # the raw batch behind the observation: legal rows and their counts
            rows, _ = _pick(self.rng, b["action_id"], b["legal_action_count"])
            t0 = _clock()
            self.env.step(rows)
            t += _clock() - t0
        return t


def main(argv=None) -> None:
    """Prints env steps/s of each loop and the overheads (``--quick``: a short run for ``polyenv bench``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (as polyenv bench does)")
    parser.add_argument("--seconds", type=float, default=None, help="CPU seconds of timed steps in all (default 10)")
    args = parser.parse_args(argv)
    quick, seconds = budget(10.0)
    quick = quick or args.quick
    total = args.seconds if args.seconds is not None else (max(0.5 * seconds, 0.6) if quick else 10.0)
    loops = [Raw("into"), Raw("step"), Tribes(copy=False), Tribes(copy=True)]
    for loop in loops:
        loop.run(2)  # warm up
    times, steps = {loop.name: 0.0 for loop in loops}, {loop.name: 0 for loop in loops}
    while sum(times.values()) < total:
        for loop in loops:
            times[loop.name] += loop.run(4)
            steps[loop.name] += 4 * N
    for loop in loops:
        loop.env.close()
    rate = {k: steps[k] / times[k] for k in times}
    print(f"TribesVectorEnv vs VectorGameEnv: N={N} games, 11x11, 2 players, random opponent, "
          f"max_actions={KW['max_actions']}, 1 simulation thread, thread CPU time")
    for name, r in rate.items():
        print(f"  {name:<16}{r:>12,.0f} env steps/s {1e6 / r:>8.2f} us/env step")
    nc = 100 * (rate["raw step_into"] / rate["Tribes rows nc"] - 1)
    copy = 100 * (rate["raw step"] / rate["Tribes rows"] - 1)
    print(f"summary: TribesVectorEnv rows overhead {nc:+.1f}% (copy=False) over step_into, {copy:+.1f}% (copy=True) "
          "over the allocating step")


if __name__ == "__main__":
    main()
