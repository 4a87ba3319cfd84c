"""N Ray actors, each owning a VectorGameEnv, feed one learner; prints env-steps/s.

    pip install torch==2.13.0 ".[ray]"
    python examples/ray_rollouts.py --actors 2 --envs 64 --steps 32 --iterations 20
    python examples/ray_rollouts.py --address auto --actors 32     # a cluster: only the address changes

The policy is deliberately tiny so that the figures show the rollout machinery:
a linear score of each legal action row's 17 features (squashed), softmax over
the legal rows, run in NumPy inside the actors. The learner does one
policy-gradient step per batch on the immediate reward (``reward="score_delta"``
against the built-in random bot: the change of the score margin, plus +-1 at
the end) and broadcasts the new weights with ``fleet.set_weights``.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import ray

from polyenv.distributed import RolloutFleet


def _features(batch_features: np.ndarray) -> np.ndarray:
    x = batch_features.astype(np.float32)
    return np.sign(x) * np.log1p(np.abs(x))


def _probabilities(w: np.ndarray, features: np.ndarray, mask: np.ndarray) -> np.ndarray:
    logits = np.where(mask.astype(bool), _features(features) @ w, -np.inf)
    logits -= logits.max(axis=-1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=-1, keepdims=True)


def linear_policy(weights, obs, rng) -> np.ndarray:
    """Samples one legal row per environment from softmax(features @ w); returns the global ids."""
    p = _probabilities(weights, obs["action_features"], obs["action_mask"])
    rows = (p.cumsum(axis=1) < rng.random((p.shape[0], 1))).sum(axis=1)
    rows = np.minimum(rows, obs["legal_action_count"] - 1)
    return obs["action_id"][np.arange(p.shape[0]), rows]


def policy_gradient_step(w: np.ndarray, data: dict, lr: float) -> tuple[np.ndarray, float]:
    """One REINFORCE step with the immediate reward (baseline: the batch mean); returns (w, mean reward)."""
    T = data["action"].shape[0]
    features, mask, ids = data["action_features"][:T], data["action_mask"][:T], data["action_id"][:T]
    reward = data["reward"][1:].astype(np.float32)                       # reward of the action at step t
    rows = (ids == data["action"][..., None]).argmax(axis=-1)            # the row each action was taken from
    p = _probabilities(w, features, mask)                                  # [T, B, A]
    x = _features(features)                                                # [T, B, A, F]
    chosen = np.take_along_axis(x, rows[..., None, None], axis=2)[:, :, 0]  # [T, B, F]
    grad_logp = chosen - (p[..., None] * x).sum(axis=2)                    # d log p(a) / d w
    advantage = reward - reward.mean()
    return w + lr * (advantage[..., None] * grad_logp).mean(axis=(0, 1)), float(reward.mean())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--actors", type=int, default=2)
    p.add_argument("--envs", type=int, default=64, help="games per actor")
    p.add_argument("--threads", type=int, default=1, help="VectorGameEnv threads (and CPUs) per actor")
    p.add_argument("--steps", type=int, default=32, help="steps per batch")
    p.add_argument("--iterations", type=int, default=20, help="batches the learner consumes")
    p.add_argument("--map-size", type=int, default=11)
    p.add_argument("--max-actions", type=int, default=64)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--address", default=None, help="Ray cluster address (None: start a local cluster)")
    p.add_argument("--num-cpus", type=int, default=2, help="CPUs of the local cluster")
    args = p.parse_args()

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False)
    env_kwargs = dict(map_size=args.map_size, max_actions=args.max_actions, opponent="random", reward="score_delta")
    w = np.zeros(17, np.float32)
    with RolloutFleet(args.actors, args.envs, env_kwargs, policy_fn=linear_policy, weights=w,
                      num_threads_per_actor=args.threads) as fleet:
        list(fleet.sample(steps=1, num_batches=args.actors))  # warm-up: every actor up and its first batch done
        start, steps = time.perf_counter(), 0
        for i, batch in enumerate(fleet.sample(steps=args.steps, num_batches=args.iterations)):
            w, mean_reward = policy_gradient_step(w, batch.data, args.lr)
            fleet.set_weights(w)
            steps += batch.steps * batch.num_envs
            if (i + 1) % max(1, args.iterations // 5) == 0:
                print(f"batch {i + 1:>4} from actor {batch.actor} (seq {batch.seq}, weights v{batch.weights_version})"
                      f": mean step reward {mean_reward:+.4f}", flush=True)
        elapsed = time.perf_counter() - start
    print(f"{args.actors} actors x {args.envs} games: {steps} env-steps in {elapsed:.2f} s = "
          f"{steps / elapsed:,.0f} env-steps/s into the learner (restarts: {fleet.restarts})")
    ray.shutdown()


if __name__ == "__main__":
    main()
