"""Belief-MCTS self-play under fog of war with SelfPlayPool and tiny PyTorch models on the CPU.

    PYTHONPATH=. python examples/belief_selfplay.py --envs 8 --moves 40 --rounds 8 --particles 2

Every real move of every game follows the self-play pool's lifecycle on the double-buffered ``*_into`` path:
all_player_belief_requests_into -> belief model (K particles per player, hidden rows only)
-> submit_beliefs -> rounds x (select_leaves_into -> policy/value net -> expand_and_backup)
-> root_policy_into -> step_into_checked into the other buffer set.

The belief model guesses the terrain of hidden tiles from the tile's position and the
visible terrain mix, and is trained online on the visible tiles (their terrain is known);
``polyenv.selfplay.beliefs.empty_world_completion`` turns its guesses into complete,
consistent tokens that reproduce the actor's own legal list (the pool adds what that list
proves about hidden rows). Should the pool still reject a hypothesis, the actors' particles
are replaced by the all-water baseline (accepted in every position); the move would be
played unsearched only if that failed too. The policy/value net is untrained: the example
shows the data flow and prints its throughput.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from torch import nn

from polyenv import (ACTION_FEATURE_NAMES, STATE_FEATURE_NAMES, TERRAINS, Bardur, Imperius, SelfPlayPool,
                     game_description)
from polyenv.selfplay.beliefs import empty_world_completion
from polyenv.vector import allocate

# The map-token columns read here, by name (the engine's layout).
_COLUMNS = game_description().map_token_columns
EXPLORED, TERRAIN = _COLUMNS["explored"], _COLUMNS["terrain"]
# The terrains the belief model guesses, as terrain codes.
GUESSED = torch.tensor([TERRAINS.index(t) for t in ("plain", "forest", "mountain", "shallow_water", "deep_water")])


class BeliefNet(nn.Module):
    """Per-tile terrain logits from (x, y) and the observer's visible terrain histogram."""

    def __init__(self, width: int = 32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 + len(TERRAINS), width), nn.Tanh(), nn.Linear(width, len(GUESSED)))

    def forward(self, tokens):                      # tokens: int [N, tiles, 23]
        N, T, _ = tokens.shape
        n = int(round(T ** 0.5))
        visible = tokens[..., EXPLORED] == 1
        xy = torch.stack(torch.meshgrid(torch.arange(n), torch.arange(n), indexing="ij"), -1).reshape(T, 2) / n
        kinds = len(TERRAINS)
        hist = torch.nn.functional.one_hot(tokens[..., TERRAIN].clamp(0, kinds - 1), kinds).float() * visible[..., None]
        hist = hist.sum(1) / visible.sum(1, keepdim=True).clamp(min=1)         # [N, terrains]
        x = torch.cat([xy.expand(N, T, 2), hist[:, None].expand(N, T, kinds)], -1)
        return self.net(x)                                                     # [N, T, guessed terrains]


class PolicyValueNet(nn.Module):
    """Scores each action row against an embedding of the state; the value is a tanh of the same embedding."""

    def __init__(self, players: int, width: int = 32):
        super().__init__()
        self.state = nn.Sequential(nn.Linear(len(STATE_FEATURE_NAMES), width), nn.Tanh())
        self.action = nn.Linear(len(ACTION_FEATURE_NAMES), width)
        self.value = nn.Linear(width, 1 if players == 2 else players)

    def forward(self, state, action_features):
        h = self.state(state)
        logits = (self.action(action_features) * h[:, None]).sum(-1)
        return logits, torch.tanh(self.value(h))


def believe(net, opt, allp, request, particles, pool):
    """K completions per player [B, P, K, tiles, 23]; one online training step on visible tiles."""
    tokens = torch.from_numpy(allp["map_tokens"]).long()
    B, P, T, F = tokens.shape
    flat = tokens.reshape(B * P, T, F)
    logits = net(flat)
    visible = flat[..., EXPLORED] == 1
    label = (flat[..., TERRAIN][..., None] == GUESSED).float().argmax(-1)
    known = visible & (flat[..., TERRAIN][..., None] == GUESSED).any(-1)
    if known.any():
        loss = nn.functional.cross_entropy(logits[known], label[known])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        draws = torch.distributions.Categorical(logits=logits).sample((particles,))  # [K, B*P, T]
    terrain = GUESSED[draws].permute(1, 0, 2).reshape(B, P, particles, T).numpy().astype(np.int32)
    repeated = np.repeat(allp["map_tokens"][:, :, None], particles, axis=2)
    return empty_world_completion(repeated, terrain, request=request, pool=pool)


def evaluate(net, buffers, count, players):
    with torch.no_grad():
        state = torch.from_numpy(buffers["state"][:count]).float() / 10
        feats = torch.from_numpy(buffers["action_features"][:count]).float() / 100
        logits, values = net(state, feats)
    values = values.squeeze(-1) if players == 2 else values
    return np.ascontiguousarray(logits.numpy(), np.float32), np.ascontiguousarray(values.numpy(), np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--moves", type=int, default=40, help="real moves per game")
    parser.add_argument("--rounds", type=int, default=8, help="search rounds per move")
    parser.add_argument("--particles", type=int, default=2)
    parser.add_argument("--max-actions", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--history", type=int, default=64, help="visible_action_history rows per batch row")
    args = parser.parse_args()
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    pool = SelfPlayPool(args.envs, seed=7, map_size=11, players=(Bardur, Imperius), num_threads=args.threads,
                        max_actions=args.max_actions, max_pending_leaves_per_tree=2,
                        visible_action_history=args.history)
    B, P = pool.num_envs, pool.player_count
    belief_net, policy_net = BeliefNet(), PolicyValueNet(P)
    opt = torch.optim.Adam(belief_net.parameters(), lr=1e-2)
    # Two request buffer sets alternate: a step writes into the set the model is not reading.
    requests = [allocate(pool.belief_batch_spec()) for _ in range(2)]
    allp = allocate(pool.all_player_belief_batch_spec())
    leaves = allocate(pool.leaf_batch_spec())
    root = allocate(pool.root_policy_spec())
    pool.reset_into(requests[0], seed=7)
    cur = 0
    stats = dict(moves=0, leaves=0, fallback=0, unsearched=0, finished=0)
    start = time.perf_counter()
    for _ in range(args.moves):
        req = requests[cur]
        pool.all_player_belief_requests_into(allp)
        beliefs = believe(belief_net, opt, allp, req, args.particles, pool)
        try:
            pool.submit_beliefs(req["state_id"], beliefs)
            searched = True
        except ValueError:
            # Replace the actors' particles by the all-water baseline (still validated).
            actors = req["to_play"]
            base = empty_world_completion(np.repeat(allp["map_tokens"][:, :, None], args.particles, axis=2),
                                          request=req, pool=pool)
            beliefs[np.arange(B), actors] = base[np.arange(B), actors]
            stats["fallback"] += 1
            try:
                pool.submit_beliefs(req["state_id"], beliefs)
                searched = True
            except ValueError:
                searched = False
        if searched:
            for _ in range(args.rounds):
                count = pool.select_leaves_into(leaves)
                if count == 0:
                    break
                logits, values = evaluate(policy_net, leaves, count, P)
                pool.expand_and_backup(leaves["leaf_id"][:count], logits, values)
                stats["leaves"] += count
            pool.root_policy_into(root, temperature=1.0)
            policy, mask, ids = root["policy"], root["action_mask"], root["action_id"]
        else:
            stats["unsearched"] += 1
            pool.root_policy_into(root, temperature=1.0)  # unsearched roots: uniform over the live rows
            policy, mask, ids = root["policy"], root["action_mask"], root["action_id"]
        rows = np.array([rng.choice(int(m.sum()), p=p[: int(m.sum())] / p[: int(m.sum())].sum())
                         for p, m in zip(policy, mask)])
        actions = ids[np.arange(B), rows].astype(np.int32)
        nxt = requests[1 - cur]
        pool.step_into_checked(actions, req["state_id"], nxt)
        assert nxt["action_valid"].all()
        stats["finished"] += int(nxt["terminated"].sum())
        stats["moves"] += B
        cur = 1 - cur
    elapsed = time.perf_counter() - start
    pool.close()
    print(f"{stats['moves']} real moves ({B} games x {args.moves}), {stats['leaves']} leaf evaluations, "
          f"{stats['finished']} games finished, in {elapsed:.1f} s ({stats['moves'] / elapsed:.1f} moves/s)")
    print(f"belief submissions: {args.moves - stats['fallback']} accepted as proposed, {stats['fallback']} needed the "
          f"baseline for the actors, {stats['unsearched']} moves played unsearched")


if __name__ == "__main__":
    main()
