"""Ray throughput, printed as ratios measured in one run.

    pip install torch==2.13.0 ".[ray]"
    python benchmarks/ray.py                    # 64 games per actor, 11x11, 2 players, Amax 64, T = 32

Rollouts (uniformly random legal actions chosen inside the rollout loop, the
same loop everywhere: polyenv.distributed.RolloutWorker):

* ``local``: one VectorGameEnv of B games (1 thread) in this process, no Ray;
* ``fleet x1`` / ``fleet x2``: a RolloutFleet of 1 / 2 actors of B games each
  (1 thread each); the learner only receives the batches (``ray.get`` of the
  dense arrays from the object store).

Figures are env-steps/s, best of ``--repeats`` interleaved runs after a warm-up
batch. fleet x1 / local is the cost of going through Ray; fleet x2 / fleet x1
is bounded by the cores the machine really has free.

RLlib: env-steps/s of a local ``MultiAgentEnvRunner.sample`` (the masked
module choosing every action with one torch thread, episodes recorded) on TribesMultiAgentEnv with 1
and 8 envs per runner (batched inference), next to a plain Python loop stepping the same env with
random legal actions.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

# This script is named ray.py: keep its own folder off sys.path so that `import ray` finds Ray.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

import numpy as np  # noqa: E402
import ray  # noqa: E402
import torch  # noqa: E402

from polyenv.distributed import RolloutFleet, RolloutWorker, TribesMultiAgentEnv, ppo_config  # noqa: E402


def local_rate(args, env_kwargs) -> float:
    worker = RolloutWorker(0, args.envs, env_kwargs, None, seed=1)
    worker.rollout(args.steps, 0)
    start = time.perf_counter()
    for k in range(args.batches):
        worker.rollout(args.steps, k + 1)
    elapsed = time.perf_counter() - start
    worker.close()
    return args.batches * args.steps * args.envs / elapsed


def fleet_rate(args, env_kwargs, actors: int) -> float:
    with RolloutFleet(actors, args.envs, env_kwargs, seed=1) as fleet:
        list(fleet.sample(steps=args.steps, num_batches=actors))  # actors up, first batch done
        start = time.perf_counter()
        n = sum(b.steps * b.num_envs for b in fleet.sample(steps=args.steps, num_batches=args.batches * actors))
        return n / (time.perf_counter() - start)


def rllib_rates(args) -> tuple[float, dict]:
    env_config = {"players": 2, "map_size": args.map_size, "max_actions": args.max_actions}
    env, rng = TribesMultiAgentEnv(env_config), np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(args.rllib_steps):
        (agent, o), = obs.items()
        obs, _, terminateds, _, _ = env.step({agent: int(rng.choice(np.flatnonzero(o["action_mask"])))})
        if terminateds["__all__"]:
            obs, _ = env.reset()
    raw = args.rllib_steps / (time.perf_counter() - start)
    torch.set_num_threads(1)  # small-batch inference, as in Ray's env-runner workers (OMP_NUM_THREADS=1)
    sampled = {}
    for envs in (1, 8):
        algo = ppo_config(env_config).env_runners(num_env_runners=0, num_envs_per_env_runner=envs).build_algo()
        runner = algo.env_runner
        runner.sample(num_timesteps=200)
        start = time.perf_counter()
        runner.sample(num_timesteps=args.rllib_steps)
        sampled[envs] = args.rllib_steps / (time.perf_counter() - start)
        algo.stop()
    return raw, sampled


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--envs", type=int, default=64, help="games per actor (and of the local env)")
    p.add_argument("--steps", type=int, default=32, help="T, steps per batch")
    p.add_argument("--batches", type=int, default=16, help="timed batches per actor and run")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--map-size", type=int, default=11)
    p.add_argument("--max-actions", type=int, default=64)
    p.add_argument("--rllib-steps", type=int, default=2000)
    args = p.parse_args()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    env_kwargs = dict(map_size=args.map_size, max_actions=args.max_actions)
    best = {"local": 0.0, "fleet x1": 0.0, "fleet x2": 0.0}
    for _ in range(args.repeats):
        best["local"] = max(best["local"], local_rate(args, env_kwargs))
        best["fleet x1"] = max(best["fleet x1"], fleet_rate(args, env_kwargs, 1))
        best["fleet x2"] = max(best["fleet x2"], fleet_rate(args, env_kwargs, 2))
    print(f"rollouts: {args.envs} games per actor, {args.map_size}x{args.map_size}, 2 players, Amax "
          f"{args.max_actions}, T={args.steps}, best of {args.repeats}")
    for name, rate in best.items():
        print(f"  {name:<9} {rate:>10,.0f} env-steps/s")
    print(f"  fleet x1 / local    = {best['fleet x1'] / best['local']:.2f}")
    print(f"  fleet x2 / fleet x1 = {best['fleet x2'] / best['fleet x1']:.2f}")
    raw, sampled = rllib_rates(args)
    print(f"RLlib, TribesMultiAgentEnv (rows, Amax {args.max_actions}), {args.rllib_steps} env steps:")
    print(f"  env.step loop, random legal actions  {raw:>8,.0f} env-steps/s")
    for envs, rate in sampled.items():
        print(f"  MultiAgentEnvRunner.sample, {envs} env{'s' if envs > 1 else ' '} {rate:>8,.0f} env-steps/s"
              f"  (runner / raw env = {rate / raw:.3f})")
    ray.shutdown()


if __name__ == "__main__":
    main()
