"""Self-play with MctsPool and a tiny PyTorch policy-value net on the CPU.

    PYTHONPATH=. python examples/mcts_selfplay.py --envs 32 --moves 10 --rounds 16

Each move of every game: ``rounds`` search rounds (select_leaves -> the net
-> expand_and_backup), then the root policy (visit counts^(1/T)), one
sampled action per game and a checked step. The net is untrained: the example
shows the data flow and prints its throughput, not a learning curve.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from torch import nn

from polyenv import Bardur, Imperius, MctsPool


class PolicyValueNet(nn.Module):
    """Scores each action row against an embedding of the state; the value is a tanh of the same embedding."""

    def __init__(self, state_features: int, action_features: int, width: int = 32):
        super().__init__()
        self.state = nn.Sequential(nn.Linear(state_features, width), nn.Tanh())
        self.action = nn.Linear(action_features, width)
        self.value = nn.Linear(width, 1)

    def forward(self, state, action_features, action_mask):
        h = self.state(state)                                   # [L, W]
        logits = (self.action(action_features) * h[:, None]).sum(-1)  # [L, A]
        logits = logits.masked_fill(~action_mask, float("-inf"))  # padding rows are never read by the pool
        return logits, torch.tanh(self.value(h)).squeeze(-1)


def evaluate(net, leaves):
    """float32 NumPy logits [L, A] and values [L] for a leaf batch (values from each leaf's to_play)."""
    with torch.no_grad():
        state = torch.from_numpy(leaves["state"]).float() / 10.0
        features = torch.from_numpy(leaves["action_features"]).float() / 10.0
        mask = torch.from_numpy(leaves["action_mask"]).bool()
        logits, values = net(state, features, mask)
    return logits.numpy(), values.numpy()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--envs", type=int, default=32)
    p.add_argument("--moves", type=int, default=10, help="moves per game (total moves = envs * moves)")
    p.add_argument("--rounds", type=int, default=16, help="search rounds per move")
    p.add_argument("--pending", type=int, default=4, help="max_pending_leaves_per_tree")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--temperature", type=float, default=1.0)
    args = p.parse_args()

    torch.manual_seed(0)
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    pool = MctsPool(args.envs, seed=1, map_size=11, players=(Bardur, Imperius), num_threads=args.threads,
                    max_actions=256, require_all_actions=False, max_pending_leaves_per_tree=args.pending,
                    dirichlet_alpha=0.3)
    net = PolicyValueNet(state_features=pool.batch_spec()["state"]["shape"][1],
                         action_features=pool.batch_spec()["action_features"]["shape"][2])
    pool.reset()
    leaf_rows = finished = 0
    model_seconds = 0.0
    start = time.perf_counter()
    for _ in range(args.moves):
        for _ in range(args.rounds):
            leaves = pool.select_leaves()
            if len(leaves["leaf_id"]) == 0:
                break
            t0 = time.perf_counter()
            logits, values = evaluate(net, leaves)
            model_seconds += time.perf_counter() - t0
            pool.expand_and_backup(leaves["leaf_id"], logits, values)
            leaf_rows += len(leaves["leaf_id"])
        root = pool.root_policy(args.temperature)
        # One sampled row per game from the root policy (zero on padding rows).
        cumulative = root["policy"].cumsum(1)
        draws = rng.random((args.envs, 1)) * cumulative[:, -1:]
        rows = np.minimum((cumulative < draws).sum(1), root["action_mask"].sum(1, dtype=np.int64) - 1)
        actions = root["action_id"][np.arange(args.envs), rows]
        live = pool.step_checked(actions, root["state_id"])
        assert live["action_valid"].all()
        finished += int(live["terminated"].sum())
    elapsed = time.perf_counter() - start
    moves = args.envs * args.moves
    print(f"{moves} moves in {elapsed:.2f} s: {moves / elapsed:,.0f} moves/s, {leaf_rows / elapsed:,.0f} leaf rows/s "
          f"({leaf_rows / moves:.1f} per move; the net took {100 * model_seconds / elapsed:.0f}% of the time), "
          f"{finished} games finished")
    pool.close()


if __name__ == "__main__":
    main()
