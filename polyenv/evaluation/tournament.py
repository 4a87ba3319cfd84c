"""Evaluation: rated tournaments of bots and checkpoints, and win rates of SB3 policies.

* :func:`tournament` — ``polyenv tournament`` from Python: games between any
  players (built-in bots by name, e.g. ``"random"``, ``"greedy"``, ``"mcts:200"``
  where the registry has it, or paths of :mod:`~polyenv.train.pointer_net`
  checkpoints), played natively on a :class:`~polyenv.VectorGameEnv` worker
  pool, rated with OpenSkill (Plackett-Luce; ``pip install "polyenv[train]"``).
* :func:`evaluate` / :func:`sb3_policy` — win rate of a Gymnasium-vector policy
  (e.g. an SB3 model) against one built-in bot.

How games run: every game has a seating (a player per seat). The one built-in
bot kind of the game (``greedy``, ``mcts:...``; ``random`` when it is the only
bot) plays its seats natively inside ``VectorGameEnv.step`` (``opponent=``);
the other seats act through the batch rows: checkpoints batched over all the
games in which they are to move, ``random`` as a uniform legal row drawn in
NumPy. Games are grouped by (native bot, row seats) and each group is one
vector of ``len(group)`` environments. A game with two different non-random
bots (say greedy and mcts in one free-for-all) cannot be expressed that way and
runs on :class:`~polyenv.GameEnv` with :func:`polyenv.bots.play_turn` (still
native per turn, but one game at a time).

Java Tribes agents (``"java:MCTS"``, ``"java:RHEA:fm=1000"``, ... see :mod:`polyenv.evaluation.java.crossplay`) take
part with ``tribes=`` (a Tribes checkout) and a JDK: every game with a Java seat is played in lockstep by the
Java engine and polyenv, one game at a time per JVM (``java_jobs`` JVMs), on a polyenv-generated map
written as a Tribes level. ``"mcts:ms=<milliseconds>"`` is polyenv's MCTS with a time budget per decision;
games with it run one at a time too. Those games time every decision (thread CPU time), reported as
``ms_per_decision``. A lockstep game stopped by a difference between the engines is left unrated and
reported in ``stopped``.

Results: the winner ranks first, every other seat ties second (the engine
reports one winner; a draw — no winner — ties everyone).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .. import _validate as _v
from .. import bots as _bots
from ..description import MAX_MAP_SIZE, MAX_PLAYERS, MAX_TURNS, MIN_MAP_SIZE, MIN_PLAYERS, game_description

__all__ = ["tournament", "TournamentResult", "parse_player", "evaluate", "sb3_policy", "TRIBE_ORDER"]

#: Tribes given to seats 0, 1, 2, ... (Bardur and Imperius first, as in VectorGameEnv's default).
TRIBE_ORDER = (2, 1, 3, 0, 4, 5, 6, 7, 8, 9, 10, 11, 2, 1, 3, 0)
FORMATS = ("auto", "round-robin", "swiss")
_STATE = game_description().state_columns  # the engine's state layout
_GAME_OVER, _WINNER, _CURRENT_PLAYER = _STATE["game_over"], _STATE["winner"], _STATE["current_player"]


# ---------------------------------------------------------------------------- players
@dataclass
class _Player:
    spec: str
    kind: str                 # "bot", "checkpoint", "java" (a Tribes agent) or "timed" (mcts:ms=...)
    bot: str | None = None    # the registry name (before ':')
    model: object = None      # a PointerActorCritic for checkpoints, a JavaAgent for Java agents

    @property
    def native(self) -> bool:
        """Played natively (not through rows): every bot but random."""
        return self.kind == "bot" and self.bot != "random"

    @property
    def one_at_a_time(self) -> bool:
        """Its games are played one at a time (lockstep with Java, or timed decisions)."""
        return self.kind in ("java", "timed")


def parse_player(spec: str) -> _Player:
    """A player spec: an existing checkpoint path (an ``.paz`` az weight file plays as ``"az@<file>"``),
    a bot name of :data:`polyenv.bots.BOTS` optionally followed by ``:argument`` (``"mcts:200"``,
    ``"mcts:ms=40"``, ``"az:64@weights.paz"``), or a Java Tribes agent (``"java:MCTS"``,
    :mod:`polyenv.evaluation.java.crossplay`). ValueError otherwise."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"player must be a non-empty string, got {spec!r}")
    spec = spec.strip()
    if os.path.isfile(spec) and spec.endswith(".paz"):
        return parse_player(f"az@{spec}")  # an az weight file: the az bot with those weights
    if os.path.isfile(spec) and spec.endswith(".paz"):
        return parse_player(f"az@{spec}")  # an az weight file: the az bot with those weights
    if os.path.isfile(spec):
        from ..train.pointer_net import load_checkpoint
        return _Player(spec, "checkpoint", model=load_checkpoint(spec))
    from .java import crossplay
    if crossplay.is_java_spec(spec):
        return _Player(spec, "java", model=crossplay.parse_java_agent(spec))
    if crossplay.parse_timed_mcts(spec) is not None:
        return _Player(spec, "timed", bot="mcts")
    name = spec.partition(":")[0].partition("@")[0]
    if name not in _bots.BOTS:
        raise ValueError(f"unknown player {spec!r}: not a file, not a bot ({', '.join(_bots.BOTS)}) and not a "
                         "Java agent (java:NAME)")
    if name == "random" and spec != "random":
        raise ValueError(f"the random bot takes no argument, got {spec!r}")
    _bots.parse_bot(spec)  # the bot's own checks (a budget, an az weight file that loads)
    return _Player(spec, "bot", bot=name)


# ---------------------------------------------------------------------------- choosing rows
def _random_rows(obs: dict, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal row per observation: argmax of uniform noise over the legal rows."""
    mask = obs["action_mask"].astype(bool)
    return np.where(mask, rng.random(mask.shape), -1.0).argmax(1)


def _choose_rows(player: _Player, obs: dict, rng: np.random.Generator) -> np.ndarray:
    if player.kind == "checkpoint":
        return player.model.act(obs, deterministic=True)
    return _random_rows(obs, rng)


# ---------------------------------------------------------------------------- playing
def _play_vector(seatings: np.ndarray, roster: list[_Player], native: _Player | None, setup: "_Setup", seed: int,
                 rng: np.random.Generator) -> np.ndarray:
    """Plays one group of games (same native bot, same row seats) on one VectorGameEnv; the winning seat per game."""
    from ..vector_env import VectorGameEnv
    n, P = seatings.shape
    row_seats = [s for s in range(P) if native is None or roster[seatings[0, s]] is not native]
    env = VectorGameEnv(n, seed=seed, map_size=setup.map_size, players=TRIBE_ORDER[:P], num_threads=setup.threads,
                        max_actions=setup.max_actions, max_turns=setup.max_turns, auto_reset=False,
                        full_observability=setup.full_observability,
                        opponent=None if native is None else native.spec,
                        learner_seats=None if native is None else row_seats)
    with env:
        batch = env.reset(seed=seed)
        winner = np.full(n, -2, np.int64)                  # -2 playing, -1 draw, else the winning seat
        envs = np.arange(n)
        over = batch["state"][:, _GAME_OVER] == 1
        winner[over] = batch["state"][over, _WINNER]
        while (winner == -2).any():
            live = winner == -2
            actor = seatings[envs, batch["state"][:, _CURRENT_PLAYER]]
            rows = np.zeros(n, np.int64)
            for k in np.unique(actor[live]):               # one batched choice per player, not per game
                sel = live & (actor == k)
                rows[sel] = _choose_rows(roster[k], {key: batch[key][sel] for key in
                                                      ("map_tokens", "state", "action_features", "action_mask")}, rng)
            actions = np.where(live, batch["action_id"][envs, rows], -1).astype(np.int32)
            batch = env.step(actions)
            if not batch["action_valid"][live].all():
                raise RuntimeError("a player chose an illegal row")  # would loop forever otherwise
            ended = live & (batch["state"][:, _GAME_OVER] == 1)
            winner[ended] = batch["state"][ended, _WINNER]
    return winner


def _play_single(seating: np.ndarray, roster: list[_Player], setup: "_Setup", seed: int, rng: np.random.Generator,
                 timing: "_Timing") -> int:
    """One game on a GameEnv (several different native bots, or timed decisions); the winning seat or -1."""
    from ..game_env import GameEnv
    from .java.crossplay import PolyenvSeat
    P = len(seating)
    game = GameEnv(seed=seed, map_size=setup.map_size, players=TRIBE_ORDER[:P], max_turns=setup.max_turns,
                   full_observability=setup.full_observability)
    timed = {k: PolyenvSeat(roster[k].spec, seed=seed + k) for k in set(seating.tolist()) if roster[k].kind == "timed"}
    while not game.game_over:
        k = int(seating[game.current_player])
        player = roster[k]
        if k in timed:
            action, ms = timed[k].choose(game)
            timing.add(k, 1, ms)
            game.step(action)
            continue
        if player.native:
            _bots.play_turn(game, player.spec)
            continue
        obs = game.observe(max_actions=setup.max_actions)
        row = _choose_rows(player, {k: obs[k][None] for k in ("map_tokens", "state", "action_features",
                                                             "action_mask")}, rng)[0]
        game.step(int(obs["action_id"][row]))
    return game.winner


def _native_of(seating, roster) -> tuple[str, _Player | None]:
    """How a game is played: ("vector", native bot or None), ("single", None) or ("lockstep", None)."""
    players = [roster[k] for k in seating]
    if any(p.kind == "java" for p in players):
        return "lockstep", None
    natives = {p.spec: p for p in players if p.native}
    if any(p.kind == "timed" for p in players) or len(natives) > 1 or (natives and all(p.native for p in players)):
        return "single", None
    if natives:
        return "vector", next(iter(natives.values()))
    randoms = [p for p in players if p.kind == "bot"]          # only random bots left
    if randoms and len(randoms) < len(players):
        return "vector", randoms[0]                          # random plays its seats natively
    return "vector", None


@dataclass
class _Setup:
    """The games' settings: board, threads, rows, turn limit, observability, and how Java runs."""

    map_size: int
    threads: int | None
    max_actions: int
    max_turns: int | None
    full_observability: bool
    java: object = None          # polyenv.evaluation.java.pool.JavaOptions when a Java agent plays


class _Timing:
    """Decisions and their thread CPU milliseconds per roster player, the lockstep games stopped by a
    difference (their reports) and the Java agents' settings in effect."""

    def __init__(self, n: int):
        self.decisions = np.zeros(n, np.int64)
        self.cpu_ms = np.zeros(n)
        self.stopped: list = []
        self.settings: dict = {}
        self.resynced: dict = {}
        self.fallbacks = 0

    def add(self, k: int, decisions: int, ms: float) -> None:
        self.decisions[k] += decisions
        self.cpu_ms[k] += ms


_STOPPED = -3  # winners[] of a lockstep game stopped by a difference between the engines (left unrated)


def _play_lockstep(games: list, seatings: np.ndarray, roster, setup: _Setup, seed: int, timing: _Timing,
                   winners: np.ndarray, progress) -> None:
    from .java.pool import Task, play_games
    tasks = [Task(g, tuple(roster[k].spec for k in seatings[g]), seed + g, setup.map_size,
                  TRIBE_ORDER[:seatings.shape[1]], not setup.full_observability, setup.max_actions) for g in games]
    for g, rec in play_games(tasks, setup.java):
        seating = seatings[g]
        for s, k in enumerate(seating):
            timing.add(int(k), rec["decisions"][s], rec["cpu_ms"][s])
        for s, settings in rec["agents"].items():
            timing.settings[roster[seating[int(s)]].spec] = settings
        for c, n in rec["resynced"].items():
            timing.resynced[c] = timing.resynced.get(c, 0) + n
        timing.fallbacks += rec["fallbacks"]
        if rec["difference"] is not None:
            timing.stopped.append(dict(rec["difference"], game=int(g), players=[roster[k].spec for k in seating]))
            winners[g] = _STOPPED
        else:
            winners[g] = rec["winner"]
        if progress is not None:
            progress(1)


def _play(seatings: np.ndarray, roster, setup: _Setup, seed, rng, timing: _Timing, progress=None) -> np.ndarray:
    """Winning seat (-1 draw, _STOPPED) of every game; game g is seeded ``seed + g``-style per group."""
    winners = np.full(len(seatings), -1, np.int64)
    groups: dict = {}                                  # key -> (native player or None, game indices)
    lockstep = []
    for g, seating in enumerate(seatings):
        how, native = _native_of(seating, roster)
        if how == "lockstep":
            lockstep.append(g)
            continue
        if how == "single":
            key = ("single", g)
        else:
            key = ("vector", native.spec if native else None,
                   tuple(s for s, k in enumerate(seating) if native is None or roster[k] is not native))
        groups.setdefault(key, (native, []))[1].append(g)
    for key, (native, games) in groups.items():
        games = np.array(games)
        if key[0] == "single":
            g = int(games[0])
            winners[g] = _play_single(seatings[g], roster, setup, seed + g, rng, timing)
        else:
            winners[games] = _play_vector(seatings[games], roster, native, setup, seed + int(games[0]), rng)
        if progress is not None:
            progress(len(games))
    if lockstep:
        _play_lockstep(lockstep, seatings, roster, setup, seed, timing, winners, progress)
    return winners


def _check_shapes(roster: list[_Player], map_size: int, max_actions: int | None) -> int:
    """The games' max_actions: a checkpoint reads exactly its own board size and row count."""
    for p in roster:
        if p.kind != "checkpoint":
            continue
        tiles, rows = p.model.config["num_tiles"], p.model.config["num_rows"]
        if tiles != map_size * map_size:
            raise ValueError(f"{p.spec} was trained on {int(tiles ** 0.5)}x{int(tiles ** 0.5)} maps, not {map_size}")
        if max_actions is None:
            max_actions = rows
        if rows != max_actions:
            raise ValueError(f"{p.spec} reads {rows} action rows, the games have max_actions={max_actions}")
    return 256 if max_actions is None else max_actions


# ---------------------------------------------------------------------------- schedules
def _round_robin(n_players: int, games: int) -> np.ndarray:
    pairs = [(i, j) for i in range(n_players) for j in range(i + 1, n_players)]
    out = []
    for g in range(games):                     # pairs in turn, seats alternating on each revisit
        i, j = pairs[g % len(pairs)]
        out.append((i, j) if (g // len(pairs)) % 2 == 0 else (j, i))
    return np.array(out, np.int64)


def _swiss_round(ordinals: np.ndarray, games: int, rng: np.random.Generator) -> np.ndarray:
    """Adjacent players by current rating (ties broken at random) meet, both seats, until ``games``."""
    order = np.lexsort((rng.random(len(ordinals)), -ordinals))
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
    out = []
    for g in range(games):
        i, j = pairs[(g // 2) % len(pairs)]
        out.append((i, j) if g % 2 == 0 else (j, i))
    return np.array(out, np.int64)


def _free_for_all(n_players: int, per_game: int, games: int, rng: np.random.Generator) -> np.ndarray:
    """Seats drawn without replacement while the roster lasts (repeats only when per_game > players)."""
    return np.stack([np.concatenate([rng.permutation(n_players) for _ in range(-(-per_game // n_players))])[:per_game]
                     for _ in range(games)]).astype(np.int64)


# ---------------------------------------------------------------------------- ratings
@dataclass
class TournamentResult:
    """What :func:`tournament` measured.

    ``players`` (specs, in roster order); ``mu``, ``sigma`` (OpenSkill Plackett-Luce)
    and the 95 % interval ``mu ± 1.96 sigma`` (``ci_low``, ``ci_high``); ``ordinal``
    (``mu - 3 sigma``, the conservative rank key); ``games`` and ``wins`` per player;
    ``win_matrix[i, j]`` games that i won against j (j seated in the same game) and
    ``games_matrix[i, j]`` games in which i and j met; ``seatings`` [games, seats]
    (roster indices) and ``winners`` (winning seat, -1 draw, -3 a lockstep game stopped by a
    difference between the engines: unrated, its report in ``stopped``). ``decisions`` and
    ``cpu_ms`` per player count the decisions timed (games with a Java agent or a timed bot) and
    their thread CPU milliseconds; ``java_settings`` maps each Java agent to its settings in effect;
    ``resynced`` counts the known engine differences re-synchronised in lockstep games.
    """

    players: list[str]
    mu: np.ndarray
    sigma: np.ndarray
    games: np.ndarray
    wins: np.ndarray
    win_matrix: np.ndarray
    games_matrix: np.ndarray
    seatings: np.ndarray
    winners: np.ndarray
    files: dict = field(default_factory=dict)
    decisions: np.ndarray | None = None
    cpu_ms: np.ndarray | None = None
    stopped: list = field(default_factory=list)
    java_settings: dict = field(default_factory=dict)
    resynced: dict = field(default_factory=dict)

    @property
    def ms_per_decision(self) -> np.ndarray:
        """Mean thread CPU milliseconds per timed decision of each player (nan where none were timed)."""
        n = len(self.players)
        d = np.zeros(n) if self.decisions is None else self.decisions.astype(float)
        ms = np.zeros(n) if self.cpu_ms is None else self.cpu_ms
        return np.divide(ms, d, out=np.full(n, np.nan), where=d > 0)

    ci_low = property(lambda self: self.mu - 1.96 * self.sigma, doc="Lower end of the 95 % interval of mu.")
    ci_high = property(lambda self: self.mu + 1.96 * self.sigma, doc="Upper end of the 95 % interval of mu.")
    ordinal = property(lambda self: self.mu - 3 * self.sigma, doc="mu - 3 sigma.")

    def win_rate(self, i: int, j: int | None = None) -> float:
        """Player i's share of games won (against j only, when given); nan if none were played."""
        won, played = (self.wins[i], self.games[i]) if j is None else (self.win_matrix[i, j], self.games_matrix[i, j])
        return float(won / played) if played else float("nan")

    def table(self) -> str:
        """The ranking as text: rating, interval, games and win rate, best ordinal first."""
        timed = self.decisions is not None and bool((self.decisions > 0).any())
        header = f"{'rank':>4}  {'player':<28} {'mu':>6} {'95% interval':>15} {'ordinal':>8} {'games':>6} {'win %':>6}"
        header += f" {'ms/dec':>7}" if timed else ""
        lines = [header, "-" * len(header)]
        ms = self.ms_per_decision
        for r, i in enumerate(np.argsort(-self.ordinal), 1):
            line = (f"{r:>4}  {_short(self.players[i]):<28} {self.mu[i]:6.2f} "
                    f"[{self.ci_low[i]:6.2f},{self.ci_high[i]:6.2f}] {self.ordinal[i]:8.2f} {self.games[i]:6d} "
                    f"{100 * self.win_rate(i):6.1f}")
            if timed:
                line += f" {ms[i]:7.1f}" if np.isfinite(ms[i]) else f" {'-':>7}"
            lines.append(line)
        if self.stopped:
            lines.append(f"({len(self.stopped)} lockstep game(s) stopped by a difference between the engines: unrated)")
        return "\n".join(lines)

    def matrix_text(self) -> str:
        """Win matrix as text: row player's wins / games against the column player."""
        names = [_short(p, 12) for p in self.players]
        lines = ["wins/games " + " ".join(f"{n:>12}" for n in names)]
        for i, n in enumerate(names):
            cells = ["-" if i == j else f"{self.win_matrix[i, j]}/{self.games_matrix[i, j]}"
                     for j in range(len(names))]
            lines.append(f"{n:<10} " + " ".join(f"{c:>12}" for c in cells))
        return "\n".join(lines)


def _short(spec: str, width: int = 28) -> str:
    return spec if len(spec) <= width else "…" + spec[-(width - 1):]


class _Ratings:
    """OpenSkill Plackett-Luce ratings, one per roster entry, updated game by game."""

    def __init__(self, n: int):
        try:
            from openskill.models import PlackettLuce
        except ImportError as e:
            raise ImportError("tournament ratings need openskill: pip install 'polyenv[train]'") from e
        self.model = PlackettLuce()
        self.ratings = [self.model.rating() for _ in range(n)]

    def update(self, seating: np.ndarray, winner: int) -> None:
        if winner == _STOPPED:
            return
        teams = [[self.model.rating(mu=self.ratings[k].mu, sigma=self.ratings[k].sigma)] for k in seating]
        ranks = [0 if s == winner else 1 for s in range(len(seating))]
        new = self.model.rate(teams, ranks=ranks)
        for k in np.unique(seating):               # a player seated twice takes the mean of its updates
            seats = np.flatnonzero(seating == k)
            self.ratings[k].mu = float(np.mean([new[s][0].mu for s in seats]))
            self.ratings[k].sigma = float(np.mean([new[s][0].sigma for s in seats]))

    def ordinals(self) -> np.ndarray:
        return np.array([r.mu - 3 * r.sigma for r in self.ratings])


# ---------------------------------------------------------------------------- tournament
def tournament(players: Sequence[str], games: int = 100, players_per_game: int = 2, map_size: int = 11,
               threads: int | None = None, seed: int = 0, format: str = "auto", max_actions: int | None = None,
               out_dir: str | os.PathLike | None = None, progress: Callable[[int, int], None] | None = None,
               max_turns: int | None = None, full_observability: bool = False, tribes: str | os.PathLike | None = None,
               java_jobs: int = 1, java_heap: str = "384m", java_cpu: int | None = None, java_warmup: int = 30,
               java_command: Sequence[str] | None = None) -> TournamentResult:
    """Plays ``games`` games between ``players`` and rates them (module docstring).

    Args:
        players: at least two specs: bot names of :data:`polyenv.bots.BOTS` (``"mcts:200"``
            style arguments pass through to the bot; ``"mcts:ms=40"`` for a time budget per
            decision), checkpoint paths, or Java Tribes agents (``"java:MCTS"``,
            ``"java:RHEA:fm=1000"``: :mod:`polyenv.evaluation.java.crossplay`).
        games: total games (>= 1).
        players_per_game: 2 (pairings) to 16 (free-for-all, seats drawn from the roster).
        format: for 2 players ``"round-robin"`` (every pair in turn, seats alternating),
            ``"swiss"`` (rounds of adjacent-rated pairs) or ``"auto"`` (round robin);
            free-for-all otherwise.
        max_actions: action-row capacity of the games (rows beyond it are truncated); None:
            the checkpoints' (they must agree with it and with ``map_size``), else 256.
        out_dir: when given, writes ``win_matrix.csv`` and ``ratings.png`` there
            (paths in ``result.files``).
        progress: called as ``progress(games_done, games)`` after each group of games.
        max_turns: turn limit of the games (None: the capitals mode's 50); at the limit the
            engine's winner (by score) wins. Games with a Java agent keep Tribes' own limit (50).
        full_observability: play without fog of war (default False: fog).
        tribes: a Tribes checkout (git directory or source tree), needed by Java agents; the first
            use compiles it into a cache (``polyenv.evaluation.java.build``).
        java_jobs: worker processes for the games with a Java agent, one JVM each.
        java_heap: maximum heap of each JVM; java_cpu: pin worker k (and its JVM) to core
            ``java_cpu + k`` (None: no pinning).
        java_warmup: decisions each Java agent plays on a throwaway game before its first timed game.
        java_command: a stand-in for the JVM speaking the driver's protocol (tests; ``--fog`` is
            appended for the games with fog).

    Raises ValueError for malformed arguments (before any game is played).
    """
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ValueError("players must be a list of player specs")
    if len(players) < 2:
        raise ValueError(f"need at least two players, got {len(players)}")
    games = _v.integer(games, "games", 1, 1_000_000)
    per_game = _v.integer(players_per_game, "players_per_game", MIN_PLAYERS, MAX_PLAYERS)
    map_size = _v.integer(map_size, "map_size", MIN_MAP_SIZE, MAX_MAP_SIZE)
    threads = _v.integer(threads, "threads", 1, 1024, allow_none=True)
    seed = _v.seed(seed)
    max_turns = _v.integer(max_turns, "max_turns", 1, MAX_TURNS, allow_none=True)
    full_observability = _v.boolean(full_observability, "full_observability")
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {format!r}")
    if format == "swiss" and per_game != 2:
        raise ValueError("format 'swiss' needs players_per_game=2")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    java_jobs = _v.integer(java_jobs, "java_jobs", 1, 256)
    java_warmup = _v.integer(java_warmup, "java_warmup", 0, 100_000)
    java_cpu = _v.integer(java_cpu, "java_cpu", 0, 4096, allow_none=True)
    roster = [parse_player(p) for p in players]
    max_actions = _check_shapes(roster, map_size, max_actions)
    # The games' configuration (max_actions included), checked by the engine before any game is played.
    game_description(map_size=map_size, players=per_game, max_turns=max_turns,
                     full_observability=full_observability, max_actions=max_actions)
    java = None
    if any(p.kind == "java" for p in roster):
        from .java.pool import JavaOptions
        if tribes is None and java_command is None:
            raise ValueError("Java agents need tribes= (a Tribes checkout: git directory or source tree) and a JDK")
        if tribes is not None and not os.path.isdir(tribes):
            raise ValueError(f"tribes={str(tribes)!r} is not a directory")
        if max_turns is not None:
            raise ValueError("games with a Java agent keep Tribes' own turn limit: leave max_turns unset")
        java = JavaOptions(None if tribes is None else str(tribes), java_heap, java_cpu, java_warmup, java_jobs,
                           None if java_command is None else tuple(java_command))
    setup = _Setup(map_size, threads, max_actions, max_turns, full_observability, java)
    n = len(roster)
    timing = _Timing(n)
    rng = np.random.default_rng(seed)
    ratings = _Ratings(n)
    done = [0]

    def tick(k: int) -> None:
        done[0] += k
        if progress is not None:
            progress(done[0], games)

    if per_game == 2 and format == "swiss":
        per_round = 2 * (n // 2)
        chunks = []
        while sum(len(c) for c in chunks) < games:
            size = min(per_round, games - sum(len(c) for c in chunks))
            seatings = _swiss_round(ratings.ordinals(), size, rng)
            winners = _play(seatings, roster, setup, seed + 100_003 * len(chunks), rng, timing, tick)
            for s, w in zip(seatings, winners):
                ratings.update(s, int(w))
            chunks.append((seatings, winners))
        seatings = np.concatenate([c[0] for c in chunks])
        winners = np.concatenate([c[1] for c in chunks])
    else:
        seatings = _round_robin(n, games) if per_game == 2 else _free_for_all(n, per_game, games, rng)
        winners = _play(seatings, roster, setup, seed, rng, timing, tick)
        for s, w in zip(seatings, winners):
            ratings.update(s, int(w))

    played, wins = np.zeros(n, np.int64), np.zeros(n, np.int64)
    win_matrix, games_matrix = np.zeros((n, n), np.int64), np.zeros((n, n), np.int64)
    for s, w in zip(seatings, winners):
        if w == _STOPPED:
            continue
        present = np.unique(s)
        played[present] += 1
        games_matrix[np.ix_(present, present)] += 1
        if w >= 0:
            wins[s[w]] += 1
            win_matrix[s[w], present] += 1
    np.fill_diagonal(win_matrix, 0)
    np.fill_diagonal(games_matrix, 0)
    result = TournamentResult([p.spec for p in roster], np.array([r.mu for r in ratings.ratings]),
                              np.array([r.sigma for r in ratings.ratings]), played, wins, win_matrix, games_matrix,
                              seatings, winners, decisions=timing.decisions, cpu_ms=timing.cpu_ms,
                              stopped=timing.stopped, java_settings=timing.settings, resynced=timing.resynced)
    if out_dir is not None:
        result.files = _write(result, out_dir)
    return result


def _write(result: TournamentResult, out_dir) -> dict:
    """win_matrix.csv and ratings.png in ``out_dir``."""
    os.makedirs(out_dir, exist_ok=True)
    csv = os.path.join(out_dir, "win_matrix.csv")
    with open(csv, "w", encoding="utf-8") as f:
        f.write("player," + ",".join(result.players) + "\n")
        for i, p in enumerate(result.players):
            f.write(p + "," + ",".join(f"{result.win_matrix[i, j]}/{result.games_matrix[i, j]}"
                                       for j in range(len(result.players))) + "\n")
    files = {}
    if result.stopped:
        import json
        files["stopped"] = os.path.join(out_dir, "stopped.jsonl")
        with open(files["stopped"], "w", encoding="utf-8") as f:
            for d in result.stopped:
                f.write(json.dumps(d) + "\n")
    png = os.path.join(out_dir, "ratings.png")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    order = np.argsort(result.mu)
    fig, ax = plt.subplots(figsize=(6, 0.5 * len(order) + 1.2))
    ax.errorbar(result.mu[order], np.arange(len(order)), xerr=1.96 * result.sigma[order], fmt="o", capsize=4)
    ax.set_yticks(np.arange(len(order)), [_short(result.players[i], 30) for i in order])
    ax.set_xlabel("OpenSkill mu (95 % interval)")
    ax.set_title(f"{len(result.seatings)} games, {result.seatings.shape[1]} players per game")
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)
    return {"win_matrix": csv, "ratings": png, **files}


# ---------------------------------------------------------------------------- SB3 policies vs one bot
def sb3_policy(model, deterministic: bool = True) -> Callable[[dict, np.ndarray], np.ndarray]:
    """``policy(obs, masks) -> actions`` from an SB3 / sb3-contrib model (masks are passed when it takes them)."""
    import inspect

    masked = "action_masks" in inspect.signature(model.predict).parameters

    def policy(obs: dict, masks: np.ndarray) -> np.ndarray:
        if masked:
            actions, _ = model.predict(obs, deterministic=deterministic, action_masks=masks)
        else:
            actions, _ = model.predict(obs, deterministic=deterministic)
        return actions

    return policy


def _vector_env(**kwargs):
    """``polyenv/Tribes-v0`` as a Gymnasium vector env (its native entry point, TribesVectorEnv), made through
    Gymnasium's registry as any user makes it."""
    import gymnasium

    from ..envs.registration import ENV_ID, register
    register()
    return gymnasium.make_vec(ENV_ID, vectorization_mode="vector_entry_point", **kwargs)


def evaluate(policy: Callable[[dict, np.ndarray], np.ndarray], opponent: str = "random", games: int = 200,
             seed: int = 10_000, seats: tuple[int, ...] = (0, 1), **env_kwargs) -> dict:
    """Plays ``games`` games of a Gymnasium-vector ``policy`` against ``opponent``; returns the results.

    ``policy(obs, masks)`` maps a batch of :class:`~polyenv.vector.TribesVectorEnv`
    observations and bool action masks to actions (int [n]). ``env_kwargs`` are
    TribesVectorEnv arguments (map_size, action_mode, max_actions, ...); invalid
    actions end the turn. The games are split evenly over ``seats``; each
    environment's first episode counts. Returns ``{"win_rate", "wins", "games",
    "per_seat": {seat: (wins, games)}, "mean_length"}`` (length in policy steps).
    For checkpoints of :mod:`~polyenv.train.pointer_net` use :func:`tournament`.
    """
    if games < len(seats):
        raise ValueError(f"games must be at least the number of seats ({len(seats)})")
    env_kwargs = {"invalid_action": "end_turn", **env_kwargs}
    per_seat, lengths = {}, []
    for k, seat in enumerate(seats):
        n = games // len(seats) + (1 if k < games % len(seats) else 0)
        env = _vector_env(num_envs=n, opponent=opponent, learner_seat=seat, seed=seed, **env_kwargs)
        try:
            obs, _ = env.reset(seed=seed + 1_000_000 * k)
            result = np.zeros(n, dtype=np.int8)       # 0 playing, 1 won, -1 lost
            length = np.zeros(n, dtype=np.int64)
            while (result == 0).any():
                actions = np.asarray(policy(obs, env.action_masks()), dtype=np.int64)
                obs, rewards, terminations, _, _ = env.step(actions)
                playing = result == 0
                length += playing
                ended = playing & terminations
                result[ended] = np.where(rewards[ended] > 0, 1, -1)
        finally:
            env.close()
        per_seat[seat] = (int((result == 1).sum()), n)
        lengths.extend(length.tolist())
    wins = sum(w for w, _ in per_seat.values())
    return {"win_rate": wins / games, "wins": wins, "games": games, "per_seat": per_seat,
            "mean_length": float(np.mean(lengths))}

