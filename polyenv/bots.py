"""Built-in bots, implemented natively (the GIL is released while they think).

* ``"random"`` — uniform over the legal actions.
* ``"greedy"`` — a one-ply search in the spirit of Tribes' SimpleAgent: every
  legal action is tried on a copy of the game and the resulting position is
  scored from the acting player's view (captures and kills first, then damage
  dealt against damage taken, city growth, research and cheap growth, moving
  towards villages and enemy cities); End Turn is played when nothing helps.
* ``"mcts"`` / ``"mcts:<simulations>"`` — a native Monte Carlo tree search
  (PUCT over the mover's own turn; a prior from the greedy one-ply gains at every
  node, inherited from the parent node where it can be; the greedy evaluation as
  leaf value relative to the position searched; its chance events use its own
  stream, so it never sees the game's future draws). Each decision is one action; ``"mcts"`` runs
  ``DEFAULT_MCTS_SIMULATIONS`` simulations.
* ``"az"`` / ``"az:<simulations>"`` — the trained AlphaZero-style player the package
  ships: a small policy/value network (``polyenv/models/az.paz``, run natively, no
  torch needed) that reads only the acting player's own observation. ``"az:1"`` plays
  the policy's best row; ``"az:N"`` searches its own turn with N network evaluations
  (Gumbel root, priors and leaf values from the network). Under fog of war the tree is
  rooted in the player's baseline-belief world, built from its own observation and
  legal actions only (never the hidden state); where that world does not reproduce its
  legal actions, the policy plays alone. ``"az"`` is ``"az:DEFAULT_AZ_SIMULATIONS"``. ``"az[:N]@<weights.paz>"`` plays
  another weight file (written by ``polyenv train az``) the same way.

Every function takes a :class:`polyenv.GameEnv`. ``seed`` makes a bot's
choices reproducible; with ``seed=None`` the bot's random stream is derived
from the position itself, so the same position always gives the same choice.
Actions applied by a bot are recorded in the game's event journal like
``GameEnv.step``.
"""

from __future__ import annotations

import numpy as np

from . import _core
from ._botspec import BOT_NAMES as BOTS, DEFAULT_AZ_SIMULATIONS, DEFAULT_MCTS_SIMULATIONS, BotSpec, parse_bot
from .game_env import GameEnv

__all__ = ["BOTS", "DEFAULT_MCTS_SIMULATIONS", "DEFAULT_AZ_SIMULATIONS", "BotSpec", "parse_bot", "choose", "play",
           "play_turn"]


def _native(game: GameEnv):
    if not isinstance(game, GameEnv):
        raise ValueError(f"expected a polyenv.GameEnv, got {type(game).__name__}")
    return game.native


def _seed(seed) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be None or an integer in [0, 2**64), got {seed!r}")
    return int(seed)


def choose(game: GameEnv, bot: str = "greedy", seed: int | None = None) -> int:
    """The action id ``bot`` would play now for the current player; nothing is applied.

    Args:
        game: the game (a :class:`polyenv.GameEnv`).
        bot: ``"random"``, ``"greedy"``, ``"mcts"``, ``"mcts:<simulations>"``, ``"az"``, ``"az:<simulations>"``
            or ``"az[:<simulations>]@<weights.paz>"``.
        seed: the bot's random stream; None derives it from the position.

    Raises ValueError for an unknown bot or a finished game.
    """
    b = parse_bot(bot)
    return _core.bot_choose(_native(game), b.code, _seed(seed), b.simulations, b.model)


def play(game: GameEnv, bot: str = "greedy", seed: int | None = None) -> int:
    """Chooses one action with ``bot`` (a name as for :func:`choose`, ``seed`` likewise), applies it to
    ``game`` and returns its id."""
    b = parse_bot(bot)
    return _core.bot_play(_native(game), b.code, _seed(seed), b.simulations, b.model)


def play_turn(game: GameEnv, bot: str = "greedy", seed: int | None = None) -> int:
    """Plays the current player's whole turn with ``bot`` (until another player
    is to act or the game ends; ``bot`` and ``seed`` as for :func:`choose`) and
    returns the number of actions applied."""
    b = parse_bot(bot)
    return _core.bot_play_turn(_native(game), b.code, _seed(seed), b.simulations, b.model)
