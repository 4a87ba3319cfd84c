"""RolloutBuffer returns / GAE vs stable-baselines3, on the same [T, B] data in one run.

    PYTHONPATH=. python benchmarks/rollout.py            # T=128, B=64

Both sides get identical rewards, values and done flags (SB3's
``episode_starts[t]`` is our ``done[t-1]``; its ``dones`` argument our last
step's done). Timed: ``RolloutBuffer.compute_gae`` and ``compute_returns`` vs
SB3's ``RolloutBuffer.compute_returns_and_advantage`` (best of ``--repeats``,
interleaved). The results are checked equal before anything is printed.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.buffers import RolloutBuffer as SB3RolloutBuffer

from polyenv import RolloutBuffer


def best(fn, repeats: int, inner: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t0) / inner)
    return min(times)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=128, help="T")
    p.add_argument("--envs", type=int, default=64, help="B")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--inner", type=int, default=20)
    args = p.parse_args()
    T, B = args.steps, args.envs
    rng = np.random.default_rng(0)
    rewards = rng.normal(size=(T, B)).astype(np.float32)
    values = rng.normal(size=(T, B)).astype(np.float32)
    dones = (rng.random((T, B)) < 0.02).astype(np.uint8)
    last_values = rng.normal(size=B).astype(np.float32)
    gamma, lam = 0.99, 0.95

    ours = RolloutBuffer(T, B, {}, value=True)
    zeros = np.zeros(B, np.int64), np.zeros(B, np.float32)
    for t in range(T):
        ours.add({}, zeros[0], rewards[t], zeros[1], dones[t], values[t])
    sb3 = SB3RolloutBuffer(T, spaces.Box(-1, 1, (1,)), spaces.Discrete(2), device="cpu", gae_lambda=lam,
                           gamma=gamma, n_envs=B)
    sb3.rewards[:], sb3.values[:] = rewards, values
    sb3.episode_starts[1:] = dones[:-1]
    last_t = torch.from_numpy(last_values)

    adv, ret = ours.compute_gae(last_values, dones[-1], gamma, lam)
    sb3.compute_returns_and_advantage(last_t, dones[-1])
    np.testing.assert_allclose(adv, sb3.advantages, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(ret, sb3.returns, rtol=1e-4, atol=1e-4)

    t_ours = t_sb3 = t_ret = float("inf")
    for _ in range(args.repeats):   # interleaved, so background load hits both alike
        t_ours = min(t_ours, best(lambda: ours.compute_gae(last_values, dones[-1], gamma, lam), 1, args.inner))
        t_sb3 = min(t_sb3, best(lambda: sb3.compute_returns_and_advantage(last_t, dones[-1]), 1, args.inner))
        t_ret = min(t_ret, best(lambda: ours.compute_returns(gamma), 1, args.inner))
    print(f"RolloutBuffer benchmark: T={T}, B={B}, gamma={gamma}, lambda={lam} (best of {args.repeats}; "
          f"results checked equal to SB3)")
    print(f"  polyenv compute_gae                  : {t_ours * 1e3:8.3f} ms")
    print(f"  SB3 compute_returns_and_advantage    : {t_sb3 * 1e3:8.3f} ms")
    print(f"  polyenv compute_returns (no values)  : {t_ret * 1e3:8.3f} ms")
    print(f"  ratio SB3 / polyenv compute_gae      : {t_sb3 / t_ours:6.2f}x")


if __name__ == "__main__":
    main()
