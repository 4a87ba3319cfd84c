"""The rollout loop one fleet actor runs: a :class:`polyenv.VectorGameEnv` stepped T times per call.

Plain Python (no Ray here): :class:`RolloutFleet` wraps it in a Ray actor, and
the same class runs locally for debugging. Every step writes its batch straight
into stacked ``[T + 1, B, ...]`` arrays (``step_into`` on views), so a rollout
is one dense NumPy array per key with no per-step copy; the arrays are reused
from call to call (Ray copies the return value into the object store once;
a local caller must copy a batch it keeps past the next ``rollout``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ..vector_env import VectorGameEnv

__all__ = ["RolloutBatch", "RolloutWorker", "random_policy", "actor_seed"]

#: policy_fn(weights, obs, rng) -> action ids int [B]: ``obs`` is one step's batch (VectorGameEnv keys, [B, ...]).
PolicyFn = Callable[[object, Mapping, np.random.Generator], np.ndarray]


def random_policy(weights, obs: Mapping, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per environment (vectorised; ``weights`` is ignored)."""
    count = obs["legal_action_count"]
    rows = (rng.random(count.shape[0]) * count).astype(np.intp)
    return obs["action_id"][np.arange(count.shape[0]), rows]


def actor_seed(seed: int, actor: int, generation: int) -> int:
    """The VectorGameEnv seed (and policy RNG seed) of ``actor`` in its ``generation`` (0, then +1 per restart).

    A hash of the three numbers, so actors and restarted actors play disjoint
    seed sequences (episode k of environment j is ``GameEnv(seed=s + j + k*B)``).
    """
    words = np.random.SeedSequence([int(seed), int(actor), int(generation)]).generate_state(2, np.uint32)
    return int(words[0]) | (int(words[1]) << 32)


@dataclass
class RolloutBatch:
    """T steps of B environments from one actor.

    ``data[key]`` for every ``VectorGameEnv`` batch key is ``[T + 1, B, ...]``:
    row t is the observation the action of step t was chosen on, row t + 1 its
    result (``reward`` / ``terminated`` / ``action_valid`` describe the action of
    step t; row 0's come from the previous batch), and row T is the bootstrap
    observation — row 0 of this actor's next batch. ``data["action"]`` is the
    int32 ``[T, B]`` of global action ids played.

    ``seq`` numbers the actor's batches 0, 1, 2, ... without gaps or repeats.
    ``generation`` is 0, +1 after each restart of the actor: a batch whose
    generation differs from the previous one of the same actor starts new games
    (the previous batch's unfinished episodes end there, truncated).
    """

    actor: int
    seq: int
    generation: int
    seed: int
    weights_version: int
    data: dict = field(repr=False)

    @property
    def steps(self) -> int:
        """T, the number of steps."""
        return int(self.data["action"].shape[0])

    @property
    def num_envs(self) -> int:
        """B, the environments of the actor."""
        return int(self.data["action"].shape[1])


class RolloutWorker:
    """One VectorGameEnv and its policy; ``rollout(T)`` plays T steps of every environment.

    Args:
        actor: the actor's index (recorded in every batch).
        num_envs: B, environments of this worker.
        env_kwargs: further ``VectorGameEnv`` arguments (``map_size``, ``players``, ...).
        policy_fn: ``f(weights, obs, rng) -> action ids [B]`` (default :func:`random_policy`).
        seed: the VectorGameEnv seed and the policy RNG's seed.
        generation: the restart count (recorded in every batch).
        num_threads: VectorGameEnv threads.
    """

    def __init__(self, actor: int, num_envs: int, env_kwargs: Mapping | None, policy_fn: PolicyFn | None, seed: int,
                 generation: int = 0, num_threads: int = 1):
        kwargs = dict(env_kwargs or {})
        for reserved in ("num_envs", "seed", "num_threads", "auto_reset"):
            if reserved in kwargs:
                raise ValueError(f"env_kwargs must not set {reserved!r}: the fleet sets it")
        self.actor, self.generation, self.seed = int(actor), int(generation), int(seed)
        self.env = VectorGameEnv(num_envs, seed=seed, num_threads=num_threads, auto_reset=True, **kwargs)
        self.policy_fn = random_policy if policy_fn is None else policy_fn
        self.rng = np.random.default_rng(seed)
        self._spec = self.env.batch_spec()
        self._current = self.env.reset(seed=seed)  # the observation the next rollout starts from
        self._stack: dict | None = None

    def _buffers(self, steps: int) -> dict:
        if self._stack is None or self._stack["action"].shape[0] != steps:
            B = self.env.num_envs
            stack = {k: np.empty((steps + 1,) + tuple(f["shape"]), f["dtype"]) for k, f in self._spec.items()}
            stack["action"] = np.empty((steps, B), np.int32)
            self._stack = stack
        return self._stack

    def rollout(self, steps: int, seq: int, weights=None, weights_version: int = 0) -> RolloutBatch:
        """Plays ``steps`` steps of every environment with ``policy_fn(weights, ...)``; returns the batch."""
        stack = self._buffers(steps)
        obs_keys = self._spec.keys()
        for k in obs_keys:
            stack[k][0] = self._current[k]
        B = self.env.num_envs
        for t in range(steps):
            obs = {k: stack[k][t] for k in obs_keys}
            actions = np.asarray(self.policy_fn(weights, obs, self.rng))
            if actions.shape != (B,) or actions.dtype.kind not in "iu":
                raise ValueError(f"policy_fn must return {B} integer action ids, got shape {actions.shape} "
                                 f"dtype {actions.dtype}")
            if actions.min() < -2**31 or actions.max() >= 2**31:
                raise ValueError("policy_fn returned action ids outside int32")
            stack["action"][t] = actions
            self.env.step_into(stack["action"][t], {k: stack[k][t + 1] for k in obs_keys})
        self._current = {k: stack[k][steps] for k in obs_keys}  # copied into row 0 before being overwritten
        return RolloutBatch(self.actor, int(seq), self.generation, self.seed, int(weights_version), stack)

    def ping(self) -> int:
        """The actor index (a cheap call to wait until the actor is up)."""
        return self.actor

    def close(self) -> None:
        """Joins the VectorGameEnv's threads."""
        self.env.close()
