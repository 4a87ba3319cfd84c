"""VectorGameEnv: many Tribes games on a persistent C++ worker pool, one dense batch per call.

This module is a thin layer over the native ``polyenv._core.VectorEnv``: it
converts names and lenient inputs, and documents the API. Every call runs in
C++ with the GIL released; nothing here loops over environments or rows.

Batch (B rows, tiles = map_size**2, Amax = max_actions,
K = visible_event_history):

=============================  =======  ===================  =========================================
key                            dtype    shape                meaning
=============================  =======  ===================  =========================================
map_tokens                     int32    [B, tiles, 23]       visible map (MAP_TOKEN_FEATURE_NAMES)
state                          int32    [B, 11]              scalar state (STATE_FEATURE_NAMES)
action_id                      int32    [B, Amax]            action id per row, -1 padding
action_features                int32    [B, Amax, 17]        ACTION_FEATURE_NAMES
action_arg_mask                uint8    [B, Amax, 12]        ACTION_ARG_MASK_NAMES
action_mask                    uint8    [B, Amax]            1 legal row, 0 padding
visible_event_features         int32    [B, K, 26]           VISIBLE_EVENT_FEATURE_NAMES, right-aligned
visible_event_sequence         uint64   [B, K]               private sequence (1, 2, ...; 0 padding)
visible_event_action_sequence  uint64   [B, K]               per-observer numbering (== sequence)
visible_event_mask             uint8    [B, K]               1 event row, 0 padding
visible_event_affected         int32    [B, K, 9, 8]         VISIBLE_EVENT_AFFECTED_FEATURE_NAMES
visible_event_affected_mask    uint8    [B, K, 9]            valid affected rows
legal_action_count             int32    [B]                  represented rows (<= Amax)
total_legal_action_count       int32    [B]                  legal actions before truncation
action_truncated               uint8    [B]                  1 when not every legal action fit
reward                         float32  [B]                  terminal reward of the preceding action
terminated                     uint8    [B]                  the preceding action ended the game
action_valid                   uint8    [B]                  the supplied action id was legal
env_id                         int32    [B]                  environment of the row
state_id                       uint64   [B]                  opaque id of the live position
episode_id                     uint64   [B]                  opaque id of the episode
=============================  =======  ===================  =========================================

With ``keep_terminal_observation=True`` the batch also has ``final_map_tokens``,
``final_state`` and ``final_visible_event_*`` (same shapes as their live
counterparts): for a row whose action ended the game in this call, the
terminal observation from the acting player's view; zeros for every other row.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np

from . import _core
from . import _validate as _v
from ._botspec import BOT_SYNTAX, is_bot, parse_bot
from ._known_buffers import KnownBuffers
from ._levels import episode_levels
from ._names import mode_code, tribe_code

__all__ = ["VectorGameEnv", "StaleStateError", "allocate", "REWARDS", "SCORE_SCALE", "MAX_VISIBLE_EVENT_HISTORY"]

MAX_VISIBLE_EVENT_HISTORY: int = _core.MAX_VISIBLE_EVENT_HISTORY
"""Largest ``visible_event_history`` (K): the window is a model input, not a replay log."""

StaleStateError = _core.StaleStateError
StaleStateError.__doc__ = ("A checked step received a state id that is no longer its environment's live "
                           "position (a late response); no environment was changed.")

_BOTS: tuple[str, ...] = tuple(_core.BOT_NAMES)
#: The reward modes: the game result alone, or also the change of the score margin.
REWARDS: tuple[str, ...] = ("terminal", "score_delta")
#: Score points per unit of ``reward="score_delta"``.
SCORE_SCALE = 1000.0
_INT32 = np.iinfo(np.int32)

# The observation keys that final_* mirrors (keep_terminal_observation=True).
_OBSERVATION_KEYS = ("map_tokens", "state", "visible_event_features", "visible_event_sequence",
                     "visible_event_action_sequence", "visible_event_mask", "visible_event_affected",
                     "visible_event_affected_mask")


def allocate(spec: Mapping) -> dict:
    """Fresh NumPy arrays (uninitialized) with the exact shape and dtype of each field of ``spec``.

    ``spec`` is ``batch_spec()`` or ``slot_batch_spec(rows)``; the result is a
    valid ``buffers`` argument of the ``*_into`` methods.
    """
    return {name: np.empty(tuple(field["shape"]), dtype=np.dtype(field["dtype"])) for name, field in spec.items()}


def _integers(values, name: str) -> np.ndarray:
    a = np.asarray(values)
    if a.size == 0 and a.dtype.kind == "f":
        a = a.astype(np.int64)
    if a.dtype.kind not in "iu":
        raise ValueError(f"{name} must be integers, got dtype {a.dtype}")
    return a


def _actions(action_ids) -> np.ndarray:
    """Lenient action ids (allocating calls): any integer array-like, converted to int32."""
    if isinstance(action_ids, np.ndarray) and action_ids.dtype == np.int32:
        return action_ids
    a = _integers(action_ids, "action_ids")
    if a.size and (a.min() < _INT32.min or a.max() > _INT32.max):
        raise ValueError("action_ids must fit in int32")
    return a.astype(np.int32)


def _state_ids(state_ids) -> np.ndarray:
    """Lenient state ids (allocating calls): non-negative integers, converted to uint64."""
    if isinstance(state_ids, np.ndarray) and state_ids.dtype == np.uint64:
        return state_ids
    a = _integers(state_ids, "state_ids")
    if a.dtype.kind == "i" and a.size and a.min() < 0:
        raise ValueError("state_ids must be non-negative")
    return a.astype(np.uint64)


def _env_ids(env_ids) -> np.ndarray:
    """Environment ids: int32 / int64 arrays pass through; other integer inputs become int64."""
    if isinstance(env_ids, np.ndarray) and env_ids.dtype in (np.int32, np.int64):
        return env_ids
    a = _integers(env_ids, "env_ids")
    if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
        raise IndexError("env id is out of range")
    return a.astype(np.int64)


class VectorGameEnv:
    """Many independent Tribes games stepped natively; one dense NumPy batch per call.

    Args:
        num_envs: B, the number of environments (rows of a full batch).
        seed: episode k of environment i is the game ``GameEnv(seed=seed + i + k * B)``
            plays with the same options (k = 0 at construction and after
            ``reset(seed=...)``, +1 at every automatic or unseeded reset); with
            ``seed=0`` environment i starts exactly like ``GameEnv(seed=i)``.
        map_size: board side N (tiles = N * N); the same for every environment. None: 11, or
            the levels' size.
        players: tribes in turn order (constants such as ``polyenv.Bardur`` or names), 2 to 16.
            None: Bardur, Imperius, or with levels each level's own tribes.
        level: one Tribes CSV level (a path or the text) every episode is played on.
        levels: a level pool (a path, a glob, CSV text, or a list of them): episode k of
            environment i is played on ``levels[(i + k * B) % len(levels)]`` with seed
            ``seed + i + k * B`` (the map is the level's; the seed draws the game's chance
            events). At most one of ``level`` / ``levels``; all levels share one size and
            player count.
        num_threads: threads simulating, the calling thread included (None: the
            logical CPU count, at most ``num_envs``). Results are bit-identical
            for any value.
        max_actions: Amax, the fixed action-row capacity. When more actions are
            legal the canonical (ascending-id) prefix is kept, with EndTurn (id 0)
            always among the rows; see ``action_truncated``.
        auto_reset: reset a game inside the step that ended it (the row then shows
            the next episode; ``reward`` / ``terminated`` describe the ended one).
        visible_event_history: K, the last K fog-filtered events kept per player,
            0..``MAX_VISIBLE_EVENT_HISTORY`` (1024).
        include_combat_preview: fill the damage_dealt / damage_received action
            columns (a simulated combat per attack row); otherwise they are -1.
        mode: ``"capitals"`` or ``"score"``. max_turns: overrides the mode's turn limit.
        full_observability: False (default) plays with fog of war.
        keep_terminal_observation: also return ``final_*`` keys (module docstring).
        opponent: None (self-play: every seat acts through the rows), ``"random"``,
            ``"greedy"``, ``"mcts"`` / ``"mcts:<simulations>"`` or ``"az"`` / ``"az:<simulations>"``: the built-in bot plays every
            seat not in ``learner_seats`` natively, inside the same call, so rows show only learners' turns.
        learner_seats: seats played through the rows when ``opponent`` is set (default ``(0,)``).
        reward: ``"terminal"`` (default: the game result alone) or ``"score_delta"`` (below).

    Rewards: ``reward`` is +1 when the row's action ended the game with a win for
    the player who took it, -1 when it ended in that player's loss, 0 otherwise.
    In self-play this is the perspective of the player who acted (the other seats'
    results follow from ``state`` / the winner); with an opponent it is the
    learner's, also when the game ends during the bot's reply.
    With ``reward="score_delta"`` every accepted action additionally pays the
    change of (actor's score - best other player's score) / ``SCORE_SCALE``
    (1000) over the call — the action and, with an opponent, the bot's replies —
    so a game's rewards sum to its result plus the change of the score margin.
    This is ``polyenv/Tribes-v0``'s ``reward="score_delta"``, computed natively.

    An illegal action id (including -1 padding or an out-of-range id) sets
    ``action_valid = 0`` for that row and leaves that game unchanged (same
    ``state_id``, ``reward = terminated = 0``); the other rows advance. A finished
    game that was not reset (``auto_reset=False``) accepts no action until ``reset()``.

    Errors: malformed arguments raise ValueError, out-of-range environment ids
    IndexError, outdated state ids :class:`StaleStateError`; a rejected call
    changes nothing. An exception inside a game (on a worker thread) is re-raised
    here with its message; the vector must then be ``reset()``. Use ``close()``
    (or a ``with`` block) to join the threads; calls after ``close()`` raise
    RuntimeError.
    """

    map_token_feature_names: tuple[str, ...] = _core.MAP_TOKEN_FEATURE_NAMES
    state_feature_names: tuple[str, ...] = _core.STATE_FEATURE_NAMES
    action_feature_names: tuple[str, ...] = _core.ACTION_FEATURE_NAMES
    action_arg_mask_names: tuple[str, ...] = _core.ACTION_ARG_MASK_NAMES
    visible_event_feature_names: tuple[str, ...] = _core.VISIBLE_EVENT_FEATURE_NAMES
    visible_event_affected_feature_names: tuple[str, ...] = _core.VISIBLE_EVENT_AFFECTED_FEATURE_NAMES

    def __init__(self, num_envs: int, seed: int = 0, map_size: int | None = None, players: Sequence | None = None,
                 num_threads: int | None = None, max_actions: int = 512, auto_reset: bool = True,
                 visible_event_history: int = 0, include_combat_preview: bool = False, mode: str = "capitals",
                 max_turns: int | None = None, full_observability: bool = False,
                 keep_terminal_observation: bool = False, opponent: str | None = None,
                 learner_seats: Sequence[int] | None = None, reward: str = "terminal", level=None, levels=None):
        num_envs = _v.native_int(num_envs, "num_envs")  # the ranges of the integers: the native env's checks
        seed = _v.seed(seed)
        level_texts, map_size, players = episode_levels(level, levels, map_size, players)
        map_size = _v.native_int(map_size, "map_size")
        if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
            raise ValueError("players must be a sequence of tribes")
        tribes = [tribe_code(p) for p in players]
        threads = None if num_threads is None else _v.native_int(num_threads, "num_threads")
        if threads is None:
            threads = max(1, min(os.cpu_count() or 1, num_envs))
        max_actions = _v.native_int(max_actions, "max_actions")
        history = _v.native_int(visible_event_history, "visible_event_history")
        limit = _v.max_turns(max_turns)
        if opponent is None:
            if learner_seats is not None:
                raise ValueError("learner_seats needs an opponent ('random' or 'greedy')")
            bot, seats, simulations, model = -1, [], 1, -1
        else:
            if not is_bot(opponent):
                raise ValueError(f"opponent must be None or one of {', '.join(map(repr, _BOTS))} "
                                 f"(or {BOT_SYNTAX}), got {opponent!r}")
            bot, simulations, model = parse_bot(opponent)
            seats = [0] if learner_seats is None else [_v.native_int(s, "learner seat") for s in learner_seats]
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(map(repr, REWARDS))}, got {reward!r}")
        self._reward = reward
        self._opponent = opponent
        self._learner_seats = tuple(seats) if opponent is not None else None  # None: every seat (below)
        flags = {name: _v.boolean(value, name) for name, value in (
            ("full_observability", full_observability), ("auto_reset", auto_reset),
            ("include_combat_preview", include_combat_preview), ("keep_terminal_observation", keep_terminal_observation))}
        self._native = _core.VectorEnv(num_envs, seed, map_size, tribes, mode_code(mode), limit,
                                       flags["full_observability"], threads, max_actions, flags["auto_reset"], history,
                                       flags["include_combat_preview"], flags["keep_terminal_observation"], bot, seats,
                                       SCORE_SCALE if reward == "score_delta" else 0.0, simulations, model,
                                       level_texts)
        if self._learner_seats is None:
            self._learner_seats = tuple(range(self._native.num_players))
        self._auto_reset = flags["auto_reset"]
        self._keep_terminal = flags["keep_terminal_observation"]
        self._known = KnownBuffers()

    # ------------------------------------------------------------------ properties
    num_envs = property(lambda self: self._native.num_envs, doc="B, the number of environments.")
    num_threads = property(lambda self: self._native.num_threads, doc="Threads per call, the caller included.")
    num_players = property(lambda self: self._native.num_players, doc="Players per game.")
    map_size = property(lambda self: self._native.map_size, doc="Board side N.")
    num_tiles = property(lambda self: self._native.num_tiles, doc="N * N.")
    max_actions = property(lambda self: self._native.max_actions, doc="Amax, the action-row capacity.")
    visible_event_history = property(lambda self: self._native.history, doc="K, the event-window length.")
    action_space_size = property(lambda self: self._native.action_space_size, doc="Number of stable action ids.")
    auto_reset = property(lambda self: self._auto_reset, doc="True when games reset inside the ending step.")
    opponent = property(lambda self: self._opponent, doc="None (self-play) or the opponent bot's name.")
    learner_seats = property(lambda self: self._learner_seats, doc="Seats whose turns the rows show.")
    reward = property(lambda self: self._reward, doc="'terminal' or 'score_delta' (see Rewards).")
    closed = property(lambda self: self._native.closed, doc="True after close().")

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        """Joins the worker threads. Idempotent; every later call raises RuntimeError."""
        self._native.close()

    def __enter__(self) -> "VectorGameEnv":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._native.closed:
            raise RuntimeError("this VectorGameEnv is closed")

    def _write_into(self, call, buffers, untouched, *args) -> None:
        """Runs a native ``*_into`` call on the caller's ``buffers``. Every byte is written unless
        the caller vouches (``buffers_untouched=True``) that nobody wrote into the arrays since this
        environment did, and they are the very arrays it wrote last (then zeros still in place are
        not written again)."""
        untouched = _v.boolean(untouched, "buffers_untouched")
        buffers = _v.buffers(buffers)
        call(*args, buffers, untouched and self._known.knows(buffers))
        self._known.remember(buffers)

    def forget_buffers(self) -> None:
        """Declares that output arrays were written into since this environment wrote them.

        Only matters with ``buffers_untouched=True``: the next ``*_into`` call
        writes every byte even then (as it always does without that promise).
        For owners that hand arrays to code that may write into them now and then.
        """
        self._known.clear()

    # ------------------------------------------------------------------ specs
    def batch_spec(self) -> dict:
        """``{key: {"shape": tuple, "dtype": numpy.dtype}}`` of a full batch, in batch order."""
        return self.slot_batch_spec(self.num_envs)

    def slot_batch_spec(self, rows: int) -> dict:
        """The spec of a batch of ``rows`` rows (one slot of ``slot_partitions``)."""
        self._check_open()
        rows = _v.native_int(rows, "rows")  # >= 0: the native env's check
        return {name: {"shape": tuple(shape), "dtype": np.dtype(dtype)}
                for name, shape, dtype in self._native.spec(rows)}

    def slot_partitions(self, n: int) -> list[np.ndarray]:
        """``n`` balanced, contiguous, disjoint groups of env ids (int32 arrays) covering every environment."""
        self._check_open()
        n = _v.integer(n, "n", 1)
        if n > self.num_envs:
            raise ValueError(f"n must be at most num_envs={self.num_envs}, got {n}")
        return np.array_split(np.arange(self.num_envs, dtype=np.int32), n)

    # ------------------------------------------------------------------ reset
    def reset(self, seed: int | None = None) -> dict:
        """Starts a new episode in every environment and returns a fresh batch.

        ``seed=x`` restarts the seed sequence (environment i plays ``x + i``);
        ``None`` starts each environment's next episode in its sequence (as an
        automatic reset does). ``action_valid``, ``reward``, ``terminated`` are 0.
        """
        self._check_open()
        return self._native.reset(None if seed is None else _v.seed(seed), None)

    def reset_into(self, buffers: dict, seed: int | None = None, *, buffers_untouched: bool = False) -> None:
        """``reset(seed)`` writing into caller-owned ``buffers`` (exactly ``batch_spec()``).

        Every ``*_into`` call writes the whole batch, whatever the arrays hold.
        ``buffers_untouched=True`` is a promise, for code that owns its arrays and
        never writes into them: nothing but this environment wrote into
        ``buffers`` since its previous ``*_into`` call on them. Zeros that call
        left in place (padding action rows, unexplored tiles) are then not written
        again, which makes a call faster (the VectorGameEnv page, "Reusable buffers");
        if the promise is broken those rows keep whatever was written into them.
        A rejected call (ValueError: not a bool) changes nothing.
        """
        self._check_open()
        self._write_into(self._native.reset, buffers, buffers_untouched, None if seed is None else _v.seed(seed))

    # ------------------------------------------------------------------ step
    def step(self, action_ids) -> dict:
        """Applies ``action_ids`` (ints [B], one stable id per environment) and returns a fresh batch."""
        self._check_open()
        return self._native.step(None, _actions(action_ids), None, None)

    def step_into(self, action_ids: np.ndarray, buffers: dict, *, buffers_untouched: bool = False) -> None:
        """``step`` writing into ``buffers``. ``action_ids`` must be an int32 [B] array
        (any stride: it is copied before the batch is written, so it may view ``buffers``).
        ``buffers_untouched``: see ``reset_into``."""
        self._check_open()
        self._write_into(self._native.step, buffers, buffers_untouched, None, action_ids, None)

    def step_checked(self, action_ids, state_ids) -> dict:
        """``step(action_ids)`` that first checks every ``state_ids[i]`` (uint64 [B]) against the live
        position of environment i; one stale id raises StaleStateError and changes nothing."""
        self._check_open()
        return self._native.step(None, _actions(action_ids), _state_ids(state_ids), None)

    def step_into_checked(self, action_ids: np.ndarray, state_ids: np.ndarray, buffers: dict, *,
                          buffers_untouched: bool = False) -> None:
        """``step_checked`` writing into ``buffers``: ``action_ids`` int32 [B], ``state_ids`` uint64 [B] (any stride).
        ``buffers_untouched``: see ``reset_into``."""
        self._check_open()
        self._write_into(self._native.step, buffers, buffers_untouched, None, action_ids, state_ids)

    # ------------------------------------------------------------------ slots
    def observe_slots(self, env_ids) -> dict:
        """The current rows of ``env_ids`` (no game advances; reward, terminated, action_valid = 0).

        Duplicate ids raise ValueError, out-of-range ids IndexError. Row r shows
        environment ``env_ids[r]``, as ``env_id`` records.
        """
        self._check_open()
        return self._native.observe(_env_ids(env_ids), None)

    def observe_slots_into(self, env_ids, buffers: dict, *, buffers_untouched: bool = False) -> None:
        """``observe_slots`` writing into ``buffers`` (``slot_batch_spec(len(env_ids))``).
        ``buffers_untouched``: see ``reset_into``."""
        self._check_open()
        self._write_into(self._native.observe, buffers, buffers_untouched, _env_ids(env_ids))

    def reset_slots(self, env_ids) -> dict:
        """Starts the next episode of each environment in ``env_ids`` (the next seed of its sequence, as an
        automatic reset does) and returns their rows (a slot batch; reward, terminated, action_valid = 0).

        The other environments are untouched, so with ``auto_reset=False`` the finished games can restart
        alone, and a caller that truncates an episode can restart it. Ids are checked as in
        ``observe_slots`` (ValueError, IndexError) before any game changes.
        """
        self._check_open()
        return self._native.reset_slots(_env_ids(env_ids), None)

    def reset_slots_into(self, env_ids, buffers: dict, *, buffers_untouched: bool = False) -> None:
        """``reset_slots`` writing into ``buffers`` (``slot_batch_spec(len(env_ids))``).
        ``buffers_untouched``: see ``reset_into``."""
        self._check_open()
        self._write_into(self._native.reset_slots, buffers, buffers_untouched, _env_ids(env_ids))

    def step_slots_checked(self, env_ids, action_ids, state_ids) -> dict:
        """Steps only ``env_ids`` with ``action_ids`` after checking their ``state_ids``
        (all under one lock: a stale id rejects the whole slot, nothing changes)."""
        self._check_open()
        return self._native.step(_env_ids(env_ids), _actions(action_ids), _state_ids(state_ids), None)

    def step_slots_into_checked(self, env_ids, action_ids: np.ndarray, state_ids: np.ndarray, buffers: dict, *,
                                buffers_untouched: bool = False) -> None:
        """``step_slots_checked`` writing into ``buffers``: ``env_ids`` ints [R], ``action_ids`` int32 [R]
        and ``state_ids`` uint64 [R] (any stride, so ``buffers["state_id"]`` itself may be passed).
        ``buffers_untouched``: see ``reset_into``."""
        self._check_open()
        self._write_into(self._native.step, buffers, buffers_untouched, _env_ids(env_ids), action_ids, state_ids)

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def transition_next_observations(batch: Mapping) -> dict:
        """The true next observation of each row's transition: the ``final_*`` terminal
        observation where ``terminated`` is 1, the returned observation elsewhere.

        Needs a batch of an env with ``keep_terminal_observation=True``. Returns
        new arrays for map_tokens, state and the visible_event_* keys.
        """
        if "final_map_tokens" not in batch:
            raise ValueError("the batch has no final_* keys: use keep_terminal_observation=True")
        done = np.asarray(batch["terminated"]).astype(bool)
        out = {}
        for key in _OBSERVATION_KEYS:
            live, final = np.asarray(batch[key]), np.asarray(batch["final_" + key])
            out[key] = np.where(done.reshape((-1,) + (1,) * (live.ndim - 1)), final, live)
        return out

    def __repr__(self) -> str:
        return (f"VectorGameEnv(num_envs={self.num_envs}, map_size={self.map_size}, players={self.num_players}, "
                f"max_actions={self.max_actions}, visible_event_history={self.visible_event_history}, "
                f"num_threads={self.num_threads}, opponent={self._opponent!r}{', closed' if self.closed else ''})")
