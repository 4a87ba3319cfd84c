"""Validation of the keyword arguments the Gymnasium and PettingZoo environments share (ValueError)."""

from __future__ import annotations

import numpy as np

from .._botspec import is_bot
from ..vector_env import REWARDS

__all__ = ["ACTION_MODES", "INVALID_ACTIONS", "INFO_MODES", "LEVEL_SELECTIONS", "OBSERVATION_FORMATS", "choice",
           "check_max_actions", "check_tile_px", "check_common_kwargs", "substitute_invalid", "END_TURN_ROW",
           "NOT_PLAYED"]

#: ``action_mode`` values: stable global ids, or rows of the legal actions.
ACTION_MODES = ("global", "rows")
#: ``invalid_action`` values: what an action outside the represented legal ones does.
INVALID_ACTIONS = ("raise", "end_turn", "penalty")
#: The row of End Turn: the canonical legal order starts with it (id 0) whenever it is legal.
END_TURN_ROW = 0
#: The id :func:`substitute_invalid` gives a penalised action: nothing is played (the native step rejects it).
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


def check_max_actions(max_actions) -> int:
    """Validates ``max_actions`` (an integer >= 1)."""
    if isinstance(max_actions, bool) or not isinstance(max_actions, (int, np.integer)) or max_actions < 1:
        raise ValueError(f"max_actions must be an integer >= 1, got {max_actions!r}")
    return int(max_actions)


def check_tile_px(tile_px) -> int:
    """Validates ``render_tile_px`` (an integer >= 8; ValueError)."""
    if isinstance(tile_px, bool) or not isinstance(tile_px, (int, np.integer)) or tile_px < 8:
        raise ValueError(f"render_tile_px must be an integer >= 8, got {tile_px!r}")
    return int(tile_px)


def check_common_kwargs(opponent, learner_seat, num_players: int, action_mode, level_selection, reward,
                        invalid_action, invalid_action_penalty, info_mode, render_mode, render_modes) -> None:
    """Validates the keyword arguments shared by TribesEnv and TribesVectorEnv (ValueError).

    ``max_actions`` is not among them: both check it first (:func:`check_max_actions`), since the
    game description they build before this call needs it.
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


def substitute_invalid(policy: str, ids, legal, end_turn_ids):
    """The action ids to play under ``invalid_action=policy``, for one action or an array of them.

    A legal id is played as given. An illegal one becomes the End Turn id of its
    environment (``end_turn_ids``, row :data:`END_TURN_ROW` of its legal actions)
    under ``"end_turn"``, and :data:`NOT_PLAYED` under ``"penalty"`` (the caller
    pays the penalty and plays nothing). ``"raise"`` is the caller's to raise
    before this, with a message that names its own units (rows, agents, envs).
    """
    if policy == "raise":
        raise ValueError('invalid_action="raise": raise before substituting')
    substitute = end_turn_ids if policy == "end_turn" else NOT_PLAYED
    return np.where(legal, ids, substitute).astype(np.int32)
