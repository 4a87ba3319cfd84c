"""Readable names for legal actions and visible events, and the groups a person picks actions from.

An action's name is built from its action-feature row (``polyenv.ACTION_FEATURE_NAMES``) and the
acting player's own board (:func:`polyenv.viz.board.board_tiles`); an event's text from the viewer's
journal row (``polyenv.VISIBLE_EVENT_FEATURE_NAMES``): both only say what the player may know. The
web app and the terminal player both use these names.
"""

from __future__ import annotations

import numpy as np

from .. import _core
from .._names import ACTION_KINDS, BUILDINGS, LEVEL_UP_REWARDS, RESOURCES, TECHS, TERRAINS, UNIT_TYPES
from .board import FIELD, tile_name
from .style import pretty

__all__ = ["GROUPS", "action_group", "action_label", "event_text", "player_name", "ACTION_COLUMN", "EVENT_COLUMN"]

#: ``{action-feature column name: index}``.
ACTION_COLUMN = {name: j for j, name in enumerate(_core.ACTION_FEATURE_NAMES)}
#: ``{visible-event column name: index}``.
EVENT_COLUMN = {name: j for j, name in enumerate(_core.VISIBLE_EVENT_FEATURE_NAMES)}
_FLAG = _core.EVENT_FLAGS

#: The groups of legal actions, in the order they are shown.
GROUPS = ("unit", "city", "tech", "other")
_UNIT_KINDS = {"capture", "recover", "disband", "examine", "heal_others", "make_veteran", "upgrade", "attack",
               "convert", "move"}
_CITY_KINDS = {"spawn", "build", "level_up", "gather", "clear_forest", "burn_forest", "grow_forest", "destroy"}
_TILE_VERBS = {"gather": "Gather", "clear_forest": "Clear forest", "burn_forest": "Burn forest",
               "grow_forest": "Grow forest", "destroy": "Destroy building"}
_TILE_PAST = {"gather": "gathered", "clear_forest": "cleared a forest", "burn_forest": "burned a forest",
              "grow_forest": "grew a forest", "destroy": "destroyed a building"}
_SELF_VERBS = {"recover": "recover", "disband": "disband", "examine": "examine the ruins",
               "heal_others": "heal the units around", "make_veteran": "become a veteran"}
_SELF_PAST = {"recover": "recovered", "disband": "was disbanded", "examine": "examined ruins",
              "heal_others": "healed the units around", "make_veteran": "became a veteran", "upgrade": "was upgraded"}


def action_group(kind: str) -> str:
    """``"unit"``, ``"city"``, ``"tech"`` or ``"other"`` for an action kind (``polyenv.ACTION_KINDS``)."""
    if kind in _UNIT_KINDS:
        return "unit"
    if kind in _CITY_KINDS:
        return "city"
    return "tech" if kind == "research" else "other"


def player_name(player: int, tribes, viewer: int | None = None) -> str:
    """``"Imperius (p1)"``, or ``"you"`` for the viewer."""
    if player is None or player < 0:
        return "someone"
    if viewer is not None and player == viewer:
        return "you"
    return f"{tribes[player]} (p{player})"


def _name(table, code: int, what: str = "") -> str:
    return pretty(table[code]) if 0 <= code < len(table) and table[code] else what


def _stars(n: int) -> str:
    return f" (+{-n}★)" if n < 0 else f" ({n}★)" if n > 0 else ""


def action_label(row, tiles: np.ndarray, map_size: int, actor: int, tribes) -> str:
    """A readable name of one legal action of ``actor``.

    ``row`` is its action-feature row (int, ``ACTION_FEATURE_NAMES`` order; with the combat preview for
    attacks), ``tiles`` the actor's own board (:func:`board_tiles`), ``tribes`` the tribe name per seat.
    """
    c = ACTION_COLUMN
    kind = ACTION_KINDS[int(row[c["type_id"]])]
    src, tgt = int(row[c["source_index"]]), int(row[c["target_index"]])
    at = tile_name(tgt, map_size)
    cost = int(row[c["cost_stars"]])
    players = len(tribes)

    def unit(tile):
        return _name(UNIT_TYPES, int(tiles[tile, FIELD["unit_type"]]), "Unit") if tile >= 0 else "Unit"

    if kind == "end_turn":
        return "End turn"
    if kind == "research":
        return f"Research {_name(TECHS, int(row[c['tech']]))}{_stars(cost)}"
    if kind == "level_up":
        city = int(row[c["city"]])
        return f"City {tile_name(city, map_size)} level-up reward: {_name(LEVEL_UP_REWARDS, int(row[c['upgrade']]))}"
    if kind in ("declare_war", "send_stars"):
        other = (actor + tgt) % players  # the target column holds the relative player here
        if kind == "declare_war":
            return f"Declare war on {player_name(other, tribes)}"
        return f"Send {cost}★ to {player_name(other, tribes)}"
    if kind == "build_road":
        return f"Build road at {at}{_stars(cost)}"
    if kind == "spawn":
        return f"Train {_name(UNIT_TYPES, int(row[c['spawn_type']]))} in city {tile_name(src, map_size)}{_stars(cost)}"
    if kind == "build":
        return f"Build {_name(BUILDINGS, int(row[c['building']]))} at {at}{_stars(cost)}"
    if kind in _TILE_VERBS:
        what = ""
        if kind == "gather":
            what = " " + _name(RESOURCES, int(tiles[tgt, FIELD["resource"]]), "resource").lower()
        return f"{_TILE_VERBS[kind]}{what} at {at}{_stars(cost)}"
    who = f"{unit(src)} {tile_name(src, map_size)}"
    if kind == "move":
        return f"{who}: move to {at}"
    if kind in ("attack", "convert"):
        target = f"{unit(tgt)} at {at}"
        if kind == "convert":
            return f"{who}: convert {target}"
        dealt, taken = int(row[c["damage_dealt"]]), int(row[c["damage_received"]])
        preview = f" (deals {dealt}, takes {taken})" if dealt >= 0 else ""
        return f"{who}: attack {target}{preview}"
    if kind == "capture":
        place = "city" if TERRAINS[int(tiles[src, FIELD["terrain"]])] == "city" else "village"
        return f"{who}: capture the {place}"
    if kind == "upgrade":
        return f"{who}: upgrade to {_name(UNIT_TYPES, int(row[c['unit_upgrade']]), 'the next boat')}{_stars(cost)}"
    return f"{who}: {_SELF_VERBS.get(kind, pretty(kind).lower())}{_stars(cost) if kind != 'disband' else ''}"


def event_text(row, viewer: int, num_players: int, tribes, map_size: int) -> str:
    """What one journal row of ``viewer`` says, in words (hidden parts stay unnamed).

    ``row`` is a row of ``visible_events_numpy(player=viewer)["features"]``; its ``actor_player`` is
    relative (1: the viewer, 2.. the others in turn order, -1: hidden).
    """
    c = EVENT_COLUMN
    kind = ACTION_KINDS[int(row[c["type_id"]])] if 0 <= int(row[c["type_id"]]) < len(ACTION_KINDS) else "action"
    rel = int(row[c["actor_player"]])
    actor = (viewer + rel - 1) % num_players if rel > 0 else -1
    who = player_name(actor, tribes, viewer)
    who = who[0].upper() + who[1:]
    src, tgt, flags = int(row[c["source_index"]]), int(row[c["target_index"]]), int(row[c["flags"]])
    at = tile_name(tgt, map_size) if tgt >= 0 else "somewhere unseen"
    src_unit = _name(UNIT_TYPES, int(row[c["source_unit_type"]]), "unit").lower()
    tgt_unit = _name(UNIT_TYPES, int(row[c["target_unit_type"]]), "unit").lower()
    if kind == "end_turn":
        return f"{who}: end of turn"
    if kind == "research":
        return f"{who}: researched a technology"
    if kind == "level_up":
        return f"{who}: a city {at} chose its level-up reward"
    if kind == "declare_war":
        return f"{who}: declared war"
    if kind == "send_stars":
        return f"{who}: sent stars"
    if kind == "build_road":
        return f"{who}: built a road at {at}"
    if kind == "spawn":
        return f"{who}: trained a {_name(UNIT_TYPES, int(row[c['spawn_type']]), 'unit').lower()} at {at}"
    if kind == "build":
        return f"{who}: built a {_name(BUILDINGS, int(row[c['building_type']]), 'building')} at {at}"
    if kind in _TILE_PAST:
        return f"{who}: {_TILE_PAST[kind]} at {at}"
    where = tile_name(src, map_size) if src >= 0 else "somewhere unseen"
    if kind == "move":
        return f"{who}: {src_unit} moved {where} → {at}"
    if kind == "attack":
        text = f"{who}: {src_unit} {where} attacked the {tgt_unit} at {at}, {int(row[c['damage']])} damage"
        if flags & _FLAG["kill"]:
            text += ", killed it"
        if flags & _FLAG["source_killed"]:
            text += ", the attacker died"
        elif flags & _FLAG["counter"]:
            hp = int(row[c["source_unit_hp_before"]]) - int(row[c["source_unit_hp_after"]])
            text += f", {hp} back" if hp >= 0 and int(row[c["source_unit_hp_before"]]) >= 0 else ", hit back"
        return text
    if kind == "convert":
        return f"{who}: {src_unit} {where} converted the {tgt_unit} at {at}"
    if kind == "capture":
        return f"{who}: {src_unit} captured {at}"
    if kind == "upgrade":
        new = _name(UNIT_TYPES, int(row[c["upgraded_unit_type"]]), "unit").lower()
        return f"{who}: {src_unit} {where} upgraded to a {new}"
    return f"{who}: {src_unit} {where} {_SELF_PAST.get(kind, kind)}"
