"""The look of a board, as data: colours, glyphs and the legend.

Every drawing of a game reads this one table: the web viewer and the HTML replay receive it as JSON
(:func:`style`), the GIF / MP4 frames and ``render("rgb_array")`` are drawn by :mod:`polyenv.viz.render`
with the same colours and glyphs. Colours are ``[r, g, b]``; players are absolute seats.
"""

from __future__ import annotations

from functools import lru_cache

from ..description import game_description
from .._names import BUILDINGS, RESOURCES, TECHS, TERRAINS, TRIBES, UNIT_TYPES
from .render import (
    _BUILDING_COLOR, _BUILDING_LETTER, _FOG, _RESOURCE_STYLE, _ROAD_COLOR, _UNIT_CHAR, PLAYER_COLORS, TERRAIN_COLORS,
)

__all__ = ["style", "pretty", "CAPITAL_RIM", "WALLS_RIM", "VETERAN_RING", "HIGHLIGHT"]

#: Rim of a capital's city square, of a city with walls; ring of a veteran unit.
CAPITAL_RIM, WALLS_RIM, VETERAN_RING = (230, 190, 40), (110, 110, 110), (230, 190, 40)
#: Overlay colours of the web viewer: selection, moves, attacks, other actions, the last action.
HIGHLIGHT = {"selected": (255, 255, 255), "move": (90, 220, 255), "attack": (255, 70, 70),
             "action": (255, 215, 0), "last": (255, 140, 0)}
_LAYOUT = game_description()
_VILLAGE = ((235, 222, 190), (90, 60, 30))  # hut fill, hut outline


_SMALL_WORDS = {"of", "the"}


def pretty(name: str) -> str:
    """An engine name as people write it: ``"mind_bender"`` -> ``"Mind Bender"``."""
    words = str(name).split("_") if name else []
    return " ".join(w if k and w in _SMALL_WORDS else w.capitalize() for k, w in enumerate(words))


def _rgb(c) -> list[int]:
    return [int(v) for v in c]


@lru_cache(maxsize=1)
def style() -> dict:
    """The JSON-able style table: per code lists for terrains, resources, buildings, units and players,
    and the legend (sections of ``{"label", "kind", ...}`` entries a viewer draws with the same code)."""
    terrains = [{"name": pretty(n), "color": _rgb(TERRAIN_COLORS[i])} for i, n in enumerate(TERRAINS)]
    resources = [None] * len(RESOURCES)
    for code, (color, shape) in _RESOURCE_STYLE.items():
        resources[code] = {"name": pretty(RESOURCES[code]), "color": _rgb(color), "shape": shape}
    buildings = [{"name": pretty(n), "letter": _BUILDING_LETTER[i], "color": _rgb(_BUILDING_COLOR[i])}
                 for i, n in enumerate(BUILDINGS)]
    units = [{"name": pretty(n), "letter": _UNIT_CHAR[i]} for i, n in enumerate(UNIT_TYPES)]
    legend = [
        {"title": "Terrain", "items": [{"kind": "terrain", "code": i, "label": t["name"]}
                                       for i, t in enumerate(terrains) if TERRAINS[i] != "city"]},
        {"title": "Resources", "items": [{"kind": "resource", "code": i, "label": r["name"]}
                                         for i, r in enumerate(resources) if r is not None]},
        {"title": "Buildings", "items": [{"kind": "building", "code": i, "label": b["name"]}
                                         for i, b in enumerate(buildings)]},
        {"title": "Units", "items": [{"kind": "unit", "code": i, "label": u["name"]} for i, u in enumerate(units)]},
        {"title": "Marks", "items": [
            {"kind": "city", "label": "City (digit: level)"}, {"kind": "capital", "label": "Capital (gold rim)"},
            {"kind": "walls", "label": "City walls (grey rim)"}, {"kind": "veteran", "label": "Veteran (gold ring)"},
            {"kind": "road", "label": "Road"}, {"kind": "territory", "label": "Territory (owner's border)"},
            {"kind": "fog", "label": "Unexplored"}]},
    ]
    return {
        "terrains": terrains, "resources": resources, "buildings": buildings, "units": units,
        "players": [_rgb(c) for c in PLAYER_COLORS], "tribes": list(TRIBES), "techs": [pretty(t) for t in TECHS],
        "fog": _rgb(_FOG), "road": _rgb(_ROAD_COLOR), "village": [_rgb(c) for c in _VILLAGE],
        "capital_rim": _rgb(CAPITAL_RIM), "walls_rim": _rgb(WALLS_RIM), "veteran_ring": _rgb(VETERAN_RING),
        "highlight": {k: _rgb(v) for k, v in HIGHLIGHT.items()}, "legend": legend,
        "city_flags": dict(_LAYOUT.city_flags), "unit_flags": dict(_LAYOUT.unit_flags),
    }
