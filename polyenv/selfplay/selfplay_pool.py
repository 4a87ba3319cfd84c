"""SelfPlayPool: belief-rooted MCTS self-play over many live fog-of-war games.

The live games stay authoritative inside C++ but are never searched: after each
real move the caller submits completed map tokens (a belief model's filling of
each observation's hidden rows), the pool validates them and roots every tree
in a detached belief world built from the tokens alone::

    request = pool.reset()
    beliefs = belief_model(pool.all_player_belief_requests())   # [B, P, (K,) tiles, 23]
    pool.submit_beliefs(request["state_id"], beliefs)
    leaves = pool.select_leaves()
    ...  # expand_and_backup / root_policy / step_checked as with MctsPool

With per-player beliefs ([B, P, (K,) tiles, 23]) a search re-determinizes at every actor
change: the next actor acts in its own world (its particle chosen by a stable branch hash,
its own actions replayed, only tiles seen in the simulation merged). The
SelfPlayPool page of the documentation lists every key, error and the fog-safety guarantees.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .. import _core
from .. import _validate as _v
from .._levels import episode_levels
from .._names import mode_code
from ..vector_env import _state_ids
from .mcts_pool import _MIB, MctsPool, _number, _spec, pool_arguments, root_selection_arguments

__all__ = ["SelfPlayPool", "BeliefsMissingError"]

BeliefsMissingError = _core.BeliefsMissingError
BeliefsMissingError.__doc__ = ("select_leaves() before beliefs were submitted for every game's live state id "
                               "(submit_beliefs after each reset and step).")


class SelfPlayPool(MctsPool):
    """Many live fog-of-war games whose MCTS trees are rooted in submitted belief worlds.

    Args:
        num_envs: B, live games (and trees).
        seed: episode k of game i is ``GameEnv(seed=seed + i + k * B)``.
        map_size: board side N (None: 11, or the levels' size).
        players: tribes in turn order, 2 to 16 (fog of war is always on); None: Bardur, Imperius,
            or with levels each level's own.
        level: one Tribes CSV level every episode is played on, as :class:`MctsPool` takes it.
        levels: a level pool, as :class:`MctsPool` takes it (episode k of game i plays
            ``levels[(i + k * B) % len(levels)]``).
        num_threads: worker threads (caller included); None: one per core, at most B.
        max_actions: action-row capacity A (0: ``action_space_size``, every legal action fits).
        require_all_actions: True: a position with more than A legal actions raises
            ActionOverflowError; False: deterministic truncation keeping End Turn.
        auto_reset: a finished game starts its next episode inside the ending step.
        c_puct: exploration constant of PUCT.
        visible_action_history: H in 0--1024, rows of the compact visible-action history
            (``polyenv.VISIBLE_ACTION_HISTORY_FEATURE_NAMES``) in every request, per-player
            and leaf batch; 0 disables it (the fields then have H = 0 rows).
        max_pending_leaves_per_tree: 1--8 leaves in flight per tree.
        virtual_loss: value subtracted per in-flight path in Q.
        max_nodes_per_tree: node admission budget (0: none).
        max_tree_bytes: accounted-bytes admission budget (0: none).
        mode: ``"capitals"`` or ``"score"``.
        max_turns: overrides the mode's turn limit.
        root_selection: "puct" (default) or "gumbel": sequential halving at each belief root, its
            noise drawn from the root's belief seed (as MctsPool).
        num_simulations: the simulation budget of one Gumbel search (as MctsPool).
        max_considered_actions: root actions Gumbel considers (as MctsPool).
        gumbel_scale: scale of the root's Gumbel noise (as MctsPool).
        gumbel_value_scale: of the completed-Q transform (as MctsPool).
        gumbel_maxvisit_init: of the completed-Q transform (as MctsPool).
        include_combat_preview: attack rows carry the combat preview (as MctsPool).

    Subtree reuse (MctsPool's ``reuse_tree``) does not apply: every real move roots the
    trees in newly submitted beliefs.
    """

    def __init__(self, num_envs: int, seed: int = 0, map_size: int | None = None, players: Sequence | None = None,
                 num_threads: int | None = None, max_actions: int = 0, require_all_actions: bool = True,
                 auto_reset: bool = True, c_puct: float = 1.5, visible_action_history: int = 0,
                 max_pending_leaves_per_tree: int = 1, virtual_loss: float = 1.0,
                 max_nodes_per_tree: int = 20_000, max_tree_bytes: int = 512 * _MIB,
                 mode: str = "capitals", max_turns: int | None = None, root_selection: str = "puct",
                 num_simulations: int | None = None, max_considered_actions: int = 16, gumbel_scale: float = 1.0,
                 gumbel_value_scale: float = 0.1, gumbel_maxvisit_init: float = 50.0, level=None, levels=None,
                 include_combat_preview: bool = False):
        level_texts, map_size, players = episode_levels(level, levels, map_size, players)
        num_envs, seed, map_size, tribes, threads, max_actions, pending, max_nodes, max_bytes = pool_arguments(
            num_envs, seed, map_size, players, num_threads, max_actions, max_pending_leaves_per_tree,
            max_nodes_per_tree, max_tree_bytes)
        history = _v.native_int(visible_action_history, "visible_action_history")  # 0..1024: the native check
        root = root_selection_arguments(root_selection, num_simulations, max_considered_actions, gumbel_scale,
                                        gumbel_value_scale, gumbel_maxvisit_init)
        self._native = _core.SelfPlayPool(
            num_envs, seed, map_size, tribes, mode_code(mode), _v.max_turns(max_turns), False, threads,
            max_actions, _v.boolean(require_all_actions, "require_all_actions"), _v.boolean(auto_reset, "auto_reset"),
            _number(c_puct, "c_puct"), pending,
            _number(virtual_loss, "virtual_loss"), max_nodes, max_bytes, history, level_texts,
            combat_preview=_v.boolean(include_combat_preview, "include_combat_preview"), **root)
        self._require_all = bool(require_all_actions)
        self._auto_reset = bool(auto_reset)
        self._root_selection = root_selection
        self._num_simulations = num_simulations
        self._reuse_tree = False

    visible_action_history = property(lambda self: self._native.visible_action_history,
                                      doc="H, history rows per batch row.")

    def _check_open(self) -> None:
        if self._native.closed:
            raise RuntimeError("this SelfPlayPool is closed")

    # ------------------------------------------------------------------ specs
    def belief_batch_spec(self) -> dict:
        """``{key: {"shape", "dtype"}}`` of the [B, ...] request batch (reset / step / belief_requests)."""
        return self.batch_spec()

    def all_player_belief_batch_spec(self) -> dict:
        """The per-player [B, P, ...] belief input batch (all_player_belief_requests)."""
        self._check_open()
        return _spec(self._native.all_player_batch_spec())

    # ------------------------------------------------------------------ observations
    def belief_requests(self) -> dict:
        """The current request batch (as the last reset / step returned it); changes nothing."""
        self._check_open()
        return self._native.belief_requests(None)

    def belief_requests_into(self, buffers: dict) -> None:
        """``belief_requests`` into caller-owned ``buffers`` (exactly ``belief_batch_spec()``)."""
        self._check_open()
        self._native.belief_requests(buffers)

    def all_player_belief_requests(self) -> dict:
        """Every player's own fog-filtered view: map_tokens [B, P, tiles, 23], state [B, P, 11],
        belief_player [B, P], to_play [B, P] (the live actor, repeated), ids and history; no action rows."""
        self._check_open()
        return self._native.all_player_belief_requests(None)

    def all_player_belief_requests_into(self, buffers: dict) -> None:
        """``all_player_belief_requests`` into ``buffers`` (exactly ``all_player_belief_batch_spec()``)."""
        self._check_open()
        self._native.all_player_belief_requests(buffers)

    # ------------------------------------------------------------------ beliefs
    def submit_beliefs(self, state_ids, beliefs: np.ndarray) -> None:
        """Roots every tree in a belief world built from completed map tokens.

        ``state_ids``: uint64 [B], the live state ids (StaleStateError otherwise).
        ``beliefs``: C-contiguous int32 [B, tiles, 23] (legacy: the actor's view completed),
        [B, P, tiles, 23] (one particle per player) or [B, P, K, tiles, 23]. Every particle must
        keep column 0 and every visible row of its player's observation; the actor's particles
        must reproduce the live legal action set. Any malformed particle raises ValueError and
        no tree changes. PendingLeavesError while leaves are pending. With the per-player forms
        every player's particle worlds are kept: at an actor change inside the tree the next
        actor's world is rebuilt from one of its own particles (re-determinization).
        """
        self._check_open()
        self._native.submit_beliefs(_state_ids(state_ids), beliefs)

    def fit_beliefs(self, state_ids, beliefs: np.ndarray) -> np.ndarray:
        """A copy of ``beliefs`` whose actor particles reproduce the actor's live legal list.

        ``state_ids``: uint64 [B], the live state ids (StaleStateError otherwise). ``beliefs``: as
        ``submit_beliefs`` takes it (int32, C-contiguous, [B, tiles, 23], [B, P, tiles, 23] or
        [B, P, K, tiles, 23]); it is not changed. The actor's legal action list is part of what it
        observes, and ``submit_beliefs`` requires each of its particles to reproduce it; what
        decides it can lie in hidden rows. This adds to the hidden rows of the actor's particles the
        least the list proves: a unit of another tribe next to a visible tile where its zone of
        control stops a move the list lacks, the actor's own territory (with the terrain, resource
        or building needed) on a hidden tile the list builds on or acts on, or no territory on a
        hidden tile where only the hypothesis acts. It reads only the particles, the actor's own
        records and its live legal list, deterministically; visible rows and the other players'
        particles are never changed. A particle it cannot fit stays as close as it got, and
        ``submit_beliefs`` names what still differs.
        """
        self._check_open()
        ids = _state_ids(state_ids)
        out = np.array(beliefs, order="C", copy=True) if isinstance(beliefs, np.ndarray) else beliefs
        self._native.fit_beliefs(ids, out)
        return out

    def __repr__(self) -> str:
        return (f"SelfPlayPool(num_envs={self.num_envs}, players={self.player_count}, "
                f"max_actions={self.max_actions}, num_threads={self.num_threads}"
                f"{', closed' if self.closed else ''})")
