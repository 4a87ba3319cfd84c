"""VectorGameEnv throughput, the quick form: env-steps/s of ``step_into`` on 1 and 2 threads and of
the allocating ``step``, printed with their ratios from one run.

64 games, 11x11, 2 players, ``max_actions=256``, no event history; every variant plays uniformly
random legal rows chosen in NumPy from the previous batch (the choice is not timed). The variants run
interleaved in short rounds (background load hits them alike) and each keeps its best round.
``benchmarks/vector.py`` (source tree) is the long form: 256 games, a Python-loop baseline, bytes
written per step and the encoding share.

Usage: ``python -m polyenv._bench.vector [--quick] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from polyenv import Bardur, Imperius, VectorGameEnv
from polyenv._bench import budget
from polyenv.vector import allocate

ENVS, MAP_SIZE, MAX_ACTIONS = 64, 11, 256
VARIANTS = (("step_into", 1), ("step_into", 2), ("step", 2))


def choose(batch: dict, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action id per game of a batch (int32 [B])."""
    counts = batch["legal_action_count"]
    rows = np.minimum((rng.random(len(counts)) * counts).astype(np.int64), counts - 1)
    return batch["action_id"][np.arange(len(counts)), rows].astype(np.int32, copy=False)


class Loop:
    """One variant: its env, its buffers and its random stream; ``run`` times ``steps`` steps."""

    def __init__(self, mode: str, threads: int, seed: int = 1234):
        self.mode = mode
        self.env = VectorGameEnv(ENVS, seed=seed, map_size=MAP_SIZE, players=(Bardur, Imperius), num_threads=threads,
                                 max_actions=MAX_ACTIONS, visible_event_history=0)
        self.buffers = allocate(self.env.batch_spec())
        self.env.reset_into(self.buffers, seed=seed)
        self.batch, self.rng = self.buffers, np.random.default_rng(seed)

    def run(self, steps: int) -> float:
        """Wall seconds spent inside the env calls for ``steps`` steps of every game."""
        spent = 0.0
        for _ in range(steps):
            actions = choose(self.batch, self.rng)
            t0 = time.perf_counter()
            if self.mode == "step_into":
                self.env.step_into(actions, self.buffers)
            else:
                self.batch = self.env.step(actions)
            spent += time.perf_counter() - t0
        return spent


def main(argv=None) -> None:
    """Prints env-steps/s of each variant and the ratios (``--quick``: a short run for ``polyenv bench``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (as polyenv bench does)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds of timed steps in all (default 10)")
    args = parser.parse_args(argv)
    quick, seconds = budget(10.0)
    quick = quick or args.quick
    total = args.seconds if args.seconds is not None else (max(0.5 * seconds, 0.6) if quick else 10.0)
    loops = {variant: Loop(*variant) for variant in VARIANTS}
    for loop in loops.values():
        loop.run(2)  # warm up
    best = dict.fromkeys(loops, 0.0)
    spent, steps = 0.0, 5
    while spent < total:
        for variant, loop in loops.items():
            t = loop.run(steps)
            spent += t
            best[variant] = max(best[variant], ENVS * steps / t)
    for loop in loops.values():
        loop.env.close()
    one, two, alloc = best[("step_into", 1)], best[("step_into", 2)], best[("step", 2)]
    print(f"VectorGameEnv: {ENVS} games, {MAP_SIZE}x{MAP_SIZE}, 2 players, max_actions={MAX_ACTIONS}, uniform random "
          f"legal actions, {total:.1f} s of timed steps (best round of each)")
    print(f"  step_into, 1 thread     : {one:12,.0f} env-steps/s")
    print(f"  step_into, 2 threads    : {two:12,.0f} env-steps/s")
    print(f"  step (allocating), 2 thr: {alloc:12,.0f} env-steps/s")
    print(f"summary: step_into {two:,.0f} env-steps/s on 2 threads ({two / one:.2f}x 1 thread, "
          f"{two / alloc:.2f}x the allocating step)")


if __name__ == "__main__":
    main()
