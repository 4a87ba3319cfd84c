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

__all__ = ["EMPTY_HIDDEN_ROW", "empty_world_completion"]

#: An empty tile (column 0 = 0: hidden) with deep water terrain and nothing on it.
EMPTY_HIDDEN_ROW = np.array([0, 2, -1, -1, 0, 0, 0, -1, 0, -1, -1, 0, -1, 0, -1, -1, -1, -1, 0, -1, -1, -1, -1],
                            dtype=np.int32)


_MOVE = 22        # ACTION_KINDS index of "move"
_NAVAL_MIN = 8    # UnitType: boat, ship, battleship are 8..10
_NAVAL_MAX = 10


def empty_world_completion(map_tokens: np.ndarray, terrain: np.ndarray | int = 2,
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
    hidden = tokens[..., 0] == 0
    out[hidden] = EMPTY_HIDDEN_ROW
    out[..., 1] = np.where(hidden, np.broadcast_to(np.asarray(terrain, dtype=np.int32), hidden.shape), out[..., 1])
    # A visible territory whose centre is hidden: that centre holds the owner's level-1 city.
    lead = tokens.shape[:-2]
    flat = out.reshape(-1, tokens.shape[-2], tokens.shape[-1])
    flat_hidden = hidden.reshape(-1, tokens.shape[-2])
    rows, tiles = np.nonzero((flat[..., 7] >= 0) & ~flat_hidden)
    centres = flat[rows, tiles, 7]
    dangling = flat_hidden[rows, centres]
    rows, centres, owners = rows[dangling], centres[dangling], flat[rows[dangling], tiles[dangling], 6]
    flat[rows, centres, 1] = 5          # city terrain
    flat[rows, centres, 6] = owners     # its own territory
    flat[rows, centres, 7] = centres
    flat[rows, centres, 8] = owners     # city owner
    flat[rows, centres, 9] = 1          # level
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
    rows, tiles = np.nonzero((flat[..., 6] > 0) & (flat[..., 7] == -1) & ~hidden)
    if len(rows) == 0:
        return
    n = int(round(np.sqrt(flat.shape[1])))
    x, y = np.divmod(np.arange(flat.shape[1]), n)
    owners = flat[rows, tiles, 6]
    for r, owner in sorted(set(zip(rows.tolist(), owners.tolist()))):
        if (flat[r, :, 8] == owner).any():
            continue  # the builder attaches the territory to the owner's nearest city
        t0 = int(tiles[(rows == r) & (owners == owner)][0])
        dist = np.maximum(abs(x - x[t0]), abs(y - y[t0]))
        dist = np.where(hidden[r] & (flat[r, :, 8] == 0), dist, np.iinfo(np.int64).max)
        centre = int(np.argmin(dist))
        if dist[centre] == np.iinfo(np.int64).max:
            continue  # no hidden tile left: the submission reports the dangling territory
        flat[r, centre, [1, 6, 7, 8, 9]] = (5, owner, centre, owner, 1)


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
            cities = flat[r, :, 8] == owner
            if (cities & (flat[r, :, 11] & 1 == 1)).any():
                continue
            guessed = np.flatnonzero(cities & hidden[r])
            if len(guessed):
                flat[r, guessed[0], 11] |= 1
                continue
            free = hidden[r] & (flat[r, :, 8] == 0) & (flat[r, :, 6] == 0) & (flat[r, :, 13] == 0)
            if not free.any():
                continue
            taken = visible | (flat[r, :, 8] != 0)
            score = np.where(free, far[:, taken].min(axis=1), -1)
            centre = int(np.argmax(score))
            if score[centre] < 2:
                continue  # next to a visible tile it could be a destination of the actor's moves
            flat[r, centre, [1, 2, 3, 6, 7, 8, 9, 11]] = (5, -1, -1, owner, centre, owner, 1, 1)


def _keep_actor_moves(out: np.ndarray, tokens: np.ndarray, request: dict) -> None:
    feats, mask, to_play = request["action_features"], request["action_mask"], request["to_play"]
    B = feats.shape[0]
    b, j = np.nonzero((mask != 0) & (feats[..., 0] == _MOVE))
    src, dst = feats[b, j, 1], feats[b, j, 2]
    actor = to_play[b]
    actor_view = tokens[np.arange(B), to_play].reshape(B, -1, tokens.shape[-2], tokens.shape[-1])[:, 0]
    hidden = actor_view[b, dst, 0] == 0
    b, src, dst, actor = b[hidden], src[hidden], dst[hidden], actor[hidden]
    unit = actor_view[b, src, 14]
    naval = (unit >= _NAVAL_MIN) & (unit <= _NAVAL_MAX)
    view = out.reshape(out.shape[0], out.shape[1], -1, *out.shape[-2:])  # [B, P, K, tiles, 23]
    view[b, actor, :, dst, 1] = np.where(naval, 1, 0)[:, None]
