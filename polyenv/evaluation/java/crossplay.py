"""Games between Tribes' own agents and polyenv's players, played in lockstep by both engines.

A Java agent (``"java:MCTS"``, ``"java:RHEA:fm=1000"``, ``"java:MCTS:ms=40"``, ...) chooses on its turns from
the Java engine's state, through the copy Tribes gives its agents (``GameState.copy(player)``: with fog only
what that tribe has revealed, and never the opponents' stars or techs). A polyenv player chooses on its turns
from polyenv's state (with fog: its own observation; see :class:`PolyenvSeat` for the built-in bots). Every
action is applied to both engines (:class:`~polyenv.evaluation.java.lockstep.LockstepGame`), which are compared after
every action; a difference that no known explanation re-synchronises stops the game, which is then reported
and left unrated.

Player specs:

* ``java:NAME[:key=value]...`` with NAME one of :data:`JAVA_AGENTS` and keys ``fm`` (forward-model calls per
  decision), ``ms`` (thread CPU milliseconds per decision, for the agents that read Tribes' timer: MCTS,
  PMCTS, OEP, EMCTS), ``iters`` (iterations per decision), ``depth`` (search depth) and ``pop`` (population,
  RHEA and OEP). Without a budget an agent has the framework's: 2000 forward-model calls per decision.
* polyenv players: ``random``, ``greedy``, ``mcts``, ``mcts:<simulations>``, ``mcts:ms=<milliseconds>`` (as
  many simulations as fit in that much thread CPU time per decision, adapted decision by decision), or a
  checkpoint of :mod:`polyenv.train.pointer_net`.

Every decision is timed in thread CPU time on both sides (the Java agent's thread, polyenv's calling thread)
and reported as milliseconds per decision.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ... import bots as _bots
from . import canon, levels
from .driver import DriverError
from .lockstep import LockstepGame

__all__ = ["JAVA_AGENTS", "JavaAgent", "parse_java_agent", "is_java_spec", "parse_timed_mcts", "fog_view",
           "PolyenvSeat", "TimedMcts", "GameRecord", "play_game", "CrossplaySession"]

#: The Tribes agents (Tribes' Run.PlayerType names; PMCTS is its portfolio MCTS, "pMCTS" in play.json).
JAVA_AGENTS = ("Random", "SimpleAgent", "OSLA", "MC", "MCTS", "RHEA", "OEP", "EMCTS", "PMCTS")
_TIMED = {"MCTS", "PMCTS", "OEP", "EMCTS"}      # read the timer Tribes passes to act()
_BUDGETED = set(JAVA_AGENTS) - {"Random", "SimpleAgent"}
_POPULATION = {"RHEA", "OEP"}
_DEPTH = {"MC", "MCTS", "PMCTS", "RHEA"}
_BUDGET_KEYS = ("fm", "ms", "iters")
_PREFIX = "java:"


@dataclass(frozen=True)
class JavaAgent:
    """A Tribes agent and its settings (``settings``: key -> int, in spec order)."""

    name: str
    settings: tuple = ()
    spec: str = ""

    def settings_dict(self) -> dict:
        """The agent's settings (budget, depth, population) as a dict."""
        return dict(self.settings)


def is_java_spec(spec) -> bool:
    """True when ``spec`` names a Java agent (starts with ``java:``)."""
    return isinstance(spec, str) and spec.strip().startswith(_PREFIX)


def parse_java_agent(spec: str) -> JavaAgent:
    """``java:NAME[:key=value]...`` (module docstring); ValueError with the reason otherwise."""
    if not is_java_spec(spec):
        raise ValueError(f"a Java agent is written java:NAME, got {spec!r}")
    parts = spec.strip()[len(_PREFIX):].split(":")
    by_lower = {a.lower(): a for a in JAVA_AGENTS}
    name = by_lower.get(parts[0].lower())
    if name is None:
        raise ValueError(f"unknown Java agent {parts[0]!r} in {spec!r}; expected one of: {', '.join(JAVA_AGENTS)}")
    settings = {}
    for word in parts[1:]:
        key, eq, value = word.partition("=")
        if not eq or not value.isdigit() or int(value) < 1:
            raise ValueError(f"{spec!r}: settings are key=<positive integer>, got {word!r}")
        if key in settings:
            raise ValueError(f"{spec!r}: {key} is given twice")
        allowed = (_BUDGET_KEYS if name in _BUDGETED else ()) + (("depth",) if name in _DEPTH else ()) + \
            (("pop",) if name in _POPULATION else ())
        if key not in allowed:
            raise ValueError(f"{spec!r}: {name} takes no {key!r} setting" +
                             (f" (it takes {', '.join(allowed)})" if allowed else " (it takes no settings)"))
        if key == "ms" and name not in _TIMED:
            raise ValueError(f"{spec!r}: Tribes' {name} reads no time budget (it stops on fm= or iters=)")
        settings[key] = int(value)
    if sum(k in settings for k in _BUDGET_KEYS) > 1:
        raise ValueError(f"{spec!r}: give one budget (fm=, ms= or iters=)")
    return JavaAgent(name, tuple(settings.items()), spec.strip())


# ---------------------------------------------------------------------------- polyenv's side
class TimedMcts:
    """polyenv's native MCTS with a time budget: each decision runs as many simulations as the thread CPU
    time per simulation measured so far says fit in ``ms`` milliseconds (the native search takes a count,
    not a deadline). The measure is the whole decision's time (``spent``: the caller's, including its own
    preparation), so the mean decision lands on the budget. The first decision runs the default count."""

    def __init__(self, ms: float):
        self.ms = float(ms)
        self.per_simulation = None      # measured ms per simulation (a running mean weighted towards now)

    def simulations(self) -> int:
        """The count of the next decision."""
        if self.per_simulation is None:
            return _bots.DEFAULT_MCTS_SIMULATIONS
        return int(np.clip(round(self.ms / self.per_simulation), 1, 10_000_000))

    def spent(self, simulations: int, ms: float) -> None:
        """Records that a decision of ``simulations`` took ``ms`` thread CPU milliseconds."""
        per = max(ms, 1e-3) / simulations
        self.per_simulation = per if self.per_simulation is None else 0.7 * self.per_simulation + 0.3 * per


def parse_timed_mcts(spec: str) -> float | None:
    """The milliseconds of ``"mcts:ms=<milliseconds>"``, or None for any other spec."""
    if isinstance(spec, str) and spec.startswith("mcts:ms="):
        value = spec[len("mcts:ms="):]
        if not value.isdigit() or not 1 <= int(value) <= 3_600_000:
            raise ValueError(f"{spec!r}: mcts:ms= takes a whole number of milliseconds (1 to 3600000)")
        return float(value)
    return None


def fog_view(env, player: int):
    """A copy of ``env`` holding only what ``player`` knows of the other tribes' forces, as Tribes' copy for
    an agent does: their units on tiles the player has not revealed are removed and their stars read 0.
    The map itself (terrain and cities of unrevealed tiles) is kept: polyenv's state has no unknown terrain."""
    view = env.clone()
    if env.full_observability:
        hidden = []
    else:
        hidden = [t for t in range(env.map_size ** 2) if not env.tile(t)["explored"][player]]
    for t in hidden:
        u = env.unit_at(t)
        if u is not None and u["owner"] != player:
            view.remove_unit(t)
    for q in range(env.num_players):
        if q != player and env.player(q)["alive"]:
            view.set_stars(q, 0)
    return view


class PolyenvSeat:
    """A polyenv player of a lockstep game: a built-in bot name, ``mcts:ms=<milliseconds>`` or a checkpoint.

    Built-in bots search polyenv's own state; with fog they are given :func:`fog_view` (the other tribes'
    hidden units removed, their stars 0). When the bot's choice is not legal in the real game (it moved
    onto a hidden unit, say), a uniformly random legal action is played instead and counted in
    ``fallbacks``. Checkpoints read the player's observation (fog-safe).
    """

    def __init__(self, spec: str, model=None, max_actions: int = 256, seed: int = 0):
        self.spec, self.model, self.max_actions = spec, model, max_actions
        self.timed = TimedMcts(parse_timed_mcts(spec)) if parse_timed_mcts(spec) else None
        self.rng = random.Random(seed)
        self.fallbacks = 0

    def choose(self, env) -> tuple[int, float]:
        """(action id, thread CPU ms of the decision) for the current player of ``env``."""
        me = env.current_player
        t0 = time.thread_time()
        if self.model is not None:
            obs = env.observe(me, max_actions=self.max_actions)
            row = self.model.act({k: obs[k][None] for k in ("map_tokens", "state", "action_features",
                                                            "action_mask")}, deterministic=True)[0]
            return int(obs["action_id"][row]), 1000 * (time.thread_time() - t0)
        legal = env.legal_actions()
        if self.spec == "random":
            return int(legal[self.rng.randrange(len(legal))]), 1000 * (time.thread_time() - t0)
        view = fog_view(env, me) if not env.full_observability else env
        seed = self.rng.getrandbits(63)
        sims = self.timed.simulations() if self.timed is not None else None
        action = _bots.choose(view, self.spec if sims is None else f"mcts:{sims}", seed=seed)
        if view is not env and not env.is_legal(action):
            self.fallbacks += 1
            action = int(legal[self.rng.randrange(len(legal))])
        ms = 1000 * (time.thread_time() - t0)
        if sims is not None:
            self.timed.spent(sims, ms)
        return int(action), ms


# ---------------------------------------------------------------------------- one game
@dataclass
class GameRecord:
    """One lockstep game: ``winner`` (seat, -1 draw; None when the game was stopped by a difference),
    ``decisions`` and ``cpu_ms`` per seat, ``actions``, ``difference`` (the report that stopped it),
    ``resynced`` (known differences re-synchronised), ``agents`` (the Java agents' settings per seat)."""

    winner: int | None
    decisions: list
    cpu_ms: list
    actions: int
    difference: dict | None = None
    resynced: dict = field(default_factory=dict)
    agents: dict = field(default_factory=dict)
    fallbacks: int = 0


MAX_ACTIONS_PER_TURN = 1000
MAX_REFUSED = 50  # refused choices in a row before a Java agent's game is stopped


def play_game(driver, seats: list, csv: str, path: str, seed: int, fog: bool, mode: str = "capitals") -> GameRecord:
    """Plays one game; ``seats[p]`` is a :class:`JavaAgent` or a :class:`PolyenvSeat` for loaded player p."""
    game = LockstepGame(driver, csv, path, mode, seed, fog)
    n = len(seats)
    if game.env.num_players != n:
        raise ValueError(f"the level has {game.env.num_players} tribes, not {n}")
    agents = {}
    for p, seat in enumerate(seats):
        if isinstance(seat, JavaAgent):
            agents[p] = driver.agent(p, seed * 31 + p, seat.name, seat.settings_dict())["settings"]
    decisions, cpu = [0] * n, [0.0] * n
    fallbacks0 = sum(s.fallbacks for s in seats if isinstance(s, PolyenvSeat))
    in_turn, turn_key = 0, None

    refused = 0

    def stop(field, category, value=None):
        return {"field": field, "java": value, "polyenv": value, "kind": "player", "category": category,
                "seed": seed, "fog": fog, "mode": mode, "actions": list(game.moves), "level": "generated"}

    def record(winner, difference=None):
        fb = sum(s.fallbacks for s in seats if isinstance(s, PolyenvSeat)) - fallbacks0
        if difference is not None:
            difference["csv"] = csv
            difference.setdefault("level", "generated")
        return GameRecord(winner, decisions, cpu, len(game.moves), difference, dict(game.resynced), agents, fb)

    while True:
        d = game.check()
        if d is not None:
            return record(None, d)
        if game.over:
            return record(game.env.winner)
        p = game.env.current_player
        key = (game.env.turn, p)
        in_turn = in_turn + 1 if key == turn_key else 1
        turn_key = key
        if in_turn > MAX_ACTIONS_PER_TURN:
            return record(None, stop("actions_per_turn", f"stopped: more than {MAX_ACTIONS_PER_TURN} actions in one turn"))
        seat = seats[p]
        if isinstance(seat, JavaAgent):
            try:
                r = driver.act()
            except DriverError as e:
                return record(None, stop("java_agent", f"stopped: the Java agent failed ({e})".splitlines()[0]))
            decisions[p] += 1
            cpu[p] += float(r["cpu_ms"])
            if r["index"] < 0:      # Tribes' Game applies a refused action as nothing and asks again
                refused += 1
                if refused > MAX_REFUSED:
                    return record(None, stop("java_agent", f"stopped: the Java agent chose {MAX_REFUSED + 1} "
                                                           f"actions in a row that the state does not allow"))
                continue
            refused = 0
            act = canon.java_action(game.j["actions"][r["index"]])
            ms = None
        else:
            aid, ms = seat.choose(game.env)
            act = next((a for a, i in game.pacts.items() if i == aid), None)
        if ms is not None:
            decisions[p] += 1
            cpu[p] += ms
        if act not in game.legal:
            side = "Java" if isinstance(seat, JavaAgent) else "polyenv"
            return record(None, stop("chosen_action", f"stopped: the {side} player chose an action the other "
                                                      f"engine lacks", repr(act)))
        game.play(act)


# ---------------------------------------------------------------------------- many games, one JVM
class CrossplaySession:
    """A Java driver (one JVM of the matching build) and a scratch folder for level files; plays games
    between seats given as specs. ``command`` replaces the JVM (tests use a stand-in process)."""

    def __init__(self, tribes: str | None, fog: bool, heap: str = "384m", cpu: int | None = None,
                 command: list | None = None, cwd=None):
        from .driver import Driver, java_command
        if command is None:
            from .build import build
            paths = build(tribes, "fog" if fog else "full")
            command, cwd = java_command(paths, heap, cpu), paths["cwd"]
        self.fog = fog
        self.driver = Driver(command, cwd=cwd)
        self.tmp = tempfile.mkdtemp(prefix="polyenv-crossplay-")
        self.warmed: set = set()

    def level(self, seed: int, players: int, tribes, map_size: int) -> tuple[str, str]:
        """Writes polyenv's generated map for ``seed`` as a Tribes level file; (its CSV text, its path)."""
        csv = levels.generated_csv(seed, players, tribes=tribes, map_size=map_size)
        path = os.path.join(self.tmp, f"level-{os.getpid()}.csv")
        Path(path).write_text(csv)
        return csv, path

    def warm_up(self, agent: JavaAgent, path: str, decisions: int) -> None:
        """Runs ``decisions`` decisions of ``agent`` once per session before its first timed game."""
        if decisions > 0 and agent.spec not in self.warmed:
            self.driver.warmup(path, decisions, agent.name, agent.settings_dict())
            self.warmed.add(agent.spec)

    def close(self) -> None:
        """Ends the session's Java driver process."""
        self.driver.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
