"""The JSON view of a game for one viewer: what the web viewer draws, from fog-safe channels only.

A player's view (``viewer=p``) is built from p's own channels and nothing else: p's map tokens and
state (``GameEnv.observe(p)``), p's legal action rows with the combat preview when p is to move,
p's event journal (``visible_events_numpy(player=p)``), and p's own score, techs and tech costs.
Other players appear by tribe and colour, with the cities p can see; their stars, score and techs
stay unknown until the game is over, when the final scores and ranking are public. The full view
(``viewer=None``, for spectators of bot games and saved records) is the ground truth.

Two games that differ only in what p cannot see give p equal views (tests/faces/test_serve_fog.py).
"""

from __future__ import annotations

import numpy as np

from .. import _core
from .._names import ACTION_KINDS, LEVEL_UP_REWARDS, TECHS
from ..game_env import GameEnv
from .board import FIELD, TILE_FIELDS, board_tiles
from .labels import ACTION_COLUMN, EVENT_COLUMN, action_group, action_label, event_text
from .style import pretty

__all__ = ["build_view", "EventLog", "WorldLog", "tribes_of"]

_STATE = {name: j for j, name in enumerate(_core.STATE_FEATURE_NAMES)}
_TECH_TREE = _core.TECH_TREE


def tribes_of(game: GameEnv) -> list[str]:
    """The tribe name of every seat (public)."""
    return [game.player(p)["tribe"] for p in range(game.num_players)]


class EventLog:
    """The readable event log of one player, read incrementally from its journal.

    ``update(game)`` appends the journal rows written since the last call as dicts
    ``{"seq", "turn", "kind", "actor", "source", "target", "flags", "text"}`` (positions the player
    did not see are -1, ``actor`` is an absolute seat or -1). Only the last ``keep`` entries are kept.
    """

    def __init__(self, player: int, keep: int = 500):
        self.player, self.keep, self.cursor = int(player), int(keep), 0
        self.entries: list[dict] = []

    def update(self, game: GameEnv) -> list[dict]:
        """Reads the new journal rows; returns the entries added."""
        events, self.cursor = game.visible_events_numpy(self.cursor, player=self.player)
        tribes, n, players = tribes_of(game), game.map_size, game.num_players
        c = EVENT_COLUMN
        added = []
        for row, seq in zip(events["features"].tolist(), events["sequence"].tolist()):
            rel = row[c["actor_player"]]
            added.append({"seq": int(seq), "turn": row[c["round"]], "kind": ACTION_KINDS[row[c["type_id"]]],
                          "actor": (self.player + rel - 1) % players if rel > 0 else -1,
                          "source": row[c["source_index"]], "target": row[c["target_index"]],
                          "flags": row[c["flags"]], "text": event_text(row, self.player, players, tribes, n)})
        self.entries.extend(added)
        del self.entries[:-self.keep]
        return added


class WorldLog:
    """The log of the full view: every action in words, read from each actor's own journal.

    ``update(game)`` appends an entry (as :class:`EventLog`'s, ``actor`` the acting seat) per action
    applied since the last call; the last ``keep`` entries are kept.
    """

    def __init__(self, players: int, keep: int = 2000):
        self.cursors, self.seq, self.keep = [0] * players, 0, int(keep)
        self.entries: list[dict] = []

    def update(self, game: GameEnv) -> None:
        """Appends an entry per action applied to ``game`` since the last call."""
        c, tribes, n = EVENT_COLUMN, tribes_of(game), game.map_size
        for p in range(game.num_players):
            events, self.cursors[p] = game.visible_events_numpy(self.cursors[p], player=p)
            for row in events["features"].tolist():
                if row[c["actor_player"]] != 1:  # the actor's own rows only: each action once
                    continue
                text = event_text(row, p, game.num_players, tribes, n)
                self.seq += 1
                self.entries.append({"seq": self.seq, "turn": row[c["round"]], "actor": p,
                                     "kind": ACTION_KINDS[row[c["type_id"]]], "source": row[c["source_index"]],
                                     "target": row[c["target_index"]], "flags": row[c["flags"]],
                                     "text": f"{tribes[p]} (p{p}){text[text.index(':'):]}"})
        del self.entries[:-self.keep]


def _legal_rows(obs: dict, tiles: np.ndarray, game: GameEnv, actor: int, tribes) -> list[dict]:
    c = ACTION_COLUMN
    count = int(obs["legal_action_count"])
    rows = []
    for action, row in zip(obs["action_id"][:count].tolist(), obs["action_features"][:count].tolist()):
        kind = ACTION_KINDS[row[c["type_id"]]]
        source, target = row[c["source_index"]], row[c["target_index"]]
        if kind in ("declare_war", "send_stars"):
            target = -1  # a relative player there, not a tile
        rows.append({"id": action, "kind": kind, "group": action_group(kind), "source": source, "target": target,
                     "city": row[c["city"]], "cost": row[c["cost_stars"]], "affordable": bool(row[c["affordable"]]),
                     "dealt": row[c["damage_dealt"]], "received": row[c["damage_received"]],
                     "tech": TECHS[row[c["tech"]]] if kind == "research" else None,
                     "label": action_label(row, tiles, game.map_size, actor, tribes)})
    return rows


def _techs(game: GameEnv, player: int, known: set[str]) -> list[dict]:
    out = []
    for tech in TECHS:
        info = _TECH_TREE[tech]
        parent = info["parent"]
        out.append({"name": tech, "label": pretty(tech), "tier": info["tier"], "parent": parent,
                    "known": tech in known, "unlocked": parent is None or parent in known,
                    "cost": game.tech_cost(player, tech)})
    return out


def _player_stats(game: GameEnv, viewer: int | None, state: np.ndarray | None, tiles: np.ndarray,
                  tribes) -> list[dict]:
    cities_seen = np.bincount(tiles[:, FIELD["city_owner"]][tiles[:, FIELD["city_level"]] >= 1],
                              minlength=game.num_players) if len(tiles) else np.zeros(game.num_players, int)
    reveal_all = viewer is None or game.game_over
    scores = game.scores() if reveal_all else None
    stats = []
    for p in range(game.num_players):
        entry = {"player": p, "tribe": tribes[p], "cities_seen": int(cities_seen[p])}
        if viewer is None:
            info = game.player(p)
            entry.update(stars=info["stars"], income=game.income(p), score=scores[p], cities=info["num_cities"],
                         techs=[pretty(t) for t in info["techs"]], alive=bool(info["alive"]))
        elif p == viewer:
            entry.update(stars=int(state[_STATE["player_stars"]]), income=int(state[_STATE["next_turn_star_income"]]),
                         score=game.scores()[p], cities=int(state[_STATE["own_cities"]]),
                         techs=[pretty(t) for t in game.player(p)["techs"]])
        if reveal_all and viewer is not None:
            entry["score"] = scores[p]
        stats.append(entry)
    return stats


def build_view(game: GameEnv, viewer: int | None = None, events: list[dict] | None = None,
               with_actions: bool = True) -> dict:
    """The view of ``game`` for ``viewer`` (a seat, or None for the full view) as a JSON-able dict.

    Keys: ``map_size``, ``num_players``, ``tribes``, ``viewer``, ``turn`` (``GameEnv.turn_number``), ``turn_limit``,
    ``current_player``, ``game_over``, ``winner``, ``fields`` (:data:`TILE_FIELDS`), ``tiles`` (the board,
    flat, ``tiles * len(fields)`` ints), ``players`` (per-seat stats), ``techs`` (the viewer's tech tree
    with costs), ``pending`` (the viewer's level-up choice or None), ``actions`` (the viewer's legal
    actions with names, when it is to move and ``with_actions``), ``events`` (as given: the viewer's
    :class:`EventLog` entries), ``result`` (final scores and ranking once the game is over).
    """
    players, tribes = game.num_players, tribes_of(game)
    to_move = game.current_player
    state = None
    actions: list[dict] = []
    pending = None
    techs = None
    if viewer is None:
        tiles = board_tiles(game.full_map_numpy(), to_move, players)
    else:
        acting = viewer == to_move and not game.game_over and with_actions
        obs = game.observe(viewer, max_actions=None if acting else 1, include_combat_preview=acting)
        tiles, state = board_tiles(obs["map_tokens"], viewer, players), obs["state"]
        if acting:
            actions = _legal_rows(obs, tiles, game, viewer, tribes)
            if int(state[_STATE["pending_city_id"]]) >= 0:
                pending = {"city": int(state[_STATE["pending_city_id"]]),
                           "options": [pretty(LEVEL_UP_REWARDS[int(state[_STATE[k]])])
                                       for k in ("pending_upgrade_a", "pending_upgrade_b")]}
        techs = _techs(game, viewer, set(game.player(viewer)["techs"]))
    view = {
        "map_size": game.map_size, "num_players": players, "tribes": tribes, "viewer": viewer,
        "turn": game.turn_number, "turn_limit": game.turn_limit, "current_player": to_move,
        "game_over": bool(game.game_over), "winner": game.winner,
        "fields": list(TILE_FIELDS), "tiles": tiles.ravel().tolist(),
        "players": _player_stats(game, viewer, state, tiles, tribes), "techs": techs, "pending": pending,
        "actions": actions, "events": list(events or []), "result": None,
    }
    if game.game_over:
        view["result"] = {"winner": game.winner, "scores": game.scores(), "ranking": game.ranking()}
    return view
