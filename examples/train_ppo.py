"""Train plain PPO (no action masking) against the random bot on 11x11 Tribes.

    pip install ".[train]"
    python examples/train_ppo.py --timesteps 120000

The same pipeline as ``train_maskable_ppo.py`` (native vector env through
``polyenv.vector.to_sb3``, the native ``reward="score_delta"``, evaluation over
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

import torch
from stable_baselines3 import PPO

from polyenv.train import TribesPointerPPOPolicy
from train_maskable_ppo import Progress, add_common_arguments, make_training_env, measure, plot_curve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser, "runs/ppo")
    parser.add_argument("--mask-logits", action="store_true", help="let the policy mask padding rows itself")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)
    env_kwargs = dict(map_size=11, action_mode="rows", max_actions=args.max_actions, invalid_action="end_turn")

    venv = make_training_env(args, env_kwargs)
    model = PPO(TribesPointerPPOPolicy, venv, n_steps=128, batch_size=1024, n_epochs=4, learning_rate=3e-4,
                gamma=1.0, gae_lambda=0.95, ent_coef=0.01, clip_range=0.2, target_kl=0.03, seed=args.seed, verbose=0,
                policy_kwargs=dict(mask_logits=args.mask_logits))

    print(f"evaluating the untrained policy over {args.eval_games} games per opponent ...")
    before = measure(model, args, env_kwargs, "before")
    rollout = 128 * args.num_envs
    progress = Progress(-(-args.timesteps // rollout) * rollout)
    start = time.time()
    model.learn(args.timesteps, callback=progress)
    train_seconds = time.time() - start
    print(f"trained {model.num_timesteps} environment steps ({len(progress.games)} games) in {train_seconds:.0f} s")
    print(f"evaluating the trained policy over {args.eval_games} games per opponent ...")
    after = measure(model, args, env_kwargs, "after")

    model.save(os.path.join(args.out, "model"))
    if progress.games:
        plot_curve(progress.games, os.path.join(args.out, "learning_curve.png"), title="PPO", opponent=args.opponent)
    print("\nwin rate      before   after")
    for opp in ("random", "greedy"):
        print(f"vs {opp:<9}  {before[opp]['win_rate']:6.3f}  {after[opp]['win_rate']:6.3f}")
    print(f"steps {model.num_timesteps}, training wall time {train_seconds:.0f} s; "
          f"model and learning_curve.png in {args.out}/")
    venv.close()


if __name__ == "__main__":
    main()
