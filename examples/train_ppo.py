"""Train plain PPO (no action masking) against the random bot on 11x11 Tribes.

    pip install ".[train]"
    python examples/train_ppo.py --timesteps 120000

The same pipeline as ``train_maskable_ppo.py`` (native vector env through
``polyenv.vector.to_sb3``, the score-estimate reward, evaluation over
``--eval-games`` games against the random and the greedy bot before and after
training, a learning-curve PNG), with SB3's ``PPO``:

* the environment uses ``invalid_action="end_turn"``: choosing a padding row
  (an action that is not legal) plays End Turn instead;
* the policy is ``TribesPointerPPOPolicy`` with ``mask_logits=False`` by
  default, so nothing masks the illegal rows: PPO has to learn to avoid them
  (``--mask-logits`` lets the policy read the mask from the observation).
"""

from __future__ import annotations

import argparse
import os
import time

import gymnasium as gym
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.vec_env import VecMonitor

import polyenv  # noqa: F401  (registers polyenv/Tribes-v0)
from polyenv.vector import TribesPointerPPOPolicy, evaluate, sb3_policy, to_sb3
from train_maskable_ppo import Progress, ScoreShaping, plot_curve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timesteps", type=int, default=120_000, help="environment steps to train (120000)")
    parser.add_argument("--num-envs", type=int, default=32, help="games played at once (32)")
    parser.add_argument("--eval-games", type=int, default=200, help="games per evaluation and opponent (200)")
    parser.add_argument("--max-actions", type=int, default=128, help="legal-action rows per observation (128)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1)")
    parser.add_argument("--no-shaping", action="store_true", help="train on the win/loss reward alone")
    parser.add_argument("--mask-logits", action="store_true", help="let the policy mask padding rows itself")
    parser.add_argument("--deterministic", action="store_true",
                        help="evaluate the policy's most likely action (default: sample from the policy)")
    parser.add_argument("--out", default="runs/ppo", help="directory for the model and the plot")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)
    env_kwargs = dict(map_size=11, action_mode="rows", max_actions=args.max_actions, invalid_action="end_turn")

    envs = gym.make_vec("polyenv/Tribes-v0", num_envs=args.num_envs, vectorization_mode="vector_entry_point",
                        opponent="random", num_threads=1, seed=args.seed, copy=False, **env_kwargs)
    venv = VecMonitor(to_sb3(envs))
    if not args.no_shaping:
        venv = ScoreShaping(venv)
    venv.seed(args.seed)
    model = PPO(TribesPointerPPOPolicy, venv, n_steps=128, batch_size=1024, n_epochs=4, learning_rate=3e-4,
                gamma=1.0, gae_lambda=0.95, ent_coef=0.01, clip_range=0.2, target_kl=0.03, seed=args.seed, verbose=0,
                policy_kwargs=dict(mask_logits=args.mask_logits))

    def measure(label: str) -> dict:
        t = time.time()
        policy = sb3_policy(model, deterministic=args.deterministic)
        out = {opp: evaluate(policy, opp, games=args.eval_games, seed=10_000 + args.seed, **env_kwargs)
               for opp in ("random", "greedy")}
        for opp, r in out.items():
            print(f"  {label:<8} vs {opp:<6}: win rate {r['win_rate']:.3f} ({r['wins']}/{r['games']}; "
                  f"{r['mean_length']:.0f} decisions per game)")
        print(f"  ({time.time() - t:.0f} s)")
        return out

    print(f"evaluating the untrained policy over {args.eval_games} games per opponent ...")
    before = measure("before")
    rollout = 128 * args.num_envs
    progress = Progress(-(-args.timesteps // rollout) * rollout)
    start = time.time()
    model.learn(args.timesteps, callback=progress)
    train_seconds = time.time() - start
    print(f"trained {model.num_timesteps} environment steps ({len(progress.games)} games) in {train_seconds:.0f} s")
    print(f"evaluating the trained policy over {args.eval_games} games per opponent ...")
    after = measure("after")

    model.save(os.path.join(args.out, "model"))
    if progress.games:
        plot_curve(progress.games, os.path.join(args.out, "learning_curve.png"), title="PPO")
    print("\nwin rate      before   after")
    for opp in ("random", "greedy"):
        print(f"vs {opp:<9}  {before[opp]['win_rate']:6.3f}  {after[opp]['win_rate']:6.3f}")
    print(f"steps {model.num_timesteps}, training wall time {train_seconds:.0f} s; "
          f"model and learning_curve.png in {args.out}/")
    venv.close()


if __name__ == "__main__":
    main()
