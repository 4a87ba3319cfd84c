"""RolloutFleet: Ray actors, each owning a :class:`polyenv.VectorGameEnv`, feeding one learner.

```python
import ray
from polyenv.distributed import RolloutFleet

ray.init()                                   # or ray.init(address="auto") on a cluster: nothing else changes
with RolloutFleet(num_actors=4, envs_per_actor=64, env_kwargs=dict(map_size=11, max_actions=64)) as fleet:
    for batch in fleet.sample(steps=32, num_batches=100):
        learn(batch.data)                    # dense NumPy arrays [T + 1, B, ...] from the object store
        fleet.set_weights(new_weights)       # policy_fn(weights, obs, rng) sees them from the next request
```

Every actor always has one rollout in flight, so the actors simulate while the
learner learns. Batches arrive in completion order; each carries its actor, a
gap-free per-actor ``seq`` and the ``weights_version`` it was played with.

**Faults.** When an actor dies (its process crashed, its node was lost, or it
was killed), the batch it owed is requested again from a new actor for the same
index whose games are re-seeded (``actor_seed(seed, actor, generation)``, a
new ``generation``): no batch is silently lost or delivered twice — the
per-actor ``seq`` stays gap-free — and the learner sees the restart in
``batch.generation``. After ``max_restarts`` restarts of one actor the error
is raised.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping

import ray
from ray.exceptions import RayActorError

from .._validate import integer, seed as _seed
from .worker import PolicyFn, RolloutBatch, RolloutWorker, actor_seed

__all__ = ["RolloutFleet"]

_log = logging.getLogger(__name__)


class RolloutFleet:
    """``num_actors`` Ray actors of ``envs_per_actor`` games each, sampled by one learner.

    Args:
        num_actors: Ray actors (each a process with its own VectorGameEnv).
        envs_per_actor: B, the games of each actor.
        env_kwargs: further ``VectorGameEnv`` arguments (``map_size``, ``players``,
            ``max_actions``, ``opponent``, ``reward``, ...); not num_envs / seed /
            num_threads / auto_reset, which the fleet sets.
        policy_fn: ``f(weights, obs, rng) -> action ids [B]`` run inside the actors
            on each step's batch (default: a uniformly random legal action).
        weights: the initial weights passed to ``policy_fn`` (anything picklable;
            NumPy arrays reach the actors without a copy through the object store).
        seed: actor i plays the seed sequence ``actor_seed(seed, i, generation)``.
        num_threads_per_actor: VectorGameEnv threads, and CPUs reserved, per actor.
        max_restarts: restarts allowed per actor before its failure is raised.
        actor_options: extra ``ray.remote`` options for the actors (e.g. ``resources``).

    Ray is initialised on first use if it is not already (``ray.init()``); to use a
    cluster call ``ray.init(address=...)`` first.
    """

    def __init__(self, num_actors: int, envs_per_actor: int, env_kwargs: Mapping | None = None,
                 policy_fn: PolicyFn | None = None, weights=None, *, seed: int = 0, num_threads_per_actor: int = 1,
                 max_restarts: int = 3, actor_options: Mapping | None = None):
        self.num_actors = integer(num_actors, "num_actors", 1)
        self.envs_per_actor = integer(envs_per_actor, "envs_per_actor", 1)
        self.num_threads_per_actor = integer(num_threads_per_actor, "num_threads_per_actor", 1)
        self.max_restarts = integer(max_restarts, "max_restarts", 0)
        self.seed = _seed(seed)
        if policy_fn is not None and not callable(policy_fn):
            raise ValueError(f"policy_fn must be callable or None, got {policy_fn!r}")
        self._env_kwargs = dict(env_kwargs or {})
        self._policy_fn = policy_fn
        RolloutWorker(0, 1, self._env_kwargs, None, 0).close()  # bad env_kwargs fail here, before any actor starts
        options = dict(num_cpus=self.num_threads_per_actor, max_restarts=0, max_task_retries=0)
        options.update(actor_options or {})
        self._remote = ray.remote(**options)(RolloutWorker)
        self._weights = ray.put(weights)
        self._weights_version = 0
        self._generation = [0] * self.num_actors
        self._next_seq = [0] * self.num_actors
        self._retry: list[list[int]] = [[] for _ in range(self.num_actors)]  # seqs owed by a dead actor
        self._inflight: dict = {}  # ObjectRef -> (actor, seq, generation, steps)
        self.restarts = 0
        self._actors = [self._start(i) for i in range(self.num_actors)]
        self._closed = False

    # ------------------------------------------------------------------ actors
    def _start(self, i: int):
        seed = actor_seed(self.seed, i, self._generation[i])
        return self._remote.remote(i, self.envs_per_actor, self._env_kwargs, self._policy_fn, seed,
                                   self._generation[i], self.num_threads_per_actor)

    def _restart(self, i: int, error: Exception) -> None:
        if self._generation[i] >= self.max_restarts:
            raise RuntimeError(f"rollout actor {i} failed after {self._generation[i]} restarts") from error
        _log.warning("rollout actor %d died (%s); restarting it with re-seeded games", i, type(error).__name__)
        try:
            ray.kill(self._actors[i])
        except Exception:  # noqa: BLE001  (already gone)
            pass
        self._generation[i] += 1
        self.restarts += 1
        self._actors[i] = self._start(i)

    def _request(self, i: int, steps: int) -> None:
        seq = self._retry[i].pop(0) if self._retry[i] else self._next_seq[i]
        if seq == self._next_seq[i]:
            self._next_seq[i] += 1
        ref = self._actors[i].rollout.remote(steps, seq, self._weights, self._weights_version)
        self._inflight[ref] = (i, seq, self._generation[i], steps)

    # ------------------------------------------------------------------ learner API
    @property
    def actor_handles(self) -> list:
        """The current Ray actor handles (index = actor; a restart replaces one)."""
        return list(self._actors)

    @property
    def weights_version(self) -> int:
        """0, +1 at every ``set_weights``."""
        return self._weights_version

    def set_weights(self, weights) -> None:
        """Puts ``weights`` in the object store once; every later request plays with them."""
        self._check_open()
        self._weights = ray.put(weights)
        self._weights_version += 1

    def sample(self, steps: int, num_batches: int | None = None) -> Iterator[RolloutBatch]:
        """Yields :class:`RolloutBatch` es of ``steps`` steps from every actor, in completion order.

        Each actor keeps one request in flight. With ``num_batches`` the iterator
        stops after that many batches and requests no more than it delivers;
        without, it runs until closed, and batches still in flight then are
        delivered first by the next ``sample`` call (with their own length).
        """
        self._check_open()
        steps = integer(steps, "steps", 1)
        num_batches = integer(num_batches, "num_batches", 1, allow_none=True)
        return self._iterate(steps, num_batches)

    def _iterate(self, steps: int, num_batches: int | None) -> Iterator[RolloutBatch]:
        delivered = 0
        while num_batches is None or delivered < num_batches:
            busy = {a for a, *_ in self._inflight.values()}
            for i in range(self.num_actors):
                wanted = num_batches is None or delivered + len(self._inflight) < num_batches
                if i not in busy and wanted:
                    self._request(i, steps)
            ready, _ = ray.wait(list(self._inflight), num_returns=1)
            ref = ready[0]
            i, seq, generation, _ = self._inflight.pop(ref)
            try:
                batch = ray.get(ref)
            except RayActorError as error:
                if error.actor_init_failed:  # deterministic (e.g. policy_fn cannot be unpickled there): no retry
                    raise RuntimeError(f"rollout actor {i} could not start: {error}") from error
                self._retry[i].append(seq)
                if generation == self._generation[i]:
                    self._restart(i, error)
                continue
            delivered += 1
            yield batch

    def close(self) -> None:
        """Stops every actor (batches in flight are dropped). Idempotent."""
        if getattr(self, "_closed", True):
            return
        self._closed = True
        for actor in self._actors:
            try:
                ray.kill(actor)
            except Exception:  # noqa: BLE001  (already gone)
                pass
        self._inflight.clear()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this RolloutFleet is closed")

    def __enter__(self) -> "RolloutFleet":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"RolloutFleet(num_actors={self.num_actors}, envs_per_actor={self.envs_per_actor}, "
                f"restarts={self.restarts}{', closed' if self._closed else ''})")
