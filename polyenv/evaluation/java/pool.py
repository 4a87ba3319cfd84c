"""Many lockstep games between Java agents and polyenv players, over one or more worker processes.

Each worker keeps one :class:`~polyenv.evaluation.java.crossplay.CrossplaySession` (one JVM) per observability and
plays its games one at a time; ``jobs`` workers play in parallel (each decision is still timed in its own
thread's CPU time). With ``cpu=K`` worker k and its JVM are pinned to core ``K + k``, so a decision never
shares its core with another worker's. Results come back in task order.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass

from . import crossplay

__all__ = ["JavaOptions", "Task", "play_games"]


@dataclass(frozen=True)
class JavaOptions:
    """How Java is run: ``tribes`` (a Tribes checkout), ``heap`` (-Xmx of each JVM), ``cpu`` (first core to
    pin to, or None), ``warmup`` (decisions per Java agent before its first game, for the JIT), ``jobs``
    (worker processes), ``command`` (a stand-in for the JVM speaking its protocol, tests; ``--fog`` is
    appended to it for the games with fog)."""

    tribes: str | None = None
    heap: str = "384m"
    cpu: int | None = None
    warmup: int = 30
    jobs: int = 1
    command: tuple | None = None


@dataclass(frozen=True)
class Task:
    """One game: its number, the spec of each seat (loaded player order), the seed, the map and fog."""

    game: int
    specs: tuple
    seed: int
    map_size: int
    tribes: tuple
    fog: bool
    max_actions: int = 256


class _Worker:
    def __init__(self, options: JavaOptions, index: int):
        self.options, self.index = options, index
        self.sessions: dict = {}
        self.seats: dict = {}
        if options.cpu is not None and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {self._core()})

    def _core(self) -> int:
        return (self.options.cpu + self.index) % (os.cpu_count() or 1)

    def session(self, fog: bool) -> crossplay.CrossplaySession:
        if fog not in self.sessions:
            o = self.options
            cpu = None if o.cpu is None else self._core()
            self.sessions[fog] = crossplay.CrossplaySession(o.tribes, fog, heap=o.heap, cpu=cpu,
                                                            command=None if o.command is None else
                                                            list(o.command) + (["--fog"] if fog else []))
        return self.sessions[fog]

    def seat(self, spec: str, max_actions: int):
        key = (spec, max_actions)
        if key not in self.seats:
            if crossplay.is_java_spec(spec):
                self.seats[key] = crossplay.parse_java_agent(spec)
            elif os.path.isfile(spec):
                from ...train.pointer_net import load_checkpoint
                self.seats[key] = crossplay.PolyenvSeat(spec, model=load_checkpoint(spec), max_actions=max_actions)
            else:
                self.seats[key] = crossplay.PolyenvSeat(spec, max_actions=max_actions, seed=hash(spec) & 0xFFFF)
        return self.seats[key]

    def __call__(self, task: Task) -> tuple[int, dict]:
        session = self.session(task.fog)
        csv, path = session.level(task.seed, len(task.specs), task.tribes, task.map_size)
        seats = [self.seat(s, task.max_actions) for s in task.specs]
        for seat in seats:
            if isinstance(seat, crossplay.JavaAgent):
                session.warm_up(seat, path, self.options.warmup)
        record = crossplay.play_game(session.driver, seats, csv, path, task.seed, task.fog)
        return task.game, asdict(record)

    def close(self) -> None:
        for s in self.sessions.values():
            s.close()
        self.sessions = {}


_WORKER: _Worker | None = None


def _init(options: JavaOptions, counter) -> None:
    global _WORKER
    import atexit
    with counter.get_lock():
        index = counter.value
        counter.value += 1
    _WORKER = _Worker(options, index)
    atexit.register(_WORKER.close)


def _run(task: Task):
    return _WORKER(task)


def play_games(tasks: Iterable[Task], options: JavaOptions) -> Iterator[tuple[int, dict]]:
    """Plays ``tasks``; yields ``(game number, GameRecord as a dict)`` in task order."""
    tasks = list(tasks)
    if options.jobs <= 1 or len(tasks) <= 1:
        worker = _Worker(options, 0)
        try:
            for t in tasks:
                yield worker(t)
        finally:
            worker.close()
        return
    import multiprocessing
    ctx = multiprocessing.get_context("spawn")
    counter = ctx.Value("i", 0)
    with ctx.Pool(min(options.jobs, len(tasks)), _init, (options, counter)) as pool:
        yield from pool.imap(_run, tasks)
