"""Tianshou's random masked collector on tribes_aec_v0: global ids + dict observation vs rows + flat.

Needs the ``[integrations]`` extra (tianshou). Prints steps/s of both layouts,
measured in alternating chunks of 100 steps in this run, and their ratio:

    python benchmarks/tianshou_aec.py --steps 2000 --map-size 11
"""

from __future__ import annotations

import argparse
import time

from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

from polyenv.envs import tribes_aec_v0


def collector(steps: int, map_size: int, **kw) -> Collector:
    """A warmed-up collector (Tianshou compiles its numba buffer code on the first collect)."""
    make = lambda: PettingZooEnv(tribes_aec_v0.env(players=2, map_size=map_size, **kw))  # noqa: E731
    env = make()
    policy = MultiAgentPolicy({a: MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy(env.action_space)
                               for a in env.agents})
    c = Collector(policy, DummyVectorEnv([make]), VectorReplayBuffer(steps + 200, 1))
    c.reset()
    c.collect(n_step=100)
    return c


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--map-size", type=int, default=11)
    parser.add_argument("--max-actions", type=int, default=64)
    args = parser.parse_args()
    collectors = {"before": collector(args.steps, args.map_size),
                  "after": collector(args.steps, args.map_size, action_mode="rows", max_actions=args.max_actions,
                                     observation_format="flat")}
    elapsed = dict.fromkeys(collectors, 0.0)
    for _ in range(args.steps // 100):  # alternate chunks of 100 steps, so load changes hit both
        for name, c in collectors.items():
            start = time.perf_counter()
            c.collect(n_step=100)
            elapsed[name] += time.perf_counter() - start
    before, after = (100 * (args.steps // 100) / elapsed[name] for name in ("before", "after"))
    print(f"global ids, dict observation : {before:8.0f} steps/s")
    print(f"rows ({args.max_actions}), flat observation: {after:8.0f} steps/s")
    print(f"ratio: {after / before:.1f}x")


if __name__ == "__main__":
    main()
