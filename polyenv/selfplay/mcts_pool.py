"""MctsPool: native batched PUCT or Gumbel search over many live games (full information: trees rooted in the true state).

The pool owns ``num_envs`` live games and one search tree per game in C++;
the policy/value model lives outside (any framework). One search round is::

    leaves = pool.select_leaves()                       # dense leaf batch
    logits, values = model(leaves)                      # [L, max_actions], [L] or [L, P]
    pool.expand_and_backup(leaves["leaf_id"], logits, values)

then ``pool.root_policy(temperature)`` gives visit counts, a policy over each
root's action rows, the improved policy and the search's chosen action, and
``pool.step_checked(actions, root["state_id"])`` advances the games.
``root_selection="gumbel"`` replaces PUCT by Gumbel sequential halving at the
root; ``reuse_tree=True`` keeps the chosen child's subtree across real moves.
The MctsPool page of the documentation lists every key and error.
"""

from __future__ import annotations

import os
from typing import Mapping, Sequence

import numpy as np

from .. import _core
from .. import _validate as _v
from .._levels import episode_levels
from .._names import mode_code, tribe_code
from ..vector_env import _actions, _state_ids

__all__ = ["MctsPool", "StaleLeafError", "PendingLeavesError", "ActionOverflowError"]

StaleLeafError = _core.StaleLeafError
StaleLeafError.__doc__ = ("A leaf id that is not pending (unknown, consumed, cancelled, or invalidated by a step or "
                          "reset); nothing was changed.")
PendingLeavesError = _core.PendingLeavesError
PendingLeavesError.__doc__ = ("A step or reset while leaves are pending evaluation: back them up, cancel them or "
                              "abort the search first; nothing was changed.")
ActionOverflowError = _core.ActionOverflowError
ActionOverflowError.__doc__ = ("require_all_actions=True and a position has more legal actions than max_actions "
                               "(raise max_actions, or allow truncation).")

_MIB = 1024 * 1024


def _spec(native: Mapping) -> dict:
    return {name: {"shape": tuple(shape), "dtype": np.dtype(dtype)} for name, (shape, dtype) in native.items()}


def _number(value, name: str) -> float:
    """A real number converted to float; its range is the native pool's check (one message, one owner)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    return float(value)


def root_selection_arguments(root_selection, num_simulations, max_considered_actions, gumbel_scale,
                             gumbel_value_scale, gumbel_maxvisit_init) -> dict:
    """The root-selection keyword arguments of the native pools, converted (ValueError).

    What only Python sees is checked here: the name (before ``num_simulations`` is read by it) and
    whether ``num_simulations`` was given (None: not given, natively 0); the numbers' ranges, and
    ``dirichlet_alpha`` with Gumbel, are the native pool's checks."""
    if root_selection not in ("puct", "gumbel"):
        raise ValueError(f"root_selection must be 'puct' or 'gumbel', got {root_selection!r}")
    gumbel = root_selection == "gumbel"
    if gumbel and num_simulations is None:
        raise ValueError("root_selection='gumbel' needs num_simulations (the simulation budget of one search)")
    if not gumbel and num_simulations is not None:
        raise ValueError("num_simulations applies to root_selection='gumbel' only")
    return dict(root_selection=root_selection,
                num_simulations=0 if num_simulations is None else _v.native_int(num_simulations, "num_simulations"),
                max_considered_actions=_v.native_int(max_considered_actions, "max_considered_actions"),
                gumbel_scale=_number(gumbel_scale, "gumbel_scale"),
                gumbel_value_scale=_number(gumbel_value_scale, "gumbel_value_scale"),
                gumbel_maxvisit_init=_number(gumbel_maxvisit_init, "gumbel_maxvisit_init"))


def pool_arguments(num_envs, seed, map_size, players, num_threads, max_actions, max_pending_leaves_per_tree,
                   max_nodes_per_tree, max_tree_bytes) -> tuple:
    """The constructor arguments MctsPool and SelfPlayPool share, converted (the native pool checks
    their ranges: num_envs, num_threads, max_actions, pending leaves, budgets, the map size and the
    player count)."""
    num_envs = _v.native_int(num_envs, "num_envs")
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise ValueError("players must be a sequence of tribes")
    threads = None if num_threads is None else _v.native_int(num_threads, "num_threads")
    if threads is None:
        threads = max(1, min(os.cpu_count() or 1, num_envs))
    return (num_envs, _v.seed(seed), _v.native_int(map_size, "map_size"), [tribe_code(p) for p in players],
            threads, _v.native_int(max_actions, "max_actions"),
            _v.native_int(max_pending_leaves_per_tree, "max_pending_leaves_per_tree"),
            _v.native_int(max_nodes_per_tree, "max_nodes_per_tree"), _v.native_int(max_tree_bytes, "max_tree_bytes"))


class MctsPool:
    """Many live Tribes games, each with a native search tree (PUCT or Gumbel), driven in dense batches.

    Args:
        num_envs: B, live games (and trees).
        seed: episode k of game i is ``GameEnv(seed=seed + i + k * B)`` (as VectorGameEnv).
        map_size: board side N; None: 11, or the levels' size.
        players: tribes in turn order, 2 to 16; None: (Bardur, Imperius), or every level's own tribes.
        mode: ``"capitals"`` or ``"score"``.
        max_turns: overrides the mode's turn limit.
        full_observability: True (default) plays without fog of war: the search reads the true
            state, which is exact only then (for fog of war use :class:`SelfPlayPool`).
        level: one Tribes CSV level (a path or the text) every episode is played on.
        levels: a level pool (a path, a glob, CSV text, or a list of them): episode k of
            game i is played on ``levels[(i + k * B) % len(levels)]`` with seed ``seed + i + k * B``.
            At most one of ``level`` / ``levels``; all levels share one size and player count.
        num_threads: worker threads (caller included); None: one per core, at most B.
        max_actions: action-row capacity A of every batch; 0 derives ``action_space_size``
            (every legal action always fits).
        require_all_actions: True: a position with more than A legal actions raises
            ActionOverflowError, never truncates; False: deterministic truncation keeping
            End Turn, flagged by ``action_truncated``.
        auto_reset: a finished game starts its next episode inside the ending step.
        c_puct: exploration constant of PUCT.
        max_pending_leaves_per_tree: 1--8 leaves in flight per tree (virtual loss spreads them).
        virtual_loss: value subtracted per in-flight path in Q.
        max_nodes_per_tree: node admission budget (0: none).
        max_tree_bytes: accounted-bytes admission budget (0: none).
        dirichlet_alpha: None, or the Dirichlet noise mixed into root priors (PUCT only).
        dirichlet_fraction: weight of that noise.
        root_selection: "puct" (default) or "gumbel": Gumbel-top-k sampling of
            ``max_considered_actions`` root actions, sequential halving over
            ``num_simulations``, the improved-policy matching rule below the root.
        num_simulations: the simulation budget of one search (required for "gumbel", which
            divides it between the considered actions; backups through the root count).
        max_considered_actions: m, root actions sampled without replacement (Gumbel).
        gumbel_scale: scale of the root's Gumbel noise (0: the prior's top m, deterministic).
        gumbel_value_scale: c_scale of the completed-Q transform
            ``(gumbel_maxvisit_init + max N) * gumbel_value_scale * rescaled Q`` (also used for
            ``root_policy``'s ``improved_policy`` under PUCT).
        gumbel_maxvisit_init: c_visit of that transform.
        reuse_tree: after a real move, the chosen child's subtree becomes the next root when
            it was expanded and its position equals the game's (a move with chance may differ);
            otherwise a fresh root. Budgets still hold; a reset or a new episode starts fresh.
        include_combat_preview: attack rows of every batch carry the combat preview (``damage_dealt``,
            ``damage_received``; -1 otherwise), as ``VectorGameEnv(include_combat_preview=True)`` and
            ``GameEnv.observe(include_combat_preview=True)`` give them.
    """

    def __init__(self, num_envs: int, seed: int = 0, map_size: int | None = None, players: Sequence | None = None,
                 num_threads: int | None = None, max_actions: int = 0, require_all_actions: bool = True,
                 auto_reset: bool = True, c_puct: float = 1.5, max_pending_leaves_per_tree: int = 1,
                 virtual_loss: float = 1.0, max_nodes_per_tree: int = 20_000, max_tree_bytes: int = 512 * _MIB,
                 dirichlet_alpha: float | None = None, dirichlet_fraction: float = 0.25,
                 full_observability: bool = True, mode: str = "capitals", max_turns: int | None = None,
                 level=None, levels=None, root_selection: str = "puct", num_simulations: int | None = None,
                 max_considered_actions: int = 16, gumbel_scale: float = 1.0, gumbel_value_scale: float = 0.1,
                 gumbel_maxvisit_init: float = 50.0, reuse_tree: bool = False, include_combat_preview: bool = False):
        level_texts, map_size, players = episode_levels(level, levels, map_size, players)
        num_envs, seed, map_size, tribes, threads, max_actions, pending, max_nodes, max_bytes = pool_arguments(
            num_envs, seed, map_size, players, num_threads, max_actions, max_pending_leaves_per_tree,
            max_nodes_per_tree, max_tree_bytes)
        alpha = 0.0  # natively 0 means none, so None vs 0 is Python's check
        if dirichlet_alpha is not None:
            alpha = _number(dirichlet_alpha, "dirichlet_alpha")
            if not alpha > 0:
                raise ValueError("dirichlet_alpha must be None or > 0")
        root = root_selection_arguments(root_selection, num_simulations, max_considered_actions, gumbel_scale,
                                        gumbel_value_scale, gumbel_maxvisit_init)
        self._native = _core.MctsPool(
            num_envs, seed, map_size, tribes, mode_code(mode), _v.max_turns(max_turns),
            _v.boolean(full_observability, "full_observability"), threads, max_actions,
            _v.boolean(require_all_actions, "require_all_actions"), _v.boolean(auto_reset, "auto_reset"),
            _number(c_puct, "c_puct"), pending, _number(virtual_loss, "virtual_loss"), max_nodes, max_bytes, alpha,
            _number(dirichlet_fraction, "dirichlet_fraction"), level_texts,
            reuse_tree=_v.boolean(reuse_tree, "reuse_tree"), combat_preview=_v.boolean(include_combat_preview, "include_combat_preview"),
            **root)
        self._require_all = bool(require_all_actions)
        self._auto_reset = bool(auto_reset)
        self._root_selection = root_selection
        self._num_simulations = num_simulations
        self._reuse_tree = bool(reuse_tree)

    # ------------------------------------------------------------------ properties
    num_envs = property(lambda self: self._native.num_envs, doc="B, live games and trees.")
    num_threads = property(lambda self: self._native.num_threads, doc="Threads per call, the caller included.")
    player_count = property(lambda self: self._native.num_players, doc="P, players per game (fixed).")
    num_players = player_count
    map_size = property(lambda self: self._native.map_size, doc="Board side N.")
    max_actions = property(lambda self: self._native.max_actions, doc="A, action rows of every batch.")
    action_space_size = property(lambda self: self._native.action_space_size, doc="Number of stable action ids.")
    max_pending_leaves_per_tree = property(lambda self: self._native.max_pending_leaves,
                                           doc="Leaves in flight per tree (1--8).")
    require_all_actions = property(lambda self: self._require_all, doc="True: overflow raises, never truncates.")
    auto_reset = property(lambda self: self._auto_reset, doc="True when games reset inside the ending step.")
    closed = property(lambda self: self._native.closed, doc="True after close().")
    root_selection = property(lambda self: self._root_selection, doc='"puct" or "gumbel".')
    num_simulations = property(lambda self: self._num_simulations,
                               doc="Gumbel's simulation budget per search (None under PUCT).")
    reuse_tree = property(lambda self: self._reuse_tree,
                          doc="True when real moves keep the chosen child's subtree.")

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        """Joins the worker threads. Idempotent; every later call raises RuntimeError."""
        self._native.close()

    def __enter__(self) -> "MctsPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._native.closed:
            raise RuntimeError("this MctsPool is closed")

    # ------------------------------------------------------------------ specs
    def batch_spec(self) -> dict:
        """``{key: {"shape", "dtype"}}`` of the live batch (reset / step), in batch order."""
        self._check_open()
        return _spec(self._native.batch_spec())

    def leaf_batch_spec(self, max_leaves: int | None = None) -> dict:
        """The leaf batch for a capacity of ``max_leaves`` rows (default B * max_pending_leaves_per_tree)."""
        self._check_open()
        return _spec(self._native.leaf_batch_spec(self._capacity(max_leaves)))

    def root_policy_spec(self) -> dict:
        """The root policy batch (root_policy / root_policy_into)."""
        self._check_open()
        return _spec(self._native.root_policy_spec())

    def _capacity(self, max_leaves) -> int:
        if max_leaves is None:
            return self.num_envs * self.max_pending_leaves_per_tree
        return _v.native_int(max_leaves, "max_leaves")  # >= 0: the native pool's check

    # ------------------------------------------------------------------ live games
    def reset(self, seed: int | None = None) -> dict:
        """Starts a new episode in every game (new roots, pending leaves dropped); returns the live batch.

        ``seed`` restarts the seed sequence (game i plays ``seed + i``); None continues it."""
        self._check_open()
        return self._native.reset(None if seed is None else _v.seed(seed), None)

    def reset_into(self, buffers: dict, seed: int | None = None) -> None:
        """``reset(seed)`` writing into caller-owned ``buffers`` (exactly ``batch_spec()``)."""
        self._check_open()
        self._native.reset(None if seed is None else _v.seed(seed), buffers)

    def step(self, action_ids) -> dict:
        """Applies ``action_ids`` (ints [B], one per game); illegal ids give ``action_valid=0`` and change nothing.

        Raises PendingLeavesError while leaves are pending (cancel or back them up first).
        """
        self._check_open()
        return self._native.step(_actions(action_ids), None, None)

    def step_checked(self, action_ids, state_ids) -> dict:
        """``step(action_ids)`` after checking every game's ``state_ids`` entry (uint64 [B]) is its live
        state id (else StaleStateError)."""
        self._check_open()
        return self._native.step(_actions(action_ids), _state_ids(state_ids), None)

    def step_into(self, action_ids: np.ndarray, buffers: dict) -> None:
        """``step`` writing into caller-owned ``buffers`` (exactly ``batch_spec()``), for synchronous loops.

        ``action_ids``: int32 [B] (any stride; copied before the batch is written, so it may view
        ``buffers``). Everything is validated before any game changes: a wrong dtype, length or
        buffer raises ValueError, pending leaves PendingLeavesError, and nothing changes. Prefer
        ``step_into_checked`` when actions may come from an older batch.
        """
        self._check_open()
        self._native.step(action_ids, None, buffers)

    def step_into_checked(self, action_ids: np.ndarray, state_ids: np.ndarray, buffers: dict) -> None:
        """``step_checked`` writing into ``buffers``: ``action_ids`` int32 [B] and ``state_ids`` uint64 [B] (copied
        before the batch is written, so they may view ``buffers``)."""
        self._check_open()
        self._native.step(action_ids, state_ids, buffers)

    # ------------------------------------------------------------------ search
    def select_leaves(self, max_leaves: int | None = None) -> dict:
        """Selects new leaves (at most ``max_leaves``, default B * pending) and returns their batch.

        Rows are packed in tree order; an unexpanded root gives one leaf, an
        expanded tree up to ``max_pending_leaves_per_tree`` in flight.
        """
        self._check_open()
        count, batch = self._native.select_leaves(self._capacity(max_leaves), None)
        return {key: value[:count] for key, value in batch.items()}

    def select_leaves_into(self, buffers: dict, max_leaves: int | None = None) -> int:
        """``select_leaves`` into ``buffers`` (exactly ``leaf_batch_spec(max_leaves)``); returns the
        valid prefix length (the tail is not cleared)."""
        self._check_open()
        count, _ = self._native.select_leaves(self._capacity(max_leaves), buffers)
        return count

    def expand_and_backup(self, leaf_ids, policy_logits, values) -> None:
        """Expands each leaf with softmax(policy_logits) over its action rows and backs up its value.

        ``leaf_ids`` uint64 [L]; ``policy_logits`` float32 [L, max_actions] (by padded row;
        only a leaf's valid rows are read and must be finite); ``values`` float32 in [-1, 1],
        [L] from the leaf's ``to_play`` when P = 2, else [L, P] in global player order.
        """
        self._check_open()
        self._native.expand_and_backup(leaf_ids, policy_logits, values)

    def cancel_leaves(self, leaf_ids) -> None:
        """Drops the pending leaves ``leaf_ids`` (uint64 [L]; their virtual loss is rolled back, completed work is kept)."""
        self._check_open()
        self._native.cancel_leaves(leaf_ids)

    def abort_search(self) -> None:
        """Cancels every pending leaf of every tree."""
        self._check_open()
        self._native.abort_search()

    def root_policy(self, temperature: float = 1.0) -> dict:
        """Per game: root action rows, visit counts, policy ∝ N^(1/T) with T = ``temperature`` (0: argmax), root value,
        ``improved_policy`` float32 [B, A] (softmax(log prior + σ(completed Q)) over the root's rows: a
        training target), ``gumbel`` float32 [B, A] (the root's Gumbel draws; 0 under PUCT) and
        ``selected_action`` / ``selected_row`` int32 [B] (the action the search plays: Gumbel's
        sequential-halving winner, PUCT's most visited row; -1 without legal actions)."""
        self._check_open()
        return self._native.root_policy(_number(temperature, "temperature"), None)

    def root_policy_into(self, buffers: dict, temperature: float = 1.0) -> None:
        """``root_policy(temperature)`` into ``buffers`` (exactly ``root_policy_spec()``)."""
        self._check_open()
        self._native.root_policy(_number(temperature, "temperature"), buffers)

    def search_stats(self) -> dict:
        """Per tree: ``nodes``, ``bytes`` (accounted), ``pending_leaves``, the two budget flags,
        ``kept_nodes`` (int64: nodes the last real move carried over, 0 for a fresh root) and
        ``reuse`` (int8: 0 fresh root, 1 subtree kept, 2 the move's child was never created,
        3 the move's outcome differed from the tree's child, e.g. by chance)."""
        self._check_open()
        return self._native.search_stats()

    def __repr__(self) -> str:
        return (f"MctsPool(num_envs={self.num_envs}, players={self.player_count}, max_actions={self.max_actions}, "
                f"num_threads={self.num_threads}{', closed' if self.closed else ''})")
