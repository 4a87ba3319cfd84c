"""The text map: one symbol scheme for every tile, a marker per player and a legend, as data.

A tile is four characters (``render_text`` separates tiles by a space)::

    ground   feature   unit   owner
      A         3        w      B       A's level-3 city, a warrior of B on it
      .         p                       plain with crops
      ~         P        b      A       shallow water with a port and A's boat

* **ground** — the terrain (``TERRAIN_SYMBOLS``), or, on a city, its owner's marker;
* **feature** — a city's level (``9`` for 9 and above), else a building (``BUILDING_SYMBOLS``),
  else a resource (``RESOURCE_SYMBOLS``), else a road (``ROAD_SYMBOL``);
* **unit** — the unit type (``UNIT_SYMBOLS``, the letters of the ANSI and RGB views);
* **owner** — the unit's owner's marker.

Players are marked by absolute index, the same from every point of view: ``A`` is player 0,
``B`` player 1, ... ``P`` player 15 (``PLAYER_MARKERS``). ``FOG_CELL`` is an unexplored tile.

Everything here reads map tokens only (``GameEnv.observe(p)["map_tokens"]`` or
``GameEnv.full_map_numpy()``), so a player's view shows what that player sees, and so does the
legend of that view (``map_legend``: the symbols on that map, and the players with their tribes,
which are the game's configuration). Front ends can use ``text_cells`` (the grid of cells) and
``map_legend`` (sections of ``(symbol, meaning)`` pairs) to draw their own layout.
"""

from __future__ import annotations

import numpy as np

from .._names import BUILDINGS, RESOURCES, TERRAINS, UNIT_TYPES
from ..description import MAX_PLAYERS, game_description

__all__ = ["PLAYER_MARKERS", "TERRAIN_SYMBOLS", "RESOURCE_SYMBOLS", "BUILDING_SYMBOLS", "UNIT_SYMBOLS",
           "ROAD_SYMBOL", "FOG_CELL", "CELL_WIDTH", "player_marker", "text_cells", "map_legend", "legend_lines",
           "render_text"]

#: Marker of player p (absolute index): ``PLAYER_MARKERS[p]``.
PLAYER_MARKERS = "ABCDEFGHIJKLMNOP"
#: Terrain symbols in ``TERRAINS`` order (plain, shallow water, deep water, mountain, village, city, forest);
#: a city shows its owner's marker instead, ``#`` only if its owner is unknown.
TERRAIN_SYMBOLS = ".~=^v#f"
#: Resource symbols in ``RESOURCES`` order: fish, fruit, animal (hunted), whales, unused, ore, crops (plants),
#: ruins (x marks them); none is a unit letter.
RESOURCE_SYMBOLS = "fuhe opx"
#: Building symbols in ``BUILDINGS`` order: farm, windmill, lumber hut, sawmill, mine, forge, port,
#: customs house, the four temples (T), the seven monuments (*).
BUILDING_SYMBOLS = "FWLSMGPCTTTT" + "*" * 7
#: Unit symbols in ``UNIT_TYPES`` order: warrior, rider, defender, swordsman, archer, catapult, knight,
#: mind bender, boat, ship (B), battleship (S), giant.
UNIT_SYMBOLS = "wrdsackmbBSG"
#: The feature symbol of a road.
ROAD_SYMBOL = "+"
#: The cell of an unexplored tile.
FOG_CELL = " ?? "
#: Characters per tile cell.
CELL_WIDTH = 4
_TILE_LAYOUT = ("tile: ground or city owner | city level, building, resource or road | unit | unit owner",
                f"  e.g. A3wB: A's level-3 city with B's warrior on it; .p: plain with crops; {FOG_CELL.strip()}: "
                "unexplored")

assert len(TERRAIN_SYMBOLS) == len(TERRAINS) and len(RESOURCE_SYMBOLS) == len(RESOURCES)
assert len(BUILDING_SYMBOLS) == len(BUILDINGS) and len(UNIT_SYMBOLS) == len(UNIT_TYPES)
assert len(PLAYER_MARKERS) == MAX_PLAYERS

_COL = game_description().map_token_columns
_EXPLORED, _TERRAIN, _RESOURCE, _BUILDING, _ROAD = (_COL[k] for k in ("explored", "terrain", "resource", "building",
                                                                        "road"))
_CITY_OWNER, _CITY_LEVEL, _UNIT_OWNER, _UNIT_TYPE = (_COL[k] for k in ("city_owner", "city_level", "unit_owner",
                                                                         "unit_type"))
_COLUMNS_READ = 1 + max(_COL[k] for k in ("explored", "terrain", "resource", "building", "road", "city_owner",
                                          "city_level", "unit_owner", "unit_type"))


def player_marker(player: int) -> str:
    """The marker of ``player`` (absolute index 0..15): ``"A"`` for player 0."""
    return PLAYER_MARKERS[player % len(PLAYER_MARKERS)]


def _check(tokens, map_size: int) -> np.ndarray:
    tokens = np.asarray(tokens)
    if tokens.ndim != 2 or tokens.shape[0] != map_size * map_size or tokens.shape[1] < _COLUMNS_READ:
        raise ValueError(f"tokens must be [map_size**2, {len(_COL)}] map tokens, got shape {tokens.shape} "
                         f"for map_size {map_size}")
    return tokens


def _absolute(relative: int, observer: int, num_players: int) -> int:
    """A relative owner column (0 none, 1 the observer, 2.. the others in turn order) -> player, -1 none."""
    return (observer + relative - 1) % max(num_players, 1) if relative > 0 else -1


def _symbol(table: str, code: int) -> str:
    return table[code] if 0 <= code < len(table) and table[code] != " " else "?"


def _cell(t, observer: int, num_players: int) -> str:
    if t[_EXPLORED] == 0:  # an unexplored token is all zeros
        return FOG_CELL
    is_city = t[_CITY_LEVEL] >= 1
    if is_city:
        owner = _absolute(int(t[_CITY_OWNER]), observer, num_players)
        ground = player_marker(owner) if owner >= 0 else TERRAIN_SYMBOLS[TERRAINS.index("city")]
        feature = str(min(int(t[_CITY_LEVEL]), 9))
    else:
        ground = _symbol(TERRAIN_SYMBOLS, int(t[_TERRAIN]))
        feature = (_symbol(BUILDING_SYMBOLS, int(t[_BUILDING])) if t[_BUILDING] >= 0 else
                   _symbol(RESOURCE_SYMBOLS, int(t[_RESOURCE])) if t[_RESOURCE] >= 0 else
                   ROAD_SYMBOL if t[_ROAD] else " ")
    unit = owner = " "
    if t[_UNIT_TYPE] >= 0:
        unit = _symbol(UNIT_SYMBOLS, int(t[_UNIT_TYPE]))
        owner = player_marker(_absolute(int(t[_UNIT_OWNER]), observer, num_players))
    return ground + feature + unit + owner


def text_cells(tokens: np.ndarray, map_size: int, observer: int = 0, num_players: int = MAX_PLAYERS) -> list[list[str]]:
    """The map as ``map_size`` rows of ``map_size`` cells of ``CELL_WIDTH`` characters (row x, column y).

    ``tokens``: int32 ``[map_size**2, 23]`` map tokens relative to ``observer`` (owner columns 1 =
    the observer); ``num_players`` turns them into absolute players (markers).
    """
    tokens = _check(tokens, map_size)
    return [[_cell(tokens[x * map_size + y], observer, num_players) for y in range(map_size)]
            for x in range(map_size)]


def _names(table) -> list[str]:
    return [name.replace("_", " ") for name in table]


def map_legend(tokens: np.ndarray, observer: int = 0, num_players: int = MAX_PLAYERS,
               names=None) -> list[tuple[str, list[tuple[str, str]]]]:
    """What the symbols of this map mean: ``[(section, [(symbol, meaning), ...]), ...]``.

    Sections, in order: ``"players"`` (every player's marker, ``p<i>`` and ``names[i]``, e.g. its
    tribe; all of them, the game's configuration), then ``"terrain"``, ``"buildings"``,
    ``"resources"``, ``"roads"`` and ``"units"`` listing only the symbols that appear on the
    explored tiles of ``tokens`` (so a player's view explains only what it shows). Symbols shared by
    several kinds (``T`` temples, ``*`` monuments) list the kinds present.
    """
    tokens = np.asarray(tokens)
    seen = tokens[tokens[:, _EXPLORED] != 0]
    not_city = seen[seen[:, _CITY_LEVEL] < 1]
    players = [(player_marker(p), f"p{p}" + (f" {names[p]}" if names is not None else ""))
               for p in range(num_players)]

    def present(column, symbols, labels, rows):
        codes = sorted({int(c) for c in rows[:, column] if 0 <= c < len(symbols) and symbols[c] != " "})
        grouped: dict[str, list[str]] = {}
        for c in codes:
            grouped.setdefault(symbols[c], []).append(labels[c])
        return [(s, ", ".join(kinds)) for s, kinds in grouped.items()]

    no_building = not_city[not_city[:, _BUILDING] < 0]
    sections = [
        ("players", players),
        ("terrain", present(_TERRAIN, TERRAIN_SYMBOLS, _names(TERRAINS), not_city)),
        ("buildings", present(_BUILDING, BUILDING_SYMBOLS, _names(BUILDINGS), not_city)),
        ("resources", present(_RESOURCE, RESOURCE_SYMBOLS, _names(RESOURCES), no_building)),
        ("roads", [(ROAD_SYMBOL, "road")] if ((no_building[:, _RESOURCE] < 0) & (no_building[:, _ROAD] != 0)).any()
         else []),
        ("units", present(_UNIT_TYPE, UNIT_SYMBOLS, _names(UNIT_TYPES), seen)),
    ]
    return [(title, entries) for title, entries in sections if entries]


def legend_lines(legend: list[tuple[str, list[tuple[str, str]]]], width: int = 80) -> list[str]:
    """``map_legend`` as text: the tile layout, then each section (``"units: w warrior, k knight"``),
    wrapped at ``width`` characters."""
    lines = list(_TILE_LAYOUT)
    for title, entries in legend:
        line = f"{title}:"
        for k, (symbol, meaning) in enumerate(entries):
            item = f" {symbol} {meaning}" + ("," if k + 1 < len(entries) else "")
            if len(line) + len(item) > width and line.strip().endswith(","):  # wrap between entries only
                lines.append(line)
                line = " "
            line += item
        lines.append(line)
    return lines


def render_text(tokens: np.ndarray, map_size: int, observer: int = 0, num_players: int = MAX_PLAYERS,
                header: str = "", names=None, legend: bool = True) -> str:
    """The text map: ``header`` (if any), one line per board row (``text_cells`` joined by spaces),
    then, with ``legend``, the lines of ``legend_lines(map_legend(...))``. ``names``: per-player labels
    for the legend (e.g. tribes)."""
    rows = [" ".join(row) for row in text_cells(tokens, map_size, observer, num_players)]
    lines = ([header] if header else []) + rows
    if legend:
        lines += legend_lines(map_legend(tokens, observer, num_players, names), max(80, len(rows[0])))
    return "\n".join(lines)
