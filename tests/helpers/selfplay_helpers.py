"""Test helpers for SelfPlayPool: mirrored ground-truth games, truth completions and a
deterministic stand-in model (a function of the leaf packet only)."""

from __future__ import annotations

import numpy as np

from polyenv import Bardur, GameEnv, Imperius, Oumaji, SelfPlayPool, XinXi

TWO = (Bardur, Imperius)
FOUR = (Bardur, Imperius, Oumaji, XinXi)

# Columns holding an owner relative to the observer, and per-owner private columns.
_REL_COLS = (6, 8, 13)
_PRIVATE_COLS = (10, 12, 19, 22)


END_TURN = 0  # End Turn's action id (the first id block)

def mirror(seed: int, num_envs: int, **game) -> list[GameEnv]:
    """The pool's games after ``reset(seed=seed)``: game i is GameEnv(seed=seed + i)."""
    return [GameEnv(seed=seed + i, **game) for i in range(num_envs)]


def complete(obs: np.ndarray, full: np.ndarray, viewer: int, observer: int, players: int) -> np.ndarray:
    """``obs`` ([tiles, 23], ``observer``'s view) with hidden rows taken from the ground truth
    ``full`` (``viewer``'s unfogged view), owners re-expressed relative to ``observer``."""
    out = obs.copy()
    hidden = obs[:, 0] == 0
    rows = full[hidden].copy()
    for c in _REL_COLS:
        rel = rows[:, c]
        absolute = (viewer + rel - 1) % players
        rows[:, c] = np.where(rel == 0, 0, 1 + (absolute - observer) % players)
    for c in _PRIVATE_COLS:
        rows[:, c] = -1
    rows[:, 0] = 0
    out[hidden] = rows
    return out


def truth_beliefs(envs: list[GameEnv], all_req: dict, particles: int | None = None) -> np.ndarray:
    """Per-player truth completions [B, P, tiles, 23] (or [B, P, K, tiles, 23] with K copies)."""
    tokens = all_req["map_tokens"]
    B, P = tokens.shape[:2]
    out = np.empty_like(tokens)
    for i, env in enumerate(envs):
        full = env.full_map_numpy()
        for p in range(P):
            out[i, p] = complete(tokens[i, p], full, env.current_player, p, P)
    if particles is not None:
        out = np.ascontiguousarray(np.repeat(out[:, :, None], particles, axis=2))
    return out


def root_truth(envs: list[GameEnv], req: dict) -> np.ndarray:
    """Legacy [B, tiles, 23]: each actor's view completed with the truth."""
    out = np.empty_like(req["map_tokens"])
    for i, env in enumerate(envs):
        p = env.current_player
        out[i] = complete(req["map_tokens"][i], env.full_map_numpy(), p, p, len(env.scores()))
    return out


def model(leaves: dict, players: int, max_actions: int):
    """Deterministic logits and values computed from the leaf packet alone."""
    L = len(leaves["leaf_id"])
    h = leaves["map_tokens"].reshape(L, -1).astype(np.int64).sum(axis=1) + leaves["state"].astype(np.int64).sum(axis=1)
    ids = leaves["action_id"].astype(np.int64)
    logits = (((ids * 2654435761 + h[:, None]) % 1009) / 1009.0 * 4 - 2).astype(np.float32)
    assert logits.shape == (L, max_actions)
    if players == 2:
        values = np.tanh((h % 97 - 48) / 48.0).astype(np.float32)
    else:
        values = np.tanh((h[:, None] * (np.arange(players) + 1) % 97 - 48) / 48.0).astype(np.float32)
    return logits, values


def search(pool, rounds: int, end_turn_bonus: float = 0.0, paths: bool = False) -> list[dict]:
    """``rounds`` select / expand_and_backup rounds with the stand-in model; returns the leaf batches.

    ``end_turn_bonus`` is added to End Turn's logit (so paths cross to other actors); with ``paths`` each
    batch also has "paths": every leaf's action ids from the root."""
    batches = []
    for _ in range(rounds):
        leaves = pool.select_leaves()
        if len(leaves["leaf_id"]) == 0:
            break
        batches.append({k: v.copy() for k, v in leaves.items()})
        if paths:
            batches[-1]["paths"] = [[int(a) for a in pool._native._leaf_actions(int(leaf))]
                                    for leaf in leaves["leaf_id"]]
        logits, values = model(leaves, pool.player_count, pool.max_actions)
        logits[leaves["action_id"] == END_TURN] += end_turn_bonus
        pool.expand_and_backup(leaves["leaf_id"], logits, values)
    return batches


def hidden_from_everyone(env: GameEnv, players: int) -> list[int]:
    seen = np.zeros(env.map_size ** 2, bool)
    for p in range(players):
        seen |= env.observe(player=p)["map_tokens"][:, 0] != 0
    return [int(t) for t in np.flatnonzero(~seen)]


def twin_pools(players, moves, seed, **pool_kw):
    """Two pools whose game 0 differs only in content hidden from every player (terrain and
    resource of unexplored tiles) and in the authoritative random stream."""
    P = len(players)
    env = GameEnv(seed=seed, map_size=11, players=players)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        legal = env.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
    twin = GameEnv.from_bytes(env.to_bytes())
    hidden = hidden_from_everyone(env, P)
    assert hidden, "the test needs a tile nobody has seen"
    for t in hidden:
        if twin.unit_at(t) is None and twin.city_at(t) is None and env.full_map_numpy()[t, 1] in (0, 6):
            twin.set_terrain(t, 3 if env.full_map_numpy()[t, 1] == 0 else 0)
    pools = []
    for game, rng_seed in ((env, None), (twin, 987654321)):
        pool = SelfPlayPool(1, seed=seed, map_size=11, players=players, num_threads=1, max_actions=512,
                            max_pending_leaves_per_tree=3, **pool_kw)
        pool.reset(seed=seed)
        pool._native._load_state(0, game.to_bytes(), rng_seed)
        pools.append(pool)
    return env, twin, pools
