# noqa: D212, D415
"""
# Tribes (PettingZoo AEC), ``tribes_aec_v0``

```python
from polyenv.envs import tribes_aec_v0

env = tribes_aec_v0.env(players=4, render_mode="ansi")
env.reset(seed=42)
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
    env.step(action)
```

A turn-based game of Tribes (a Polytopia-style strategy game) for 2 to 16
players, simulated natively by :class:`polyenv.GameEnv`, in the conventions of
PettingZoo's classic environments.

| | |
|---|---|
| agents | ``player_0`` ... ``player_{P-1}`` (turn order) |
| action space | ``Discrete(A)`` over the stable global action ids (``GameEnv.action_space_size``; id 0 = End Turn), or with ``action_mode="rows"`` ``Discrete(max_actions)`` over the rows of legal actions |
| observation space | ``Dict(observation=Dict(map_tokens=Box(int32, [N*N, 23]), state=Box(int32, [11])), action_mask=Box(0, 1, [A], int8))``; with ``observation_format="flat"`` ``Dict(observation=Box(float32, [D]), action_mask=...)`` |
| state space | ``Box(int32, [N*N, 23])`` — ``full_map_numpy()`` (no fog) |

**Turns.** ``agent_selection`` follows the game: an agent keeps the selection
for every action of its turn, until its turn ends — by playing End Turn (id 0)
or automatically when End Turn is its only legal action (``GameEnv``'s
``auto_end_turn``). Then the next living player in turn order is selected.

**Observation.** ``observe(agent)`` is that agent's own fog-of-war view:
``map_tokens`` int32 ``[N*N, 23]`` (columns ``polyenv.MAP_TOKEN_FEATURE_NAMES``,
owners relative to the agent, unexplored tiles all zero) and ``state`` int32
``[11]`` (``polyenv.STATE_FEATURE_NAMES``), plus ``action_mask`` int8 ``[A]``
over the global ids — all zeros when it is not the agent's turn.
``observation_format="flat"`` replaces ``observation`` by one float32 vector
of scaled features in [-1, 1] (:mod:`polyenv.envs.flat`, docs/integrations.md);
``"box"`` makes that vector the whole observation (a ``Box`` space, as
SuperSuit's observation wrappers need) and moves ``action_mask`` into the
infos, the other place PettingZoo puts it.

**Rows mode** (``action_mode="rows"``, as ``Tribes-v0``): the action is an
index into ``max_actions`` padded rows of legal actions (the canonical prefix
when there are more, End Turn kept); ``observation`` adds ``action_id`` (the
global id of each row, -1 padding) and ``action_features`` (or, flat, the
rows' encoded features), and ``action_mask`` is ``max_actions`` wide.

**Infos** have a fixed shape (libraries stack them): empty by default
(``legal_actions()`` returns the legal ids); ``info_legal_actions=True`` adds
``legal_actions`` (int32 ``[max_actions]``, the first legal ids, -1 padding)
and ``legal_action_count`` (all legal ids; 0 off-turn).

**Rewards** are terminal: +1 for the winner, -1/(P-1) for every loser (so they
sum to 0), 0 for everyone on a draw (a finished game without a winner) and on
truncation. An eliminated player (it lost its last city) is terminated at once
with -1/(P-1) and removed the PettingZoo way (one ``step(None)`` while it is
selected). The game ends as the rules say: Capitals mode when one player holds
every capital or is the last alive, and at the turn limit (``max_turns``, or
the mode's default) by score.

**Truncation.** ``max_cycles`` (optional) truncates every agent still in the game
(reward 0) once that many rounds (every living player played one turn) have
been played since ``reset``.

**Native extras** on the raw env (``env.unwrapped`` through the wrappers):
``clone_state()`` / ``restore_state(bytes)``, ``legal_actions()``,
``describe_action(id)``, ``dense_observation(agent)`` (``GameEnv.observe``:
every observation field, action rows included), and ``game`` (the :class:`GameEnv`).

**Rendering** (``render_mode``): ``"ansi"`` returns a coloured terminal map,
``"rgb_array"`` a ``uint8 [H, N*render_tile_px, 3]`` image (``polyenv.viz.render.render_frame``:
a header with the round, whose turn it is and the scores over the map), ``"human"`` prints the ANSI
map at the end of every turn. All views come from ``polyenv.viz.render`` (the
ground truth, no fog).

**Arguments** of ``env()`` / ``raw_env()``: ``players`` (int 2..16, or a list
of tribes; default 4, or the level's tribes), ``map_size`` (default by player
count: 11 for 2, 14 for 3-4, 16 for 5-8, 18 for 9-12, 20 for 13-16), ``mode``
(``"capitals"`` or ``"score"``), ``max_turns``, ``levels`` (a Tribes CSV level:
a path, a glob or the text, or a list of them with the same board size and player count;
``reset(seed)`` plays ``levels[seed % len(levels)]``), ``full_observability``,
``max_cycles``, ``render_mode``, ``action_mode`` (``"global"`` or ``"rows"``),
``max_actions`` (rows, and the width of ``info_legal_actions``; default 512),
``observation_format`` (``"dict"``, ``"flat"`` or ``"box"``), ``info_legal_actions``,
``render_tile_px``.
"""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import _validate as _v
from .._levels import LevelPool
from .._names import DEFAULT_TRIBES, resolve_tribes
from ..description import GameDescription, game_description
from .flat import FlatEncoder
from ..game_env import GameEnv
from ..viz.render import render_frame
from . import default_map_size
from .options import ACTION_MODES, OBSERVATION_FORMATS, check_tile_px, choice
from .spaces import description_bounds

__all__ = ["env", "raw_env", "DEFAULT_TRIBES", "default_map_size"]

_EMPTY_IDS = np.zeros(0, dtype=np.int32)
_EMPTY_IDS.flags.writeable = False


def env(**kwargs) -> AECEnv:
    """The Tribes AEC env with PettingZoo's standard wrappers for classic games.

    An illegal action ends the game with -1 for the player who played it
    (``TerminateIllegalWrapper``); out-of-range actions assert; the call order
    is enforced. Arguments: see :class:`raw_env`.
    """
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv, EzPickle):
    """Tribes for 2-16 players as a PettingZoo AEC environment (see the module docstring).

    Args:
        players: number of players (2..16, default tribes ``DEFAULT_TRIBES``) or a
            sequence of tribes (``polyenv.Bardur`` ... or names); None = 4, or
            the level's tribes when ``levels`` is given.
        map_size: board side N for generated maps (None: ``default_map_size``).
        mode: ``"capitals"`` or ``"score"``.
        max_turns: the round after which the game ends by score (None: the mode's).
        levels: a Tribes CSV level (a path, a glob or the text) or a list of them.
        full_observability: play without fog of war.
        max_cycles: truncate after this many rounds since reset (None: never).
        render_mode: None, ``"human"``, ``"ansi"`` or ``"rgb_array"``.
        action_mode: ``"global"`` (ids) or ``"rows"`` (indices into ``max_actions`` legal rows).
        max_actions: rows represented in rows mode, and the width of ``info_legal_actions``.
        observation_format: ``"dict"`` (native int32 fields), ``"flat"`` (float32 vector, :mod:`polyenv.envs.flat`)
            or ``"box"`` (that vector alone; ``action_mask`` in the infos).
        info_legal_actions: add the padded legal ids and their count to the selected agent's info.
        render_tile_px: pixels per tile of ``"rgb_array"`` (>= 8, default 32).
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "tribes_aec_v0",
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, players: int | Sequence | None = None, map_size: int | None = None, mode: str = "capitals",
                 max_turns: int | None = None, levels=None, full_observability: bool = False,
                 max_cycles: int | None = None, render_mode: str | None = None, action_mode: str = "global",
                 max_actions: int = 512, observation_format: str = "dict", info_legal_actions: bool = False,
                 render_tile_px: int = 32):
        EzPickle.__init__(self, players, map_size, mode, max_turns, levels, full_observability, max_cycles,
                          render_mode, action_mode, max_actions, observation_format, info_legal_actions,
                          render_tile_px)
        super().__init__()
        choice(action_mode, ACTION_MODES, "action_mode")
        choice(observation_format, OBSERVATION_FORMATS, "observation_format")
        if not isinstance(info_legal_actions, (bool, np.bool_)):
            raise ValueError(f"info_legal_actions must be a bool, got {info_legal_actions!r}")
        self.action_mode, self.observation_format = action_mode, observation_format
        self.render_tile_px = check_tile_px(render_tile_px)
        self.info_legal_actions = bool(info_legal_actions)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, (int, np.integer))
                                       or max_cycles < 1):
            raise ValueError(f"max_cycles must be None or an integer >= 1, got {max_cycles!r}")
        self.render_mode = render_mode
        self.max_cycles = None if max_cycles is None else int(max_cycles)
        self._options = dict(mode=mode, max_turns=max_turns,
                             full_observability=_v.boolean(full_observability, "full_observability"))
        self._levels = LevelPool(levels, resolve_tribes(players, True), max_actions=max_actions,
                                 **self._options) if levels is not None else None
        self._tribes = resolve_tribes(players, self._levels is not None, default_count=4)
        if self._levels is not None:
            d = self._levels.description
        else:
            size = default_map_size(len(self._tribes)) if map_size is None else map_size
            d = game_description(map_size=size, players=self._tribes, max_actions=max_actions, **self._options)
        #: The :class:`polyenv.GameDescription` of every game this environment plays.
        self.description = d
        self.max_actions = d.max_actions
        self._next_seed: int | None = None
        self._level_index = 0
        self._restored = False
        self._gameenv = self._build(seed=0, level_index=0)
        self._core = self._gameenv.native  # the native game behind GameEnv (hot path: no wrapper calls)
        self._map_size = d.map_size
        P, A = d.num_players, d.action_space_size
        self._num_players = P
        self.possible_agents = [f"player_{i}" for i in range(P)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        rows = self.max_actions if action_mode == "rows" else 0
        self._flat = FlatEncoder(self._map_size, P, d.turn_limit, rows) if observation_format != "dict" else None
        n = A if action_mode == "global" else self.max_actions
        # One space object per agent (PettingZoo seeds them separately).
        self.observation_spaces = {a: self._flat_space(n) if self._flat else _observation_space(d, n, rows)
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._rows: dict | None = None  # rows mode: the selected agent's GameEnv.observe (computed on demand)
        self.state_space = spaces.Box(*description_bounds(d)["map_tokens"], dtype=np.int32)
        self._eliminated = 0  # the engine's eliminated_mask as of the last sync
        self._legal, self._legal_intp = _EMPTY_IDS, None
        self._num_actions = A
        self._rewards_dirty = False
        self.agents = []
        self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos = {}, {}, {}, {}, {}
        self.agent_selection = None
        self._start_turn = 0
        self._loser_reward = -1.0 / (P - 1) if P > 1 else 0.0

    # ------------------------------------------------------------------ construction helpers
    def _build(self, seed: int, level_index: int) -> GameEnv:
        if self._levels is not None:
            return GameEnv(seed=seed, level=self._levels.texts[level_index], players=self._tribes, **self._options)
        return GameEnv(seed=seed, map_size=self.description.map_size, players=self._tribes, **self._options)

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(action_space_size)`` over the stable global ids."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Starts a new game: ``seed``, or the previous seed + 1 (a random seed the first time)."""
        if seed is None:
            seed = self._next_seed if self._next_seed is not None else int(np.random.SeedSequence().entropy % 2**63)
        if not _v.is_integer(seed):
            raise _v.ArgumentTypeError(f"seed must be None or an integer >= 0, got {seed!r}")
        if seed < 0:
            raise ValueError(f"seed must be None or an integer >= 0, got {seed!r}")
        seed = int(seed) % 2**64
        self._next_seed = (seed + 1) % 2**64
        index = seed % len(self._levels) if self._levels is not None and len(self._levels) > 1 else 0
        if index != self._level_index or self._restored:
            self._gameenv, self._level_index = self._build(seed, index), index
            self._core, self._restored = self._gameenv.native, False
        else:
            self._gameenv.reset(seed)
        self._start_turn = self._gameenv.turn
        self._start_agents(self.possible_agents[:])

    def _start_agents(self, agents: list) -> None:
        """Fresh per-agent dictionaries for ``agents``, then selects the player to act."""
        self.agents = agents
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: self._info(_EMPTY_IDS) for a in self.agents}
        self._skip_agent_selection = None
        self._rewards_dirty = False
        self._eliminated = 0
        self._sync_after_action(previous=None)

    def observe(self, agent: str) -> dict:
        """``agent``'s fog-of-war view: {"observation": ..., "action_mask"} (see the module doc)."""
        player = self._index[agent]
        acting = agent == self.agent_selection and not (self.terminations.get(agent) or self.truncations.get(agent))
        if self.action_mode == "rows":
            return self._observe_rows(player, acting)
        tokens, state = self._core.observe_board(player)  # map_tokens and state, no action rows
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if acting:
            if self._legal_intp is None:  # intp indices make the masked assignment ~5x faster than int32
                self._legal_intp = self._legal.astype(np.intp)
            mask[self._legal_intp] = 1
        if self._flat is not None:
            return self._flat_observation(self._flat.encode(tokens, state, player), mask)
        return {"observation": {"map_tokens": tokens, "state": state}, "action_mask": mask}

    def _flat_observation(self, flat: np.ndarray, mask: np.ndarray):
        return flat if self.observation_format == "box" else {"observation": flat, "action_mask": mask}

    def _flat_space(self, mask_size: int) -> spaces.Space:
        """"flat": Dict(observation=Box, action_mask); "box": the Box alone (the mask is in the infos)."""
        space = self._flat.space(mask_size)
        return space["observation"] if self.observation_format == "box" else space

    def _selected_rows(self) -> dict:
        """The selected agent's ``GameEnv.observe`` with its legal-action rows (cached per position)."""
        if self._rows is None:
            self._rows = self._gameenv.observe(self._index[self.agent_selection], max_actions=self.max_actions)
        return self._rows

    def _observe_rows(self, player: int, acting: bool) -> dict:
        """Rows mode: the observation with ``max_actions`` legal-action rows (zeros when not acting)."""
        if acting:
            o = self._selected_rows()
            tokens, state, ids, features = o["map_tokens"], o["state"], o["action_id"], o["action_features"]
            count, mask = int(o["legal_action_count"]), o["action_mask"].astype(np.int8)
        else:
            tokens, state = self._core.observe_board(player)
            ids = np.full(self.max_actions, -1, np.int32)
            features = np.zeros((self.max_actions, len(self.description.action_features)), np.int32)
            count, mask = 0, np.zeros(self.max_actions, np.int8)
        if self._flat is not None:
            return self._flat_observation(self._flat.encode(tokens, state, player, features, count), mask)
        return {"observation": {"map_tokens": tokens, "state": state, "action_id": ids.copy(),
                                "action_features": features.copy()}, "action_mask": mask}

    def _info(self, legal: np.ndarray) -> dict:
        """An agent's info (fixed shape): empty; ``action_mask`` with ``observation_format="box"``;
        the padded legal ids and their count with ``info_legal_actions``."""
        info = {}
        if self.observation_format == "box":
            mask = np.zeros(self.action_spaces[self.possible_agents[0]].n, np.int8)
            if self.action_mode == "rows":
                mask[:min(len(legal), self.max_actions)] = 1  # the represented legal rows come first
            else:
                mask[legal] = 1
            info["action_mask"] = mask
        if self.info_legal_actions:
            padded = np.full(self.max_actions, -1, np.int32)
            n = min(len(legal), self.max_actions)
            padded[:n] = legal[:n]
            info.update(legal_actions=padded, legal_action_count=len(legal))
        return info

    def step(self, action) -> None:
        """Applies the selected agent's action id (``None`` for a terminated / truncated agent).

        Raises ValueError for an illegal id (nothing changes).
        """
        agent = self.agent_selection
        if agent not in self.terminations:  # None before the first reset(); stale once every agent is done
            raise RuntimeError("step() needs a game in progress: call reset() first"
                               + (" (every agent is done)" if agent is not None else ""))
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # removes the agent, clears every reward
            self._rewards_dirty = False
            return
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"{agent} is in the game: step needs an integer action id, got {action!r}")
        action = int(action)
        if self.action_mode == "rows":
            o = self._selected_rows()
            if not 0 <= action < int(o["legal_action_count"]):
                raise ValueError(f"row {action} is not a legal action row now ({int(o['legal_action_count'])} rows "
                                 f"of {self.max_actions} are legal)")
            action = int(o["action_id"][action])
        self._core.step(action)  # GameEnv.step: ValueError and no change when illegal
        self._cumulative_rewards[agent] = 0.0
        if self._rewards_dirty:
            self._clear_rewards()
            self._rewards_dirty = False
        self._sync_after_action(previous=agent)
        if self._rewards_dirty:
            self._accumulate_rewards()
        if self.render_mode == "human" and (self.agent_selection != agent or self._gameenv.game_over):
            self.render()

    def _sync_after_action(self, previous: str | None) -> None:
        """Moves rewards, terminations, infos and the selection to the game's new position."""
        game, core = self._gameenv, self._core
        self._rows = None
        if previous is not None:
            self.infos[previous] = self._info(_EMPTY_IDS)
        if core.game_over:
            self._legal, self._legal_intp = _EMPTY_IDS, None
            self._rewards_dirty = True
            winner = game.winner
            for a in self.agents:
                if winner < 0:
                    self.rewards[a] = 0.0
                else:
                    self.rewards[a] = 1.0 if self._index[a] == winner else self._loser_reward
                self.terminations[a] = True
            if previous is None:
                self.agent_selection = self.agents[0]
            return
        current_index = core.current_player
        current = self.possible_agents[current_index]
        # The engine records who is eliminated (lost the last city); a change of the mask names them.
        eliminated = core.eliminated_mask
        if eliminated != self._eliminated:
            self._eliminated = eliminated
            dead = [a for a in self.agents if not self.terminations[a] and eliminated >> self._index[a] & 1]
        else:
            dead = []
        for a in dead:
            self.terminations[a] = True
            self.rewards[a] = self._loser_reward
            self._rewards_dirty = True
        legal = core.legal_actions()
        legal.flags.writeable = False
        self._legal, self._legal_intp = legal, None
        self.infos[current] = self._info(legal)
        self.agent_selection = current
        if self.max_cycles is not None and game.turn - self._start_turn >= self.max_cycles:
            self._legal, self._legal_intp = _EMPTY_IDS, None
            self.infos[current] = self._info(_EMPTY_IDS)
            for a in self.agents:
                if not self.terminations[a]:
                    self.truncations[a] = True
        if dead:
            self._deads_step_first()

    def state(self) -> np.ndarray:
        """The global state: ``full_map_numpy()``, int32 [N*N, 23], no fog (owners relative to the current player)."""
        return self._gameenv.full_map_numpy()

    def render(self):
        """``"ansi"`` -> str, ``"rgb_array"`` -> uint8 [H, W, 3], ``"human"`` prints the ANSI map (ground truth)."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "human":
            print(self._gameenv.render("ansi"), flush=True)
            return None
        if self.render_mode == "rgb_array":
            return render_frame(self._gameenv, None, self.render_tile_px)
        return self._gameenv.render(self.render_mode)

    def close(self) -> None:
        """Nothing to release (the game lives in this process)."""

    # ------------------------------------------------------------------ native extras
    @property
    def game(self) -> GameEnv:
        """The underlying :class:`polyenv.GameEnv` (replaced by ``reset`` with several levels and ``restore_state``)."""
        return self._gameenv

    def legal_actions(self) -> np.ndarray:
        """Legal ids of the selected agent, int32 ascending (empty when it is terminated or truncated)."""
        agent = self.agent_selection
        if agent is None or self.terminations.get(agent, True) or self.truncations.get(agent, True):
            return _EMPTY_IDS.copy()
        return self._legal.copy()

    def describe_action(self, action_id: int) -> str:
        """A readable description of a global action id in the current position."""
        return self._gameenv.describe_action(action_id)

    def dense_observation(self, agent: str, max_actions: int | None = None) -> dict:
        """``GameEnv.observe`` for ``agent``: map_tokens, state and (on its turn) the action rows."""
        return self._gameenv.observe(self._index[agent], max_actions=max_actions)

    def clone_state(self) -> bytes:
        """The game's complete state as bytes (``GameEnv.to_bytes``), for ``restore_state``."""
        return self._gameenv.to_bytes()

    def restore_state(self, data: bytes) -> None:
        """Continues from a state saved by ``clone_state`` (same board size and players).

        The agents become the players still alive (terminated with their final
        rewards when the saved game is over); rewards restart from 0; the
        ``max_cycles`` count keeps this episode's start round.
        """
        restored = GameEnv.from_bytes(data)
        if (restored.map_size, restored.num_players) != (self._map_size, self._num_players):
            raise ValueError(f"state is a {restored.map_size}x{restored.map_size} game of {restored.num_players} "
                             f"players; this env plays {self._map_size}x{self._map_size} with {self._num_players}")
        game = self._build(0, self._level_index)  # this env's configuration, so reset and pickle keep it
        game.native.load_bytes(data)
        self._gameenv, self._core, self._restored = game, game.native, True
        self._start_agents([a for a in self.possible_agents if restored.player(self._index[a])["alive"]])
        self._accumulate_rewards()


def _observation_space(d: GameDescription, actions: int, rows: int) -> spaces.Dict:
    """Dict(observation=Dict(map_tokens, state[, action_id, action_features]), action_mask [actions]).

    The bounds are those of every Gymnasium space (:func:`polyenv.envs.spaces.description_bounds`).
    """
    bounds = description_bounds(d)
    names = ("map_tokens", "state", "action_id", "action_features") if rows else ("map_tokens", "state")
    fields = {name: spaces.Box(*bounds[name], dtype=np.int32) for name in names}
    return spaces.Dict({"observation": spaces.Dict(fields), "action_mask": spaces.Box(0, 1, (actions,), np.int8)})
