"""Self-play PPO with RLlib on a local Ray cluster: one shared masked policy plays every seat of Tribes.

    pip install torch==2.13.0 ".[ray]"
    python examples/rllib_selfplay.py --iterations 5                  # local Ray cluster (2 CPUs by default)
    python examples/rllib_selfplay.py --address auto --env-runners 8  # an existing cluster: only the address changes

Every seat maps to the module "shared" (TribesMaskedRLModule: illegal actions are
masked out of the logits). After training, the module plays greedy in one seat
(rotating) against uniformly random legal play, and the win rate is printed
next to the untrained module's on the same games.
"""
from __future__ import annotations

import argparse
import time

import ray
import torch

from polyenv.distributed import ppo_config, win_rate_vs_random
from polyenv.distributed.training import SHARED_POLICY


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--iterations", type=int, default=5)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--map-size", type=int, default=8)
    p.add_argument("--max-turns", type=int, default=10, help="rounds per game (then decided by score)")
    p.add_argument("--env-runners", type=int, default=1)
    p.add_argument("--batch", type=int, default=1000, help="train_batch_size_per_learner (agent steps)")
    p.add_argument("--games", type=int, default=20, help="evaluation games against random play")
    p.add_argument("--address", default=None, help="Ray cluster address (None: start a local cluster)")
    p.add_argument("--num-cpus", type=int, default=2, help="CPUs of the local cluster")
    p.add_argument("--torch-threads", type=int, default=1,
                   help="torch threads of this process (the learner); remote env runners use 1 (Ray's default)")
    args = p.parse_args()
    torch.set_num_threads(args.torch_threads)  # small networks: extra threads mostly wait on a busy machine

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False)
    env_config = {"players": args.players, "map_size": args.map_size, "max_turns": args.max_turns}
    config = (ppo_config(env_config)
              .env_runners(num_env_runners=args.env_runners, rollout_fragment_length="auto")
              .training(train_batch_size_per_learner=args.batch, minibatch_size=min(250, args.batch), num_epochs=4,
                        lr=3e-4, entropy_coeff=0.01))
    algo = config.build_algo()
    before = win_rate_vs_random(algo.get_module(SHARED_POLICY), env_config, games=args.games, seed=10_000)
    print(f"untrained module: win rate vs random {before['win_rate']:.2f}", flush=True)
    start = time.perf_counter()
    for i in range(args.iterations):
        result = algo.train()
        runners = result["env_runners"]
        learner = result["learners"][SHARED_POLICY]
        print(f"iter {i + 1}: env steps {runners['num_env_steps_sampled_lifetime']:>7}  "
              f"episodes {runners.get('num_episodes_lifetime', 0):>4}  "
              f"episode length {runners.get('episode_len_mean', float('nan')):6.1f}  "
              f"policy loss {learner['policy_loss']:+.4f}  entropy {learner['entropy']:.3f}  "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    module = algo.get_module(SHARED_POLICY)
    result = win_rate_vs_random(module, env_config, games=args.games, seed=10_000)
    print(f"win rate vs random: {result['win_rate']:.2f} ({result['wins']} wins, {result['draws']} draws, "
          f"{result['games']} games, greedy policy in a rotating seat)")
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
