"""
polyenv native core (private: use the names exported by `polyenv`)
"""
from __future__ import annotations
import collections.abc
import numpy
import numpy.typing
import typing
__all__: list[str] = ['ACTION_ARG_MASK_NAMES', 'ACTION_FEATURE_NAMES', 'ACTION_KINDS', 'ActionOverflowError', 'BOT_NAMES', 'BUILDINGS', 'BeliefsMissingError', 'DEFAULT_AZ_SIMULATIONS', 'DEFAULT_MCTS_PRIOR_SCOPE', 'DEFAULT_MCTS_PROBE_VISITS', 'DEFAULT_MCTS_ROOT_PRIOR_TEMPERATURE', 'DEFAULT_MCTS_SIMULATIONS', 'DEFAULT_MCTS_TURN_HORIZON', 'EVENT_FLAGS', 'FLAT_LAYOUT', 'Game', 'GameDescription', 'LEVEL_UP_REWARDS', 'LOADABLE_COUNTER_LIMITS', 'MAP_TOKEN_FEATURE_NAMES', 'MAX_MAP_SIZE', 'MAX_PLAYERS', 'MAX_STARS', 'MAX_TURNS', 'MAX_VISIBLE_ACTION_HISTORY', 'MAX_VISIBLE_EVENT_HISTORY', 'MIN_MAP_SIZE', 'MIN_PLAYERS', 'MctsPool', 'PendingLeavesError', 'RESOURCES', 'STATE_FEATURE_NAMES', 'SelfPlayPool', 'StaleLeafError', 'StaleStateError', 'TECHS', 'TECH_TREE', 'TERRAINS', 'TILE_ACTIONS', 'TRIBES', 'UNIT_STATS', 'UNIT_STATUSES', 'UNIT_TYPES', 'VETERAN_KILLS', 'VISIBLE_ACTION_HISTORY_FEATURE_NAMES', 'VISIBLE_EVENT_AFFECTED_FEATURE_NAMES', 'VISIBLE_EVENT_FEATURE_NAMES', 'VectorEnv', 'action_reward', 'az_evaluate', 'az_forward', 'az_info', 'az_register', 'bot_choose', 'bot_play', 'bot_play_turn', 'bot_play_until', 'check_player_count', 'describe_config', 'describe_level', 'encode_flat', 'row_objects', 'update_id_mask']
class Game:
    """
    Native game (use polyenv.GameEnv)
    """
    @staticmethod
    def blank(map_size: typing.SupportsInt | typing.SupportsIndex, tribes: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], mode: typing.SupportsInt | typing.SupportsIndex, max_turns: typing.SupportsInt | typing.SupportsIndex, full_observability: bool, terrain: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex, revealed: bool) -> Game:
        ...
    @staticmethod
    def from_bytes(data: bytes) -> Game:
        ...
    @staticmethod
    def from_level(csv: str, tribes: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], mode: typing.SupportsInt | typing.SupportsIndex, max_turns: typing.SupportsInt | typing.SupportsIndex, full_observability: bool, auto_end: bool, seed: typing.SupportsInt | typing.SupportsIndex) -> Game:
        ...
    @staticmethod
    def generated(map_size: typing.SupportsInt | typing.SupportsIndex, tribes: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], mode: typing.SupportsInt | typing.SupportsIndex, max_turns: typing.SupportsInt | typing.SupportsIndex, full_observability: bool, auto_end: bool, seed: typing.SupportsInt | typing.SupportsIndex) -> Game:
        ...
    def check_invariants(self) -> str:
        ...
    def city_at(self, tile: typing.SupportsInt | typing.SupportsIndex) -> typing.Any:
        ...
    def clone(self) -> Game:
        ...
    def combat_preview(self, attacker: typing.SupportsInt | typing.SupportsIndex, defender: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int, bool, bool]:
        ...
    def decode_action(self, action: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int, int, int, int]:
        ...
    def describe_action(self, action: typing.SupportsInt | typing.SupportsIndex) -> str:
        ...
    def encode_action(self, block: typing.SupportsInt | typing.SupportsIndex, source: typing.SupportsInt | typing.SupportsIndex, target: typing.SupportsInt | typing.SupportsIndex, arg: typing.SupportsInt | typing.SupportsIndex, amount: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def equals(self, other: Game) -> bool:
        ...
    def full_map(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    def grant_tech(self, player: typing.SupportsInt | typing.SupportsIndex, tech: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def income(self, player: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def is_legal(self, action: typing.SupportsInt | typing.SupportsIndex) -> bool:
        ...
    def journal_bytes(self) -> bytes:
        ...
    def legal_actions(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    def load_bytes(self, data: bytes) -> None:
        ...
    def load_journal(self, data: bytes) -> None:
        ...
    def observe(self, player: typing.SupportsInt | typing.SupportsIndex, max_actions: typing.SupportsInt | typing.SupportsIndex, combat_preview: bool) -> dict:
        ...
    def observe_board(self, player: typing.SupportsInt | typing.SupportsIndex) -> tuple[numpy.typing.NDArray[numpy.int32], numpy.typing.NDArray[numpy.int32]]:
        ...
    def place_city(self, player: typing.SupportsInt | typing.SupportsIndex, tile: typing.SupportsInt | typing.SupportsIndex, level: typing.SupportsInt | typing.SupportsIndex, population: typing.SupportsInt | typing.SupportsIndex, walls: bool, capital: bool) -> None:
        ...
    def place_unit(self, player: typing.SupportsInt | typing.SupportsIndex, type: typing.SupportsInt | typing.SupportsIndex, tile: typing.SupportsInt | typing.SupportsIndex, hp: typing.SupportsInt | typing.SupportsIndex, veteran: bool, kills: typing.SupportsInt | typing.SupportsIndex, status: typing.SupportsInt | typing.SupportsIndex, carried: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def player(self, player: typing.SupportsInt | typing.SupportsIndex) -> dict:
        ...
    def playout(self, max_actions: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex, record_events: bool) -> int:
        ...
    def ranking(self) -> list[int]:
        ...
    def remove_unit(self, tile: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def reset(self, seed: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def reveal(self, player: typing.SupportsInt | typing.SupportsIndex, tiles: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> None:
        ...
    def score_margin(self, player: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def scores(self) -> list[int]:
        ...
    def set_building(self, tile: typing.SupportsInt | typing.SupportsIndex, building: typing.SupportsInt | typing.SupportsIndex, with_effects: bool) -> None:
        ...
    def set_current_player(self, player: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def set_population(self, tile: typing.SupportsInt | typing.SupportsIndex, population: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def set_resource(self, tile: typing.SupportsInt | typing.SupportsIndex, resource: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def set_road(self, tile: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def set_stars(self, player: typing.SupportsInt | typing.SupportsIndex, stars: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def set_terrain(self, tile: typing.SupportsInt | typing.SupportsIndex, terrain: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def step(self, action: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def tech_cost(self, player: typing.SupportsInt | typing.SupportsIndex, tech: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def tile(self, tile: typing.SupportsInt | typing.SupportsIndex) -> dict:
        ...
    def to_bytes(self) -> bytes:
        ...
    def unit_at(self, tile: typing.SupportsInt | typing.SupportsIndex) -> typing.Any:
        ...
    def visible_events(self, player: typing.SupportsInt | typing.SupportsIndex, cursor: typing.SupportsInt | typing.SupportsIndex) -> tuple[dict, int]:
        ...
    @property
    def action_space_fingerprint(self) -> int:
        ...
    @property
    def action_space_size(self) -> int:
        ...
    @property
    def actions_applied(self) -> int:
        ...
    @property
    def current_player(self) -> int:
        ...
    @property
    def eliminated_mask(self) -> int:
        ...
    @property
    def episode_id(self) -> int:
        ...
    @property
    def full_observability(self) -> bool:
        ...
    @property
    def game_over(self) -> bool:
        ...
    @property
    def level_csv(self) -> typing.Any:
        ...
    @property
    def map_size(self) -> int:
        ...
    @property
    def mode(self) -> int:
        ...
    @property
    def num_players(self) -> int:
        ...
    @property
    def num_tiles(self) -> int:
        ...
    @property
    def pending_level_up(self) -> typing.Any:
        ...
    @property
    def seed(self) -> int:
        ...
    @property
    def state_id(self) -> int:
        ...
    @property
    def turn(self) -> int:
        ...
    @property
    def turn_limit(self) -> int:
        ...
    @property
    def winner(self) -> int:
        ...
class GameDescription:
    """
    The static facts of a game configuration, computed without building a game: sizes, the action-id layout, the turn limit, the column layouts with their flag bits and value ranges. Build it with polyenv.game_description(...).
    """
    MAX_PLAYERS: typing.ClassVar[int] = 16
    MIN_PLAYERS: typing.ClassVar[int] = 2
    def __repr__(self) -> str:
        ...
    @property
    def action_arg_mask_features(self) -> tuple:
        """
        Names of the action-arg-mask columns (ACTION_ARG_MASK_NAMES).
        """
    @property
    def action_blocks(self) -> dict:
        """
        {block name: {index, offset, size, uses_source, uses_target}} in id order (blocks are contiguous).
        """
    @property
    def action_feature_bounds(self) -> tuple:
        """
        (low, high) int32 [17]: the value range of every action-feature column.
        """
    @property
    def action_feature_columns(self) -> dict:
        """
        {action-feature column name: index}.
        """
    @property
    def action_features(self) -> tuple:
        """
        Names of the action-feature columns (ACTION_FEATURE_NAMES).
        """
    @property
    def action_kinds(self) -> dict:
        """
        {action kind: (block index, fixed arg within the block or -1)}; the same for every configuration.
        """
    @property
    def action_space_fingerprint(self) -> int:
        """
        Fingerprint of the action-id layout (map size, players, version).
        """
    @property
    def action_space_size(self) -> int:
        """
        Number of stable action ids.
        """
    @property
    def bound_reasons(self) -> dict:
        """
        {layout: the rule (a section of the rules, §) or storage type behind each column's range}.
        """
    @property
    def city_flags(self) -> dict:
        """
        {flag: bit} of the city_flags map-token column.
        """
    @property
    def full_observability(self) -> bool:
        """
        False when fog of war is on.
        """
    @property
    def map_size(self) -> int:
        """
        Board side N.
        """
    @property
    def map_token_bounds(self) -> tuple:
        """
        (low, high) int32 [23]: the value range of every map-token column.
        """
    @property
    def map_token_columns(self) -> dict:
        """
        {map-token column name: index}.
        """
    @property
    def map_token_features(self) -> tuple:
        """
        Names of the map-token columns (MAP_TOKEN_FEATURE_NAMES).
        """
    @property
    def max_actions(self) -> int:
        """
        Padded legal-action rows of an observation.
        """
    @property
    def mode(self) -> str:
        """
        "capitals" or "score".
        """
    @property
    def num_players(self) -> int:
        """
        Number of players.
        """
    @property
    def num_tiles(self) -> int:
        """
        N * N.
        """
    @property
    def state_bounds(self) -> tuple:
        """
        (low, high) int32 [11]: the value range of every state column.
        """
    @property
    def state_columns(self) -> dict:
        """
        {state column name: index}.
        """
    @property
    def state_features(self) -> tuple:
        """
        Names of the state columns (STATE_FEATURE_NAMES).
        """
    @property
    def turn_limit(self) -> int:
        """
        Last round played before the game ends (§12.2).
        """
    @property
    def unit_flags(self) -> dict:
        """
        {flag: bit} of the unit_flags map-token column.
        """
class StaleStateError(RuntimeError):
    """
    A checked step received a state id that is no longer its environment's live position (a late response); no environment was changed.
    """
class VectorEnv:
    """
    Native vector of games (use polyenv.VectorGameEnv)
    """
    def __init__(self, num_envs: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex, map_size: typing.SupportsInt | typing.SupportsIndex, tribes: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], mode: typing.SupportsInt | typing.SupportsIndex, max_turns: typing.SupportsInt | typing.SupportsIndex, full_observability: bool, num_threads: typing.SupportsInt | typing.SupportsIndex, max_actions: typing.SupportsInt | typing.SupportsIndex, auto_reset: bool, history: typing.SupportsInt | typing.SupportsIndex, combat_preview: bool, keep_terminal: bool, opponent: typing.SupportsInt | typing.SupportsIndex, learner_seats: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], score_reward_scale: typing.SupportsFloat | typing.SupportsIndex = 0.0, opponent_simulations: typing.SupportsInt | typing.SupportsIndex = 2000, opponent_model: typing.SupportsInt | typing.SupportsIndex = -1, levels: collections.abc.Sequence[str] = []) -> None:
        ...
    def _inject_fault(self, env_id: typing.SupportsInt | typing.SupportsIndex, message: str) -> None:
        ...
    def close(self) -> None:
        ...
    def observe(self, env_ids: typing.Any, buffers: typing.Any, known: bool = False) -> typing.Any:
        ...
    def reset(self, seed: typing.SupportsInt | typing.SupportsIndex | None, buffers: typing.Any, known: bool = False) -> typing.Any:
        ...
    def reset_slots(self, env_ids: typing.Any, buffers: typing.Any, known: bool = False) -> typing.Any:
        ...
    def spec(self, rows: typing.SupportsInt | typing.SupportsIndex) -> list:
        ...
    def step(self, env_ids: typing.Any, action_ids: typing.Any, state_ids: typing.Any, buffers: typing.Any, known: bool = False) -> typing.Any:
        ...
    @property
    def action_space_size(self) -> int:
        ...
    @property
    def closed(self) -> bool:
        ...
    @property
    def history(self) -> int:
        ...
    @property
    def map_size(self) -> int:
        ...
    @property
    def max_actions(self) -> int:
        ...
    @property
    def num_envs(self) -> int:
        ...
    @property
    def num_players(self) -> int:
        ...
    @property
    def num_threads(self) -> int:
        ...
    @property
    def num_tiles(self) -> int:
        ...
class StaleLeafError(RuntimeError):
    """
    A leaf id that is not pending (unknown, consumed, cancelled, or invalidated by a step or reset); nothing was changed.
    """
class PendingLeavesError(RuntimeError):
    """
    A step or reset while leaves are pending evaluation: back them up, cancel them or abort the search first; nothing was changed.
    """
class ActionOverflowError(RuntimeError):
    """
    require_all_actions=True and a position has more legal actions than max_actions (raise max_actions, or allow truncation).
    """
class MctsPool:
    """
    Native batched PUCT or Gumbel search pool (use polyenv.MctsPool)
    """
    def __init__(self, num_envs: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex, map_size: typing.SupportsInt | typing.SupportsIndex, tribes: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], mode: typing.SupportsInt | typing.SupportsIndex, max_turns: typing.SupportsInt | typing.SupportsIndex, full_observability: bool, num_threads: typing.SupportsInt | typing.SupportsIndex, max_actions: typing.SupportsInt | typing.SupportsIndex, require_all_actions: bool, auto_reset: bool, c_puct: typing.SupportsFloat | typing.SupportsIndex, max_pending: typing.SupportsInt | typing.SupportsIndex, virtual_loss: typing.SupportsFloat | typing.SupportsIndex, max_nodes: typing.SupportsInt | typing.SupportsIndex, max_bytes: typing.SupportsInt | typing.SupportsIndex, dirichlet_alpha: typing.SupportsFloat | typing.SupportsIndex, dirichlet_fraction: typing.SupportsFloat | typing.SupportsIndex, levels: collections.abc.Sequence[str] = [], reuse_tree: bool = False, root_selection: str = 'puct', num_simulations: typing.SupportsInt | typing.SupportsIndex = 0, max_considered_actions: typing.SupportsInt | typing.SupportsIndex = 16, gumbel_scale: typing.SupportsFloat | typing.SupportsIndex = 1.0, gumbel_value_scale: typing.SupportsFloat | typing.SupportsIndex = 0.1, gumbel_maxvisit_init: typing.SupportsFloat | typing.SupportsIndex = 50.0, combat_preview: bool = False) -> None:
        ...
    def _leaf_actions(self, leaf_id: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        ...
    def _load_state(self, env: typing.SupportsInt | typing.SupportsIndex, data: bytes) -> None:
        """
        Tests: replace a live game by a serialized state (fresh tree)
        """
    def _state_digest(self) -> int:
        ...
    def _timing(self) -> typing.Annotated[list[int], "FixedSize(3)"]:
        """
        Cumulative worker ns in selection, leaf encoding, expansion + backup
        """
    def _tree(self, env: typing.SupportsInt | typing.SupportsIndex) -> dict:
        """
        Tests: every node and edge statistic of tree env as NumPy arrays
        """
    def abort_search(self) -> None:
        ...
    def batch_spec(self) -> dict:
        ...
    def cancel_leaves(self, leaf_ids: typing.Any) -> None:
        ...
    def close(self) -> None:
        ...
    def expand_and_backup(self, leaf_ids: typing.Any, policy_logits: typing.Any, values: typing.Any) -> None:
        ...
    def leaf_batch_spec(self, max_leaves: typing.SupportsInt | typing.SupportsIndex) -> dict:
        ...
    def reset(self, seed: typing.SupportsInt | typing.SupportsIndex | None, buffers: typing.Any) -> typing.Any:
        ...
    def root_policy(self, temperature: typing.SupportsFloat | typing.SupportsIndex, buffers: typing.Any) -> typing.Any:
        ...
    def root_policy_spec(self) -> dict:
        ...
    def search_stats(self) -> dict:
        ...
    def select_leaves(self, max_leaves: typing.SupportsInt | typing.SupportsIndex, buffers: typing.Any) -> tuple[int, typing.Any]:
        ...
    def step(self, action_ids: typing.Any, state_ids: typing.Any, buffers: typing.Any) -> typing.Any:
        ...
    @property
    def action_space_size(self) -> int:
        ...
    @property
    def closed(self) -> bool:
        ...
    @property
    def map_size(self) -> int:
        ...
    @property
    def max_actions(self) -> int:
        ...
    @property
    def max_pending_leaves(self) -> int:
        ...
    @property
    def num_envs(self) -> int:
        ...
    @property
    def num_players(self) -> int:
        ...
    @property
    def num_threads(self) -> int:
        ...
class BeliefsMissingError(RuntimeError):
    """
    select_leaves() before beliefs were submitted for every game's live state id (submit_beliefs after each reset and step).
    """
class SelfPlayPool(MctsPool):
    """
    Native belief-rooted MCTS self-play pool (use polyenv.SelfPlayPool)
    """
    def __init__(self, num_envs: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex, map_size: typing.SupportsInt | typing.SupportsIndex, tribes: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], mode: typing.SupportsInt | typing.SupportsIndex, max_turns: typing.SupportsInt | typing.SupportsIndex, full_observability: bool, num_threads: typing.SupportsInt | typing.SupportsIndex, max_actions: typing.SupportsInt | typing.SupportsIndex, require_all_actions: bool, auto_reset: bool, c_puct: typing.SupportsFloat | typing.SupportsIndex, max_pending: typing.SupportsInt | typing.SupportsIndex, virtual_loss: typing.SupportsFloat | typing.SupportsIndex, max_nodes: typing.SupportsInt | typing.SupportsIndex, max_bytes: typing.SupportsInt | typing.SupportsIndex, history: typing.SupportsInt | typing.SupportsIndex, levels: collections.abc.Sequence[str] = [], root_selection: str = 'puct', num_simulations: typing.SupportsInt | typing.SupportsIndex = 0, max_considered_actions: typing.SupportsInt | typing.SupportsIndex = 16, gumbel_scale: typing.SupportsFloat | typing.SupportsIndex = 1.0, gumbel_value_scale: typing.SupportsFloat | typing.SupportsIndex = 0.1, gumbel_maxvisit_init: typing.SupportsFloat | typing.SupportsIndex = 50.0, combat_preview: bool = False) -> None:
        ...
    def _belief_digest(self) -> int:
        ...
    def _history_memory(self) -> dict:
        """
        Tests and benchmarks: entries, tree nodes and bytes held by the visible-action history store
        """
    def _load_state(self, env: typing.SupportsInt | typing.SupportsIndex, data: bytes, rng_seed: typing.SupportsInt | typing.SupportsIndex | None = None) -> None:
        """
        Tests: replace a live game by a serialized state (optionally reseeding its random stream)
        """
    def _redeterminize_stats(self) -> tuple[int, int, int]:
        """
        Tests: (rebuilt, fallbacks, skipped_actions) re-determinization counters since the last submission
        """
    def _set_redeterminize(self, on: bool) -> None:
        """
        Benchmarks: False keeps the trees of later submissions in the actor's belief world
        """
    def all_player_batch_spec(self) -> dict:
        ...
    def all_player_belief_requests(self, buffers: typing.Any) -> typing.Any:
        ...
    def batch_spec(self) -> dict:
        ...
    def belief_requests(self, buffers: typing.Any) -> typing.Any:
        ...
    def fit_beliefs(self, state_ids: typing.Any, beliefs: typing.Any) -> int:
        """
        Fits the actor's particles in place to its live legal list; returns how many still differ
        """
    def leaf_batch_spec(self, max_leaves: typing.SupportsInt | typing.SupportsIndex) -> dict:
        ...
    def reset(self, seed: typing.SupportsInt | typing.SupportsIndex | None, buffers: typing.Any) -> typing.Any:
        ...
    def select_leaves(self, max_leaves: typing.SupportsInt | typing.SupportsIndex, buffers: typing.Any) -> tuple[int, typing.Any]:
        ...
    def step(self, action_ids: typing.Any, state_ids: typing.Any, buffers: typing.Any) -> typing.Any:
        ...
    def submit_beliefs(self, state_ids: typing.Any, beliefs: typing.Any) -> None:
        ...
    @property
    def visible_action_history(self) -> int:
        ...
def _az_root_policy(game: Game, model: typing.SupportsInt | typing.SupportsIndex, simulations: typing.SupportsInt | typing.SupportsIndex, gumbel_scale: typing.SupportsFloat | typing.SupportsIndex = 1.0, seed: typing.SupportsInt | typing.SupportsIndex | None = None) -> tuple[int, numpy.typing.NDArray[numpy.float32]]:
    ...
def _mcts_play(game: Game, simulations: typing.SupportsInt | typing.SupportsIndex, eval: typing.SupportsInt | typing.SupportsIndex, c_puct: typing.SupportsFloat | typing.SupportsIndex, rollout_actions: typing.SupportsInt | typing.SupportsIndex, scale: typing.SupportsFloat | typing.SupportsIndex, rollout_turns: typing.SupportsInt | typing.SupportsIndex = 1, root_prior_temperature: typing.SupportsFloat | typing.SupportsIndex = 10.0, prior_scope: typing.SupportsInt | typing.SupportsIndex = 3, turn_horizon: typing.SupportsInt | typing.SupportsIndex = 1, probe_visits: typing.SupportsInt | typing.SupportsIndex = 3) -> int:
    ...
def _mcts_root_visits(game: Game, simulations: typing.SupportsInt | typing.SupportsIndex = 2000) -> tuple[int, numpy.typing.NDArray[numpy.int32]]:
    ...
def action_reward(game: Game, actor: typing.SupportsInt | typing.SupportsIndex, margin_before: typing.SupportsInt | typing.SupportsIndex, score_scale: typing.SupportsFloat | typing.SupportsIndex) -> float:
    """
    The reward of `actor`'s action once it and the replies that followed are applied (VectorGameEnv's): the change of score_margin(actor) since margin_before divided by score_scale (nothing when 0), plus +1 / -1 when the game ended with the actor's win / loss. A float32 value.
    """
def az_evaluate(game: Game, index: typing.SupportsInt | typing.SupportsIndex) -> tuple[numpy.typing.NDArray[numpy.int32], numpy.typing.NDArray[numpy.float32], numpy.typing.NDArray[numpy.float32]]:
    """
    The network's view of a game's current position: (legal action ids [n], logits [n], values by relative seat), encoded for the current player.
    """
def az_forward(index: typing.SupportsInt | typing.SupportsIndex, map_tokens: typing.Any, state: typing.Any, action_features: typing.Any, legal_action_count: typing.Any) -> tuple[numpy.typing.NDArray[numpy.float32], numpy.typing.NDArray[numpy.float32]]:
    """
    Native forward pass over dense rows: (logits float32 [N, A] (0 beyond each row's count), values float32 [N, value_size]).
    """
def az_info(index: typing.SupportsInt | typing.SupportsIndex) -> dict:
    """
    Parameter count and value size of a registered az network.
    """
def az_register(data: bytes) -> int:
    """
    Parses an az weight file's bytes and registers the network; returns its index.
    """
def bot_choose(game: Game, bot: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex | None = None, simulations: typing.SupportsInt | typing.SupportsIndex = 2000, model: typing.SupportsInt | typing.SupportsIndex = -1) -> int:
    """
    The action id the bot would play now (nothing is applied).
    """
def bot_play(game: Game, bot: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex | None = None, simulations: typing.SupportsInt | typing.SupportsIndex = 2000, model: typing.SupportsInt | typing.SupportsIndex = -1) -> int:
    """
    Chooses and applies one action; returns its id.
    """
def bot_play_turn(game: Game, bot: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex | None = None, simulations: typing.SupportsInt | typing.SupportsIndex = 2000, model: typing.SupportsInt | typing.SupportsIndex = -1) -> int:
    """
    Plays the current player's turn to its end (or the game's); returns the number of actions.
    """
def bot_play_until(game: Game, bot: typing.SupportsInt | typing.SupportsIndex, stop_seats: typing.SupportsInt | typing.SupportsIndex, simulations: typing.SupportsInt | typing.SupportsIndex = 2000, model: typing.SupportsInt | typing.SupportsIndex = -1) -> int:
    """
    Plays `bot` for every seat outside the bit set stop_seats until a stop seat is to move or the game ends (each bot turn's stream derived from its starting position); returns the number of actions applied.
    """
def check_player_count(players: typing.SupportsInt | typing.SupportsIndex) -> None:
    """
    Raises ValueError unless 2 <= players <= 16 (the engine's one player-count rule).
    """
def describe_config(map_size: typing.SupportsInt | typing.SupportsIndex, num_players: typing.SupportsInt | typing.SupportsIndex, mode: typing.SupportsInt | typing.SupportsIndex, max_turns: typing.SupportsInt | typing.SupportsIndex, full_observability: bool, max_actions: typing.SupportsInt | typing.SupportsIndex, single_tribe_level: bool = False) -> GameDescription:
    """
    The description of a generated map (ValueError for a bad config).
    """
def describe_level(csv: str, tribes: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], mode: typing.SupportsInt | typing.SupportsIndex, max_turns: typing.SupportsInt | typing.SupportsIndex, full_observability: bool, max_actions: typing.SupportsInt | typing.SupportsIndex) -> GameDescription:
    """
    The description of a game on a Tribes CSV level (parsed and checked, not played).
    """
def encode_flat(map_tokens: typing.Any, state: typing.Any, observer: typing.Any, action_features: typing.Any, legal_count: typing.Any, out: typing.Any, map_size: typing.SupportsInt | typing.SupportsIndex, num_players: typing.SupportsInt | typing.SupportsIndex, turn_limit: typing.SupportsInt | typing.SupportsIndex) -> None:
    """
    polyenv.envs.flat's encoding of a batch into out (float32 [B, D], C-contiguous); all inputs int32 and C-contiguous (action_features [B, R, 17], R = 0 in global action mode). Use FlatEncoder.encode.
    """
def row_objects(rows: dict, env_ids: typing.Annotated[numpy.typing.ArrayLike, numpy.int64], num_envs: typing.SupportsInt | typing.SupportsIndex) -> numpy.ndarray:
    """
    An object array of num_envs entries: entry env_ids[k] is {key: rows[key][k]} (views), the others None.
    """
def update_id_mask(mask: typing.Any, action_id: typing.Any, legal_action_count: typing.Any, marked: typing.Any, marked_count: typing.Any) -> None:
    """
    Sets mask[r, id] = 1 for the first legal_action_count[r] ids of action_id[r] and clears the ids recorded in marked / marked_count (the previous call's), then records the new ones there. All arguments are C-contiguous (mask int8 [B, A], the others int32); every id is range-checked before anything is written.
    """
ACTION_ARG_MASK_NAMES: tuple = ('source_index', 'target_index', 'city', 'tech', 'building', 'spawn_type', 'upgrade', 'tile_action', 'unit_upgrade', 'unit_id', 'population_gain', 'cost_stars')
ACTION_FEATURE_NAMES: tuple = ('type_id', 'source_index', 'target_index', 'city', 'tech', 'building', 'spawn_type', 'upgrade', 'tile_action', 'unit_upgrade', 'unit_id', 'population_gain', 'cost_stars', 'stars_before', 'affordable', 'damage_dealt', 'damage_received')
ACTION_KINDS: tuple = ('end_turn', 'research', 'level_up', 'declare_war', 'send_stars', 'build_road', 'spawn', 'build', 'gather', 'clear_forest', 'burn_forest', 'grow_forest', 'destroy', 'capture', 'recover', 'disband', 'examine', 'heal_others', 'make_veteran', 'upgrade', 'attack', 'convert', 'move')
BOT_NAMES: tuple = ('random', 'greedy', 'mcts', 'az')
BUILDINGS: tuple = ('farm', 'windmill', 'lumber_hut', 'sawmill', 'mine', 'forge', 'port', 'customs_house', 'temple', 'water_temple', 'forest_temple', 'mountain_temple', 'altar_of_peace', 'emperors_tomb', 'eye_of_god', 'gate_of_power', 'grand_bazaar', 'park_of_fortune', 'tower_of_wisdom')
DEFAULT_AZ_SIMULATIONS: int = 128
DEFAULT_MCTS_PRIOR_SCOPE: int = 3
DEFAULT_MCTS_PROBE_VISITS: int = 3
DEFAULT_MCTS_ROOT_PRIOR_TEMPERATURE: float = 10.0
DEFAULT_MCTS_SIMULATIONS: int = 2000
DEFAULT_MCTS_TURN_HORIZON: int = 1
EVENT_FLAGS: dict = {'kill': 1, 'counter': 2, 'source_killed': 4, 'capture': 8, 'level_up': 16, 'embark': 32, 'disembark': 64, 'turn_ended': 128}
FLAT_LAYOUT: dict = {'tile': (('explored', 0), ('terrain_plain', 0), ('terrain_shallow_water', 0), ('terrain_deep_water', 0), ('terrain_mountain', 0), ('terrain_village', 0), ('terrain_city', 0), ('terrain_forest', 0), ('resource_fish', 0), ('resource_fruit', 0), ('resource_animal', 0), ('resource_whales', 0), ('resource_ore', 0), ('resource_crops', 0), ('resource_ruins', 0), ('building_farm', 0), ('building_windmill', 0), ('building_lumber_hut', 0), ('building_sawmill', 0), ('building_mine', 0), ('building_forge', 0), ('building_port', 0), ('building_customs_house', 0), ('building_temple', 0), ('building_water_temple', 0), ('building_forest_temple', 0), ('building_mountain_temple', 0), ('building_altar_of_peace', 0), ('building_emperors_tomb', 0), ('building_eye_of_god', 0), ('building_gate_of_power', 0), ('building_grand_bazaar', 0), ('building_park_of_fortune', 0), ('building_tower_of_wisdom', 0), ('road', 0), ('territory_own', 0), ('city_own', 0), ('unit_own', 0), ('unit_warrior', 0), ('unit_rider', 0), ('unit_defender', 0), ('unit_swordsman', 0), ('unit_archer', 0), ('unit_catapult', 0), ('unit_knight', 0), ('unit_mind_bender', 0), ('unit_boat', 0), ('unit_ship', 0), ('unit_battleship', 0), ('unit_giant', 0), ('unit_status_fresh', 0), ('unit_status_moved', 0), ('unit_status_attacked', 0), ('unit_status_moved_and_attacked', 0), ('unit_status_pushed', 0), ('unit_status_finished', 0), ('carried_warrior', 0), ('carried_rider', 0), ('carried_defender', 0), ('carried_swordsman', 0), ('carried_archer', 0), ('carried_catapult', 0), ('carried_knight', 0), ('carried_mind_bender', 0), ('carried_boat', 0), ('carried_ship', 0), ('carried_battleship', 0), ('carried_giant', 0), ('territory_other', 0), ('city_other', 0), ('unit_other', 0), ('city_capital', 0), ('city_walls', 0), ('city_workshop', 0), ('city_park', 0), ('city_connected', 0), ('unit_veteran', 0), ('building_level', 0), ('city_level', 0), ('unit_hp', 0), ('unit_max_hp', 0), ('unit_kills', 0), ('city_population', -1), ('city_production', -1), ('territory_city_dx', -1), ('territory_city_dy', -1), ('home_city_dx', -1), ('home_city_dy', -1), ('pending_city', 0)), 'state': (('turn_progress', 0), ('my_turn', 0), ('current_player_relative', 0), ('game_over', 0), ('won', 0), ('lost', 0), ('stars', 0), ('units', 0), ('cities', 0), ('income', 0), ('pending_level_up', 0), ('upgrade_a_workshop', 0), ('upgrade_a_explorer', 0), ('upgrade_a_city_wall', 0), ('upgrade_a_resources', 0), ('upgrade_a_pop_growth', 0), ('upgrade_a_border_growth', 0), ('upgrade_a_park', 0), ('upgrade_a_super_unit', 0), ('upgrade_b_workshop', 0), ('upgrade_b_explorer', 0), ('upgrade_b_city_wall', 0), ('upgrade_b_resources', 0), ('upgrade_b_pop_growth', 0), ('upgrade_b_border_growth', 0), ('upgrade_b_park', 0), ('upgrade_b_super_unit', 0)), 'action': (('kind_end_turn', 0), ('kind_research', 0), ('kind_level_up', 0), ('kind_declare_war', 0), ('kind_send_stars', 0), ('kind_build_road', 0), ('kind_spawn', 0), ('kind_build', 0), ('kind_gather', 0), ('kind_clear_forest', 0), ('kind_burn_forest', 0), ('kind_grow_forest', 0), ('kind_destroy', 0), ('kind_capture', 0), ('kind_recover', 0), ('kind_disband', 0), ('kind_examine', 0), ('kind_heal_others', 0), ('kind_make_veteran', 0), ('kind_upgrade', 0), ('kind_attack', 0), ('kind_convert', 0), ('kind_move', 0), ('source_x', 0), ('source_y', 0), ('source_present', 0), ('target_x', 0), ('target_y', 0), ('target_present', 0), ('city_x', 0), ('city_y', 0), ('city_present', 0), ('target_player_relative', 0), ('tech', 0), ('building', 0), ('spawn_type', 0), ('upgrade', 0), ('tile_action', 0), ('unit_upgrade', 0), ('population_gain', 0), ('cost', -1), ('affordable', 0))}
LEVEL_UP_REWARDS: tuple = ('workshop', 'explorer', 'city_wall', 'resources', 'pop_growth', 'border_growth', 'park', 'super_unit')
LOADABLE_COUNTER_LIMITS: dict = {'next_uid': 1123115647, 'units_sighted': 1123114047, 'actions_applied': 9223028370751619071}
MAP_TOKEN_FEATURE_NAMES: tuple = ('explored', 'terrain', 'resource', 'building', 'building_level', 'road', 'territory_owner', 'territory_city_tile', 'city_owner', 'city_level', 'city_population', 'city_flags', 'city_production', 'unit_owner', 'unit_type', 'unit_hp', 'unit_max_hp', 'unit_status', 'unit_flags', 'unit_kills', 'unit_carried_type', 'observed_unit_id', 'unit_home_city_tile')
MAX_MAP_SIZE: int = 40
MAX_PLAYERS: int = 16
MAX_STARS: int = 100000000
MAX_TURNS: int = 10000
MAX_VISIBLE_ACTION_HISTORY: int = 1024
MAX_VISIBLE_EVENT_HISTORY: int = 1024
MIN_MAP_SIZE: int = 4
MIN_PLAYERS: int = 2
RESOURCES: tuple = ('fish', 'fruit', 'animal', 'whales', '', 'ore', 'crops', 'ruins')
STATE_FEATURE_NAMES: tuple = ('turn', 'current_player', 'game_over', 'winner', 'player_stars', 'owns_units', 'own_cities', 'next_turn_star_income', 'pending_city_id', 'pending_upgrade_a', 'pending_upgrade_b')
TECHS: tuple = ('climbing', 'fishing', 'hunting', 'organization', 'riding', 'archery', 'farming', 'forestry', 'free_spirit', 'meditation', 'mining', 'roads', 'sailing', 'shields', 'whaling', 'aquatism', 'chivalry', 'construction', 'mathematics', 'navigation', 'smithery', 'spiritualism', 'trade', 'philosophy')
TECH_TREE: dict = {'climbing': {'tier': 1, 'parent': None}, 'fishing': {'tier': 1, 'parent': None}, 'hunting': {'tier': 1, 'parent': None}, 'organization': {'tier': 1, 'parent': None}, 'riding': {'tier': 1, 'parent': None}, 'archery': {'tier': 2, 'parent': 'hunting'}, 'farming': {'tier': 2, 'parent': 'organization'}, 'forestry': {'tier': 2, 'parent': 'hunting'}, 'free_spirit': {'tier': 2, 'parent': 'riding'}, 'meditation': {'tier': 2, 'parent': 'climbing'}, 'mining': {'tier': 2, 'parent': 'climbing'}, 'roads': {'tier': 2, 'parent': 'riding'}, 'sailing': {'tier': 2, 'parent': 'fishing'}, 'shields': {'tier': 2, 'parent': 'organization'}, 'whaling': {'tier': 2, 'parent': 'fishing'}, 'aquatism': {'tier': 3, 'parent': 'whaling'}, 'chivalry': {'tier': 3, 'parent': 'free_spirit'}, 'construction': {'tier': 3, 'parent': 'farming'}, 'mathematics': {'tier': 3, 'parent': 'forestry'}, 'navigation': {'tier': 3, 'parent': 'sailing'}, 'smithery': {'tier': 3, 'parent': 'mining'}, 'spiritualism': {'tier': 3, 'parent': 'archery'}, 'trade': {'tier': 3, 'parent': 'roads'}, 'philosophy': {'tier': 3, 'parent': 'meditation'}}
TERRAINS: tuple = ('plain', 'shallow_water', 'deep_water', 'mountain', 'village', 'city', 'forest')
TILE_ACTIONS: tuple = ('gather', 'clear_forest', 'burn_forest', 'grow_forest', 'destroy')
TRIBES: tuple = ('Xin-Xi', 'Imperius', 'Bardur', 'Oumaji', 'Kickoo', 'Hoodrick', 'Luxidoor', 'Vengir', 'Zebasi', 'Ai-Mo', 'Quetzali', 'Yadakk')
UNIT_STATS: dict = {'warrior': {'cost': 2, 'max_hp': 10, 'attack': 2, 'defence': 2, 'movement': 1, 'range': 1, 'points': 10, 'tech': None}, 'rider': {'cost': 3, 'max_hp': 10, 'attack': 2, 'defence': 1, 'movement': 2, 'range': 1, 'points': 15, 'tech': 'riding'}, 'defender': {'cost': 3, 'max_hp': 15, 'attack': 1, 'defence': 3, 'movement': 1, 'range': 1, 'points': 15, 'tech': 'shields'}, 'swordsman': {'cost': 5, 'max_hp': 15, 'attack': 3, 'defence': 3, 'movement': 1, 'range': 1, 'points': 25, 'tech': 'smithery'}, 'archer': {'cost': 3, 'max_hp': 10, 'attack': 2, 'defence': 1, 'movement': 1, 'range': 2, 'points': 15, 'tech': 'archery'}, 'catapult': {'cost': 8, 'max_hp': 10, 'attack': 4, 'defence': 0, 'movement': 1, 'range': 3, 'points': 40, 'tech': 'mathematics'}, 'knight': {'cost': 8, 'max_hp': 15, 'attack': 4, 'defence': 1, 'movement': 3, 'range': 1, 'points': 40, 'tech': 'chivalry'}, 'mind_bender': {'cost': 5, 'max_hp': 10, 'attack': 0, 'defence': 1, 'movement': 1, 'range': 1, 'points': 25, 'tech': 'philosophy'}, 'boat': {'cost': 0, 'max_hp': 0, 'attack': 1, 'defence': 1, 'movement': 2, 'range': 2, 'points': 0, 'tech': 'sailing'}, 'ship': {'cost': 5, 'max_hp': 0, 'attack': 2, 'defence': 2, 'movement': 3, 'range': 2, 'points': 0, 'tech': 'sailing'}, 'battleship': {'cost': 15, 'max_hp': 0, 'attack': 4, 'defence': 3, 'movement': 3, 'range': 2, 'points': 0, 'tech': 'navigation'}, 'giant': {'cost': 10, 'max_hp': 40, 'attack': 5, 'defence': 4, 'movement': 1, 'range': 1, 'points': 50, 'tech': None}}
UNIT_STATUSES: tuple = ('fresh', 'moved', 'attacked', 'moved_and_attacked', 'pushed', 'finished')
UNIT_TYPES: tuple = ('warrior', 'rider', 'defender', 'swordsman', 'archer', 'catapult', 'knight', 'mind_bender', 'boat', 'ship', 'battleship', 'giant')
VETERAN_KILLS: int = 3
VISIBLE_ACTION_HISTORY_FEATURE_NAMES: tuple = ('event_type', 'actor_player', 'actor_tribe', 'visibility_flags', 'source_index', 'target_index', 'source_unit_type', 'target_unit_type', 'source_observed_unit_id', 'target_observed_unit_id', 'detail_kind', 'detail_value')
VISIBLE_EVENT_AFFECTED_FEATURE_NAMES: tuple = ('observed_unit_id', 'tile_index', 'unit_type', 'damage', 'hp_before', 'hp_after', 'destroyed', 'splash')
VISIBLE_EVENT_FEATURE_NAMES: tuple = ('round', 'turn', 'type_id', 'flags', 'source_index', 'target_index', 'damage', 'hp_before', 'hp_after', 'actor_player', 'actor_tribe', 'tile_action_kind', 'building_type', 'spawn_type', 'source_unit_type', 'target_unit_type', 'source_observed_unit_id', 'target_observed_unit_id', 'source_unit_hp_before', 'source_unit_hp_after', 'target_unit_hp_before', 'target_unit_hp_after', 'unit_upgrade_kind', 'upgraded_unit_type', 'unit_destroyed', 'source_unit_destroyed')
