"""The keyword arguments the Gymnasium, PettingZoo and RLlib environments share: their values and
validation (ValueError), the games they describe (:func:`describe_games`), and the one invalid-action
policy (:func:`apply_invalid_action`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._botspec import is_bot
from .._levels import LevelPool, level_pool
from .._names import resolve_tribes
from ..description import GameDescription, game_description
from ..vector_env import REWARDS

__all__ = ["ACTION_MODES", "INVALID_ACTIONS", "INFO_MODES", "LEVEL_SELECTIONS", "OBSERVATION_FORMATS", "choice",
           "check_tile_px", "check_common_kwargs", "describe_games", "apply_invalid_action", "END_TURN_ROW",
           "NOT_PLAYED"]

#: ``action_mode`` values: stable global ids, or rows of the legal actions.
ACTION_MODES = ("global", "rows")
#: ``invalid_action`` values: what an action outside the represented legal ones does.
INVALID_ACTIONS = ("raise", "end_turn", "penalty")
#: The row of End Turn: the canonical legal order starts with it (id 0) whenever it is legal.
END_TURN_ROW = 0
#: The id :func:`apply_invalid_action` gives a penalised action: nothing is played (the native step rejects it).
NOT_PLAYED = -1
#: ``info_mode`` values: the fixed info keys, or also readable descriptions and scores.
INFO_MODES = ("fast", "debug")
#: ``level_selection`` values: the order in which a level pool is played.
LEVEL_SELECTIONS = ("round_robin", "seeded_random")
#: ``observation_format`` values: the native int32 fields, a float32 vector with the mask, the vector alone.
OBSERVATION_FORMATS = ("dict", "flat", "box")


def choice(value, allowed: tuple[str, ...], name: str) -> str:
    """``value`` if it is one of ``allowed``, else ValueError naming ``name``."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return value


def check_tile_px(tile_px) -> int:
    """Validates ``render_tile_px`` (an integer >= 8; ValueError)."""
    if isinstance(tile_px, bool) or not isinstance(tile_px, (int, np.integer)) or tile_px < 8:
        raise ValueError(f"render_tile_px must be an integer >= 8, got {tile_px!r}")
    return int(tile_px)


def describe_games(map_size, players, level, levels, max_actions, **options) \
        -> tuple[GameDescription, tuple | None, LevelPool | None]:
    """The games TribesEnv and TribesVectorEnv play: ``(description, tribes, level pool)``, checked (ValueError).

    ``level`` (one level) / ``levels`` (a pool) as VectorGameEnv takes them (at most one; None:
    generated maps of ``map_size``, default 11); with levels, ``map_size`` must be None or their
    size and ``tribes`` is None when ``players`` is (every level's own). ``max_actions`` and
    ``options`` (mode, max_turns, full_observability) are checked by the description.
    """
    tribes = resolve_tribes(players, level is not None or levels is not None)
    pool = level_pool(level, levels, tribes, max_actions=max_actions, **options)
    if pool is None:
        return game_description(map_size=map_size, players=tribes, max_actions=max_actions, **options), tribes, None
    d = pool.description
    if map_size is not None and map_size != d.map_size:
        raise ValueError(f"map_size={map_size!r} but the levels are {d.map_size}x{d.map_size}")
    return d, tribes, pool


def check_common_kwargs(opponent, learner_seat, num_players: int, action_mode, level_selection, reward,
                        invalid_action, invalid_action_penalty, info_mode, render_mode, render_modes) -> None:
    """Validates the keyword arguments shared by TribesEnv and TribesVectorEnv (ValueError).

    ``max_actions`` is not among them: the game description both build first checks it (the
    engine's check, :func:`polyenv.game_description`).
    """
    if opponent is not None and not callable(opponent) and not is_bot(opponent):
        raise ValueError(f"opponent must be 'random', 'greedy', 'mcts[:simulations]', 'az[:simulations]', a callable f(game) -> action_id or None, "
                         f"got {opponent!r}")
    if opponent is None:
        if learner_seat != 0:
            raise ValueError("learner_seat needs an opponent (opponent=None is self-play: the agent plays every seat)")
    elif learner_seat != "random":
        if isinstance(learner_seat, bool) or not isinstance(learner_seat, (int, np.integer)) \
                or not 0 <= learner_seat < num_players:
            raise ValueError(f"learner_seat must be 'random' or a seat 0..{num_players - 1}, got {learner_seat!r}")
    choice(action_mode, ACTION_MODES, "action_mode")
    choice(level_selection, LEVEL_SELECTIONS, "level_selection")
    choice(reward, REWARDS, "reward")
    choice(invalid_action, INVALID_ACTIONS, "invalid_action")
    if isinstance(invalid_action_penalty, bool) or not isinstance(invalid_action_penalty, (int, float, np.number)) \
            or not np.isfinite(invalid_action_penalty):
        raise ValueError(f"invalid_action_penalty must be a finite number, got {invalid_action_penalty!r}")
    choice(info_mode, INFO_MODES, "info_mode")
    if render_mode is not None and render_mode not in render_modes:
        raise ValueError(f"render_mode must be None or one of {', '.join(map(repr, render_modes))}, "
                         f"got {render_mode!r}")


def apply_invalid_action(policy: str, ids, legal, end_turn_ids, error: Callable[[], str]):
    """The ``invalid_action`` policy, for one action (``ids``, ``legal`` scalars) or a batch (arrays).

    Returns ``(played, penalised)``. When every action is legal, ``played`` is
    ``ids`` itself and ``penalised`` None. Otherwise ``"raise"`` raises
    ``ValueError(error())`` (the caller's message, naming its own units: rows,
    agents, envs; nothing is played); ``"end_turn"`` plays the End Turn id of
    each illegal action's environment instead (``end_turn_ids``, row
    :data:`END_TURN_ROW` of its legal actions); ``"penalty"`` plays
    :data:`NOT_PLAYED` for it (nothing: the native step rejects that id) and
    ``penalised`` marks the illegal actions, whose reward is the caller's
    ``invalid_action_penalty``. ``played`` is int32 (a 0-d array for one action).
    """
    if legal is True or (legal is not False and np.all(legal)):
        return ids, None
    if policy == "raise":
        raise ValueError(error())
    substitute = end_turn_ids if policy == "end_turn" else NOT_PLAYED
    played = np.where(legal, ids, substitute).astype(np.int32)
    return played, np.logical_not(legal) if policy == "penalty" else None
