"""A baseline belief completion for SelfPlayPool (NumPy, vectorised, plus the pool's fit).

``empty_world_completion(map_tokens, terrain, request=..., pool=...)`` fills every hidden row
with an empty tile of ``terrain`` (per hidden row, or one value for all), puts a level-1 city
wherever a visible tile's territory points at a hidden centre (or, when the observer never saw
that owner's centre, on the nearest hidden tile), gives every opponent without a visible capital
a guessed one, and finally lets the pool add what the actor's own legal action list proves
(``SelfPlayPool.fit_beliefs``: units whose zone of control stops a move, own territory on hidden
tiles). The result is accepted by ``SelfPlayPool.submit_beliefs`` in every position; a real
belief model replaces the terrain guess and adds hidden units and cities.
"""

from __future__ import annotations

import numpy as np

from .. import _core
from ..description import game_description

__all__ = ["EMPTY_HIDDEN_ROW", "empty_world_completion"]

# Map token and action feature columns, codes and flag bits (the engine's layout: polyenv.GameDescription).
_LAYOUT = game_description()
_COL = _LAYOUT.map_token_columns
_EXPLORED, _TERRAIN, _RESOURCE, _BUILDING = _COL["explored"], _COL["terrain"], _COL["resource"], _COL["building"]
_TERRITORY, _CENTRE, _CITY_OWNER, _CITY_LEVEL = _COL["territory_owner"], _COL["territory_city_tile"], \
    _COL["city_owner"], _COL["city_level"]
_CITY_FLAGS, _UNIT_OWNER, _UNIT_TYPE = _COL["city_flags"], _COL["unit_owner"], _COL["unit_type"]
_CAPITAL = _LAYOUT.city_flags["capital"]
_DEEP, _CITY = (_core.TERRAINS.index(t) for t in ("deep_water", "city"))


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


def empty_world_completion(map_tokens: np.ndarray, terrain: np.ndarray | int = _DEEP, *, request: dict,
                           pool) -> np.ndarray:
    """Completes ``map_tokens`` (the players' observations) in hidden rows only, for ``pool``.

    ``map_tokens``: int32 observations in a layout ``SelfPlayPool.submit_beliefs`` takes:
    [B, P, K, tiles, 23] (K particles per player, e.g. ``all_player_belief_requests()
    ["map_tokens"][:, :, None]``), [B, P, tiles, 23], or the legacy [B, tiles, 23] (each actor's
    own view). ``terrain``: the terrain of every hidden tile, an int or an int array
    broadcastable to ``map_tokens[..., 0]`` (read at hidden rows). ``request``: the live request
    batch the observations belong to (``reset`` / ``step`` / ``belief_requests``): its state ids
    tie the completion to the live positions. ``pool``: the SelfPlayPool: every opponent without a
    capital in the hypothesis gets a guessed one (see _guess_capitals; without it every End Turn
    inside the belief world would end the game), and ``pool.fit_beliefs`` then adds what the
    actor's own legal list proves, so the result reproduces it. Returns a new C-contiguous int32
    array of the same shape. ValueError when ``request`` or ``pool`` is missing or does not match.
    """
    B, P = _check_pool_and_request(pool, request)
    tokens = np.asarray(map_tokens, dtype=np.int32)
    T, F = pool.map_size ** 2, len(_LAYOUT.map_token_features)
    lead = tokens.shape[:-2]
    if tokens.shape[-2:] != (T, F) or not (lead == (B,) or lead[:2] == (B, P) and len(lead) in (2, 3)):
        raise ValueError(f"map_tokens must have shape ({B}, {P}, K, {T}, {F}), ({B}, {P}, {T}, {F}) or "
                         f"({B}, {T}, {F}) for this pool, got {tokens.shape}")
    out = tokens.copy()
    hidden = tokens[..., _EXPLORED] == 0
    out[hidden] = EMPTY_HIDDEN_ROW
    out[..., _TERRAIN] = np.where(hidden, np.broadcast_to(np.asarray(terrain, dtype=np.int32), hidden.shape),
                                  out[..., _TERRAIN])
    # A visible territory whose centre is hidden: that centre holds the owner's level-1 city.
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
    _guess_capitals(flat, flat_hidden, P)
    out = np.ascontiguousarray(flat.reshape(*lead, *tokens.shape[-2:]))
    return pool.fit_beliefs(request["state_id"], out)


def _check_pool_and_request(pool, request) -> tuple[int, int]:
    """(B, P) of ``pool`` after checking ``pool`` is a SelfPlayPool and ``request`` a request batch of it."""
    from .selfplay_pool import SelfPlayPool

    if not isinstance(pool, SelfPlayPool):
        raise ValueError(f"pool must be the SelfPlayPool the beliefs are for, got {type(pool).__name__}")
    B, P = pool.num_envs, pool.player_count
    state_ids = None if not isinstance(request, dict) else request.get("state_id")
    if state_ids is None or np.shape(state_ids) != (B,):
        raise ValueError("request must be the pool's live request batch (the dict reset(), step() or "
                         "belief_requests() returned, with state_id [B]); without it the completion cannot be "
                         "tied to the live positions")
    return B, P


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
