"""Expert games for the warm start of AlphaZero training (expert iteration).

The native MCTS bot (``"mcts:<simulations>"``) plays both seats of a game; at every decision
the acting player's own observation is recorded with the bot's root visit distribution as
the policy target, and at the end every position gets the game's outcome as value target.
The network learns the expert's search policy and a first value before self-play improves
on both. Only the observation is recorded, so under fog of war (``full_observability=False``)
the network still learns from what the player sees — the expert itself searches the true
state, a teacher with more information than the student (the student never receives it at
play time).

Games run in worker processes (the bots think natively, so ``workers`` cores are used);
:func:`expert_chunks` yields one :class:`~polyenv.train.replay.Chunk` per finished game.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Iterator

import numpy as np

from .replay import Chunk, ChunkBuilder

__all__ = ["play_expert_game", "expert_chunks"]


def play_expert_game(seed: int, simulations: int, map_size: int = 11, full_observability: bool = True,
                     temperature_moves: int = 0, policy_temperature: float = 1.0) -> Chunk | None:
    """One game of ``mcts:<simulations>`` against itself from ``GameEnv(seed=seed)``; its positions.

    The policy target is the root's visit counts ``N^(1/policy_temperature)``, normalised (below 1
    it sharpens the bot's rather flat visit distribution towards the move it plays). For the
    first ``temperature_moves`` decisions the move is sampled from the visit counts (variety
    between games); afterwards the bot plays its own choice."""
    from .. import _core
    from ..game_env import GameEnv
    game = GameEnv(seed=seed, map_size=map_size, full_observability=full_observability)
    rng = np.random.default_rng(seed)
    builder = ChunkBuilder(1)
    moves = 0
    while not game.game_over:
        obs = game.observe()
        chosen, visits = _core._mcts_root_visits(game.native, simulations)
        n = int(obs["legal_action_count"])
        counts = visits[:n].astype(np.float64)
        target = counts ** (1.0 / policy_temperature)
        builder.add(0, obs["map_tokens"], obs["state"], obs["action_features"][:n], target / max(target.sum(), 1e-12),
                    game.current_player)
        if moves < temperature_moves and n > 1:
            chosen = int(obs["action_id"][rng.choice(n, p=counts / counts.sum())])
        game.step(int(chosen))
        moves += 1
    P = game.num_players
    winner = game.winner
    values = np.zeros(P, np.float32)
    if winner >= 0:
        values[:] = -1.0 / (P - 1)
        values[winner] = 1.0
    return builder.finish(0, values)


def _worker(args) -> Chunk | None:
    return play_expert_game(*args)


def expert_chunks(games: int, simulations: int, seed: int = 0, map_size: int = 11, full_observability: bool = True,
                  workers: int = 2, temperature_moves: int = 8, policy_temperature: float = 1.0) -> Iterator[Chunk]:
    """Plays ``games`` expert games (seeds ``seed``, ``seed + 1``, ...) on ``workers`` processes and
    yields each game's chunk as it finishes (in seed order); arguments as :func:`play_expert_game`."""
    jobs = [(seed + g, simulations, map_size, full_observability, temperature_moves, policy_temperature)
            for g in range(games)]
    if workers <= 1:
        for job in jobs:
            chunk = _worker(job)
            if chunk is not None:
                yield chunk
        return
    with mp.get_context("spawn").Pool(workers) as pool:
        for chunk in pool.imap(_worker, jobs):
            if chunk is not None:
                yield chunk
