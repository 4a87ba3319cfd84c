"""Train MaskablePPO against the random bot on 11x11 Tribes, on the native vector env.

    pip install ".[train]"
    python examples/train_maskable_ppo.py                 # default budget (see --timesteps)
    python examples/train_maskable_ppo.py --timesteps 50000 --eval-games 200

What it does:

1. builds ``gym.make_vec("polyenv/Tribes-v0", vectorization_mode="vector_entry_point", ...)``
   — N games on the native VectorGameEnv, learner in seat 0 against the native
   random bot, ``action_mode="rows"`` — and wraps it for SB3 with
   ``polyenv.vector.to_sb3`` (no DummyVecEnv);
2. evaluates the untrained policy: win rate over ``--eval-games`` games against
   the random bot and against the greedy bot (half in each seat);
3. trains sb3-contrib's ``MaskablePPO`` with ``polyenv.vector.TribesPointerPolicy``
   (one logit per legal-action row) for ``--timesteps`` environment steps, with a
   progress bar; the reward is the game's (+1 win / -1 loss) plus, unless
   ``--no-shaping``, a potential-based shaping term from the observation
   (cities, explored tiles and income; it cannot change which policy is optimal);
4. evaluates again, prints the before/after table, steps and wall time, saves the
   model and a PNG of the learning curve (win rate of the training games).

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
from stable_baselines3.common.vec_env import VecEnvWrapper, VecMonitor
from tqdm import tqdm

import polyenv  # noqa: F401  (registers polyenv/Tribes-v0)
from polyenv.vector import TribesPointerPolicy, evaluate, sb3_policy, to_sb3


class ShapedReward(VecEnvWrapper):
    """Adds ``gamma * phi(s') - phi(s)`` to the reward (potential-based shaping, Ng et al. 1999).

    ``phi`` = ``weight`` * (own cities + explored tiles / 20 + next-turn income / 5),
    read from the observation's ``state`` and ``map_tokens``; a terminal state
    has potential 0, and the next game's potential starts from its first observation.
    """

    def __init__(self, venv, gamma: float, weight: float = 0.05):
        super().__init__(venv)
        self.gamma, self.weight = gamma, weight
        self._phi = None

    def _potential(self, map_tokens: np.ndarray, state: np.ndarray) -> np.ndarray:
        explored = map_tokens[..., 0].sum(-1)
        return self.weight * (state[..., 6] + explored / 20 + state[..., 7] / 5)

    def reset(self):
        obs = self.venv.reset()
        self._phi = self._potential(obs["map_tokens"], obs["state"])
        return obs

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        phi_next = self._potential(obs["map_tokens"], obs["state"])
        target = np.where(dones, 0.0, phi_next)  # a terminal state has potential 0
        rewards = rewards + (self.gamma * target - self._phi).astype(np.float32)
        self._phi = phi_next
        return obs, rewards, dones, infos


class Progress(BaseCallback):
    """A tqdm progress bar, and the (timestep, win) of every finished training game."""

    def __init__(self, total: int):
        super().__init__()
        self.total, self.bar, self.games = total, None, []

    def _on_training_start(self) -> None:
        self.bar = tqdm(total=self.total, unit="step", smoothing=0.05)

    def _on_step(self) -> bool:
        self.bar.update(self.training_env.num_envs)
        for info in self.locals["infos"]:
            if "episode" in info:
                self.games.append((self.num_timesteps, info["episode"]["r"]))
        if self.games:
            recent = self.games[-200:]
            self.bar.set_postfix(games=len(self.games), win_rate=f"{np.mean([r > 0 for _, r in recent]):.2f}")
        return True

    def _on_training_end(self) -> None:
        self.bar.close()


def plot_curve(games, path: str, window: int = 200) -> None:
    """Saves the rolling win rate of the training games against timesteps as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([s for s, _ in games])
    wins = np.array([r > 0 for _, r in games], dtype=float)
    kernel = np.ones(min(window, len(wins))) / min(window, len(wins))
    rolling = np.convolve(wins, kernel, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps[len(steps) - len(rolling):], rolling)
    ax.set_xlabel("environment steps")
    ax.set_ylabel(f"win rate vs random (last {len(kernel)} training games)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.set_title("MaskablePPO on polyenv/Tribes-v0 (11x11, random opponent)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timesteps", type=int, default=300_000, help="environment steps to train (300000)")
    parser.add_argument("--num-envs", type=int, default=32, help="games played at once (32)")
    parser.add_argument("--eval-games", type=int, default=200, help="games per evaluation and opponent (200)")
    parser.add_argument("--max-actions", type=int, default=128, help="legal-action rows per observation (128)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1)")
    parser.add_argument("--no-shaping", action="store_true", help="train on the win/loss reward alone")
    parser.add_argument("--out", default="runs/maskable_ppo", help="directory for the model and the plot")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)
    env_kwargs = dict(map_size=11, action_mode="rows", max_actions=args.max_actions)
    gamma = 0.999

    envs = gym.make_vec("polyenv/Tribes-v0", num_envs=args.num_envs, vectorization_mode="vector_entry_point",
                        opponent="random", num_threads=1, seed=args.seed, **env_kwargs)
    venv = VecMonitor(to_sb3(envs))
    if not args.no_shaping:
        venv = ShapedReward(venv, gamma)
    venv.seed(args.seed)
    model = MaskablePPO(TribesPointerPolicy, venv, n_steps=128, batch_size=1024, n_epochs=4, learning_rate=3e-4,
                        gamma=gamma, gae_lambda=0.95, ent_coef=0.01, clip_range=0.2, seed=args.seed, verbose=0)

    def measure(label: str) -> dict:
        t = time.time()
        out = {opp: evaluate(sb3_policy(model), opp, games=args.eval_games, seed=10_000 + args.seed, **env_kwargs)
               for opp in ("random", "greedy")}
        for opp, r in out.items():
            print(f"  {label:<8} vs {opp:<6}: win rate {r['win_rate']:.3f} ({r['wins']}/{r['games']}; "
                  f"seat 0 {r['per_seat'][0][0]}/{r['per_seat'][0][1]}, seat 1 {r['per_seat'][1][0]}/"
                  f"{r['per_seat'][1][1]}; {r['mean_length']:.0f} decisions per game)")
        print(f"  ({time.time() - t:.0f} s)")
        return out

    print(f"evaluating the untrained policy over {args.eval_games} games per opponent ...")
    before = measure("before")
    progress = Progress(args.timesteps)
    start = time.time()
    model.learn(args.timesteps, callback=progress)
    train_seconds = time.time() - start
    print(f"trained {model.num_timesteps} environment steps ({len(progress.games)} games) in {train_seconds:.0f} s "
          f"({model.num_timesteps / train_seconds:.0f} steps/s)")
    print(f"evaluating the trained policy over {args.eval_games} games per opponent ...")
    after = measure("after")

    model.save(os.path.join(args.out, "model"))
    if progress.games:
        plot_curve(progress.games, os.path.join(args.out, "learning_curve.png"))
    print("\nwin rate      before   after")
    for opp in ("random", "greedy"):
        print(f"vs {opp:<9}  {before[opp]['win_rate']:6.3f}  {after[opp]['win_rate']:6.3f}")
    print(f"steps {model.num_timesteps}, training wall time {train_seconds:.0f} s; "
          f"model and learning_curve.png in {args.out}/")
    venv.close()


if __name__ == "__main__":
    main()
