"""Cost of observation_format="flat" on TribesVectorEnv: env-steps/s with "dict" vs "flat", side by side.

    python benchmarks/flat_observation.py --envs 64 --seconds 3

Both run the same games (same seed, random legal rows, copy=False, one native
thread) alternately in short rounds, so load changes hit both; prints steps/s
and the ratio flat / dict.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from polyenv.vector import TribesVectorEnv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--map-size", type=int, default=11)
    parser.add_argument("--max-actions", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    envs, rngs, elapsed, steps, counts = {}, {}, {}, {}, {}
    for fmt in ("dict", "flat"):
        envs[fmt] = TribesVectorEnv(num_envs=args.envs, map_size=args.map_size, action_mode="rows",
                                    max_actions=args.max_actions, observation_format=fmt, copy=False,
                                    num_threads=1, seed=0)
        counts[fmt] = envs[fmt].reset(seed=0)[1]["legal_action_count"]
        rngs[fmt], elapsed[fmt], steps[fmt] = np.random.default_rng(0), 0.0, 0
    deadline = time.perf_counter() + args.seconds
    while time.perf_counter() < deadline:
        for fmt, env in envs.items():
            start = time.perf_counter()
            for _ in range(10):
                rows = (rngs[fmt].random(args.envs) * counts[fmt]).astype(np.int64)
                counts[fmt] = env.step(rows)[4]["legal_action_count"]
            elapsed[fmt] += time.perf_counter() - start
            steps[fmt] += 10 * args.envs
    rate = {fmt: steps[fmt] / elapsed[fmt] for fmt in envs}
    for fmt in envs:
        print(f"{fmt:5s}: {rate[fmt]:9.0f} env-steps/s")
    print(f"ratio flat / dict: {rate['flat'] / rate['dict']:.2f}")


if __name__ == "__main__":
    main()
