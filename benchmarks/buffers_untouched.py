"""The gain of ``buffers_untouched=True`` over exact ``*_into`` calls, side by side in one process.

    PYTHONPATH=. python benchmarks/buffers_untouched.py [--rounds 7] [--steps 60] [--threads 1]

By default every ``VectorGameEnv.*_into`` call writes its whole batch, whatever
the caller's arrays hold. ``buffers_untouched=True`` is the caller's promise that
nothing wrote into them since the environment's previous call: the zeros still in
place (padding action rows, unexplored tiles) are then not written again. Each
round times ``benchmarks/vector.py``'s ``step_into`` loop (256 envs, 11x11 2
players, max_actions 256, K 0, uniform random legal actions; same seeds, so the
same games) once exact and once with the promise, in alternating order, so
background load hits both alike. Printed: env-steps/s (wall) and env-steps per
CPU-second of each (median over rounds, min..max), and the per-round ratio
promise / exact (median, min..max). CPU time is the calling thread's with one
thread (the env's only thread), the process's otherwise.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vector  # noqa: E402  (benchmarks/vector.py: the timed loop)


def summary(values) -> str:
    return f"{statistics.median(values):12,.0f} ({min(values):,.0f}..{max(values):,.0f})"


def ratio(values) -> str:
    return f"{statistics.median(values):.2f}x ({min(values):.2f}..{max(values):.2f})"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--map-size", type=int, default=11)
    p.add_argument("--max-actions", type=int, default=256)
    p.add_argument("--steps", type=int, default=60, help="steps of every environment per timed run")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=1234)
    args = p.parse_args()

    modes = ("step_into", "step_into_untouched")
    wall = {m: [] for m in modes}
    cpu = {m: [] for m in modes}
    for r in range(args.rounds):
        for mode in modes if r % 2 == 0 else modes[::-1]:
            spent, process_cpu, caller_cpu = vector.time_native(args, args.threads, mode)
            steps = args.envs * args.steps
            wall[mode].append(steps / spent)
            cpu[mode].append(steps / (caller_cpu if args.threads == 1 else process_cpu))
    exact, fast = modes
    print(f"VectorGameEnv.step_into: {args.envs} envs, {args.map_size}x{args.map_size}, 2 players, "
          f"max_actions={args.max_actions}, K=0, {args.threads} thread(s), {args.steps} steps x {args.rounds} "
          f"rounds (load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} logical CPUs)")
    print(f"  exact (default)          : {summary(wall[exact])} env-steps/s, "
          f"{summary(cpu[exact])} per CPU-second")
    print(f"  buffers_untouched=True   : {summary(wall[fast])} env-steps/s, "
          f"{summary(cpu[fast])} per CPU-second")
    print(f"  gain of the promise      : wall {ratio([f / e for f, e in zip(wall[fast], wall[exact])])}, "
          f"per CPU-second {ratio([f / e for f, e in zip(cpu[fast], cpu[exact])])}")
    print(f"  bytes written per env-step with the promise: {vector.bytes_per_env_step(args):,.0f} of a "
          f"{vector.row_bytes(vector.make_spec(args)):,}-byte row (exact: the whole row)")


if __name__ == "__main__":
    main()
