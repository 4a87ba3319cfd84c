"""VectorGameEnv.step_into of this build next to another build (e.g. the previous commit), in one run.

Each round runs, for every build in turn, ``benchmarks/vector.py``'s timed ``step_into`` loop with
``buffers_untouched=True`` (the default of builds that predate that keyword)
(256 envs, 11x11 2p, max_actions 256, uniform random legal actions) with 1 and 2 threads in a child
process that imports polyenv from that build; rounds alternate so background load hits both builds
alike. Printed per build: env-steps/s (wall) and env-steps per CPU-second (median and min..max over
rounds), the per-round ratio this build / other build, the bytes one env-step writes, and
the share of a 1-thread step spent encoding the observation (``observe_slots_into`` timed alone).
CPU time is the calling thread's with 1 thread (the env's only thread: process CPU time would also
bill unrelated threads of the process, and did show more CPU than wall time) and the process's
with 2 threads.

Usage::

    python benchmarks/vector_vs_build.py --other /path/to/previous/build [--rounds 5] [--steps 60]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import json, sys, argparse
sys.path.insert(0, sys.argv[1])
import vector
args = argparse.Namespace(envs=int(sys.argv[2]), map_size=11, max_actions=int(sys.argv[3]), steps=int(sys.argv[4]),
                          seed=1234)
result = {}
for threads in (1, 2):
    # the fast path (buffers_untouched=True; an older build took it by default): like for like
    wall, cpu, caller = vector.time_native(args, threads, "step_into_untouched")
    result[f"wall{threads}"] = args.envs * args.steps / wall
    # 1 thread: the calling thread's CPU time (the only thread of the env); 2 threads: the process's
    result[f"cpu{threads}"] = args.envs * args.steps / (caller if threads == 1 else cpu)
    result[f"foreign{threads}"] = (cpu - caller) / wall if threads == 1 else 0.0
wall, cpu, caller = vector.time_native(args, 1, "observe_into")
result["encode_cpu"] = args.envs * args.steps / caller
result["bytes"] = vector.bytes_per_env_step(args)
print(json.dumps(result))
"""


def measure(path: str, args) -> dict:
    # One BLAS thread: NumPy's OpenBLAS helper threads are no part of the env (they can spin
    # after a BLAS call, e.g. at import, and compete with the env's threads for the cores).
    env = dict(os.environ, PYTHONPATH=path, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CHILD, str(HERE), str(args.envs), str(args.max_actions),
                          str(args.steps)],
                         env=env, cwd=path,  # `-c` puts the working directory first on sys.path
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def spread(values, digits=0):
    return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f}..{max(values):,.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, help="PYTHONPATH of the build to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=60, help="steps of every environment per timed run")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--max-actions", type=int, default=256)
    args = parser.parse_args()
    builds = {"this build": str(HERE.parent), "other build": args.other}
    runs: dict = {name: [] for name in builds}
    load0 = os.getloadavg()[0]
    for _ in range(args.rounds):
        for name, path in builds.items():
            runs[name].append(measure(path, args))
    print(f"step_into: {args.envs} envs, 11x11 2p, max_actions={args.max_actions}, {args.steps} steps per run, "
          f"{args.rounds} interleaved rounds; load {load0:.1f} -> {os.getloadavg()[0]:.1f}")
    for name, rs in runs.items():
        foreign = max(r.get("foreign1", 0.0) for r in rs)
        if foreign > 0.02:
            print(f"  note: {name}: other threads of the process used up to {100 * foreign:.0f}% of a core "
                  "during the 1-thread calls (not counted in its per CPU-s figure)")
        share = [r["cpu1"] / r["encode_cpu"] for r in rs]
        print(f"  {name:<11}: 1 thread {spread([r['wall1'] for r in rs])} env-steps/s "
              f"[{spread([r['cpu1'] for r in rs])} per CPU-s]; 2 threads {spread([r['wall2'] for r in rs])} "
              f"[{spread([r['cpu2'] for r in rs])} per CPU-s]; encode share {spread([100 * s for s in share])}%; "
              f"{rs[0]['bytes']:,.0f} bytes written per env-step")
    new, old = runs["this build"], runs["other build"]
    for key, label in (("wall1", "1 thread, wall"), ("cpu1", "1 thread, per CPU-s"), ("wall2", "2 threads, wall"),
                       ("cpu2", "2 threads, per CPU-s")):
        print(f"  ratio this / other, {label:<20}: {spread([a[key] / b[key] for a, b in zip(new, old)], 2)}")


if __name__ == "__main__":
    main()
