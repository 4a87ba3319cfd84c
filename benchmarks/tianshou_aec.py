"""Tianshou's random masked collector on tribes_aec_v0: global ids + dict observation vs rows + flat.

Needs the ``[integrations]`` extra (tianshou). Prints steps/s of both layouts,
measured side by side in this run, and their ratio:

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


def steps_per_second(steps: int, map_size: int, **kw) -> float:
    """Collects ``steps`` transitions (after a warm-up that compiles Tianshou's numba buffers)."""
    make = lambda: PettingZooEnv(tribes_aec_v0.env(players=2, map_size=map_size, **kw))  # noqa: E731
    env = make()
    policy = MultiAgentPolicy({a: MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy(env.action_space)
                               for a in env.agents})
    collector = Collector(policy, DummyVectorEnv([make]), VectorReplayBuffer(steps + 200, 1))
    collector.reset()
    collector.collect(n_step=100)
    start = time.perf_counter()
    collector.collect(n_step=steps)
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--map-size", type=int, default=11)
    parser.add_argument("--max-actions", type=int, default=64)
    args = parser.parse_args()
    before = steps_per_second(args.steps, args.map_size)
    after = steps_per_second(args.steps, args.map_size, action_mode="rows", max_actions=args.max_actions,
                             observation_format="flat")
    print(f"global ids, dict observation : {before:8.0f} steps/s")
    print(f"rows ({args.max_actions}), flat observation: {after:8.0f} steps/s")
    print(f"ratio: {after / before:.1f}x")


if __name__ == "__main__":
    main()
