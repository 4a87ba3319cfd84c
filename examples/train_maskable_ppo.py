"""Train MaskablePPO against the random bot on 11x11 Tribes, on the native vector env.

    pip install ".[train]"
    python examples/train_maskable_ppo.py                 # default budget (see --timesteps)
    python examples/train_maskable_ppo.py --timesteps 50000 --eval-games 200
    python examples/train_maskable_ppo.py --opponent greedy   # train against the greedy bot instead

What it does:

1. builds ``gym.make_vec("polyenv/Tribes-v0", vectorization_mode="vector_entry_point", ...)``
   — N games on the native VectorGameEnv, learner in seat 0 against the native
   random bot, ``action_mode="rows"`` — and wraps it for SB3 with
   ``polyenv.vector.to_sb3`` (no DummyVecEnv);
2. evaluates the untrained policy: win rate over ``--eval-games`` games against
   the random bot and against the greedy bot (half in each seat);
3. trains sb3-contrib's ``MaskablePPO`` with ``polyenv.train.TribesPointerPolicy``
   (one logit per legal-action row) for ``--timesteps`` environment steps, with a
   progress bar; the reward is ``reward="score_delta"``: the game's +1 / -1 plus
   the change of the learner's score margin (its Tribes score minus the
   opponent's, / 1000) over each step, computed natively (``--reward terminal``
   for the result alone). Capitals games that reach the turn limit are won on
   score, so the dense signal is aligned with winning;
4. evaluates again (and the checkpoint saved at the best training win rate,
   ``best_model.zip``), prints the before/after table, steps and wall time, saves
   the model and a PNG of the learning curve (win rate of the training games).

Runs on the CPU (torch 2.x); ``--threads`` sets torch's threads.
"""

from __future__ import annotations

import argparse
import os
import time

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecMonitor
from tqdm import tqdm

import polyenv  # noqa: F401  (registers polyenv/Tribes-v0)
from polyenv.vector import to_sb3
from polyenv.train import TribesPointerPolicy
from polyenv.evaluation import evaluate, sb3_policy


class Progress(BaseCallback):
    """A tqdm progress bar, the (timestep, win) of every finished training game, and a checkpoint.

    With ``best_path``, the model is saved there whenever the win rate of the last
    ``window`` training games (once there are that many) reaches a new high.
    """

    def __init__(self, total: int, best_path: str | None = None, window: int = 200):
        super().__init__()
        self.total, self.bar, self.games = total, None, []
        self.best_path, self.window, self.best = best_path, window, -1.0
        self.best_step = 0

    def _on_training_start(self) -> None:
        self.bar = tqdm(total=self.total, unit="step", smoothing=0.05, mininterval=2.0)

    def _on_step(self) -> bool:
        self.bar.update(self.training_env.num_envs)
        for info in self.locals["infos"]:
            if "is_success" in info:  # a finished game: did the learner win?
                self.games.append((self.num_timesteps, bool(info["is_success"])))
        if self.games:
            rate = float(np.mean([won for _, won in self.games[-self.window:]]))
            self.bar.set_postfix(games=len(self.games), win_rate=f"{rate:.2f}", refresh=False)
            if self.best_path and len(self.games) >= self.window and rate > self.best:
                self.best, self.best_step = rate, self.num_timesteps
                self.model.save(self.best_path)
        return True

    def _on_training_end(self) -> None:
        self.bar.close()


def plot_curve(games, path: str, window: int = 200, title: str = "MaskablePPO", opponent: str = "random") -> None:
    """Saves the rolling win rate of the training games against timesteps as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([s for s, _ in games])
    wins = np.cumsum([won for _, won in games], dtype=float)
    first = np.maximum(np.arange(len(wins)) - window, -1)           # the window of game i: (first, i]
    rolling = (wins - np.where(first >= 0, wins[np.maximum(first, 0)], 0)) / (np.arange(len(wins)) - first)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps, rolling)
    ax.set_xlabel("environment steps")
    ax.set_ylabel(f"win rate vs {opponent} (last {window} training games)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.set_title(f"{title} on polyenv/Tribes-v0 (11x11, {opponent} opponent)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def add_common_arguments(parser: argparse.ArgumentParser, default_out: str) -> None:
    """The options shared by the training examples."""
    parser.add_argument("--timesteps", type=int, default=120_000, help="environment steps to train (120000)")
    parser.add_argument("--num-envs", type=int, default=32, help="games played at once (32)")
    parser.add_argument("--eval-games", type=int, default=200, help="games per evaluation and opponent (200)")
    parser.add_argument("--max-actions", type=int, default=128, help="legal-action rows per observation (128)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=min(4, os.cpu_count() or 1),
                        help="torch threads (the CPU count, at most 4)")
    parser.add_argument("--opponent", choices=("random", "greedy"), default="random",
                        help="the bot trained against (random)")
    parser.add_argument("--reward", choices=("score_delta", "terminal"), default="score_delta",
                        help="training reward: result + score-margin change (default) or the result alone")
    parser.add_argument("--deterministic", action="store_true",
                        help="evaluate the policy's most likely action (default: sample from the policy)")
    parser.add_argument("--out", default=default_out, help="directory for the model and the plot")


def make_training_env(args, env_kwargs: dict):
    """The native vector env against ``args.opponent`` as an SB3 VecEnv (monitored), with ``args.reward``."""
    envs = gym.make_vec("polyenv/Tribes-v0", num_envs=args.num_envs, vectorization_mode="vector_entry_point",
                        opponent=args.opponent, num_threads=1, seed=args.seed, copy=False, reward=args.reward, **env_kwargs)
    venv = VecMonitor(to_sb3(envs))
    venv.seed(args.seed)
    return venv


def measure(model, args, env_kwargs: dict, label: str) -> dict:
    """Win rates of the model against the random and greedy bots over ``args.eval_games`` games each."""
    t = time.time()
    policy = sb3_policy(model, deterministic=args.deterministic)
    out = {opp: evaluate(policy, opp, games=args.eval_games, seed=10_000 + args.seed, **env_kwargs)
           for opp in ("random", "greedy")}
    for opp, r in out.items():
        print(f"  {label:<8} vs {opp:<6}: win rate {r['win_rate']:.3f} ({r['wins']}/{r['games']}; "
              f"seat 0 {r['per_seat'][0][0]}/{r['per_seat'][0][1]}, seat 1 {r['per_seat'][1][0]}/"
              f"{r['per_seat'][1][1]}; {r['mean_length']:.0f} decisions per game)")
    print(f"  ({time.time() - t:.0f} s)")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser, "runs/maskable_ppo")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)
    env_kwargs = dict(map_size=11, action_mode="rows", max_actions=args.max_actions)
    # Undiscounted: a game is a finite number of decisions, and discounting per decision
    # would reward ending turns early (the next turn's gains arrive in fewer decisions).
    gamma = 1.0

    venv = make_training_env(args, env_kwargs)
    model = MaskablePPO(TribesPointerPolicy, venv, n_steps=128, batch_size=1024, n_epochs=4, learning_rate=3e-4,
                        gamma=gamma, gae_lambda=0.95, ent_coef=0.01, clip_range=0.2, target_kl=0.03,
                        seed=args.seed, verbose=0)

    print(f"evaluating the untrained policy over {args.eval_games} games per opponent ...")
    before = measure(model, args, env_kwargs, "before")
    rollout = 128 * args.num_envs
    best_path = os.path.join(args.out, "best_model")
    progress = Progress(-(-args.timesteps // rollout) * rollout, best_path)  # PPO collects whole rollouts
    start = time.time()
    model.learn(args.timesteps, callback=progress)
    train_seconds = time.time() - start
    print(f"trained {model.num_timesteps} environment steps ({len(progress.games)} games) in {train_seconds:.0f} s "
          f"({model.num_timesteps / train_seconds:.0f} steps/s)")
    print(f"evaluating the trained policy over {args.eval_games} games per opponent ...")
    after = measure(model, args, env_kwargs, "after")
    best = None
    if progress.best >= 0:
        print(f"evaluating the checkpoint with the best training win rate ({progress.best:.2f} over the last "
              f"{progress.window} games, at step {progress.best_step}) ...")
        final = model
        model = MaskablePPO.load(best_path, env=venv)
        best = measure(model, args, env_kwargs, "best")
        model = final

    model.save(os.path.join(args.out, "model"))
    if progress.games:
        plot_curve(progress.games, os.path.join(args.out, "learning_curve.png"), opponent=args.opponent)
    print("\nwin rate      before   after" + ("    best checkpoint" if best is not None else ""))
    for opp in ("random", "greedy"):
        extra = f"   {best[opp]['win_rate']:6.3f}" if best is not None else ""
        print(f"vs {opp:<9}  {before[opp]['win_rate']:6.3f}  {after[opp]['win_rate']:6.3f}{extra}")
    print(f"steps {model.num_timesteps}, training wall time {train_seconds:.0f} s; "
          f"model and learning_curve.png in {args.out}/")
    venv.close()


if __name__ == "__main__":
    main()
