"""GameEnv: one Tribes game on the native engine.

GameEnv is the API for debugging, replays, search branches, scenario tests and
one-off games. For training throughput use VectorGameEnv (many games per call).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from . import _core
from . import _validate as _v
from ._levels import read_level
from ._names import (
    ACTION_KINDS, BUILDINGS, RESOURCES, TECHS, TERRAINS, UNIT_STATUSES, UNIT_TYPES, code, mode_code, tile_index,
    tribe_code,
)
from .description import DEFAULT_MAX_ACTIONS, GameDescription, check_player_count, game_description

__all__ = ["GameEnv"]

# The action-id layout of every configuration: kind -> (block, fixed arg), block -> (uses source, uses target).
_LAYOUT = game_description()
_KINDS = _LAYOUT.action_kinds
_BLOCKS = {b["index"]: b for b in _LAYOUT.action_blocks.values()}
_DEFAULT_PLAYERS = (2, 1)  # Bardur, Imperius: the two-player default of a generated map


class GameEnv:
    """One game of Tribes (a Polytopia-style strategy game), simulated natively.

    Args:
        seed: seed of the first game (map and every random rule); ``reset()``
            without a seed continues with ``seed + 1``, ``seed + 2``, ...
        map_size: board side N (tiles = N*N), for generated maps.
        players: tribes in turn order (``polyenv.Bardur`` ... or names), 2 to 16;
            the same tribe may appear twice. ``None`` (default): the level's
            tribes with a ``level``, else ``(Bardur, Imperius)``.
        level: a Tribes CSV level, as a path or as the text itself.
        mode: ``"capitals"`` (default, 50 turns) or ``"score"`` (30 turns).
        max_turns: overrides the mode's turn limit.
        full_observability: ``False`` (default) plays with fog of war.
        auto_end_turn: end the turn automatically when End Turn is the only
            legal action (Tribes' behaviour).
    """

    def __init__(self, seed: int = 0, map_size: int = 11, players: Sequence | None = None, level=None,
                 mode: str = "capitals", max_turns: int | None = None, full_observability: bool = False,
                 auto_end_turn: bool = True):
        seed = _v.seed(seed)
        full_observability = _v.boolean(full_observability, "full_observability")
        auto_end_turn = _v.boolean(auto_end_turn, "auto_end_turn")
        if players is None and level is None:
            players = _DEFAULT_PLAYERS
        tribes = [] if players is None else [tribe_code(p) for p in _sequence(players, "players")]
        if players is not None and not tribes:  # the engine reads no tribes as "the level's tribes"
            check_player_count(0)
        self._config = dict(seed=seed, map_size=map_size, players=None if players is None else tuple(tribes),
                            level=level, mode=mode, max_turns=max_turns,
                            full_observability=full_observability, auto_end_turn=auto_end_turn)
        mode_id, limit = mode_code(mode), _v.max_turns(max_turns)
        if level is not None:
            self._game = _core.Game.from_level(read_level(level), tribes, mode_id, limit, full_observability,
                                               auto_end_turn, seed)
        else:
            map_size = _v.integer(map_size, "map_size", _core.MIN_MAP_SIZE, _core.MAX_MAP_SIZE)
            self._game = _core.Game.generated(map_size, tribes, mode_id, limit, full_observability,
                                              auto_end_turn, seed)

    # ------------------------------------------------------------------ construction
    @classmethod
    def blank(cls, map_size: int, players: Sequence, terrain: str = "plain", seed: int = 0,
              mode: str = "capitals", max_turns: int | None = None, revealed: bool = True,
              full_observability: bool = False) -> "GameEnv":
        """A scenario board of ``map_size`` × ``map_size`` tiles for ``players`` (tribes in turn order):
        every tile ``terrain``, no cities, units or resources.

        Every tile is revealed to every player (``revealed=False``: none is; use
        ``reveal``), the turn is 1, every player has 0 stars and ``auto_end_turn``
        is off. ``full_observability=True`` turns fog off as in a fully observable
        game (every tile stays visible whatever happens; needs ``revealed=True``).
        Build the scenario with the edit methods (``place_city``, ``place_unit``,
        ``set_population``, ``set_building``, ...), then play it with ``step``. ``seed`` seeds
        the game's random rules; ``mode`` and ``max_turns`` are as for the constructor.
        """
        tribes = [tribe_code(p) for p in _sequence(players, "players")]
        map_size = _v.integer(map_size, "map_size", _core.MIN_MAP_SIZE, _core.MAX_MAP_SIZE)
        env = cls.__new__(cls)
        revealed = _v.boolean(revealed, "revealed")
        full_observability = _v.boolean(full_observability, "full_observability")
        env._config = dict(blank=True, map_size=map_size, players=tuple(tribes), terrain=terrain, seed=seed,
                           mode=mode, max_turns=max_turns, revealed=revealed, full_observability=full_observability)
        env._game = _core.Game.blank(map_size, tribes, mode_code(mode), _v.max_turns(max_turns), full_observability,
                                     code(terrain, TERRAINS, "terrain"), _v.seed(seed), revealed)
        return env

    @classmethod
    def _wrap(cls, game, config) -> "GameEnv":
        env = cls.__new__(cls)
        env._game, env._config = game, dict(config)
        return env

    @classmethod
    def from_bytes(cls, data: bytes) -> "GameEnv":
        """Restores a game from ``data``, bytes saved by ``to_bytes()`` (exact round trip of the state).

        Every range and invariant is checked; a bad state raises ValueError. Every
        counter must leave room for the rest of the game (docs/gameenv_api.md): a
        counter no game could reach before its end is rejected, naming the field.
        The event journal is not part of the bytes: the restored game starts an
        empty one (pickle, ``copy.deepcopy`` and ``clone()`` keep it).
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise ValueError("from_bytes expects bytes")
        game = _core.Game.from_bytes(bytes(data))
        return cls._wrap(game, dict(map_size=game.map_size, players=None, level=None))

    def to_bytes(self) -> bytes:
        """The complete state (board, units, RNG, counters) as versioned bytes (not the event journal)."""
        return self._game.to_bytes()

    def clone(self) -> "GameEnv":
        """An independent copy of this game (a memcpy-like copy of the state)."""
        return self._wrap(self._game.clone(), self._config)

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        # Rebuilt from its construction arguments (so reset() keeps the level or
        # blank board), then the position and the event journal are loaded: like
        # clone() and deepcopy, pickle copies the whole object (to_bytes is the state only).
        config = dict(self._config)
        if config.get("level") is not None:
            config["level"] = self._game.level_csv
        return (_restore, (self.to_bytes(), config, self._game.journal_bytes()))

    def __eq__(self, other) -> bool:
        return isinstance(other, GameEnv) and self._game.equals(other._game)

    __hash__ = None

    def reset(self, seed: int | None = None) -> None:
        """Starts a new game: ``seed`` or, if None, the previous seed + 1."""
        self._game.reset(_v.seed(seed) if seed is not None else (self._game.seed + 1) % 2**64)

    # ------------------------------------------------------------------ properties
    map_size = property(lambda self: self._game.map_size, doc="Board side N.")
    num_players = property(lambda self: self._game.num_players, doc="Number of players.")
    num_tiles = property(lambda self: self._game.num_tiles, doc="N * N.")
    current_player = property(lambda self: self._game.current_player, doc="Player to act.")
    turn = property(lambda self: self._game.turn,
                    doc="The engine's turn counter (Tribes' tick, the events' ``round``): 0 in the first turn, +1 once "
                        "every tribe has moved; a game that reaches the turn limit L ends when it becomes L + 1 "
                        "(see ``turn_number``).")
    game_over = property(lambda self: self._game.game_over, doc="True once the game has ended.")
    winner = property(lambda self: self._game.winner, doc="Winning player, or -1 while playing.")
    state_id = property(lambda self: self._game.state_id,
                        doc="Opaque id of this exact position; changes after every accepted action and reset.")
    episode_id = property(lambda self: self._game.episode_id, doc="Opaque id of the current game.")
    action_space_size = property(lambda self: self._game.action_space_size, doc="Number of stable action ids.")
    action_space_fingerprint = property(lambda self: self._game.action_space_fingerprint,
                                        doc="Fingerprint of the action-id layout (map size, players, version).")
    pending_level_up = property(lambda self: self._game.pending_level_up,
                                doc="None, or (city_tile, reward_a, reward_b) when a level-up must be chosen.")
    full_observability = property(lambda self: self._game.full_observability, doc="False when fog of war is on.")
    turn_limit = property(lambda self: self._game.turn_limit,
                          doc="The last turn played (turns are numbered from 0, so a game that reaches it plays "
                              "turn_limit + 1 turns): ``max_turns``, or the mode's 50 / 30.")

    @property
    def turn_number(self) -> int:
        """The turn being played, numbered from 0 as Tribes' tick; once the game is over, the turn in
        which it ended (at most ``turn_limit``). Every printed text (render headers, the CLI) shows it."""
        return min(self._game.turn, self._game.turn_limit)
    actions_applied = property(lambda self: self._game.actions_applied, doc="Actions applied this game.")
    native = property(lambda self: self._game,
                      doc="The native game object (``polyenv._core.Game``) behind this GameEnv, for the bots and "
                          "the environments' hot paths; its methods take raw engine codes and are not a stable API.")
    eliminated = property(lambda self: [p for p in range(self.num_players) if self._game.eliminated_mask >> p & 1],
                          doc="Players the engine has eliminated (they lost their last city), ascending.")

    @property
    def description(self) -> GameDescription:
        """The :class:`polyenv.GameDescription` of this game's configuration (sizes, layouts, bounds),
        with the default ``max_actions`` rows."""
        g = self._game
        return _core.describe_config(g.map_size, g.num_players, g.mode, g.turn_limit, g.full_observability,
                                   DEFAULT_MAX_ACTIONS, g.num_players == 1)

    # ------------------------------------------------------------------ play
    def legal_actions(self) -> np.ndarray:
        """Legal action ids of the current player, int32, ascending (EndTurn = 0 first)."""
        return self._game.legal_actions()

    def is_legal(self, action_id: int) -> bool:
        """True when ``action_id`` is legal now."""
        return self._game.is_legal(_action_id(action_id))

    def step(self, action_id: int) -> None:
        """Applies the legal action ``action_id`` (an int). Raises ValueError (and changes nothing) otherwise."""
        self._game.step(_v.integer(action_id, "action id", -(2**31)))

    def playout(self, policy: str = "random", max_actions: int | None = None, seed: int | None = None,
                record_events: bool = True) -> int:
        """Plays natively (GIL released) to the end of the game or for ``max_actions``.

        ``policy="random"`` picks uniformly among the legal actions (the full legal
        list is rebuilt after every action). ``record_events=False`` skips the
        event journal. ``seed`` seeds the choices (None: the current ``state_id``).
        Returns the number of actions applied.
        """
        if policy != "random":
            raise ValueError(f"policy must be 'random', got {policy!r}")
        limit = -1 if max_actions is None else _v.integer(max_actions, "max_actions", 0)
        return self._game.playout(limit, _v.seed(seed) if seed is not None else self._game.state_id,
                                  _v.boolean(record_events, "record_events"))

    def action_id(self, kind: str, source=None, target=None, arg=None) -> int:
        """The stable id of an action named by its kind (it may be illegal now).

        ``kind`` is one of ``polyenv.ACTION_KINDS``; ``source`` (the acting unit's or city's tile),
        ``target`` (a tile, or a relative player for declare_war / send_stars) and ``arg`` (a tech,
        unit type, building, level-up reward or star amount) as the kind needs them.

        The GameEnv page of the documentation lists the arguments of each kind; tiles are indices
        or (x, y) pairs, techs / unit types / buildings are names or ints.
        """
        if kind not in _KINDS:
            raise ValueError(f"unknown action kind {kind!r}; expected one of: {', '.join(ACTION_KINDS)}")
        (block, fixed_arg), n, players = _KINDS[kind], self.map_size, self.num_players
        src = tile_index(source, n) if source is not None else -1
        tgt = tile_index(target, n) if target is not None else -1
        a, amount = fixed_arg, 0
        if kind == "research":
            a = code(arg, TECHS, "tech")
        elif kind == "level_up":
            a = self._level_up_option(arg)
        elif kind in ("declare_war", "send_stars"):
            rel = _v.integer(target, "target", allow_none=True, low=-(2**31))
            if rel is None or not 1 <= rel < players:
                raise ValueError(f"{kind} needs target = relative player 1..{players - 1}")
            a, tgt = rel, -1
            if kind == "send_stars":
                amount = _v.integer(arg, "arg", -(2**31)) if arg is not None else 0
                if not 1 <= amount <= 14:
                    raise ValueError("send_stars needs arg = n in 1..14")
        elif kind == "spawn":
            a = code(arg, UNIT_TYPES[:8], "spawnable unit type")
        elif kind == "build":
            a = code(arg, BUILDINGS, "building")
        if _BLOCKS[block]["uses_source"] and src < 0:
            raise ValueError(f"{kind} needs source (a tile)")
        if _BLOCKS[block]["uses_target"] and tgt < 0:
            raise ValueError(f"{kind} needs target (a tile)")
        return self._game.encode_action(block, src, tgt, a, amount)

    def _level_up_option(self, arg) -> int:
        if _v.is_integer(arg):
            return _v.integer(arg, "level_up arg", 0, 1)
        if isinstance(arg, str):
            pending = self.pending_level_up
            if pending is not None and arg in pending[1:]:
                return pending[1:].index(arg)
            raise ValueError(f"{arg!r} is not one of the pending level-up rewards {pending}")
        raise _v.ArgumentTypeError(f"level_up needs arg = 0, 1 or a pending reward name, got {arg!r}")

    def describe_action(self, action_id: int) -> str:
        """A human-readable description of ``action_id`` in the current position."""
        return self._game.describe_action(_action_id(action_id))

    def decode_action(self, action_id: int) -> dict:
        """The parts of ``action_id``: a dict of block, source, target, arg, amount (ints, -1 unused)."""
        block, source, target, arg, amount = self._game.decode_action(_action_id(action_id))
        return dict(block=block, source=source, target=target, arg=arg, amount=amount)

    # ------------------------------------------------------------------ observation
    def observe(self, player: int | None = None, max_actions: int | None = None,
                include_combat_preview: bool = False) -> dict:
        """The observation fields of one game for ``player`` (default: the current player).

        Returns map_tokens int32 [tiles, 23], state int32 [11], action_id int32
        [A], action_features int32 [A, 17], action_arg_mask uint8 [A, 12],
        action_mask uint8 [A], and the counts legal_action_count,
        total_legal_action_count, action_truncated. A is the number of legal
        actions, or ``max_actions`` (padded / truncated like VectorGameEnv).
        Other players' observations have no action rows. ``include_combat_preview=True``
        fills the damage_dealt / damage_received columns (-1 otherwise).
        """
        p = self.current_player if player is None else _v.integer(player, "player")
        a = -1 if max_actions is None else _v.integer(max_actions, "max_actions", 1)
        return self._game.observe(p, a, _v.boolean(include_combat_preview, "include_combat_preview"))

    def visible_events_numpy(self, cursor: int = 0, player: int | None = None) -> tuple[dict, int]:
        """The fog-filtered event records of ``player`` after ``cursor``, and the next cursor.

        Returns ``(events, next_cursor)`` where events holds ``features`` int32
        [n, 26] (columns: ``polyenv.VISIBLE_EVENT_FEATURE_NAMES``), ``affected``
        int32 [n, 9, 8] (``VISIBLE_EVENT_AFFECTED_FEATURE_NAMES``),
        ``affected_mask`` uint8 [n, 9], ``sequence`` uint64 [n] (private to the
        player: 1, 2, ...) and ``action_sequence`` uint64 [n] (numbered per
        observer too, equal to ``sequence``: a shared id would count hidden actions). Hidden positions, units and victims
        are -1. The journal covers the current game (reset clears it); it is not
        part of ``to_bytes``.
        """
        p = self.current_player if player is None else _v.integer(player, "player")
        return self._game.visible_events(p, _v.integer(cursor, "cursor", 0, 2**63 - 1))

    def full_map_numpy(self) -> np.ndarray:
        """All tiles as int32 [tiles, 23] map tokens with no fog (for labels and tests only)."""
        return self._game.full_map()

    def render(self, mode: str = "text", player: int | None = None):
        """The board in ``mode`` ``"text"`` or ``"ansi"`` (coloured) -> str, ``"rgb_array"`` -> uint8 [H, W, 3].

        No fog unless ``player`` is given (then that player's view). One renderer
        (polyenv/viz/render.py) serves every API.
        """
        from .viz.render import render
        return render(self, mode, player)

    def _header(self, player: int | None = None) -> str:
        # A player's view shows its own score only: the others' move with hidden research and growth.
        scores = self.scores()
        scores = ", ".join(f"p{i}={s}" for i, s in enumerate(scores) if player is None or i == player)
        status = f"winner p{self.winner}" if self.game_over else f"player {self.current_player} to act"
        return f"turn {self.turn_number}/{self.turn_limit}, {status}; scores {scores}"

    # ------------------------------------------------------------------ inspection (ground truth)
    def scores(self) -> list[int]:
        """Score of every player (Tribes' score, tracked in every mode)."""
        return self._game.scores()

    def score_margin(self, player: int) -> int:
        """``player``'s score minus the best score among the other players (what ``score_delta`` rewards)."""
        return self._game.score_margin(_v.integer(player, "player"))

    def ranking(self) -> list[int]:
        """Players from first to last by the §12.2 ranking (ties by player order)."""
        return self._game.ranking()

    def stars(self, player: int) -> int:
        """Stars of ``player``."""
        return self._game.player(_v.integer(player, "player"))["stars"]

    def player(self, player: int) -> dict:
        """Ground-truth summary of a player (tribe, stars, score, techs, ...)."""
        return self._game.player(_v.integer(player, "player"))

    def tile(self, tile) -> dict:
        """Ground-truth content of a tile."""
        return self._game.tile(tile_index(tile, self.map_size))

    def unit_at(self, tile) -> dict | None:
        """The unit on a tile, or None."""
        return self._game.unit_at(tile_index(tile, self.map_size))

    def city_at(self, tile) -> dict | None:
        """The city whose centre is this tile, or None."""
        return self._game.city_at(tile_index(tile, self.map_size))

    def tech_cost(self, player: int, tech) -> int:
        """Research cost of ``tech`` for ``player`` now (§4)."""
        return self._game.tech_cost(_v.integer(player, "player"), code(tech, TECHS, "tech"))

    def income(self, player: int) -> int:
        """Stars ``player`` will receive at the start of its next turn."""
        return self._game.income(_v.integer(player, "player"))

    def combat_preview(self, attacker_tile, target_tile) -> dict:
        """The outcome of the unit on ``attacker_tile`` attacking the unit on ``target_tile`` now
        (nothing is played): a dict of dealt, retaliation (HP), kills (the target dies) and counter
        (the target strikes back). ValueError without a unit on either tile."""
        n = self.map_size
        attacker, target = tile_index(attacker_tile, n), tile_index(target_tile, n)
        if self._game.unit_at(attacker) is None:
            raise ValueError(f"combat_preview: no unit on the attacker tile {attacker_tile!r}")
        if self._game.unit_at(target) is None:
            raise ValueError(f"combat_preview: no unit on the target tile {target_tile!r}")
        dealt, ret, kills, counter = self._game.combat_preview(attacker, target)
        return dict(dealt=dealt, retaliation=ret, kills=kills, counter=counter)

    def check_invariants(self) -> None:
        """Raises AssertionError if a cached counter or back-reference is inconsistent."""
        problem = self._game.check_invariants()
        if problem:
            raise AssertionError(problem)

    # ------------------------------------------------------------------ scenario editing
    def set_terrain(self, tile, terrain) -> None:
        """Sets a tile's terrain (not "city": use place_city)."""
        self._game.set_terrain(tile_index(tile, self.map_size), code(terrain, TERRAINS, "terrain"))

    def set_resource(self, tile, resource) -> None:
        """Sets a tile's resource (a name, or None to clear it)."""
        self._game.set_resource(tile_index(tile, self.map_size), code(resource, RESOURCES, "resource", allow_none=True))

    def place_unit(self, player: int, unit_type, tile, hp: int | None = None, veteran: bool = False, kills: int = 0,
                   status: str = "fresh", carried="warrior") -> None:
        """Places a unit of ``player``: ``unit_type`` (name or code) on ``tile``, with ``hp`` (None:
        full), the ``veteran`` flag, ``kills`` and ``status`` (a ``polyenv.UNIT_STATUSES`` name);
        boats carry ``carried``. Supported by no city unless one of the player's cities is there."""
        # hp >= 1 is checked here: natively a negative hp means "full" (None); the other ranges are the engine's.
        self._game.place_unit(_v.integer(player, "player"), code(unit_type, UNIT_TYPES, "unit type"),
                              tile_index(tile, self.map_size), -1 if hp is None else _v.integer(hp, "hp", 1),
                              _v.boolean(veteran, "veteran"), _v.native_int(kills, "kills"),
                              code(status, UNIT_STATUSES, "unit status"), code(carried, UNIT_TYPES, "unit type"))

    def place_city(self, player: int, tile, level: int = 1, population: int = 0, walls: bool = False,
                   capital: bool = False) -> None:
        """Founds a city of ``player`` on ``tile`` at ``level`` with ``population``, ``walls`` and the
        ``capital`` flag (it claims its radius-1 unowned tiles: +100 and +20 per tile score)."""
        self._game.place_city(_v.integer(player, "player"), tile_index(tile, self.map_size),
                              _v.native_int(level, "level"), _v.native_int(population, "population"),
                              _v.boolean(walls, "walls"), _v.boolean(capital, "capital"))

    def set_building(self, tile, building, with_effects: bool = False) -> None:
        """Places a building inside a city's territory, at no star cost.

        By default a bare tile: no population, income or score effect.
        ``with_effects=True`` places it as the build action does (the engine's own
        code): the city's population, adjacency bonuses such as a Customs House's
        income, temple / monument score, a Lumber Hut clearing the forest; it
        needs a tile without a building, but no tech or neighbouring base building.
        """
        self._game.set_building(tile_index(tile, self.map_size), code(building, BUILDINGS, "building"),
                                _v.boolean(with_effects, "with_effects"))

    def set_population(self, tile, population: int) -> None:
        """Sets the population of the city centred on ``tile`` (in [-level, 1000]).

        The city's score follows; a population reaching level + 1 makes the
        level-up pending for its owner, as in play.
        """
        self._game.set_population(tile_index(tile, self.map_size), _v.native_int(population, "population"))

    def set_road(self, tile) -> None:
        """Puts a road on a plain, forest or village tile."""
        self._game.set_road(tile_index(tile, self.map_size))

    def grant_tech(self, player: int, tech) -> None:
        """Gives ``player`` a tech (no score)."""
        self._game.grant_tech(_v.integer(player, "player"), code(tech, TECHS, "tech"))

    def set_stars(self, player: int, n: int) -> None:
        """Sets ``player``'s stars to ``n`` (0 .. ``polyenv.MAX_STARS``)."""
        self._game.set_stars(_v.integer(player, "player"), _v.integer(n, "stars", -(2**31)))

    def reveal(self, player: int, tiles: Iterable | None = None) -> None:
        """Marks tiles (default: all) as explored by ``player`` (no score)."""
        n = self.map_size
        tiles = [] if tiles is None else [tile_index(t, n) for t in _sequence(tiles, "tiles")]
        self._game.reveal(_v.integer(player, "player"), tiles)

    def set_current_player(self, player: int) -> None:
        """Makes ``player`` the one to act (units keep their status)."""
        self._game.set_current_player(_v.integer(player, "player"))

    def remove_unit(self, tile) -> None:
        """Removes the unit on a tile (no score change)."""
        self._game.remove_unit(tile_index(tile, self.map_size))

    def __repr__(self) -> str:
        return (f"GameEnv(map_size={self.map_size}, players={self.num_players}, turn={self.turn_number}, "
                f"current_player={self.current_player}, game_over={self.game_over})")


def _action_id(value) -> int:
    """An action id for the inspection calls: any integer (out-of-range ids are the engine's to reject)."""
    return _v.integer(value, "action id", -(2**63), 2**63 - 1)


def _sequence(value, name: str) -> list:
    """A list from a sequence argument (not a string, not a single number)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ValueError(f"{name} must be a sequence, got {value!r}")
    return list(value)


def _restore(data: bytes, config: dict, journal: bytes | None = None) -> GameEnv:
    """Unpickling: rebuild from the construction arguments, then load the position and the journal."""
    config = dict(config)
    if config.get("players") is None and config.get("level") is None and not config.get("blank"):
        env = GameEnv.from_bytes(data)  # a game restored from bytes: its source is the bytes
    else:
        env = GameEnv.blank(**config) if config.pop("blank", False) else GameEnv(**config)
        env._game.load_bytes(data)
    if journal is not None:
        env._game.load_journal(journal)
    return env
