"""polyenv: fast, faithful reinforcement-learning environments for Tribes.

Tribes is the research re-implementation of The Battle of Polytopia. polyenv
simulates it natively in C++ and exposes it as:

* :class:`GameEnv` — one game (debugging, replays, search, scenario tests).
* :func:`game_description` — a :class:`GameDescription` of a configuration without building a game
  (sizes, action-id layout, column names and indices, flag bits, value ranges).
* :class:`VectorGameEnv` — many games per call on a native worker pool (training).
* :class:`RolloutBuffer` — [T, B] on-policy storage of VectorGameEnv steps (returns, GAE).
* :class:`MctsPool` — native batched PUCT search over many live games (self-play).
* :class:`SelfPlayPool` — belief-rooted MCTS self-play under fog of war (submitted belief worlds).
* :mod:`polyenv.bots` — the built-in ``random``, ``greedy`` and ``mcts`` players.
* ``gym.make("polyenv/Tribes-v0")`` and :mod:`polyenv.vector` — Gymnasium, the native
  Gymnasium ``VectorEnv`` and the stable-baselines3 adapter.
* :mod:`polyenv.envs.tribes_aec_v0` — the PettingZoo AEC environment (2–16 players).
* :mod:`polyenv.distributed` — Ray rollout actors and an RLlib multi-agent env (``pip install "polyenv[ray]"``).

Tribe constants (``Bardur``, ``Imperius``, ...) are the Tribes tribe keys.
Name tables (``UNIT_TYPES``, ``TECHS``, ...) map engine codes to names, and
``*_FEATURE_NAMES`` name the columns of every tensor layout.
"""

# An unbuilt source tree (a clone's polyenv/ folder, first on sys.path) defers to the installed package
# or says what to do (polyenv/_source_tree.py).
from ._source_tree import use_installed_if_unbuilt as _use_installed_if_unbuilt

_use_installed_if_unbuilt(__name__, __path__[0])

from . import _core  # noqa: E402
from ._names import (
    ACTION_KINDS, BUILDINGS, LEVEL_UP_REWARDS, RESOURCES, TECHS, TERRAINS, TILE_ACTIONS, TRIBES, UNIT_STATUSES,
    UNIT_TYPES,
)
from ._validate import ArgumentTypeError
from .description import MAX_PLAYERS, MIN_PLAYERS, GameDescription, game_description
from .game_env import GameEnv
from .vector_env import StaleStateError, VectorGameEnv
from .rollout import RolloutBuffer, RolloutBufferFullError, RolloutProtocolError
from .selfplay import MctsPool, SelfPlayPool
from . import bots  # noqa: E402  (built-in bots: polyenv.bots.play(game, "greedy"))
from .envs import registration as _gym_registration  # noqa: E402,F401  (registers "polyenv/Tribes-v0" with Gymnasium)

XinXi, Imperius, Bardur, Oumaji, Kickoo, Hoodrick, Luxidoor, Vengir, Zebasi, AiMo, Quetzali, Yadakk = range(12)

#: The 23 columns of a map token row (``map_tokens`` int32 [tiles, 23]).
MAP_TOKEN_FEATURE_NAMES: tuple[str, ...] = _core.MAP_TOKEN_FEATURE_NAMES
#: The 11 columns of ``state`` (int32 [11]).
STATE_FEATURE_NAMES: tuple[str, ...] = _core.STATE_FEATURE_NAMES
#: The 17 columns of an action row (``action_features`` int32 [A, 17]).
ACTION_FEATURE_NAMES: tuple[str, ...] = _core.ACTION_FEATURE_NAMES
#: The 12 columns of ``action_arg_mask`` (uint8 [A, 12]): which of action-feature columns 1..12 apply.
ACTION_ARG_MASK_NAMES: tuple[str, ...] = _core.ACTION_ARG_MASK_NAMES
#: The 26 columns of a visible event record (int32 [K, 26]).
VISIBLE_EVENT_FEATURE_NAMES: tuple[str, ...] = _core.VISIBLE_EVENT_FEATURE_NAMES
#: The 8 columns of an event's affected-unit rows (int32 [K, 9, 8]).
VISIBLE_EVENT_AFFECTED_FEATURE_NAMES: tuple[str, ...] = _core.VISIBLE_EVENT_AFFECTED_FEATURE_NAMES
#: The 12 columns of SelfPlayPool's compact ``visible_action_history`` rows (int32 [H, 12]).
VISIBLE_ACTION_HISTORY_FEATURE_NAMES: tuple[str, ...] = _core.VISIBLE_ACTION_HISTORY_FEATURE_NAMES
#: The unit table of rules §5: ``{unit type: {cost, max_hp, attack, defence, movement, range, points, tech}}``.
UNIT_STATS: dict = _core.UNIT_STATS
#: The tech tree (RULES.md §4): ``{tech: {"tier": 1..3, "parent": tech or None}}``.
TECH_TREE: dict = _core.TECH_TREE
#: Bits of the ``flags`` column of the visible events: kill, counter, source_killed, capture, ...
EVENT_FLAGS: dict = _core.EVENT_FLAGS
#: Stars are capped here (not a Tribes rule; keeps the engine's int32 arithmetic exact).
MAX_STARS: int = _core.MAX_STARS

__version__ = "0.1.0"

__all__ = [
    "GameEnv", "GameDescription", "game_description", "MIN_PLAYERS", "MAX_PLAYERS", "bots", "VectorGameEnv", "StaleStateError", "ArgumentTypeError", "MctsPool", "SelfPlayPool",
    "RolloutBuffer", "RolloutBufferFullError", "RolloutProtocolError",
    "XinXi", "Imperius", "Bardur", "Oumaji", "Kickoo", "Hoodrick", "Luxidoor", "Vengir", "Zebasi", "AiMo",
    "Quetzali", "Yadakk",
    "TRIBES", "UNIT_TYPES", "TECHS", "TERRAINS", "RESOURCES", "BUILDINGS", "ACTION_KINDS", "UNIT_STATUSES",
    "LEVEL_UP_REWARDS", "TILE_ACTIONS", "UNIT_STATS", "TECH_TREE", "EVENT_FLAGS", "MAX_STARS",
    "MAP_TOKEN_FEATURE_NAMES", "STATE_FEATURE_NAMES", "ACTION_FEATURE_NAMES", "ACTION_ARG_MASK_NAMES",
    "VISIBLE_EVENT_FEATURE_NAMES", "VISIBLE_EVENT_AFFECTED_FEATURE_NAMES", "VISIBLE_ACTION_HISTORY_FEATURE_NAMES",
]
