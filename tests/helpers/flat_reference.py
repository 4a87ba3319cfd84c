"""A NumPy version of polyenv.envs.flat's encoding: the reference the native encoder is checked against.

Independent of ``polyenv._core.encode_flat`` (whole-batch NumPy operations:
lookup tables, scatters, clipped scalings), with the same arithmetic types, so
both give bit-identical vectors. The feature tables are repeated here on
purpose: a change of layout must be made in both places and is then tested.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from polyenv._names import ACTION_KINDS, BUILDINGS, LEVEL_UP_REWARDS, RESOURCES, TECHS, TERRAINS, TILE_ACTIONS, \
    UNIT_STATUSES, UNIT_TYPES

__all__ = ["ReferenceFlatEncoder"]

# map_tokens columns (MAP_TOKEN_FEATURE_NAMES order).
_EXPLORED, _TERRAIN, _RESOURCE, _BUILDING, _BUILDING_LEVEL, _ROAD, _TERRITORY_OWNER, _TERRITORY_CITY = range(8)
_CITY_OWNER, _CITY_LEVEL, _CITY_POPULATION, _CITY_FLAGS, _CITY_PRODUCTION, _UNIT_OWNER, _UNIT_TYPE = range(8, 15)
_UNIT_HP, _UNIT_MAX_HP, _UNIT_STATUS, _UNIT_FLAGS, _UNIT_KILLS, _UNIT_CARRIED, _OBSERVED_ID, _HOME_CITY = \
    range(15, 23)
# state columns (STATE_FEATURE_NAMES order).
_TURN, _CURRENT, _GAME_OVER, _WINNER, _STARS, _UNITS, _CITIES, _INCOME, _PENDING_CITY, _UPGRADE_A, _UPGRADE_B = \
    range(11)
# action_features columns (ACTION_FEATURE_NAMES order).
_KIND, _SOURCE, _TARGET, _CITY = range(4)
_ARG_COLUMNS = {"tech": (4, TECHS), "building": (5, BUILDINGS), "spawn_type": (6, UNIT_TYPES),
                "upgrade": (7, LEVEL_UP_REWARDS), "tile_action": (8, TILE_ACTIONS), "unit_upgrade": (9, UNIT_TYPES)}
_POPULATION_GAIN, _COST, _AFFORDABLE = 11, 12, 14
_PLAYER_TARGET_KINDS = [ACTION_KINDS.index("declare_war"), ACTION_KINDS.index("send_stars")]


def _one_hot(prefix: str, column: int, table) -> list[tuple[str, int, int]]:
    """(name, token column, code) for every named code of ``table``."""
    return [(f"{prefix}_{name}", column, code) for code, name in enumerate(table) if name]


# Tile features that are "token column == code", zeroed on unexplored tiles (all-zero tokens).
_TILE_EQUAL = ([("explored", _EXPLORED, 1)] + _one_hot("terrain", _TERRAIN, TERRAINS)
               + _one_hot("resource", _RESOURCE, RESOURCES) + _one_hot("building", _BUILDING, BUILDINGS)
               + [("road", _ROAD, 1), ("territory_own", _TERRITORY_OWNER, 1), ("city_own", _CITY_OWNER, 1),
                  ("unit_own", _UNIT_OWNER, 1)]
               + _one_hot("unit", _UNIT_TYPE, UNIT_TYPES) + _one_hot("unit_status", _UNIT_STATUS, UNIT_STATUSES)
               + _one_hot("carried", _UNIT_CARRIED, UNIT_TYPES))
# Owner columns: 0 none, 1 self, 2.. others.
_TILE_OTHER = [("territory_other", _TERRITORY_OWNER), ("city_other", _CITY_OWNER), ("unit_other", _UNIT_OWNER)]
_TILE_BITS = [("city_capital", _CITY_FLAGS, 1), ("city_walls", _CITY_FLAGS, 2), ("city_workshop", _CITY_FLAGS, 4),
              ("city_park", _CITY_FLAGS, 8), ("city_connected", _CITY_FLAGS, 16), ("unit_veteran", _UNIT_FLAGS, 1)]
# (name, token column, divisor, low, high): clip(value / divisor, low, high); -1 "none" clips to 0.
_TILE_SCALED = [("building_level", _BUILDING_LEVEL, 5, 0, 1), ("city_level", _CITY_LEVEL, 10, 0, 1),
                ("unit_hp", _UNIT_HP, 45, 0, 1), ("unit_max_hp", _UNIT_MAX_HP, 45, 0, 1),
                ("unit_kills", _UNIT_KILLS, 3, 0, 1)]
# Own cities only (the token is -1 for others): clip(value / 10, -1, 1).
_TILE_OWN_CITY = [("city_population", _CITY_POPULATION), ("city_production", _CITY_PRODUCTION)]
_TILE_RELATIVE = [("territory_city", _TERRITORY_CITY), ("home_city", _HOME_CITY)]

FLAT_TILE_FEATURE_NAMES: tuple[str, ...] = tuple(
    [n for n, _, _ in _TILE_EQUAL] + [n for n, _ in _TILE_OTHER] + [n for n, _, _ in _TILE_BITS]
    + [n for n, *_ in _TILE_SCALED] + [n for n, _ in _TILE_OWN_CITY]
    + [f"{n}_{axis}" for n, _ in _TILE_RELATIVE for axis in ("dx", "dy")] + ["pending_city"])

# (name, state column, divisor): clip(value / divisor, 0, 1).
_STATE_SCALED = [("stars", _STARS, 100), ("units", _UNITS, 20), ("cities", _CITIES, 10), ("income", _INCOME, 50)]
FLAT_STATE_FEATURE_NAMES: tuple[str, ...] = tuple(
    ["turn_progress", "my_turn", "current_player_relative", "game_over", "won", "lost"]
    + [n for n, _, _ in _STATE_SCALED] + ["pending_level_up"]
    + [f"upgrade_a_{n}" for n in LEVEL_UP_REWARDS] + [f"upgrade_b_{n}" for n in LEVEL_UP_REWARDS])

FLAT_ACTION_FEATURE_NAMES: tuple[str, ...] = tuple(
    [f"kind_{n}" for n in ACTION_KINDS]
    + [f"{w}_{a}" for w in ("source", "target", "city") for a in ("x", "y", "present")]
    + ["target_player_relative"] + list(_ARG_COLUMNS) + ["population_gain", "cost", "affordable"])


def flat_feature_names(num_tiles: int, max_actions: int = 0) -> tuple[str, ...]:
    """The name of every element of the flat vector: ``tile{t}.{feature}``, ``{feature}``, ``row{r}.{feature}``."""
    return (tuple(f"tile{t}.{n}" for t in range(num_tiles) for n in FLAT_TILE_FEATURE_NAMES)
            + FLAT_STATE_FEATURE_NAMES
            + tuple(f"row{r}.{n}" for r in range(max_actions) for n in FLAT_ACTION_FEATURE_NAMES))


def _equality_tables(features) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lookup tables of "token column == code" features: (token columns [G], offsets [G], table).

    ``table[offsets[g] + clip(code + 1, 0, W - 1)]`` is the output column of
    code ``code`` in token column ``columns[g]``, or -1; W is the table width
    (codes beyond it, e.g. owners 2.., map to its last entry, -1).
    """
    columns = sorted({c for _, c, _ in features})
    width = max(v for *_, v in features) + 3  # codes -1 .. max, then the -1 sentinel
    table = np.full((len(columns), width), -1, np.intp)
    for out_column, (_, c, v) in enumerate(features):
        table[columns.index(c), v + 1] = out_column
    return np.array(columns, np.intp), np.arange(len(columns), dtype=np.intp) * width, table.ravel()


class ReferenceFlatEncoder:
    """Encodes native observations of one board size into flat float32 vectors (see the module docstring).

    Args:
        map_size: board side N.
        num_players: players P (for the relative current player).
        turn_limit: the game's last round (for turn progress).
        max_actions: rows encoded per observation (0: global action mode, no rows).
    """

    def __init__(self, map_size: int, num_players: int, turn_limit: int, max_actions: int = 0):
        self.map_size, self.num_players, self.turn_limit = int(map_size), int(num_players), int(turn_limit)
        self.max_actions = int(max_actions)
        self.num_tiles = T = self.map_size ** 2
        F = len(FLAT_TILE_FEATURE_NAMES)
        self._tile_end = T * F
        self._state_end = self._tile_end + len(FLAT_STATE_FEATURE_NAMES)
        self.size = self._state_end + self.max_actions * len(FLAT_ACTION_FEATURE_NAMES)
        self._eq_columns, self._eq_offsets, self._eq_lut = _equality_tables(_TILE_EQUAL)
        self._eq_lut_width = len(self._eq_lut) // len(self._eq_columns)
        self._blocks: dict[tuple[int, int], np.ndarray] = {}  # work blocks by shape (not thread-safe)
        self._other_columns = np.array([c for _, c in _TILE_OTHER], np.intp)
        self._bit_columns = np.array([c for _, c, _ in _TILE_BITS], np.intp)
        self._bits = np.array([b for *_, b in _TILE_BITS], np.int32)
        self._scaled_columns = np.array([c for _, c, *_ in _TILE_SCALED], np.intp)
        self._scaled_inverse = np.array([1 / d for _, _, d, _, _ in _TILE_SCALED], np.float32)
        self._own_city_columns = np.array([c for _, c in _TILE_OWN_CITY], np.intp)
        self._relative_columns = np.array([c for _, c in _TILE_RELATIVE], np.intp)
        tiles = np.arange(T)
        self._tile_xy = np.stack([tiles // self.map_size, tiles % self.map_size], -1).astype(np.int32)  # [T, 2]
        self._state_columns = np.array([c for _, c, _ in _STATE_SCALED], np.intp)
        self._state_inverse = np.array([1 / d for *_, d in _STATE_SCALED], np.float32)
        self._kinds = np.arange(len(ACTION_KINDS), dtype=np.int32)
        self._upgrades = np.arange(len(LEVEL_UP_REWARDS), dtype=np.int32)
        self._arg_columns = np.array([c for c, _ in _ARG_COLUMNS.values()], np.intp)
        self._arg_inverse = np.array([1 / len(t) for _, t in _ARG_COLUMNS.values()], np.float32)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Elementwise (low, high) float32 arrays of the flat vector: 0..1, or -1..1 for signed columns."""
        low = np.zeros(self.size, np.float32)
        F = len(FLAT_TILE_FEATURE_NAMES)
        tiles = low[:self._tile_end].reshape(self.num_tiles, F)
        for name in ("city_population", "city_production", "territory_city_dx", "territory_city_dy",
                     "home_city_dx", "home_city_dy"):
            tiles[:, FLAT_TILE_FEATURE_NAMES.index(name)] = -1
        rows = low[self._state_end:].reshape(self.max_actions, len(FLAT_ACTION_FEATURE_NAMES))
        rows[:, FLAT_ACTION_FEATURE_NAMES.index("cost")] = -1
        return low, np.ones(self.size, np.float32)

    def space(self, mask_size: int) -> spaces.Dict:
        """``Dict(observation=Box(float32, [size]), action_mask=Box(0, 1, [mask_size], int8))``."""
        return spaces.Dict({"observation": spaces.Box(*self.bounds(), dtype=np.float32),
                            "action_mask": spaces.Box(0, 1, (int(mask_size),), np.int8)})

    def feature_names(self) -> tuple[str, ...]:
        """The name of every element (``flat_feature_names``)."""
        return flat_feature_names(self.num_tiles, self.max_actions)

    def encode(self, map_tokens: np.ndarray, state: np.ndarray, observer, action_features: np.ndarray | None = None,
               legal_count=None, out: np.ndarray | None = None) -> np.ndarray:
        """Flat float32 ``[..., size]`` from ``map_tokens [..., T, 23]``, ``state [..., 11]`` and the observer seat(s).

        In rows mode also ``action_features [..., max_actions, 17]`` and the
        number of legal rows (``legal_count``, rows beyond it are padding).
        ``out`` (float32 ``[..., size]``, C-contiguous) is filled in place.
        An encoder keeps work buffers between calls: use one per thread.
        """
        tokens = np.asarray(map_tokens)
        batch = tokens.shape[:-2]
        if out is None:
            out = np.empty(batch + (self.size,), np.float32)
        elif not (isinstance(out, np.ndarray) and out.dtype == np.float32 and out.shape == batch + (self.size,)
                  and out.flags.c_contiguous and out.flags.writeable):
            raise ValueError(f"out must be a writeable C-contiguous float32 array of shape {batch + (self.size,)}, "
                             f"got {getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}")
        B = int(np.prod(batch, dtype=np.int64))
        o = out.reshape(B, self.size)
        tok = tokens.reshape(B, self.num_tiles, 23)
        st = np.asarray(state).reshape(B, 11)
        observer = np.broadcast_to(np.asarray(observer, np.int32), batch).reshape(B)
        self._encode_tiles(tok, st, o[:, :self._tile_end].reshape(B, self.num_tiles, -1))
        self._encode_state(st, observer, o[:, self._tile_end:self._state_end])
        if self.max_actions:
            rows = np.asarray(action_features).reshape(B, self.max_actions, 17)
            count = np.broadcast_to(np.asarray(legal_count), batch).reshape(B)
            self._encode_rows(rows, count, o[:, self._state_end:].reshape(B, self.max_actions, -1))
        return out

    def _encode_tiles(self, tok: np.ndarray, st: np.ndarray, out: np.ndarray) -> None:
        # Built in a contiguous, freshly zeroed [B*T, F] block (scatters by flat index, no strided
        # passes over out), then copied into out once.
        B, T, F = out.shape
        block = self._scratch(B * T, F)
        tok = tok.reshape(B * T, 23)
        explored = tok[:, _EXPLORED] == 1
        a = len(_TILE_EQUAL)
        # One-hot block: a 1 at the column each (token column, code) maps to.
        codes = tok[:, self._eq_columns]  # [B*T, G]
        target = self._eq_lut[self._eq_offsets + np.clip(codes + 1, 0, self._eq_lut_width - 1)]
        hit = (target >= 0) & explored[:, None]
        tiles = np.nonzero(hit)[0]
        block.ravel()[tiles * F + target[hit]] = 1
        b = a + len(_TILE_OTHER)
        block[:, a:b] = tok[:, self._other_columns] >= 2
        c = b + len(_TILE_BITS)
        block[:, b:c] = (tok[:, self._bit_columns] & self._bits) != 0
        d = c + len(_TILE_SCALED)
        np.clip(tok[:, self._scaled_columns].astype(np.float32) * self._scaled_inverse, 0, 1, out=block[:, c:d])
        e = d + len(_TILE_OWN_CITY)
        own_city = tok[:, _CITY_OWNER:_CITY_OWNER + 1] == 1
        np.clip(tok[:, self._own_city_columns].astype(np.float32) * np.float32(0.1), -1, 1, out=block[:, d:e])
        block[:, d:e] *= own_city
        # Relative (dx, dy) of the owning / home city: [B*T, 2 cities, 2 axes].
        f = e + 2 * len(_TILE_RELATIVE)
        city = tok[:, self._relative_columns]
        present = (city >= 0) & explored[:, None]
        xy = np.stack([city // self.map_size, city % self.map_size], -1) \
            - np.tile(self._tile_xy, (B, 1))[:, None, :]
        rel = block[:, e:f].reshape(B * T, len(_TILE_RELATIVE), 2)
        np.multiply(xy, np.float32(1 / max(self.map_size - 1, 1)), out=rel)
        rel *= present[..., None]
        pending = st[:, _PENDING_CITY]
        rows = np.flatnonzero(pending >= 0)
        block[rows * T + pending[rows], f] = 1
        out[...] = block.reshape(B, T, F)

    def _scratch(self, rows: int, width: int) -> np.ndarray:
        """A zeroed float32 [rows, width] work block, kept between calls (a fresh one would page-fault)."""
        block = self._blocks.get((rows, width))
        if block is None:
            block = self._blocks[(rows, width)] = np.zeros((rows, width), np.float32)
        else:
            block.fill(0)
        return block

    def _encode_state(self, st: np.ndarray, observer: np.ndarray, out: np.ndarray) -> None:
        P = self.num_players
        out[:, 0] = np.minimum(st[:, _TURN] / np.float32(self.turn_limit + 1), 1)
        out[:, 1] = st[:, _CURRENT] == observer
        out[:, 2] = ((st[:, _CURRENT] - observer) % P) / np.float32(max(P - 1, 1))
        out[:, 3] = st[:, _GAME_OVER] != 0
        winner = st[:, _WINNER]
        out[:, 4] = winner == observer
        out[:, 5] = (winner >= 0) & (winner != observer)
        k = 6 + len(_STATE_SCALED)
        np.clip(st[:, self._state_columns] * self._state_inverse, 0, 1, out=out[:, 6:k])
        out[:, k] = st[:, _PENDING_CITY] >= 0
        u = len(LEVEL_UP_REWARDS)
        out[:, k + 1:k + 1 + u] = st[:, _UPGRADE_A:_UPGRADE_A + 1] == self._upgrades
        out[:, k + 1 + u:k + 1 + 2 * u] = st[:, _UPGRADE_B:_UPGRADE_B + 1] == self._upgrades

    def _encode_rows(self, rows: np.ndarray, count: np.ndarray, out: np.ndarray) -> None:
        n = self.map_size
        scale = np.float32(1 / max(n - 1, 1))
        K = len(ACTION_KINDS)
        valid = np.arange(self.max_actions) < count[:, None]  # [B, R]: padding rows stay all zeros
        kind = rows[..., _KIND]
        out[..., :K] = 0
        b, r = np.nonzero(valid & (kind >= 0) & (kind < K))
        out[b, r, kind[b, r]] = 1
        B, R = rows.shape[:2]
        rest = self._scratch(B * R, out.shape[2] - K).reshape(B, R, -1)  # contiguous, one copy into out
        player_target = np.isin(kind, _PLAYER_TARGET_KINDS)
        tiles = rows[..., [_SOURCE, _TARGET, _CITY]]  # [B, R, 3]
        present = tiles >= 0
        present[..., 1] &= ~player_target
        where = rest[..., :9].reshape(rest.shape[0], self.max_actions, 3, 3)
        where[..., 0] = (tiles // n) * scale
        where[..., 1] = (tiles % n) * scale
        where[..., 2] = present
        where *= present[..., None]
        rest[..., 9] = np.where(player_target, rows[..., _TARGET], 0) / np.float32(max(self.num_players - 1, 1))
        a = len(_ARG_COLUMNS)
        rest[..., 10:10 + a] = (rows[..., self._arg_columns] + 1) * self._arg_inverse
        j = 10 + a
        rest[..., j] = np.clip(rows[..., _POPULATION_GAIN] / np.float32(16), 0, 1)
        rest[..., j + 1] = np.clip(rows[..., _COST] / np.float32(20), -1, 1)
        rest[..., j + 2] = rows[..., _AFFORDABLE] != 0
        np.multiply(rest, valid[..., None], out=out[..., K:])
