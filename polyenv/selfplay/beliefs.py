"""A baseline belief completion for SelfPlayPool (NumPy, vectorised).

``empty_world_completion(map_tokens, terrain)`` fills every hidden row with an
empty tile of ``terrain`` (per hidden row, or one value for all) and puts a
level-1 city wherever a visible tile's territory points at a hidden centre (or,
when the observer never saw that owner's centre, on the nearest hidden tile), so
the hypothesis is internally consistent. With ``request`` it also gives every
opponent without a visible capital a guessed one. It is the simplest valid input to
``SelfPlayPool.submit_beliefs``; a real belief model replaces the terrain
guess and adds hidden units and cities.
"""

from __future__ import annotations

import numpy as np

from .. import _core
from ..description import game_description

__all__ = ["EMPTY_HIDDEN_ROW", "empty_world_completion"]

# Map token and action feature columns, codes and flag bits (the engine's layout: polyenv.GameDescription).
_LAYOUT = game_description()
_COL, _ACT = _LAYOUT.map_token_columns, _LAYOUT.action_feature_columns
_EXPLORED, _TERRAIN, _RESOURCE, _BUILDING = _COL["explored"], _COL["terrain"], _COL["resource"], _COL["building"]
_TERRITORY, _CENTRE, _CITY_OWNER, _CITY_LEVEL = _COL["territory_owner"], _COL["territory_city_tile"], \
    _COL["city_owner"], _COL["city_level"]
_CITY_FLAGS, _UNIT_OWNER, _UNIT_TYPE = _COL["city_flags"], _COL["unit_owner"], _COL["unit_type"]
_KIND, _SOURCE, _TARGET = _ACT["type_id"], _ACT["source_index"], _ACT["target_index"]
_CAPITAL = _LAYOUT.city_flags["capital"]
_PLAIN, _SHALLOW, _DEEP, _CITY = (_core.TERRAINS.index(t) for t in ("plain", "shallow_water", "deep_water", "city"))
_MOVE = _core.ACTION_KINDS.index("move")
_NAVAL = np.array([_core.UNIT_TYPES.index(u) for u in ("boat", "ship", "battleship")])


def _empty_hidden_row() -> np.ndarray:
    """-1 ("none") in every column but the counts, owners and flags, which are 0."""
    row = np.full(len(_LAYOUT.map_token_features), -1, dtype=np.int32)
    for name in ("explored", "building_level", "road", "territory_owner", "city_owner", "city_flags",
                 "unit_owner", "unit_flags"):
        row[_COL[name]] = 0
    row[_TERRAIN] = _DEEP
    return row


#: An empty tile (explored = 0: hidden) with deep water terrain and nothing on it.
EMPTY_HIDDEN_ROW = _empty_hidden_row()


def empty_world_completion(map_tokens: np.ndarray, terrain: np.ndarray | int = _DEEP,
                           request: dict | None = None) -> np.ndarray:
    """Completes ``map_tokens`` ([..., tiles, 23] int32, observations) in hidden rows only.

    ``terrain``: the terrain of every hidden tile, an int or an int array broadcastable to
    ``map_tokens[..., 0]`` (read at hidden rows). ``request``: the [B] belief request
    (``belief_requests()``) when ``map_tokens`` is [B, P, ..., tiles, 23]: the actor's own
    legal moves into hidden tiles then get a terrain that keeps them legal (plain for a land
    unit, shallow water for a boat), as SelfPlayPool requires of the actor's particles, and
    every opponent without a capital in the hypothesis gets a guessed one (see _guess_capitals).
    Returns a new C-contiguous int32 array.
    """
    tokens = np.asarray(map_tokens, dtype=np.int32)
    out = tokens.copy()
    hidden = tokens[..., _EXPLORED] == 0
    out[hidden] = EMPTY_HIDDEN_ROW
    out[..., _TERRAIN] = np.where(hidden, np.broadcast_to(np.asarray(terrain, dtype=np.int32), hidden.shape),
                                  out[..., _TERRAIN])
    # A visible territory whose centre is hidden: that centre holds the owner's level-1 city.
    lead = tokens.shape[:-2]
    flat = out.reshape(-1, tokens.shape[-2], tokens.shape[-1])
    flat_hidden = hidden.reshape(-1, tokens.shape[-2])
    rows, tiles = np.nonzero((flat[..., _CENTRE] >= 0) & ~flat_hidden)
    centres = flat[rows, tiles, _CENTRE]
    dangling = flat_hidden[rows, centres]
    rows, centres, owners = rows[dangling], centres[dangling], flat[rows[dangling], tiles[dangling], _TERRITORY]
    flat[rows, centres, _TERRAIN] = _CITY
    flat[rows, centres, _TERRITORY] = owners     # its own territory
    flat[rows, centres, _CENTRE] = centres
    flat[rows, centres, _CITY_OWNER] = owners
    flat[rows, centres, _CITY_LEVEL] = 1
    _guess_unseen_centres(flat, flat_hidden)
    if request is not None:
        _guess_capitals(flat, flat_hidden, int(request["terminal_values"].shape[-1]))
    out = flat.reshape(*lead, *tokens.shape[-2:])
    if request is not None:
        _keep_actor_moves(out, tokens, request)
    return np.ascontiguousarray(out)


def _guess_unseen_centres(flat: np.ndarray, hidden: np.ndarray) -> None:
    """A visible territory whose centre the observer has never seen (territory_city_tile -1) needs a
    city of its owner somewhere: when the hypothesis has none, one is put on the hidden tile nearest
    to that territory (first in tile order on a tie). Loops over such (observation, owner) pairs
    only, which exist until the observer first sees one of that owner's cities."""
    rows, tiles = np.nonzero((flat[..., _TERRITORY] > 0) & (flat[..., _CENTRE] == -1) & ~hidden)
    if len(rows) == 0:
        return
    n = int(round(np.sqrt(flat.shape[1])))
    x, y = np.divmod(np.arange(flat.shape[1]), n)
    owners = flat[rows, tiles, _TERRITORY]
    for r, owner in sorted(set(zip(rows.tolist(), owners.tolist()))):
        if (flat[r, :, _CITY_OWNER] == owner).any():
            continue  # the builder attaches the territory to the owner's nearest city
        t0 = int(tiles[(rows == r) & (owners == owner)][0])
        dist = np.maximum(abs(x - x[t0]), abs(y - y[t0]))
        dist = np.where(hidden[r] & (flat[r, :, _CITY_OWNER] == 0), dist, np.iinfo(np.int64).max)
        centre = int(np.argmin(dist))
        if dist[centre] == np.iinfo(np.int64).max:
            continue  # no hidden tile left: the submission reports the dangling territory
        flat[r, centre, [_TERRAIN, _TERRITORY, _CENTRE, _CITY_OWNER, _CITY_LEVEL]] = (_CITY, owner, centre, owner, 1)


def _guess_capitals(flat: np.ndarray, hidden: np.ndarray, players: int) -> None:
    """Every opponent needs its capital (capitals mode: a world without it would end at the first
    End Turn, the observer holding every original capital). When the hypothesis shows none, the
    opponent's first hidden guessed city becomes its capital, or else a level-1 capital is put on
    the hidden tile farthest from every visible tile (first in tile order on a tie; at least two
    tiles away, so no move of the actor can lead there). Loops over
    (observation, opponent) pairs."""
    n = int(round(np.sqrt(flat.shape[1])))
    x, y = np.divmod(np.arange(flat.shape[1]), n)
    far = np.maximum(abs(x[:, None] - x[None]), abs(y[:, None] - y[None]))  # [tiles, tiles] distances
    for r in range(flat.shape[0]):
        visible = ~hidden[r]
        if not visible.any():
            continue
        for owner in range(2, players + 1):
            cities = flat[r, :, _CITY_OWNER] == owner
            if (cities & (flat[r, :, _CITY_FLAGS] & _CAPITAL != 0)).any():
                continue
            guessed = np.flatnonzero(cities & hidden[r])
            if len(guessed):
                flat[r, guessed[0], _CITY_FLAGS] |= _CAPITAL
                continue
            free = hidden[r] & (flat[r, :, _CITY_OWNER] == 0) & (flat[r, :, _TERRITORY] == 0) \
                & (flat[r, :, _UNIT_OWNER] == 0)
            if not free.any():
                continue
            taken = visible | (flat[r, :, _CITY_OWNER] != 0)
            score = np.where(free, far[:, taken].min(axis=1), -1)
            centre = int(np.argmax(score))
            if score[centre] < 2:
                continue  # next to a visible tile it could be a destination of the actor's moves
            flat[r, centre, [_TERRAIN, _RESOURCE, _BUILDING, _TERRITORY, _CENTRE, _CITY_OWNER, _CITY_LEVEL,
                             _CITY_FLAGS]] = (_CITY, -1, -1, owner, centre, owner, 1, _CAPITAL)


def _keep_actor_moves(out: np.ndarray, tokens: np.ndarray, request: dict) -> None:
    feats, mask, to_play = request["action_features"], request["action_mask"], request["to_play"]
    B = feats.shape[0]
    b, j = np.nonzero((mask != 0) & (feats[..., _KIND] == _MOVE))
    src, dst = feats[b, j, _SOURCE], feats[b, j, _TARGET]
    actor = to_play[b]
    actor_view = tokens[np.arange(B), to_play].reshape(B, -1, tokens.shape[-2], tokens.shape[-1])[:, 0]
    hidden = actor_view[b, dst, _EXPLORED] == 0
    b, src, dst, actor = b[hidden], src[hidden], dst[hidden], actor[hidden]
    naval = np.isin(actor_view[b, src, _UNIT_TYPE], _NAVAL)
    view = out.reshape(out.shape[0], out.shape[1], -1, *out.shape[-2:])  # [B, P, K, tiles, 23]
    view[b, actor, :, dst, _TERRAIN] = np.where(naval, _SHALLOW, _PLAIN)[:, None]
