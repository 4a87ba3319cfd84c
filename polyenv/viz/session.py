"""A live game of the web app: its seats, the bot runner, the position token and its record.

A :class:`GameSession` owns one :class:`polyenv.GameEnv`. Each seat is ``"human"`` (the person at the
browser; at most one seat) or a bot name of the registry (``polyenv.bots``); a session made from a
saved record plays the record's actions instead. Every touch of the game happens under the
session's lock in a worker thread, never on the server's event loop: bots choose on a copy of the
game (the native search releases the GIL) and the chosen action is applied under the lock.

The position token of a person's move is ``"<turn>.<their actions so far>"``: only their own
actions change the position during their turn, and it says nothing about the other players'
hidden moves. A request with another token is stale and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from concurrent.futures import Executor
from pathlib import Path

import numpy as np

from .. import bots as bot_registry
from .._botspec import is_bot
from .record import HUMAN, game_from_config, game_record
from .view import EventLog, WorldLog, build_view

__all__ = ["GameSession", "SessionError", "HUMAN", "RECORD"]

#: The player name of a seat whose actions come from a loaded record (a replay).
RECORD = "record"
#: Seconds between two bot actions unless the viewer picks another speed.
DEFAULT_DELAY = 0.4
MAX_DELAY = 10.0
#: Event-log entries sent with each view (the page keeps the rest).
VIEW_EVENTS = 100


class SessionError(Exception):
    """A request the session refuses; ``status`` is the HTTP status, the message one line."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


class GameSession:
    """One game served by the web app (see the module docstring).

    Args:
        seed: the game's seed.
        config: the record config (``map_size``, ``players`` (tribe names), ``mode``, ``max_turns``,
            ``level`` (CSV text or None), ``full_observability``).
        seats: per seat ``"human"``, a bot name, or ``"record"`` (with ``record_actions``).
        record_actions: the actions of a saved record to play back (a replay session).
        save_dir: where records are written (on request and when the game ends; None: never).
        bot_executor: the thread pool bots think in.
    """

    def __init__(self, seed: int, config: dict, seats: list[str], record_actions: list[int] | None = None,
                 save_dir: Path | None = None, bot_executor: Executor | None = None):
        self.id = secrets.token_urlsafe(18)
        self.seed, self.config = int(seed), dict(config)
        self.game = game_from_config(self.seed, self.config)
        if len(seats) != self.game.num_players:
            raise SessionError(400, f"{len(seats)} seats for {self.game.num_players} players")
        self.seats = list(seats)
        humans = [p for p, s in enumerate(self.seats) if s == HUMAN]
        if len(humans) > 1:
            raise SessionError(400, "at most one seat can be human")
        for s in self.seats:
            if s not in (HUMAN, RECORD) and not is_bot(s):
                raise SessionError(400, f"unknown bot {s!r}")
        self.human = humans[0] if humans else None
        self.record_actions = None if record_actions is None else [int(a) for a in record_actions]
        self.kind = "replay" if self.record_actions is not None else "play" if self.human is not None else "watch"
        self.save_dir = save_dir
        self.bot_executor = bot_executor
        self.created = time.time()
        self.lock = threading.Lock()
        self.actions: list[int] = []
        self.human_moves = 0
        self.epoch = 0  # +1 when a replay seeks (the page starts its log anew)
        self.paused = self.kind == "replay"
        self.steps = 0  # single steps asked for while paused
        self.delay = DEFAULT_DELAY
        self.saved_path: str | None = None
        self.error: str | None = None
        self._rng = np.random.default_rng(self.seed)
        self._logs: dict[int, EventLog] = {}
        self._world = WorldLog(self.game.num_players)
        self._version = 0
        self._changed: asyncio.Event | None = None
        self._listeners: set[asyncio.Event] = set()
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None

    # ------------------------------------------------------------------ state the pages read
    @property
    def token(self) -> str:
        """The position token a person's next action must carry."""
        return f"{self.game.turn}.{self.human_moves}"

    def allowed_viewers(self) -> list:
        """The views this session serves: the person's seat only in a game with a person, else every
        seat and ``None`` (the full view)."""
        if self.human is not None:
            return [self.human]
        return [None] + list(range(self.game.num_players))

    def view(self, viewer: int | None) -> dict:
        """The JSON view for ``viewer`` (blocking: call it in a worker thread)."""
        if viewer not in self.allowed_viewers():
            raise SessionError(403, "this game shows only the view of its human player" if self.human is not None
                               else f"no such view {viewer!r}")
        with self.lock:
            if viewer is None:
                events = self._world.entries[-VIEW_EVENTS:]
            else:
                log = self._logs.get(viewer)
                if log is None:
                    log = self._logs[viewer] = EventLog(viewer)
                log.update(self.game)
                events = log.entries[-VIEW_EVENTS:]
            out = build_view(self.game, viewer, events, with_actions=viewer is not None and viewer == self.human)
            out.update(self._header())
        return out

    def _header(self) -> dict:
        head = {"id": self.id, "kind": self.kind, "seats": self.seats, "human": self.human, "epoch": self.epoch,
                "paused": self.paused, "delay": self.delay, "saved": self.saved_path, "error": self.error,
                "fog": not self.game.full_observability}
        if self.human is not None:
            head["token"] = self.token
        else:
            head["position"] = len(self.actions)
            if self.record_actions is not None:
                head["positions"] = len(self.record_actions)
        return head

    # ------------------------------------------------------------------ a person's action
    def apply_human(self, action, token) -> None:
        """Applies the person's ``action`` if ``token`` is the current position token (blocking)."""
        if self.human is None:
            raise SessionError(409, "this game has no human seat")
        if isinstance(action, bool) or not isinstance(action, int):
            raise SessionError(400, f"action must be an integer action id, got {action!r}")
        if not isinstance(token, str):
            raise SessionError(400, f"token must be the position token string, got {token!r}")
        with self.lock:
            if self.game.game_over:
                raise SessionError(409, "the game is over")
            if token != self.token:
                raise SessionError(409, f"stale position: token {token!r}, the game is at {self.token!r}")
            if self.game.current_player != self.human:
                raise SessionError(409, "it is not your turn")
            if not self.game.is_legal(action):
                raise SessionError(422, f"action {action} is not legal now")
            self._apply(action)
            self.human_moves += 1

    def _apply(self, action: int) -> None:
        """Applies a legal action (lock held) and logs it."""
        self.game.step(action)
        self.actions.append(int(action))
        self._world.update(self.game)

    # ------------------------------------------------------------------ bots and playback
    def _machine_to_move(self) -> bool:
        if self.game.game_over:
            return False
        if self.record_actions is not None:
            return len(self.actions) < len(self.record_actions)
        return self.seats[self.game.current_player] != HUMAN

    def _machine_step(self) -> None:
        """One bot (or record) action (blocking: runs in the bot pool)."""
        with self.lock:
            if not self._machine_to_move():
                return
            if self.record_actions is not None:
                action = self.record_actions[len(self.actions)]
                if not self.game.is_legal(action):
                    self.error = f"action {len(self.actions)} of the record ({action}) cannot be played"
                    self.record_actions = self.actions[:]  # stop the playback here
                    return
                self._apply(action)
                return
            bot, seed = self.seats[self.game.current_player], int(self._rng.integers(2**63))
            copy, token = self.game.clone(), (len(self.actions), self.epoch)
        action = bot_registry.choose(copy, bot, seed=seed)  # outside the lock: views stay served
        with self.lock:
            if (len(self.actions), self.epoch) == token:  # nothing else moved the game meanwhile
                self._apply(int(action))

    def seek(self, position) -> None:
        """A replay session: rebuilds the position after ``position`` actions of the record (blocking)."""
        if self.record_actions is None:
            raise SessionError(409, "only a saved record can be rewound")
        if isinstance(position, bool) or not isinstance(position, int) or \
                not 0 <= position <= len(self.record_actions):
            raise SessionError(400, f"position must be an integer in [0, {len(self.record_actions)}]")
        game = game_from_config(self.seed, self.config)
        for action in self.record_actions[:position]:
            game.step(action)
        with self.lock:
            self.game, self.actions = game, self.record_actions[:position]
            self._logs, self._world = {}, WorldLog(game.num_players)
            self._world.update(game)
            self.epoch += 1

    def control(self, command: str, value=None) -> None:
        """Watch controls: ``pause``, ``resume``, ``step`` (one machine action while paused), ``delay``
        (seconds between machine actions, 0..10)."""
        if command == "pause":
            self.paused = True
        elif command == "resume":
            self.paused, self.steps = False, 0
        elif command == "step":
            self.paused, self.steps = True, self.steps + 1
        elif command == "delay":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_DELAY:
                raise SessionError(400, f"delay must be a number of seconds in [0, {MAX_DELAY:g}]")
            self.delay = float(value)
        else:
            raise SessionError(400, f"unknown command {command!r}; expected pause, resume, step, delay or seek")
        self.wake()

    # ------------------------------------------------------------------ records
    def record(self) -> dict:
        """The game as a ``polyenv play --save`` record (``polyenv replay`` plays it)."""
        with self.lock:
            return game_record(self.seed, self.config, self.seats, self.game, self.actions)

    def save(self) -> str:
        """Writes the record into the save folder; returns its path (blocking)."""
        if self.save_dir is None:
            raise SessionError(409, "this server saves no records (started without a save folder)")
        record = self.record()
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.created))
        path = Path(self.save_dir) / f"game-{stamp}-{self.id[:8]}.json"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(record), encoding="utf-8")
        except OSError as e:
            raise SessionError(500, f"cannot write {path}: {e.strerror}") from None
        self.saved_path = str(path)
        return self.saved_path

    # ------------------------------------------------------------------ the runner (event loop side)
    def start(self) -> None:
        """Starts the runner task on the running event loop."""
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run())

    def wake(self) -> None:
        """Tells the runner and every listener that something changed (event loop side)."""
        self._version += 1
        for listener in self._listeners:
            listener.set()
        if self._wake is not None:
            self._wake.set()

    def listen(self) -> asyncio.Event:
        """An event set after every change (for one WebSocket)."""
        event = asyncio.Event()
        self._listeners.add(event)
        return event

    def unlisten(self, event: asyncio.Event) -> None:
        """Forgets an event returned by ``listen`` (its WebSocket closed)."""
        self._listeners.discard(event)

    def stop(self) -> None:
        """Cancels the session's bot runner (the game stays as it is)."""
        if self._task is not None:
            self._task.cancel()

    @property
    def finished(self) -> bool:
        """True once the game is over, or a replay has played every recorded action."""
        return self.game.game_over or (self.record_actions is not None and len(self.actions) >= len(self.record_actions))

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        saved_at_end = False
        while True:
            if self.game.game_over and not saved_at_end and self.kind != "replay":
                saved_at_end = True
                if self.save_dir is not None:
                    try:
                        await loop.run_in_executor(None, self.save)
                    except SessionError as e:
                        self.error = e.reason
                self.wake()
            can_move = self._machine_to_move() and (not self.paused or self.steps > 0)
            if not can_move:
                self._wake.clear()
                await self._wake.wait()
                continue
            if self.paused:
                self.steps -= 1
            await loop.run_in_executor(self.bot_executor, self._machine_step)
            self.wake()
            if self.delay > 0 and not self.paused:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), self.delay)
                except asyncio.TimeoutError:
                    pass
