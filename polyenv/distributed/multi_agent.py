"""Tribes as an RLlib ``MultiAgentEnv`` (new API stack), turn-based with action masks.

```python
from ray.rllib.algorithms.ppo import PPOConfig
from polyenv.distributed import ENV_NAME, register_env

register_env()                       # ray.tune.registry.register_env("polyenv_tribes", ...)
config = PPOConfig().environment(ENV_NAME, env_config={"players": 2, "map_size": 8})
```

Agents are ``player_0`` ... ``player_{P-1}`` (turn order, 2 to 16 players). The
game is turn-based: the observation dict of ``reset`` and ``step`` holds only
the agent to act next, and ``step`` takes exactly one action, that agent's.

**Observation** (the acting agent's own fog-of-war view), a ``spaces.Dict``:
``{"observations": {...}, "action_mask": int8 [A]}`` — the layout of RLlib's
action-masking example. ``observations`` holds ``map_tokens`` int32 ``[N*N, 23]``
and ``state`` int32 ``[11]``, and in ``action_mode="rows"`` also ``action_id``
int32 ``[max_actions]`` and ``action_features`` int32 ``[max_actions, 17]`` —
the fields and bounds of ``polyenv/Tribes-v0`` (docs/gymnasium.md).

**Actions** as in ``polyenv/Tribes-v0``: ``action_mode="global"`` is
``Discrete(action_space_size)`` over the stable global ids (A = that size);
``"rows"`` is ``Discrete(max_actions)``, an index into the observation's legal
rows (A = ``max_actions``). At most ``max_actions`` legal actions are
represented (the canonical prefix, End Turn kept). An action outside the mask:
``invalid_action="raise"`` -> ValueError and nothing changes; ``"end_turn"`` ->
End Turn (the first legal row) is played instead; ``infos[agent]["invalid_action"]``
tells which.

**Rewards** are terminal and zero-sum, as in the PettingZoo env: +1 for the
winner, -1/(P-1) for every loser, 0 for all on a draw. A player eliminated
during the game (it lost its last city) is terminated at once with -1/(P-1);
``terminateds["__all__"]`` is set when the game ends (capitals, last tribe
standing, or the turn limit by score). ``max_cycles`` truncates every agent
after that many rounds (reward 0).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from .._names import resolve_tribes
from ..description import GameDescription, game_description
from ..envs import default_map_size
from ..envs.options import ACTION_MODES as _ACTION_MODES, END_TURN_ROW, INVALID_ACTIONS, apply_invalid_action, choice
from ..envs.spaces import description_bounds
from ..game_env import GameEnv

__all__ = ["TribesMultiAgentEnv", "ENV_NAME", "register_env"]

#: The name ``register_env`` registers (``config.environment(ENV_NAME, env_config={...})``).
ENV_NAME = "polyenv_tribes"

# The invalid-action policies this env offers: every one but "penalty" (an RLlib step plays the action).
_INVALID = tuple(p for p in INVALID_ACTIONS if p != "penalty")
_KEYS = frozenset({"players", "map_size", "mode", "max_turns", "action_mode", "max_actions", "invalid_action",
                   "full_observability", "max_cycles"})


def register_env(name: str = ENV_NAME) -> str:
    """Registers :class:`TribesMultiAgentEnv` with ``ray.tune.registry.register_env`` under ``name``; returns it."""
    from ray.tune.registry import register_env as _register

    _register(name, lambda config: TribesMultiAgentEnv(dict(config)))
    return name


def _observations_space(d: GameDescription, action_mode: str) -> spaces.Dict:
    b = description_bounds(d)
    keys = ("map_tokens", "state") + (("action_id", "action_features") if action_mode == "rows" else ())
    return spaces.Dict({k: spaces.Box(*b[k], dtype=np.int32) for k in keys})


class TribesMultiAgentEnv(MultiAgentEnv):
    """Tribes for 2-16 RLlib agents, one acting at a time (see the module docstring).

    Args:
        config: a dict (RLlib's ``env_config``) with any of ``players`` (int 2..16
            or a sequence of tribes; default 2), ``map_size`` (default by player
            count: 11, 14, 16, 18, 20), ``mode`` (``"capitals"`` / ``"score"``),
            ``max_turns``, ``action_mode`` (``"rows"`` default, or ``"global"``),
            ``max_actions`` (default 64), ``invalid_action`` (``"raise"`` /
            ``"end_turn"``), ``full_observability``, ``max_cycles`` (None).
    """

    def __init__(self, config: Mapping | None = None):
        super().__init__()
        config = dict(config or {})
        unknown = set(config) - _KEYS
        if unknown:
            raise ValueError(f"unknown env_config keys {sorted(unknown)}; known: {sorted(_KEYS)}")
        tribes = resolve_tribes(config.get("players", 2), False)
        self.action_mode = config.get("action_mode", "rows")
        self.invalid_action = config.get("invalid_action", "raise")
        self.max_cycles = config.get("max_cycles")
        if self.action_mode not in _ACTION_MODES:
            raise ValueError(f"action_mode must be 'global' or 'rows', got {self.action_mode!r}")
        choice(self.invalid_action, _INVALID, "invalid_action")
        v = self.max_cycles
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1):
            raise ValueError(f"max_cycles must be an integer >= 1 or None, got {v!r}")
        map_size = config.get("map_size")
        map_size = default_map_size(len(tribes)) if map_size is None else map_size
        options = dict(mode=config.get("mode", "capitals"), max_turns=config.get("max_turns"),
                       full_observability=bool(config.get("full_observability", False)))
        # The games' description checks max_actions (the engine's check).
        d = game_description(map_size=map_size, players=tribes, max_actions=config.get("max_actions", 64), **options)
        self.max_actions = d.max_actions
        self._game = GameEnv(seed=0, map_size=map_size, players=tribes, **options)
        g = self._game
        P, A = g.num_players, g.action_space_size
        self.num_players, self.action_space_size = P, A
        self.possible_agents = [f"player_{i}" for i in range(P)]
        self.agents = []
        n_actions = A if self.action_mode == "global" else self.max_actions
        obs_space = spaces.Dict({
            "observations": _observations_space(d, self.action_mode),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._loser_reward = -1.0 / (P - 1)
        # Players are eliminated when they lose their last city: only a capture (or a turn change) can do it.
        self._capture_ids = frozenset(g.action_id("capture", source=t) for t in range(g.num_tiles))
        self._raw: dict | None = None
        self._mask: np.ndarray | None = None
        self._start_turn = 0
        self._next_seed: int | None = None

    # ------------------------------------------------------------------ observation
    def _observe(self, player: int) -> dict:
        """``player``'s observation ``{"observations": ..., "action_mask": ...}`` (mask all zeros off-turn)."""
        o = self._game.observe(player, max_actions=self.max_actions)
        count = int(o["legal_action_count"])
        if self.action_mode == "global":
            mask = np.zeros(self.action_space_size, dtype=np.int8)
            mask[o["action_id"][:count]] = 1
            inner = {"map_tokens": o["map_tokens"], "state": o["state"]}
        else:
            mask = o["action_mask"].view(np.int8)
            inner = {"map_tokens": o["map_tokens"], "state": o["state"], "action_id": o["action_id"],
                     "action_features": o["action_features"]}
        return {"observations": inner, "action_mask": mask}, o

    def _observe_current(self) -> dict:
        """``{acting agent: observation}``; keeps the raw rows to decode its action."""
        player = self._game.current_player
        obs, self._raw = self._observe(player)
        self._mask = obs["action_mask"]
        return {self.possible_agents[player]: obs}

    def _global_id(self, action) -> tuple[int, bool]:
        """The global id of ``action`` and whether it is a represented legal action (ValueError off the space)."""
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        n = self._mask.shape[0]
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) or not 0 <= action < n:
            raise ValueError(f"action {action!r} is outside Discrete({n})")
        a = int(action)
        legal = bool(self._mask[a])
        return (a if self.action_mode == "global" else int(self._raw["action_id"][a])), legal

    # ------------------------------------------------------------------ RLlib API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Starts a game from ``seed`` (``GameEnv(seed=seed)``; None: the previous seed + 1, first a random one)."""
        if options:
            raise ValueError(f"reset takes no options, got {options!r}")
        if seed is None:
            seed = self._next_seed if self._next_seed is not None else int(np.random.SeedSequence().entropy % 2**63)
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
            raise ValueError(f"seed must be None or an integer in [0, 2**64), got {seed!r}")
        self._next_seed = (int(seed) + 1) % 2**64
        self._game.reset(int(seed))
        self._start_turn = self._game.turn
        self.agents = [a for i, a in enumerate(self.possible_agents) if self._game.player(i)["alive"]]
        obs = self._observe_current()
        return obs, {a: {} for a in obs}

    def step(self, action_dict: Mapping):
        """Plays the acting agent's action; returns ``(obs, rewards, terminateds, truncateds, infos)``."""
        if self._raw is None:
            raise RuntimeError("call reset() before step()")
        if self._game.game_over or (self.max_cycles is not None
                                    and self._game.turn - self._start_turn >= self.max_cycles):
            raise RuntimeError("the episode is over: call reset()")
        actor = self.possible_agents[self._game.current_player]
        if set(action_dict) != {actor}:
            raise ValueError(f"it is {actor}'s turn: the action dict must hold exactly {actor!r}, "
                             f"got {sorted(action_dict)}")
        a, legal = self._global_id(action_dict[actor])
        played, _ = apply_invalid_action(self.invalid_action, a, legal, self._raw["action_id"][END_TURN_ROW],
                                         lambda: f"action {action_dict[actor]!r} is not legal for {actor} now "
                                                 "(masked out)")
        a = int(played)
        g = self._game
        g.step(a)
        # RLlib needs a reward for an agent that acted and observes again (its turn goes on).
        rewards, terminateds, truncateds = {actor: 0.0}, {"__all__": False}, {"__all__": False}
        if not g.game_over and (a in self._capture_ids or self.possible_agents[g.current_player] != actor):
            for agent in list(self.agents):
                if not g.player(self.possible_agents.index(agent))["alive"]:
                    rewards[agent], terminateds[agent] = self._loser_reward, True
                    self.agents.remove(agent)
        infos = {actor: {"invalid_action": not legal}}
        if g.game_over:
            w = g.winner
            for agent in self.agents:
                rewards[agent] = 0.0 if w < 0 else 1.0 if agent == self.possible_agents[w] else self._loser_reward
                terminateds[agent] = True
            terminateds["__all__"] = True
            self.agents = []
            return {}, rewards, terminateds, truncateds, infos
        if self.max_cycles is not None and g.turn - self._start_turn >= self.max_cycles:
            # RLlib bootstraps a truncated agent's value: every one gets its last view (mask all zeros).
            obs = {agent: self._observe(self.possible_agents.index(agent))[0] for agent in self.agents}
            for agent in obs:
                obs[agent]["action_mask"] = np.zeros_like(obs[agent]["action_mask"])
            truncateds.update({agent: True for agent in self.agents})
            truncateds["__all__"] = True
            self.agents = []
            return obs, rewards, terminateds, truncateds, infos
        return self._observe_current(), rewards, terminateds, truncateds, infos

    # ------------------------------------------------------------------ extras
    @property
    def game(self) -> GameEnv:
        """The :class:`polyenv.GameEnv` being played."""
        return self._game

    def action_mask(self) -> np.ndarray:
        """The acting agent's mask as bool (the observation's ``action_mask``)."""
        if self._mask is None:
            raise RuntimeError("call reset() first")
        return self._mask.astype(bool)
