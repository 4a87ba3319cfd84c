"""Teacher games for AlphaZero training: the searches whose choices the network learns.

A teacher — the native MCTS bot (``"mcts:<simulations>"``, the warm start of expert
iteration) or the az player itself (``"az:<simulations>@<weights.paz>"``, the self-play
of the AlphaZero loop) — plays both seats of a game. At every decision the acting player's
own observation is recorded (action rows with the combat preview, which the network reads)
with the teacher's search result as the policy target, and at the end every position gets
the game's outcome as value target:

* ``mcts``: the root visit counts ``N^(1/policy_temperature)``, normalised (below 1 this
  sharpens the bot's rather flat visit distribution towards the move it plays);
* ``az``: the Gumbel improved policy of its root (Danihelka et al. 2022), the search run
  with root Gumbel noise of scale ``gumbel_scale``, playing the sequential-halving winner
  (the noise explores; no temperature is needed).

Only the observation is recorded, so under fog of war (``full_observability=False``) the
network learns from what the player sees. The MCTS teacher searches the true state (a
teacher with more information than the student; the student never receives it at play
time); the az teacher searches its own belief world, as it plays.

Games run in worker processes (the searches are native, so ``workers`` cores are used);
:func:`expert_chunks` yields one :class:`~polyenv.train.replay.Chunk` per finished game.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Iterator

import numpy as np

from .replay import Chunk, ChunkBuilder

__all__ = ["play_expert_game", "expert_chunks", "teacher_kind", "is_fog_game"]


def teacher_kind(teacher: str) -> tuple[str, int, str | None]:
    """``(kind, simulations, weights)`` of a teacher name: ``"mcts:<n>"`` or ``"az:<n>@<weights.paz>"``
    (ValueError otherwise)."""
    head, at, weights = str(teacher).partition("@")
    name, _, budget = head.partition(":")
    if name in ("mcts", "az") and budget.isdigit() and int(budget) >= 1 and (name == "az") == bool(at and weights):
        return name, int(budget), weights or None
    raise ValueError(f"teacher must be 'mcts:<simulations>' or 'az:<simulations>@<weights.paz>', got {teacher!r}")


def play_expert_game(seed: int, teacher: str = "mcts:800", map_size: int = 11, full_observability: bool = True,
                     temperature_moves: int = 0, policy_temperature: float = 1.0,
                     gumbel_scale: float = 1.0) -> Chunk | None:
    """One game of ``teacher`` against itself from ``GameEnv(seed=seed)``; its positions (module docstring).

    For the first ``temperature_moves`` decisions the move is sampled from the policy target
    (variety between games); afterwards the teacher plays its own choice."""
    from .. import _core, az_network
    from ..game_env import GameEnv
    kind, simulations, weights = teacher_kind(teacher)
    model = az_network.load(weights) if kind == "az" else -1
    game = GameEnv(seed=seed, map_size=map_size, full_observability=full_observability)
    rng = np.random.default_rng(seed)
    builder = ChunkBuilder(1)
    moves = 0
    while not game.game_over:
        obs = game.observe(include_combat_preview=True)
        n = int(obs["legal_action_count"])
        if kind == "mcts":
            chosen, visits = _core._mcts_root_visits(game.native, simulations)
            target = visits[:n].astype(np.float64) ** (1.0 / policy_temperature)
        else:
            chosen, policy = _core._az_root_policy(game.native, model, simulations, gumbel_scale,
                                                   int(rng.integers(2**63)))
            target = policy[:n].astype(np.float64)
        target /= max(target.sum(), 1e-12)
        builder.add(0, obs["map_tokens"], obs["state"], obs["action_features"][:n], target, game.current_player)
        if moves < temperature_moves and n > 1:
            chosen = int(obs["action_id"][rng.choice(n, p=target)])
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


def is_fog_game(index: int, fog: float) -> bool:
    """Whether game ``index`` of a run plays under fog when a fraction ``fog`` of its games do
    (evenly spread: game g is fogged when floor((g + 1) * fog) > floor(g * fog))."""
    return int((index + 1) * fog) > int(index * fog)


def expert_chunks(games: int, teacher: str, seed: int = 0, map_size: int = 11, fog: float = 0.0, workers: int = 2,
                  temperature_moves: int = 8, policy_temperature: float = 1.0, gumbel_scale: float = 1.0,
                  first_index: int = 0) -> Iterator[Chunk]:
    """Plays ``games`` teacher games (seeds ``seed``, ``seed + 1``, ...) on ``workers`` processes and
    yields each game's chunk as it finishes (in seed order). A fraction ``fog`` of them (game
    ``first_index + g``, see :func:`is_fog_game`) play under fog of war; the other arguments are
    :func:`play_expert_game`'s."""
    teacher_kind(teacher)
    if not 0.0 <= fog <= 1.0:
        raise ValueError(f"fog must be a fraction in [0, 1], got {fog!r}")
    jobs = [(seed + g, teacher, map_size, not is_fog_game(first_index + g, fog), temperature_moves,
             policy_temperature, gumbel_scale) for g in range(games)]
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
