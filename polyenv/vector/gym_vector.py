"""TribesVectorEnv: ``polyenv/Tribes-v0`` as a Gymnasium ``VectorEnv`` on the native VectorGameEnv.

```python
import gymnasium as gym
import polyenv

envs = gym.make_vec("polyenv/Tribes-v0", num_envs=64, vectorization_mode="vector_entry_point",
                    opponent="random", action_mode="global")
obs, infos = envs.reset(seed=0)                       # environment i plays seed + i
actions = ...                                         # int [64], legal under envs.action_masks()
obs, rewards, terminations, truncations, infos = envs.step(actions)
```

Every call is one native :class:`polyenv.VectorGameEnv` call (the games run on
its C++ worker pool with the GIL released) plus a few whole-batch NumPy
operations: nothing loops over environments, except building
``infos["final_obs"]`` for the environments that just finished.

The single-environment semantics are those of :class:`polyenv.envs.gym_env.TribesEnv`
(spaces, observations, rewards, invalid-action policies). Autoreset is
``AutoresetMode.SAME_STEP``: an environment whose game ended in a step is reset
inside that step; its returned observation is the first of the next episode,
``rewards`` / ``terminations`` describe the ended one, and
``infos["final_obs"]`` (an object array; ``infos["_final_obs"]`` marks the
entries) holds the terminal observation, ``infos["final_info"]`` its info.
Episode k of environment i plays the map of ``seed + i + k * num_envs``.
``autoreset=False`` gives ``AutoresetMode.DISABLED`` (TorchRL's preferred
mode): a finished environment keeps returning its terminal observation (no
``final_obs``), stepping it raises :class:`EnvironmentFinishedError` until it
is reset, and ``reset(options={"reset_mask": mask})`` resets the finished
environments of ``mask`` alone (the others continue; mid-episode environments
can only be restarted all together, by ``reset()`` without a mask).

``observation_format="flat"`` returns ``{"observation": float32 [num_envs, D],
"action_mask"}`` (:mod:`polyenv.envs.flat`), encoded for the whole batch at once.

``level`` (one level) and ``levels`` (a level pool) are read as
:class:`polyenv.VectorGameEnv` reads them (and as :class:`~polyenv.envs.gym_env.TribesEnv`
takes them) and played by it natively, a pool in round-robin order: episode k of
environment i plays level ``(i + k * num_envs) % len(levels)``.

Not available natively (these raise ValueError and name the alternative):
``level_selection="seeded_random"``, a callable ``opponent``, ``learner_seat="random"``,
``info_mode="debug"`` and ``max_episode_steps`` —
use ``vectorization_mode="sync"`` (or ``"async"``) for them.
"""

from __future__ import annotations

import sys

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import _core
from .. import _validate as _v
from ..description import game_description
from ..envs.options import END_TURN_ROW, apply_invalid_action, check_common_kwargs, describe_games
from ..envs.spaces import flat_encoder, observation_space
from ..vector_env import VectorGameEnv

__all__ = ["TribesVectorEnv", "EnvironmentFinishedError"]


# State columns read here (the engine's layout, polyenv.GameDescription.state_columns).
_STATE = game_description().state_columns
_TURN, _CURRENT_PLAYER, _WINNER = _STATE["turn"], _STATE["current_player"], _STATE["winner"]


class EnvironmentFinishedError(RuntimeError):
    """``autoreset=False``: an environment whose episode ended was stepped before being reset."""

_MASK_POOL = 4  # recycled global-id masks (copy=True): the live one, SB3's previous one, spares


def _refcount(mask: np.ndarray) -> int:
    return sys.getrefcount(mask)


def _pool_only_refcount() -> int:
    """The count _refcount sees for an array that only its pool tuple holds."""
    entry = (np.zeros(1, np.int8),)
    return _refcount(entry[0])


_POOL_ONLY_REFCOUNT = _pool_only_refcount()


class TribesVectorEnv(VectorEnv):
    """``num_envs`` Tribes games as one Gymnasium vector environment (see the module docstring).

    Takes the keyword arguments of :class:`~polyenv.envs.gym_env.TribesEnv`, plus:

    Args:
        num_envs: the number of games.
        num_threads: native simulation threads (None: the CPU count, at most num_envs).
        copy: True (default) returns arrays the caller owns (fresh every step; the
            global-mode mask array is recycled only once nothing refers to it).
            False returns views of two alternating sets of internal buffers: what
            a step returns stays valid through the next step and is overwritten
            by the one after it (enough for rollout loops that keep the previous
            observation, such as SB3's); no per-step allocation.
        seed: seed of the first episodes before any ``reset(seed=...)`` (None: random).
        autoreset: True (default): ``AutoresetMode.SAME_STEP``; False: ``AutoresetMode.DISABLED`` (module docstring).
        observation_format: ``"dict"`` or ``"flat"`` (as :class:`~polyenv.envs.gym_env.TribesEnv`).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, num_envs: int = 1, map_size: int | None = None, players=None, opponent="random",
                 learner_seat=0, mode: str = "capitals", max_turns: int | None = None, action_mode: str = "global",
                 max_actions: int = 512, levels=None, level_selection: str = "round_robin", reward: str = "terminal",
                 invalid_action: str = "end_turn", invalid_action_penalty: float = -0.1, info_mode: str = "fast",
                 render_mode: str | None = None, full_observability: bool = False, num_threads: int | None = None,
                 copy: bool = True, max_episode_steps: int | None = None, seed: int | None = None,
                 autoreset: bool = True, observation_format: str = "dict", level=None):
        unsupported = {
            "level_selection='seeded_random' (native level pools play in round-robin order)":
                levels is not None and level_selection == "seeded_random",
            "a callable opponent": callable(opponent) and not isinstance(opponent, str),
            "learner_seat='random'": learner_seat == "random",
            "info_mode='debug' (action descriptions need per-game Python calls)": info_mode == "debug",
            "max_episode_steps (native games reset only when they end)": max_episode_steps is not None,
        }
        for what, used in unsupported.items():
            if used:
                raise ValueError(f"TribesVectorEnv does not support {what}; use gym.make_vec(..., "
                                 f"vectorization_mode='sync') for it")
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        if not isinstance(autoreset, (bool, np.bool_)):
            raise ValueError(f"autoreset must be a bool, got {autoreset!r}")
        # Every level is checked against this configuration, as the single environment does.
        d, tribes, pool = describe_games(map_size, players, level, levels, max_actions, mode=mode, max_turns=max_turns,
                                         full_observability=full_observability)
        #: The :class:`polyenv.GameDescription` of every game of this vector env.
        self.description = d
        P = d.num_players
        check_common_kwargs(opponent, learner_seat, P, action_mode, level_selection, reward,
                            invalid_action, invalid_action_penalty, info_mode, render_mode,
                            self.metadata["render_modes"])
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % 2**63)
        self.num_envs = int(num_envs)
        self.opponent, self.learner_seat, self.action_mode = opponent, learner_seat, action_mode
        self.max_actions, self.reward_mode, self.info_mode = d.max_actions, reward, info_mode
        self.invalid_action, self.invalid_action_penalty = invalid_action, float(invalid_action_penalty)
        self.render_mode, self.copy = render_mode, _v.boolean(copy, "copy")
        self.autoreset = _v.boolean(autoreset, "autoreset")
        # Gymnasium's vector envs (and wrappers such as TorchRL's GymWrapper) read the mode from the instance.
        self.autoreset_mode = AutoresetMode.SAME_STEP if self.autoreset else AutoresetMode.DISABLED
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.map_size, self.num_players = d.map_size, P
        self.action_space_size = d.action_space_size
        self.action_space_fingerprint = d.action_space_fingerprint
        self.turn_limit = d.turn_limit
        self._native = VectorGameEnv(
            num_envs=self.num_envs, seed=seed, map_size=d.map_size, players=tribes, num_threads=num_threads,
            levels=pool,  # read and checked once, by describe_games
            max_actions=self.max_actions, auto_reset=self.autoreset, mode=mode, max_turns=max_turns,
            full_observability=full_observability, keep_terminal_observation=True, opponent=opponent,
            learner_seats=None if opponent is None else (int(learner_seat),), reward=reward)
        if observation_format == "box":
            raise ValueError("TribesVectorEnv supports observation_format 'dict' or 'flat' (the 'box' format is for "
                             "single environments; a vector env returns the masks with the observations)")
        self.observation_format = observation_format
        self._flat = flat_encoder(observation_format, d, action_mode)
        n = self.action_space_size if action_mode == "global" else self.max_actions
        if self._flat is None:
            self.single_observation_space = observation_space(d, action_mode)
        else:
            self.single_observation_space = self._flat.space(n)
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._rows = np.arange(self.num_envs)
        self._mask_offsets = self._rows * self.action_space_size
        self._row_offsets = self._rows * self.max_actions
        self._slots = [] if self.copy else [self._allocate(), self._allocate()]
        # The slots' map_tokens / action_features / action_arg_mask reach the user only in the dict
        # observations (views); with the flat format nobody but the native env and this class (which
        # calls forget_buffers after writing) writes them, so their steps may skip the zeros in place.
        self._slots_untouched = not self.copy and self._flat is not None
        self._slot_views: list[tuple[dict, dict] | None] = [None, None]  # copy=False: (obs, infos) per slot
        self._slot = 0
        # Global mode: (mask, the ids it marks, their count per row) — one per slot with copy=False,
        # a recycling pool with copy=True.
        self._slot_masks: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._mask_pool: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._batch = None
        self._obs = None
        self._seat = 0 if opponent is None else int(learner_seat)
        B = self.num_envs
        self._all = self._constant(np.ones(B, dtype=bool))
        self._no_truncation = self._constant(np.zeros(B, dtype=bool))
        self._fingerprints = self._constant(np.full(B, self.action_space_fingerprint, dtype=np.uint64))
        self._seats = self._constant(np.full(B, self._seat, dtype=np.int64))
        # autoreset=False: a native game that ended stays over (VectorGameEnv auto_reset=False: its row shows
        # the terminal observation, no legal action) until reset(options={"reset_mask"}) restarts it.
        self._held = np.zeros(B, dtype=bool)

    # ------------------------------------------------------------------ native extras
    @property
    def native(self) -> VectorGameEnv:
        """The :class:`polyenv.VectorGameEnv` simulating the games."""
        return self._native

    def batch_spec(self) -> dict:
        """The native batch layout: ``{key: {"shape", "dtype"}}`` (``VectorGameEnv.batch_spec``)."""
        return self._native.batch_spec()

    def step_into(self, action_ids: np.ndarray, buffers: dict, *, buffers_untouched: bool = False) -> None:
        """Native step: global action ids (int32 [num_envs]) in, the native batch written into ``buffers``.

        Bypasses the Gymnasium conversion (no invalid-action policy: illegal ids
        leave their game unchanged, ``action_valid = 0``). The next ``step`` reads
        its legal rows from ``buffers``, so keep them unchanged until then.
        ``buffers_untouched``: as ``VectorGameEnv.step_into``.
        """
        self._native.step_into(action_ids, buffers, buffers_untouched=buffers_untouched)
        if not self.copy:
            self._next_slot()  # the mask of this batch goes to the next slot
        self._set_batch(buffers)

    def step_checked(self, action_ids, state_ids) -> dict:
        """Native checked step: global action ids and the ``state_id`` of each row's observation.

        A stale state id raises ``polyenv.StaleStateError`` and changes nothing.
        Returns the native batch (``VectorGameEnv.step_checked``).
        """
        batch = self._native.step_checked(action_ids, state_ids)
        if not self.copy:
            self._next_slot()
        self._set_batch(batch)
        return batch

    # ------------------------------------------------------------------ helpers
    def _allocate(self) -> dict:
        return {name: np.empty(f["shape"], f["dtype"]) for name, f in self._native.batch_spec().items()}

    @staticmethod
    def _constant(a: np.ndarray) -> np.ndarray:
        a.flags.writeable = False  # shared by every step's infos
        return a

    def _next_slot(self) -> dict:
        self._slot ^= 1
        return self._slots[self._slot]

    def _set_batch(self, batch: dict) -> None:
        self._batch = batch
        slot = self._slot if not self.copy and batch is self._slots[self._slot] else -1
        if slot < 0:
            self._obs, self._info_views = self._observation(batch), self._info_arrays(batch)
            return
        # copy=False: a slot's buffers never move, so its views are made once.
        if self._slot_views[slot] is None:
            self._slot_views[slot] = (self._observation(batch), self._info_arrays(batch))
        else:
            if self.action_mode == "global":
                self._global_mask(batch)  # updates the slot's mask array in place
            if self._flat is not None:
                self._encode_flat(batch, out=self._slot_views[slot][0]["observation"])
        obs, self._info_views = self._slot_views[slot]
        self._obs = dict(obs)  # a fresh dict each step, over the slot's arrays

    def _global_mask(self, batch: dict) -> np.ndarray:
        """The [num_envs, action_space_size] int8 mask of the represented legal ids of ``batch``.

        Legal rows are the first ``legal_action_count`` of each row. With ``copy=False``
        each buffer slot keeps its mask and the ids it marks, so only changed ids are written.
        """
        ids = np.ascontiguousarray(batch["action_id"])
        counts = np.ascontiguousarray(batch["legal_action_count"])
        if self.copy:
            out, marked, marked_count = self._unreferenced_mask(ids.shape)
        else:
            if not self._slot_masks:
                self._slot_masks = [self._new_mask(ids.shape) for _ in range(2)]
            out, marked, marked_count = self._slot_masks[self._slot]
        _core.update_id_mask(out, ids, counts, marked, marked_count)
        return out

    def _new_mask(self, ids_shape) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """An all-zero global mask with room to record the ids it will mark."""
        return (np.zeros((self.num_envs, self.action_space_size), dtype=np.int8), np.empty(ids_shape, np.int32),
                np.zeros(self.num_envs, np.int32))

    def _unreferenced_mask(self, ids_shape) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """copy=True: a mask array nobody else holds, with the ids it marks.

        A fresh [N, 25452] array per step costs more than the rest of the step
        (allocation and zeroing), so returned masks are recycled once the caller
        has dropped every reference to them (the pool's own reference is then the
        only one): a mask the caller still holds, or a view of it, is never
        touched. Up to ``_MASK_POOL`` masks are kept.
        """
        for entry in self._mask_pool:
            if _refcount(entry[0]) <= _POOL_ONLY_REFCOUNT:  # nobody else holds it, or a view of it
                return entry
        entry = self._new_mask(ids_shape)
        if len(self._mask_pool) < _MASK_POOL:
            self._mask_pool.append(entry)
        return entry

    def _observers(self, state: np.ndarray) -> np.ndarray | int:
        """The seat each row is observed by: the learner's, or (self-play) the player to move."""
        return state[..., _CURRENT_PLAYER] if self.opponent is None else self._seat

    def _encode_flat(self, batch: dict, out: np.ndarray | None = None) -> np.ndarray:
        return self._flat.encode(batch["map_tokens"], batch["state"], self._observers(batch["state"]),
                                 batch["action_features"], batch["legal_action_count"], out=out)

    def _observation(self, batch: dict) -> dict:
        if self.action_mode == "global":
            mask = self._global_mask(batch)
            if self._flat is not None:
                return {"observation": self._encode_flat(batch), "action_mask": mask}
            return {"map_tokens": batch["map_tokens"], "state": batch["state"], "action_mask": mask}
        mask = batch["action_mask"].view(np.int8)
        if self._flat is not None:
            return {"observation": self._encode_flat(batch), "action_mask": mask}
        return {"map_tokens": batch["map_tokens"], "state": batch["state"], "action_mask": mask,
                "action_id": batch["action_id"], "action_features": batch["action_features"]}

    def _final_observations(self, batch: dict, done: np.ndarray) -> np.ndarray:
        """``infos["final_obs"]``: the terminal observations of the environments ``done``,
        encoded in one batched call and split natively into one dict of row views each."""
        n = done.size
        tokens, state = batch["final_map_tokens"][done], batch["final_state"][done]
        if self._flat is not None:
            no_rows = np.zeros((n, self.max_actions, len(_core.ACTION_FEATURE_NAMES)), np.int32)
            rows = {"observation": self._flat.encode(tokens, state, self._observers(state), no_rows,
                                                     np.zeros(n, np.int32)),
                    "action_mask": np.zeros((n, self.single_action_space.n), np.int8)}
        elif self.action_mode == "global":
            rows = {"map_tokens": tokens, "state": state,
                    "action_mask": np.zeros((n, self.action_space_size), np.int8)}
        else:
            rows = {"map_tokens": tokens, "state": state, "action_mask": np.zeros((n, self.max_actions), np.int8),
                    "action_id": np.full((n, self.max_actions), -1, np.int32),
                    "action_features": np.zeros((n, self.max_actions, len(_core.ACTION_FEATURE_NAMES)),
                                                np.int32)}
        return _core.row_objects(rows, done, self.num_envs)

    def _info_arrays(self, batch: dict) -> dict:
        """The per-step info entries that are views of ``batch`` (and their ``_key`` masks)."""
        infos = {
            "legal_global_ids_padded": batch["action_id"],
            "legal_action_valid_mask": batch["action_mask"].view(bool),
            "legal_action_count": batch["legal_action_count"],
            "total_legal_action_count": batch["total_legal_action_count"],
            "action_truncated": batch["action_truncated"].view(bool),
            "action_space_fingerprint": self._fingerprints,
            "learner_seat": self._seats,
        }
        for key in list(infos):
            infos["_" + key] = self._all
        return infos

    def _infos(self, invalid: np.ndarray | None) -> dict:
        infos = dict(self._info_views)  # a fresh dict each step (callers may add to it)
        if invalid is not None:
            infos["invalid_action"], infos["_invalid_action"] = invalid, self._all
        return infos

    def _run(self, ids: np.ndarray) -> dict:
        if self.copy:
            return self._native.step(ids)
        slot = self._next_slot()
        self._native.step_into(ids, slot, buffers_untouched=self._slots_untouched)
        return slot

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | list | None = None, options: dict | None = None):
        """Starts a new episode in every environment: ``seed`` (an int, or the list
        ``[s, s+1, ...]``) restarts the seed sequence, environment i playing ``s + i``;
        None continues each environment's sequence. Returns ``(obs, infos)``.

        With ``autoreset=False``, ``options={"reset_mask": bool [num_envs]}``
        resets the finished environments it marks (their next episode of the
        sequence); a mask that marks every environment is a full reset."""
        options = dict(options or {})
        reset_mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(f"reset takes no options other than reset_mask, got {options!r}")
        if reset_mask is not None:
            mask = self._check_reset_mask(reset_mask, seed)
            if not mask.all():
                return self._release(mask)
        if isinstance(seed, (list, tuple, np.ndarray)):
            seeds = [int(s) for s in seed]
            if len(seeds) != self.num_envs or seeds != list(range(seeds[0], seeds[0] + self.num_envs)):
                raise ValueError("a list of seeds must be [s, s + 1, ..., s + num_envs - 1] (native seed sequence)")
            seed = seeds[0]
        if seed is not None:
            self._np_random, self._np_random_seed = np.random.default_rng(seed), int(seed)
        if seed is None and self._held.any():
            # A finished game's next episode counts as started (as an automatic reset starts it), so the seed
            # sequence is the one autoreset=True plays: this reset starts the episode after it.
            self._native.reset_slots(np.flatnonzero(self._held).astype(np.int32))
        if self.copy:
            batch = self._native.reset(seed)
        else:
            batch = self._next_slot()
            self._native.reset_into(batch, seed, buffers_untouched=self._slots_untouched)
        self._held[:] = False
        self._set_batch(batch)
        return self._obs, self._infos(None)

    def _check_reset_mask(self, reset_mask, seed) -> np.ndarray:
        """Validates ``options["reset_mask"]`` (ValueError, nothing changes)."""
        if self.autoreset:
            raise ValueError("reset_mask needs autoreset=False (with autoreset, finished games reset themselves)")
        mask = np.asarray(reset_mask)
        if mask.shape != (self.num_envs,) or mask.dtype != np.bool_ or not mask.any():
            raise ValueError(f"reset_mask must be a bool array of shape ({self.num_envs},) with a True entry, "
                             f"got {mask.dtype} {mask.shape}")
        if not mask.all():
            if self._batch is None:
                raise RuntimeError("call reset() without a mask first")
            running = np.flatnonzero(mask & ~self._held)
            if running.size:
                raise ValueError(f"environments {running[:10].tolist()} are mid-episode: only finished "
                                 "environments reset alone (reset every environment with reset() for a restart)")
            if seed is not None:
                raise ValueError("a seed restarts every environment's sequence: pass it without a partial reset_mask")
        return mask

    def _release(self, mask: np.ndarray):
        """autoreset=False: starts the next episode of the finished environments in ``mask``."""
        rows = np.flatnonzero(mask).astype(np.int32)
        fresh = self._native.reset_slots(rows)
        batch = {k: v.copy() for k, v in self._batch.items()} if self.copy else self._copy_to_next_slot()
        for key, value in fresh.items():
            if key in batch and key not in ("reward", "terminated", "action_valid"):
                batch[key][rows] = value
        self._held[rows] = False
        self._set_batch(batch)
        return self._obs, self._infos(None)

    def _copy_to_next_slot(self) -> dict:
        previous, slot = self._batch, self._next_slot()
        for key, value in previous.items():
            slot[key][...] = value
        self._native.forget_buffers()  # we wrote into native output arrays (VectorGameEnv.forget_buffers)
        return slot

    def _action_ids(self, actions) -> tuple[np.ndarray, np.ndarray]:
        """Global ids (int32 [B], -1 for a padding row) and legality (bool [B]) of a batch of actions."""
        a = actions if type(actions) is np.ndarray else np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise ValueError(f"actions must be an integer array of shape ({self.num_envs},), "
                             f"got {a.dtype} {a.shape}")
        n = self.single_action_space.n
        if a.min() < 0 or a.max() >= n:
            raise ValueError(f"actions must be in [0, {n}), got values in [{a.min()}, {a.max()}]")
        if self.action_mode == "global":
            legal = self._obs["action_mask"].reshape(-1)[self._mask_offsets + a].view(bool)
            return a.astype(np.int32), legal
        legal = a < self._batch["legal_action_count"]
        ids = self._batch["action_id"].reshape(-1)[self._row_offsets + a]  # padding rows hold -1
        return ids, legal

    def step(self, actions):
        """Steps every environment; returns ``(obs, rewards, terminations, truncations, infos)``.

        ``actions`` is an int array [num_envs] of the single action space
        (global ids or rows). Invalid actions follow ``invalid_action``; with
        ``"raise"`` a ValueError names the environments and nothing changes.
        """
        if self._batch is None:
            raise RuntimeError("call reset() before step()")
        if self._held.any():
            finished = np.flatnonzero(self._held)
            raise EnvironmentFinishedError(f"environments {finished[:10].tolist()} finished their episode: reset "
                                           "them first (reset(options={'reset_mask': mask})); nothing was stepped")
        ids, legal = self._action_ids(actions)
        invalid = ~legal

        def error() -> str:
            bad = np.flatnonzero(invalid)
            return (f"illegal actions in environments {bad[:10].tolist()}{' ...' if bad.size > 10 else ''}: "
                    f"{np.asarray(actions)[bad[:10]].tolist()}; nothing was stepped")

        ids, penalised = apply_invalid_action(self.invalid_action, ids, legal,
                                              self._batch["action_id"][:, END_TURN_ROW], error)
        previous = self._batch  # not overwritten by this step (a fresh batch or the other slot)
        batch = self._run(ids)
        if not self.autoreset:
            self._held |= batch["terminated"].view(bool)
        self._set_batch(batch)
        rewards = batch["reward"]  # float32 [B], this step's own array (fresh, or a buffer of copy=False)
        if penalised is not None:  # their games were left unchanged
            rewards[penalised] = self.invalid_action_penalty
        terminations = batch["terminated"].view(bool)
        truncations = self._no_truncation
        infos = self._infos(invalid)
        if terminations.any() and self.autoreset:
            done = np.flatnonzero(terminations)
            final_obs = self._final_observations(batch, done)
            winner = np.where(terminations, batch["final_state"][:, _WINNER], -1)
            actors = previous["state"][:, _CURRENT_PLAYER]  # the seat that acted in each row
            infos["final_obs"], infos["_final_obs"] = final_obs, terminations.copy()
            infos["final_info"] = {"winner": winner, "_winner": terminations.copy(),
                                   "is_success": terminations & (winner == actors), "_is_success": terminations.copy(),
                                   "invalid_action": invalid, "_invalid_action": terminations.copy()}
            infos["_final_info"] = terminations.copy()
        return self._obs, rewards, terminations, truncations, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of the current observations, bool [num_envs, single_action_space.n]."""
        if self._obs is None:
            raise RuntimeError("call reset() first")
        return self._obs["action_mask"].astype(bool)

    def render(self):
        """Each environment's board as the learner sees it (fog of war): a tuple of str
        (``"ansi"``) or uint8 [H, W, 3] images (``"rgb_array"``); None without render_mode."""
        if self.render_mode is None or self._batch is None:
            return None
        from ..viz.render import render_ansi, render_rgb

        tokens, state = self._batch["map_tokens"], self._batch["state"]
        P, n = self.num_players, self.map_size
        if self.render_mode == "rgb_array":
            return tuple(render_rgb(tokens[i], n, int(state[i, _CURRENT_PLAYER]), P) for i in range(self.num_envs))
        return tuple(render_ansi(tokens[i], n, int(state[i, _CURRENT_PLAYER]), P,
                                 header=f"env {i}, turn {int(state[i, _TURN])}")
                     for i in range(self.num_envs))

    def close_extras(self, **kwargs) -> None:
        """Joins the native worker threads."""
        native = getattr(self, "_native", None)  # absent when __init__ rejected its arguments (gymnasium 1.2 __del__)
        if native is not None:
            native.close()

    def __repr__(self) -> str:
        return (f"TribesVectorEnv(num_envs={self.num_envs}, map_size={self.map_size}, players={self.num_players}, "
                f"opponent={self.opponent!r}, action_mode={self.action_mode!r})")
