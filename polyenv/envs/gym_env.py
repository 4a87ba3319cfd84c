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
``opponent`` (the native ``"random"``, ``"greedy"``, ``"mcts[:simulations]"`` or ``"az[:simulations]"`` bot, or a callable
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
The Box bounds are the engine's real value ranges (``env.description``, a
:class:`polyenv.GameDescription`; docs/gymnasium.md). With ``observation_format="flat"`` the observation is
``{"observation": Box(float32, [D]), "action_mask"}`` instead: every field
above (rows mode: the rows' features) scaled into [-1, 1] by
:class:`polyenv.envs.flat.FlatEncoder` (columns in docs/integrations.md); ``"box"`` returns
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

from collections.abc import Callable

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .. import _core, _validate as _v
from .._botspec import parse_bot
from .._levels import load_level_pool
from .._names import DEFAULT_TRIBES
from ..game_env import GameEnv
from ..viz.render import render_frame
from ..vector_env import SCORE_SCALE
from .options import END_TURN_ROW, apply_invalid_action, check_common_kwargs, check_tile_px, describe_games
from .spaces import flat_encoder, observation_bounds, observation_space

__all__ = ["TribesEnv", "DEFAULT_TRIBES", "observation_bounds", "observation_space", "load_level_pool",
           "SCORE_SCALE"]


class TribesEnv(gym.Env):
    """Tribes for one learning agent against built-in or custom opponents (see the module docstring).

    Args:
        map_size: board side for generated maps (default 11); with ``level`` / ``levels``
            None or the levels' size.
        players: None (Bardur vs Imperius, or the levels' tribes), an int 2..16
            (``DEFAULT_TRIBES``), or a sequence of tribes (``polyenv.Bardur``, names).
        opponent: ``"random"``, ``"greedy"``, ``"mcts"`` / ``"mcts:800"``, ``"az"`` / ``"az:64"`` (native bots), a callable
            ``f(game: GameEnv) -> action_id`` called for every opponent action
            (it must not modify the game), or None for self-play: the agent plays
            every seat, observations are the player to move's, the reward is for
            the player whose action ended the game.
        learner_seat: the agent's seat (turn order), or ``"random"`` (drawn per episode).
        mode: ``"capitals"`` or ``"score"``; max_turns: the last round (None: the mode's).
        action_mode: ``"global"`` or ``"rows"``; max_actions: legal actions represented (>= 1).
        levels: Tribes CSV levels: a path, a glob, CSV text, or a list of them
            (same board size and players); None generates maps.
        level: one Tribes CSV level (a path or the text) every episode is played on
            (as ``VectorGameEnv``'s); at most one of ``level`` / ``levels``.
        level_selection: ``"round_robin"`` or ``"seeded_random"`` (reproducible from the reset seed).
        reward: ``"terminal"`` or ``"score_delta"``.
        invalid_action: ``"end_turn"`` (default), ``"raise"`` or ``"penalty"``;
            invalid_action_penalty: the reward of a penalised step.
        info_mode: ``"fast"`` or ``"debug"`` (adds descriptions of the legal
            actions, the level path, the scores and the episode seed).
        render_mode: None, ``"ansi"`` (str) or ``"rgb_array"`` (uint8 [H, W, 3]: ``polyenv.viz.render.render_frame``,
            a header over the map); the full board.
        render_tile_px: pixels per tile of ``"rgb_array"`` (>= 8, default 32).
        full_observability: play without fog of war.
        observation_format: ``"dict"`` (the native int32 fields), ``"flat"``:
            ``{"observation": Box(float32, [D]), "action_mask"}`` (:mod:`polyenv.envs.flat`), or
            ``"box"``: that Box alone (the mask from ``action_masks()`` and ``info["action_mask"]``).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, map_size: int | None = None, players=None, opponent: str | Callable | None = "random",
                 learner_seat: int | str = 0, mode: str = "capitals", max_turns: int | None = None,
                 action_mode: str = "global", max_actions: int = 512, levels=None,
                 level_selection: str = "round_robin", reward: str = "terminal", invalid_action: str = "end_turn",
                 invalid_action_penalty: float = -0.1, info_mode: str = "fast", render_mode: str | None = None,
                 full_observability: bool = False, observation_format: str = "dict", render_tile_px: int = 32,
                 level=None):
        super().__init__()
        self._options = dict(mode=mode, max_turns=max_turns,
                             full_observability=_v.boolean(full_observability, "full_observability"))
        d, self._tribes, self._levels = describe_games(map_size, players, level, levels, max_actions, **self._options)
        if self._levels is not None:
            game = self._load(0, 0)
        else:
            game = GameEnv(seed=0, map_size=d.map_size, players=self._tribes, **self._options)
        #: The :class:`polyenv.GameDescription` of every game this environment plays.
        self.description = d
        P = d.num_players
        check_common_kwargs(opponent, learner_seat, P, action_mode, level_selection, reward,
                            invalid_action, invalid_action_penalty, info_mode, render_mode,
                            self.metadata["render_modes"])
        self.opponent, self.learner_seat, self.action_mode = opponent, learner_seat, action_mode
        self._bot = parse_bot(opponent) if isinstance(opponent, str) else None  # a BotSpec
        self._score_scale = SCORE_SCALE if reward == "score_delta" else 0.0
        self.max_actions, self.level_selection, self.reward_mode = d.max_actions, level_selection, reward
        self.invalid_action, self.invalid_action_penalty = invalid_action, float(invalid_action_penalty)
        self.info_mode, self.render_mode = info_mode, render_mode
        self.map_size, self.num_players = d.map_size, P
        self.action_space_size = d.action_space_size
        self.action_space_fingerprint = d.action_space_fingerprint
        self.turn_limit = d.turn_limit
        self.observation_format = observation_format
        self.render_tile_px = check_tile_px(render_tile_px)
        self._flat = flat_encoder(observation_format, d, action_mode)
        if self._flat is None:
            self.observation_space = observation_space(d, action_mode)
        else:
            space = self._flat.space(self.action_space_size if action_mode == "global" else self.max_actions)
            self.observation_space = space["observation"] if observation_format == "box" else space
        self.action_space = spaces.Discrete(self.action_space_size if action_mode == "global" else self.max_actions)
        self._gameenv: GameEnv = game
        self._level_index = 0
        self._episode_seed: int | None = None
        self._episodes_since_seed = 0
        self._seat = 0 if learner_seat == "random" else int(learner_seat)
        self._obs: dict | None = None
        self._needs_reset = True

    # ------------------------------------------------------------------ helpers
    def _load(self, seed: int, level_index: int) -> GameEnv:
        """A game on level ``level_index`` (the pool has checked every level already)."""
        return GameEnv(seed=seed, level=self._levels.texts[level_index], players=self._tribes, **self._options)

    def _observer(self, actor: int) -> int:
        g = self._gameenv
        if self.opponent is not None:
            return self._seat
        return actor if g.game_over else g.current_player

    def _observe(self, observer: int) -> dict:
        o = self._gameenv.observe(observer, max_actions=self.max_actions)
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
        o, g = self._raw, self._gameenv
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
            info["level_path"] = self._levels.paths[self._level_index] if self._levels else None
            info["level_index"] = self._level_index if self._levels else -1
            info["episode_seed"] = self._episode_seed
            info["scores"] = g.scores()
            info["turn"] = g.turn
            info["opponent_actions"] = opponent_actions
        return info

    def _play_opponents(self) -> int:
        """Plays every non-learner seat until the learner is to act or the game ends; returns the actions.

        A built-in bot runs the engine's bot turn loop (``_core.bot_play_until``, as VectorGameEnv's
        opponents); a callable opponent is asked for every action."""
        g = self._gameenv
        if self.opponent is None:
            return 0
        if self._bot is not None:
            return _core.bot_play_until(g.native, self._bot.code, 1 << self._seat, self._bot.simulations,
                                        self._bot.model)
        applied = 0
        while not g.game_over and g.current_player != self._seat:
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
        if self._levels:
            n = len(self._levels)
            index = self._episodes_since_seed % n if self.level_selection == "round_robin" \
                else int(self.np_random.integers(n))
            if index != self._level_index:
                self._gameenv, self._level_index = self._load(self._episode_seed, index), index
            else:
                self._gameenv.reset(self._episode_seed)
        else:
            self._gameenv.reset(self._episode_seed)
        opponent_actions = self._play_opponents()
        self._needs_reset = False
        obs = self._observe(self._observer(self._gameenv.current_player))
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
        g = self._gameenv
        actor = g.current_player

        def error() -> str:
            what = f"global action id {a}" if self.action_mode == "global" else f"row {int(action)}"
            return (f"{what} is not a legal action now (player {actor}, round {g.turn}); "
                    f"{int(self._raw['legal_action_count'])} legal actions are represented")

        played, penalised = apply_invalid_action(self.invalid_action, a, legal, self._raw["action_id"][END_TURN_ROW],
                                                 error)
        if penalised is not None:  # nothing is played
            obs = {k: v.copy() for k, v in self._obs.items()} if isinstance(self._obs, dict) \
                else self._obs.copy()  # callers own every returned array
            return obs, self.invalid_action_penalty, False, False, self._info(invalid=True)
        a = int(played)
        before = g.score_margin(actor) if self._score_scale else 0
        g.step(a)
        opponent_actions = self._play_opponents()
        reward = _core.action_reward(g.native, actor, before, self._score_scale)  # VectorGameEnv's reward
        terminated = g.game_over
        if terminated:
            self._needs_reset = True
        obs = self._observe(self._observer(actor))
        return obs, reward, terminated, False, self._info(invalid=not legal, opponent_actions=opponent_actions)

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
            return render_frame(self._gameenv, None, self.render_tile_px)
        return self._gameenv.render(self.render_mode)

    @property
    def game(self) -> GameEnv:
        """The :class:`polyenv.GameEnv` being played (replaced on reset when the level changes)."""
        return self._gameenv

    def describe_action(self, action: int) -> str:
        """A readable description of an action of this action space (a global id or a row)."""
        if self.action_mode == "rows":
            a, legal = self._action_id(action)
            return self._gameenv.describe_action(a) if legal else f"padding row {int(action)}"
        return self._gameenv.describe_action(int(action))
