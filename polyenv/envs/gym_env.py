"""Tribes as a single-agent Gymnasium environment: ``polyenv/Tribes-v0``.

```python
import gymnasium as gym
import polyenv  # registers polyenv/Tribes-v0

env = gym.make("polyenv/Tribes-v0", map_size=11, opponent="random")
obs, info = env.reset(seed=42)
obs, reward, terminated, truncated, info = env.step(0)   # 0 = End Turn
```

The agent plays one seat (``learner_seat``) of a Tribes game simulated by
:class:`polyenv.GameEnv`; the other seats are played inside ``step`` by the
``opponent`` (the native ``"random"``, ``"greedy"`` or ``"mcts[:simulations]"`` bot, or a callable
``f(game) -> action_id``) until it is the learner's turn again or the game is
over. ``terminated`` is set when the game ends (capital captured, last tribe
standing, or the turn limit, decided by score); ``truncated`` only by a
``max_episode_steps`` given to ``gym.make``.

**Actions.** ``action_mode="global"``: ``Discrete(action_space_size)`` over the
stable global action ids (``GameEnv.action_id``; End Turn = 0).
``action_mode="rows"``: ``Discrete(max_actions)``, an index into the padded
rows of legal actions of this observation (``obs["action_id"][row]`` is the
global id). ``action_masks()`` returns the legal actions as bool (sb3-contrib's
``MaskablePPO`` calls it).

**Observation** (the learner's fog-of-war view), a ``spaces.Dict``:
``map_tokens`` int32 ``[N*N, 23]`` (``polyenv.MAP_TOKEN_FEATURE_NAMES``),
``state`` int32 ``[11]`` (``polyenv.STATE_FEATURE_NAMES``), ``action_mask``
int8 ``[A]`` (global: A = ``action_space_size``; rows: A = ``max_actions``), and
in rows mode ``action_id`` int32 ``[max_actions]`` (-1 padding) and
``action_features`` int32 ``[max_actions, 17]`` (``polyenv.ACTION_FEATURE_NAMES``).
The Box bounds are the engine's real value ranges (see :func:`observation_bounds`
and docs/gymnasium.md). With ``observation_format="flat"`` the observation is
``{"observation": Box(float32, [D]), "action_mask"}`` instead: every field
above (rows mode: the rows' features) scaled into [-1, 1] by
:class:`polyenv.flat.FlatEncoder` (columns in docs/integrations.md); ``"box"`` returns
that vector alone (a ``Box``, for wrappers such as ``NormalizeObservation``),
the mask in ``info["action_mask"]`` and ``action_masks()``. At most ``max_actions`` legal actions are represented
(the canonical prefix, End Turn kept): only represented actions are legal.

**Rewards.** ``reward="terminal"``: +1 when the learner wins, -1 when it loses,
on the step that ends the game. ``reward="score_delta"``: additionally, every
step pays the change of (learner's score - best opponent score) / 1000 over
the step (the learner's action and the opponents' turns that follow), so the
shaping of an episode sums to the change of the score margin since reset.

**Invalid actions** (in the action space but not a represented legal action):
``"end_turn"`` (default) -> End Turn is played instead (the first legal action
while a level-up choice is pending); ``"raise"`` -> ``ValueError`` and nothing
changes;
``"penalty"`` -> nothing is played, the reward is ``invalid_action_penalty``.
``info["invalid_action"]`` tells which steps were invalid. Values outside the
action space always raise ``ValueError``.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .. import _validate as _v, bots
from .._botspec import is_bot
from .._names import (ACTION_KINDS, BUILDINGS, DEFAULT_TRIBES, LEVEL_UP_REWARDS, TECHS, TERRAINS, RESOURCES, TILE_ACTIONS,
                      UNIT_TYPES, resolve_tribes)
from ..flat import FlatEncoder
from ..game_env import GameEnv, _read_level
from ..render import render_frame
from ..vector_env import REWARDS, SCORE_SCALE

__all__ = ["TribesEnv", "DEFAULT_TRIBES", "observation_bounds", "observation_space", "load_level_pool",
           "SCORE_SCALE"]

#: Tribes given to ``players=P`` (an int): Bardur, Imperius, Xin-xi, Oumaji, ... (cycled beyond 12).

_I32 = np.iinfo(np.int32).max
_OBSERVED_ID_MAX = 1 << 24      # observed unit ids are 1..2^24 (a 24-bit keyed bijection)
_MAX_UNIT_HP = 40 + 5           # giant 40, +5 once for a veteran; hp never exceeds max_hp
_MAX_CITY_LEVEL = 127           # City::level is int8; no rule caps it
_MAX_WORKSHOPS = 127            # City::workshops is int8
_POP_MIN, _POP_MAX = -(1 << 15), (1 << 15) - 1  # City::population is int16 and may be negative
_MAX_KILLS = 255                # Unit::kills is uint8
_MAX_TECH_TIER = 3
_MAX_POPULATION_GAIN = 16       # a bonus building (forge: 2) next to 8 base buildings; pop growth gives 3
_MIN_ACTION_COST = -10          # gathering whales pays 10 stars
_MAX_FIXED_ACTION_COST = 20     # buildings <= 20, units <= 15, send_stars <= 14
_CUSTOMS_PER_PORT = 2

_ACTION_MODES = ("global", "rows")
_INVALID = ("raise", "end_turn", "penalty")
_INFO_MODES = ("fast", "debug")
_LEVEL_SELECTIONS = ("round_robin", "seeded_random")
_OBSERVATION_FORMATS = ("dict", "flat", "box")


def observation_bounds(num_tiles: int, num_players: int, turn_limit: int, max_actions: int,
                       action_space_size: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Lower and upper bounds (int32 arrays) of every observation field, from the engine's value ranges.

    Returns ``{name: (low, high)}`` for ``map_tokens`` ``[tiles, 23]``, ``state``
    ``[11]``, ``action_id`` ``[max_actions]`` and ``action_features``
    ``[max_actions, 17]``. Unexplored tiles and padding rows are zeros, inside
    every range. Where no rule caps a value the range is its storage type's
    (docs/gymnasium.md lists each column).
    """
    T, P = int(num_tiles), int(num_players)
    production_max = _MAX_CITY_LEVEL + _MAX_WORKSHOPS + 1 + _CUSTOMS_PER_PORT * 8 * T
    income_max = min(_I32, T * production_max)
    # (low, high) per map-token column, in MAP_TOKEN_FEATURE_NAMES order.
    token = [
        (0, 1),                              # explored
        (0, len(TERRAINS) - 1),              # terrain
        (-1, len(RESOURCES) - 1),            # resource (-1 none or not yet visible)
        (-1, len(BUILDINGS) - 1),            # building
        (0, 5),                              # building_level (temples 1..5)
        (0, 1),                              # road
        (0, P),                              # territory_owner (relative: 1 self, 2.. others)
        (-1, T - 1),                         # territory_city_tile
        (0, P),                              # city_owner
        (-1, _MAX_CITY_LEVEL),               # city_level
        (_POP_MIN, _POP_MAX),                # city_population (own cities)
        (0, 31),                             # city_flags
        (_POP_MIN, production_max),          # city_production (a negative population passes through)
        (0, P),                              # unit_owner
        (-1, len(UNIT_TYPES) - 1),           # unit_type
        (-1, _MAX_UNIT_HP),                  # unit_hp
        (-1, _MAX_UNIT_HP),                  # unit_max_hp
        (-1, 5),                             # unit_status
        (0, 1),                              # unit_flags
        (-1, _MAX_KILLS),                    # unit_kills
        (-1, len(UNIT_TYPES) - 1),           # unit_carried_type
        (-1, _OBSERVED_ID_MAX),              # observed_unit_id
        (-1, T - 1),                         # unit_home_city_tile
    ]
    state = [
        (0, turn_limit + 1),                 # turn (the round after the last one ends the game)
        (0, P - 1),                          # current_player
        (0, 1),                              # game_over
        (-1, P - 1),                         # winner
        (0, _I32),                           # player_stars (no cap: int32)
        (0, T),                              # owns_units (one unit per tile)
        (0, T),                              # own_cities
        (0, income_max),                     # next_turn_star_income (clamped at 0)
        (-1, T - 1),                         # pending_city_id
        (-1, len(LEVEL_UP_REWARDS) - 1),     # pending_upgrade_a
        (-1, len(LEVEL_UP_REWARDS) - 1),     # pending_upgrade_b
    ]
    features = [
        (0, len(ACTION_KINDS) - 1),          # type_id
        (-1, T - 1),                         # source_index
        (-1, T - 1),                         # target_index (tile, or relative player 1..P-1 < T)
        (-1, T - 1),                         # city
        (-1, len(TECHS) - 1),                # tech
        (-1, len(BUILDINGS) - 1),            # building
        (-1, 7),                             # spawn_type (warrior .. mind_bender)
        (-1, len(LEVEL_UP_REWARDS) - 1),     # upgrade
        (-1, len(TILE_ACTIONS) - 1),         # tile_action
        (-1, len(UNIT_TYPES) - 1),           # unit_upgrade
        (-1, _OBSERVED_ID_MAX),              # unit_id
        (0, _MAX_POPULATION_GAIN),           # population_gain
        (_MIN_ACTION_COST, max(_MAX_FIXED_ACTION_COST, 4 + _MAX_TECH_TIER * T)),  # cost_stars (tech: 4 + tier * cities)
        (0, _I32),                           # stars_before
        (0, 1),                              # affordable
        (-1, 0),                             # damage_dealt (combat previews are off: -1, padding 0)
        (-1, 0),                             # damage_received
    ]

    def rows(table, n):
        low = np.array([lo for lo, _ in table], dtype=np.int32)
        high = np.array([hi for _, hi in table], dtype=np.int32)
        return np.tile(low, (n, 1)), np.tile(high, (n, 1))

    A = int(max_actions)
    return {
        "map_tokens": rows(token, T),
        "state": (np.array([lo for lo, _ in state], np.int32), np.array([hi for _, hi in state], np.int32)),
        "action_id": (np.full(A, -1, np.int32), np.full(A, action_space_size - 1, np.int32)),
        "action_features": rows(features, A),
    }


def observation_space(num_tiles: int, num_players: int, turn_limit: int, action_mode: str, max_actions: int,
                      action_space_size: int) -> spaces.Dict:
    """The ``spaces.Dict`` observation space of one environment (see the module docstring)."""
    b = observation_bounds(num_tiles, num_players, turn_limit, max_actions, action_space_size)
    fields = {
        "map_tokens": spaces.Box(*b["map_tokens"], dtype=np.int32),
        "state": spaces.Box(*b["state"], dtype=np.int32),
        "action_mask": spaces.Box(0, 1, (action_space_size if action_mode == "global" else max_actions,), np.int8),
    }
    if action_mode == "rows":
        fields["action_id"] = spaces.Box(*b["action_id"], dtype=np.int32)
        fields["action_features"] = spaces.Box(*b["action_features"], dtype=np.int32)
    return spaces.Dict(fields)


def flat_encoder(observation_format, map_size: int, num_players: int, turn_limit: int, action_mode: str,
                 max_actions: int) -> FlatEncoder | None:
    """The encoder of ``observation_format="flat"`` (None for ``"dict"``); ValueError for another format."""
    if _choice(observation_format, _OBSERVATION_FORMATS, "observation_format") == "dict":
        return None
    return FlatEncoder(map_size, num_players, turn_limit, max_actions if action_mode == "rows" else 0)


def check_tile_px(tile_px) -> int:
    """Validates ``render_tile_px`` (an integer >= 8; ValueError)."""
    if isinstance(tile_px, bool) or not isinstance(tile_px, (int, np.integer)) or tile_px < 8:
        raise ValueError(f"render_tile_px must be an integer >= 8, got {tile_px!r}")
    return int(tile_px)


def load_level_pool(levels) -> tuple[list[str], list[str | None]]:
    """Expands ``levels`` (a path, a glob, CSV text, or a list of them) into (texts, paths).

    Globs are expanded in sorted order; CSV text has path None. Raises
    ValueError when an entry matches no file or the pool is empty.
    """
    if isinstance(levels, (str, os.PathLike)):
        levels = [levels]
    if isinstance(levels, (bytes, bytearray)) or not isinstance(levels, Sequence):
        raise ValueError(f"levels must be a path, a glob, CSV text or a list of them, got {type(levels).__name__}")
    texts, paths = [], []
    for entry in levels:
        if isinstance(entry, os.PathLike):
            entry = os.fspath(entry)
        if not isinstance(entry, str):
            raise ValueError(f"a level must be a path, a glob or CSV text, got {type(entry).__name__}")
        if "\n" in entry:  # the CSV text itself
            texts.append(entry)
            paths.append(None)
            continue
        matches = sorted(glob.glob(entry)) if glob.has_magic(entry) else ([entry] if os.path.isfile(entry) else [])
        if not matches:
            raise ValueError(f"level pool entry {entry!r} matches no file")
        for path in matches:
            texts.append(_read_level(path))
            paths.append(path)
    if not texts:
        raise ValueError("levels is empty: the level pool needs at least one level")
    return texts, paths


def _choice(value, allowed: tuple[str, ...], name: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return value


def check_common_kwargs(opponent, learner_seat, num_players: int, action_mode, max_actions, level_selection, reward,
                        invalid_action, invalid_action_penalty, info_mode, render_mode, render_modes) -> None:
    """Validates the keyword arguments shared by TribesEnv and TribesVectorEnv (ValueError)."""
    if opponent is not None and not callable(opponent) and not is_bot(opponent):
        raise ValueError(f"opponent must be 'random', 'greedy', 'mcts[:simulations]', a callable f(game) -> action_id or None, "
                         f"got {opponent!r}")
    if opponent is None:
        if learner_seat != 0:
            raise ValueError("learner_seat needs an opponent (opponent=None is self-play: the agent plays every seat)")
    elif learner_seat != "random":
        if isinstance(learner_seat, bool) or not isinstance(learner_seat, (int, np.integer)) \
                or not 0 <= learner_seat < num_players:
            raise ValueError(f"learner_seat must be 'random' or a seat 0..{num_players - 1}, got {learner_seat!r}")
    _choice(action_mode, _ACTION_MODES, "action_mode")
    if isinstance(max_actions, bool) or not isinstance(max_actions, (int, np.integer)) or max_actions < 1:
        raise ValueError(f"max_actions must be an integer >= 1, got {max_actions!r}")
    _choice(level_selection, _LEVEL_SELECTIONS, "level_selection")
    _choice(reward, REWARDS, "reward")
    _choice(invalid_action, _INVALID, "invalid_action")
    if isinstance(invalid_action_penalty, bool) or not isinstance(invalid_action_penalty, (int, float, np.number)) \
            or not np.isfinite(invalid_action_penalty):
        raise ValueError(f"invalid_action_penalty must be a finite number, got {invalid_action_penalty!r}")
    _choice(info_mode, _INFO_MODES, "info_mode")
    if render_mode is not None and render_mode not in render_modes:
        raise ValueError(f"render_mode must be None or one of {', '.join(map(repr, render_modes))}, "
                         f"got {render_mode!r}")


class TribesEnv(gym.Env):
    """Tribes for one learning agent against built-in or custom opponents (see the module docstring).

    Args:
        map_size: board side for generated maps (default 11); with ``levels``
            None or the levels' size.
        players: None (Bardur vs Imperius, or the levels' tribes), an int 2..16
            (``DEFAULT_TRIBES``), or a sequence of tribes (``polyenv.Bardur``, names).
        opponent: ``"random"``, ``"greedy"``, ``"mcts"`` / ``"mcts:800"`` (native bots), a callable
            ``f(game: GameEnv) -> action_id`` called for every opponent action
            (it must not modify the game), or None for self-play: the agent plays
            every seat, observations are the player to move's, the reward is for
            the player whose action ended the game.
        learner_seat: the agent's seat (turn order), or ``"random"`` (drawn per episode).
        mode: ``"capitals"`` or ``"score"``; max_turns: the last round (None: the mode's).
        action_mode: ``"global"`` or ``"rows"``; max_actions: legal actions represented (>= 1).
        levels: Tribes CSV levels: a path, a glob, CSV text, or a list of them
            (same board size and players); None generates maps.
        level_selection: ``"round_robin"`` or ``"seeded_random"`` (reproducible from the reset seed).
        reward: ``"terminal"`` or ``"score_delta"``.
        invalid_action: ``"end_turn"`` (default), ``"raise"`` or ``"penalty"``;
            invalid_action_penalty: the reward of a penalised step.
        info_mode: ``"fast"`` or ``"debug"`` (adds descriptions of the legal
            actions, the level path, the scores and the episode seed).
        render_mode: None, ``"ansi"`` (str) or ``"rgb_array"`` (uint8 [H, W, 3]: ``polyenv.render.render_frame``,
            a header over the map); the full board.
        render_tile_px: pixels per tile of ``"rgb_array"`` (>= 8, default 32).
        full_observability: play without fog of war.
        observation_format: ``"dict"`` (the native int32 fields), ``"flat"``:
            ``{"observation": Box(float32, [D]), "action_mask"}`` (:mod:`polyenv.flat`), or
            ``"box"``: that Box alone (the mask from ``action_masks()`` and ``info["action_mask"]``).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, map_size: int | None = None, players=None, opponent: str | Callable | None = "random",
                 learner_seat: int | str = 0, mode: str = "capitals", max_turns: int | None = None,
                 action_mode: str = "global", max_actions: int = 512, levels=None,
                 level_selection: str = "round_robin", reward: str = "terminal", invalid_action: str = "end_turn",
                 invalid_action_penalty: float = -0.1, info_mode: str = "fast", render_mode: str | None = None,
                 full_observability: bool = False, observation_format: str = "dict", render_tile_px: int = 32):
        super().__init__()
        self._level_texts, self._level_paths = load_level_pool(levels) if levels is not None else ([], [])
        self._tribes = resolve_tribes(players, bool(self._level_texts))
        self._options = dict(mode=mode, max_turns=max_turns,
                             full_observability=_v.boolean(full_observability, "full_observability"))
        if self._level_texts:
            first = self._make_game(0, 0)
            for i in range(1, len(self._level_texts)):  # every level is parsed now, so errors come early
                g = self._make_game(0, i)
                if (g.map_size, g.num_players) != (first.map_size, first.num_players):
                    raise ValueError(f"level {self._level_name(i)} is {g.map_size}x{g.map_size} with {g.num_players} "
                                     f"players, but {self._level_name(0)} is {first.map_size}x{first.map_size} with "
                                     f"{first.num_players}: all levels must share one size and player count")
            if map_size is not None and map_size != first.map_size:
                raise ValueError(f"map_size={map_size!r} but the levels are {first.map_size}x{first.map_size}")
            game = first
        else:
            game = GameEnv(seed=0, map_size=11 if map_size is None else map_size, players=self._tribes,
                           **self._options)
        P = game.num_players
        check_common_kwargs(opponent, learner_seat, P, action_mode, max_actions, level_selection, reward,
                            invalid_action, invalid_action_penalty, info_mode, render_mode,
                            self.metadata["render_modes"])
        self.opponent, self.learner_seat, self.action_mode = opponent, learner_seat, action_mode
        self.max_actions, self.level_selection, self.reward_mode = int(max_actions), level_selection, reward
        self.invalid_action, self.invalid_action_penalty = invalid_action, float(invalid_action_penalty)
        self.info_mode, self.render_mode = info_mode, render_mode
        self.map_size, self.num_players = game.map_size, P
        self.action_space_size = game.action_space_size
        self.action_space_fingerprint = game.action_space_fingerprint
        self.turn_limit = game.turn_limit
        self.observation_format = observation_format
        self.render_tile_px = check_tile_px(render_tile_px)
        self._flat = flat_encoder(observation_format, game.map_size, P, game.turn_limit, action_mode, self.max_actions)
        if self._flat is None:
            self.observation_space = observation_space(game.num_tiles, P, game.turn_limit, action_mode,
                                                       self.max_actions, self.action_space_size)
        else:
            space = self._flat.space(self.action_space_size if action_mode == "global" else self.max_actions)
            self.observation_space = space["observation"] if observation_format == "box" else space
        self.action_space = spaces.Discrete(self.action_space_size if action_mode == "global" else self.max_actions)
        self._game: GameEnv = game
        self._level_index = 0
        self._episode_seed: int | None = None
        self._episodes_since_seed = 0
        self._seat = 0 if learner_seat == "random" else int(learner_seat)
        self._obs: dict | None = None
        self._needs_reset = True

    # ------------------------------------------------------------------ helpers
    def _level_name(self, i: int) -> str:
        path = self._level_paths[i]
        return repr(path) if path is not None else f"#{i} (CSV text)"

    def _make_game(self, seed: int, level_index: int) -> GameEnv:
        try:
            return GameEnv(seed=seed, level=self._level_texts[level_index], players=self._tribes, **self._options)
        except ValueError as e:
            raise ValueError(f"level {self._level_name(level_index)}: {e}") from None

    def _is_learner(self, player: int) -> bool:
        return self.opponent is None or player == self._seat

    def _observer(self, actor: int) -> int:
        g = self._game
        if self.opponent is not None:
            return self._seat
        return actor if g.game_over else g.current_player

    def _observe(self, observer: int) -> dict:
        o = self._game.observe(observer, max_actions=self.max_actions)
        count = int(o["legal_action_count"])
        ids = o["action_id"]
        if self.action_mode == "global":
            mask = np.zeros(self.action_space_size, dtype=np.int8)
            mask[ids[:count]] = 1
            obs = {"map_tokens": o["map_tokens"], "state": o["state"], "action_mask": mask}
        else:
            obs = {"map_tokens": o["map_tokens"], "state": o["state"], "action_mask": o["action_mask"].view(np.int8),
                   "action_id": ids, "action_features": o["action_features"]}
        self._mask = obs["action_mask"]
        if self._flat is not None:
            flat = self._flat.encode(o["map_tokens"], o["state"], observer, o["action_features"], count)
            obs = flat if self.observation_format == "box" else {"observation": flat, "action_mask": self._mask}
        self._obs, self._raw = obs, o
        return obs

    def _info(self, invalid: bool | None = None, opponent_actions: int = 0) -> dict:
        o, g = self._raw, self._game
        count = int(o["legal_action_count"])
        info = {
            "legal_global_ids_padded": o["action_id"].copy(),
            "legal_action_valid_mask": o["action_mask"].astype(bool),
            "legal_action_count": count,
            "total_legal_action_count": int(o["total_legal_action_count"]),
            "action_truncated": bool(o["action_truncated"]),
            "action_space_fingerprint": self.action_space_fingerprint,
            "learner_seat": self._seat,
        }
        if self.observation_format == "box":
            info["action_mask"] = self._mask.copy()
        if invalid is not None:
            info["invalid_action"] = invalid
        if g.game_over:
            info["winner"] = g.winner
        if self.info_mode == "debug":
            info["legal_action_descriptions"] = [g.describe_action(int(a)) for a in o["action_id"][:count]]
            info["level_path"] = self._level_paths[self._level_index] if self._level_texts else None
            info["level_index"] = self._level_index if self._level_texts else -1
            info["episode_seed"] = self._episode_seed
            info["scores"] = g.scores()
            info["turn"] = g.turn
            info["opponent_actions"] = opponent_actions
        return info

    def _score_margin(self, player: int) -> int:
        """The player's score minus the best other score (0 unless reward="score_delta")."""
        return self._game.score_margin(player) if self.reward_mode == "score_delta" else 0

    def _play_opponents(self) -> int:
        """Plays every non-learner seat until the learner is to act or the game ends; returns the actions."""
        g, applied = self._game, 0
        while not g.game_over and not self._is_learner(g.current_player):
            if isinstance(self.opponent, str):
                applied += bots.play_turn(g, self.opponent)
                continue
            action = self.opponent(g)
            if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not g.is_legal(int(action)):
                raise ValueError(f"the opponent returned {action!r}, which is not a legal action id now "
                                 f"(player {g.current_player}, round {g.turn})")
            g.step(int(action))
            applied += 1
        return applied

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Starts a game: ``seed`` gives the map and every random rule (``GameEnv(seed=seed)``).

        Without a seed the next game uses the previous seed + 1 (the first one a
        random seed). A seed also restarts the level selection (round robin from
        the first level, or the seeded random sequence). Returns ``(obs, info)``.
        """
        if options:
            raise ValueError(f"reset takes no options, got {options!r}")
        super().reset(seed=seed)
        if seed is not None:
            self._episode_seed = int(seed) % 2**64
            self._episodes_since_seed = 0
        elif self._episode_seed is None:
            self._episode_seed = int(self.np_random.integers(2**63))
        else:
            self._episode_seed = (self._episode_seed + 1) % 2**64
            self._episodes_since_seed += 1
        if self.learner_seat == "random":
            self._seat = int(self.np_random.integers(self.num_players))
        if self._level_texts:
            n = len(self._level_texts)
            index = self._episodes_since_seed % n if self.level_selection == "round_robin" \
                else int(self.np_random.integers(n))
            if index != self._level_index:
                self._game, self._level_index = self._make_game(self._episode_seed, index), index
            else:
                self._game.reset(self._episode_seed)
        else:
            self._game.reset(self._episode_seed)
        opponent_actions = self._play_opponents()
        self._needs_reset = False
        obs = self._observe(self._observer(self._game.current_player))
        return obs, self._info(opponent_actions=opponent_actions)

    def _action_id(self, action) -> tuple[int, bool]:
        """The global id of ``action`` and whether it is a represented legal action."""
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not self.action_space.contains(
                np.int64(action)):
            raise ValueError(f"action {action!r} is outside the action space {self.action_space}")
        a = int(action)
        if self.action_mode == "global":
            return a, bool(self._mask[a])
        count = int(self._raw["legal_action_count"])
        return (int(self._raw["action_id"][a]), True) if a < count else (-1, False)

    def step(self, action):
        """Plays the learner's action, then the opponents until the learner's next turn.

        Returns ``(obs, reward, terminated, truncated, info)``; see the module
        docstring for rewards and invalid actions.
        """
        if self._needs_reset:
            raise RuntimeError("call reset() before step() (the episode is over or has not started)")
        a, legal = self._action_id(action)
        g = self._game
        actor = g.current_player
        if not legal:
            if self.invalid_action == "raise":
                what = f"global action id {a}" if self.action_mode == "global" else f"row {int(action)}"
                raise ValueError(f"{what} is not a legal action now (player {actor}, round {g.turn}); "
                                 f"{int(self._raw['legal_action_count'])} legal actions are represented")
            if self.invalid_action == "penalty":
                obs = {k: v.copy() for k, v in self._obs.items()} if isinstance(self._obs, dict) \
                    else self._obs.copy()  # callers own every returned array
                return obs, self.invalid_action_penalty, False, False, self._info(invalid=True)
            a = int(self._raw["action_id"][0])  # End Turn is row 0 whenever it is legal
        before = self._score_margin(actor)
        g.step(a)
        opponent_actions = self._play_opponents()
        # float32 arithmetic, as the native vector env, so both give identical rewards.
        reward = np.float32((self._score_margin(actor) - before) / SCORE_SCALE)
        terminated = g.game_over
        if terminated:
            reward += np.float32(1.0 if g.winner == actor else -1.0)
            self._needs_reset = True
        obs = self._observe(self._observer(actor))
        return obs, float(reward), terminated, False, self._info(invalid=not legal, opponent_actions=opponent_actions)

    def action_masks(self) -> np.ndarray:
        """The legal actions of the current observation as bool ``[action_space.n]`` (for MaskablePPO)."""
        if self._obs is None:
            raise RuntimeError("call reset() first")
        return self._mask.astype(bool)

    def render(self):
        """``"ansi"`` -> str, ``"rgb_array"`` -> uint8 [H, W, 3]: the full board (no fog); None without render_mode."""
        if self.render_mode is None:
            gym.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "rgb_array":
            return render_frame(self._game, None, self.render_tile_px)
        return self._game.render(self.render_mode)

    @property
    def game(self) -> GameEnv:
        """The :class:`polyenv.GameEnv` being played (replaced on reset when the level changes)."""
        return self._game

    def describe_action(self, action: int) -> str:
        """A readable description of an action of this action space (a global id or a row)."""
        if self.action_mode == "rows":
            a, legal = self._action_id(action)
            return self._game.describe_action(a) if legal else f"padding row {int(action)}"
        return self._game.describe_action(int(action))
