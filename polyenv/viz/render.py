"""Rendering of map tokens, shared by every API (GameEnv, PettingZoo, Gymnasium, CLI).

One renderer, three views of the same tile data — the 23-column map tokens of
``GameEnv.observe`` / ``GameEnv.full_map_numpy`` (``polyenv.MAP_TOKEN_FEATURE_NAMES``):

* ``render_text``  — plain characters, four per tile (ground, feature, unit, owner), a marker
  per player (``A`` = player 0, ...) and a legend (:mod:`polyenv.viz.text_map`);
* ``render_ansi``  — a coloured terminal map (xterm-256 colours), four
  characters per tile: city level or terrain glyph, unit letter, unit hp;
  backgrounds show terrain, territory glyphs and unit/city chips show owners,
  fog is dark grey;
* ``render_rgb``   — a NumPy ``uint8 [N*px, N*px, 3]`` image: terrain colours,
  owner tints and borders, roads, resource marks, building badges, city
  squares with their level, unit discs with a letter, an hp bar (and hp digits
  from 32 px), fog. Pure NumPy (deterministic, no font files).
* ``render_frame`` — ``render_rgb`` of a ``GameEnv`` under a header with the
  turn, whose move it is (or the result) and the scores (a player's view
  shows only what that player knows); what the envs' ``"rgb_array"`` mode and
  ``polyenv replay --gif/--mp4`` show.

Owner columns of map tokens are relative to the observer (1 = the observer,
2.. the others in turn order); pass ``observer`` and ``num_players`` so that
every player keeps the same colour whoever observes. ``render`` dispatches a
``GameEnv`` to one of the views; ``save_png`` writes an image without Pillow.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

from .._names import TERRAINS
from ..description import game_description
from .text_map import BUILDING_SYMBOLS, TERRAIN_SYMBOLS, UNIT_SYMBOLS, render_text

__all__ = ["PLAYER_COLORS", "TERRAIN_COLORS", "render", "render_ansi", "render_frame", "render_header", "render_rgb",
           "render_text", "save_png", "game_header_lines", "text_width"]

# One symbol scheme for every view (polyenv/viz/text_map.py): terrain glyphs, unit letters, building badges.
_TERRAIN_CHAR = TERRAIN_SYMBOLS
_UNIT_CHAR = UNIT_SYMBOLS

# Map token columns and flag bits used here (the engine's layout: polyenv.GameDescription).
_LAYOUT = game_description()
_COL = _LAYOUT.map_token_columns
_EXPLORED, _TERRAIN, _TERRITORY, _CITY_OWNER = _COL["explored"], _COL["terrain"], _COL["territory_owner"], \
    _COL["city_owner"]
_CITY_LEVEL, _CITY_FLAGS = _COL["city_level"], _COL["city_flags"]
_UNIT_OWNER, _UNIT_TYPE, _UNIT_HP, _UNIT_MAX_HP, _UNIT_FLAGS = _COL["unit_owner"], _COL["unit_type"], \
    _COL["unit_hp"], _COL["unit_max_hp"], _COL["unit_flags"]
_CAPITAL_FLAG, _WALLS_FLAG, _VETERAN_FLAG = _LAYOUT.city_flags["capital"], _LAYOUT.city_flags["walls"], \
    _LAYOUT.unit_flags["veteran"]
_RESOURCE, _BUILDING, _ROAD = _COL["resource"], _COL["building"], _COL["road"]
_TOKEN_COLUMNS = len(_LAYOUT.map_token_features)
_COLUMNS_READ = 1 + max(_EXPLORED, _TERRAIN, _TERRITORY, _CITY_OWNER, _CITY_LEVEL, _CITY_FLAGS, _UNIT_OWNER, _UNIT_TYPE,
                        _UNIT_HP, _UNIT_MAX_HP, _UNIT_FLAGS, _RESOURCE, _BUILDING, _ROAD)
_VILLAGE = TERRAINS.index("village")

# Resources (RESOURCES order; 4 is unused): a small mark in the tile's top-right corner, a disc for food
# (fish, fruit, animal, whales, crops) and a square for ore and ruins.
_RESOURCE_STYLE = {0: ((250, 128, 114), "disc"), 1: ((214, 40, 120), "disc"), 2: ((130, 80, 40), "disc"),
                   3: ((20, 40, 110), "disc"), 5: ((96, 96, 110), "square"), 6: ((236, 214, 70), "disc"),
                   7: ((70, 50, 40), "square")}
# Buildings (BUILDINGS order): a badge in the bottom-left corner, an initial on a category colour.
_BUILDING_LETTER = BUILDING_SYMBOLS
_BUILDING_COLOR = [(236, 206, 120)] * 6 + [(120, 190, 230)] * 2 + [(235, 235, 245)] * 4 + [(240, 196, 40)] * 7
_ROAD_COLOR = (126, 92, 56)

#: RGB of terrain codes 0..6 (plain, shallow water, deep water, mountain, village, city, forest).
TERRAIN_COLORS = np.array([(152, 201, 96), (104, 178, 222), (36, 86, 168), (141, 132, 122), (196, 172, 110),
                           (206, 188, 150), (46, 122, 56)], dtype=np.uint8)
_FOG = np.array((38, 38, 42), dtype=np.uint8)
_FOG_DOT = np.array((58, 58, 64), dtype=np.uint8)
_UNKNOWN_TERRAIN = np.array((255, 0, 255), dtype=np.uint8)

#: RGB of players 0..15 (absolute player index).
PLAYER_COLORS = np.array([
    (228, 52, 52), (44, 96, 232), (244, 204, 36), (150, 64, 204), (246, 134, 34), (40, 204, 204),
    (232, 64, 172), (245, 245, 245), (134, 84, 40), (24, 24, 24), (152, 232, 64), (24, 34, 112),
    (250, 172, 192), (0, 128, 128), (128, 128, 0), (128, 0, 0)], dtype=np.uint8)

# 5x7 bitmap glyphs (unit letters and digits), '#' = ink.
_FONT_ROWS = {
    "0": (" ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### "),
    "1": ("  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "),
    "2": (" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####"),
    "3": ("#####", "   # ", "  #  ", "   # ", "    #", "#   #", " ### "),
    "4": ("   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # "),
    "5": ("#####", "#    ", "#### ", "    #", "    #", "#   #", " ### "),
    "6": ("  ## ", " #   ", "#    ", "#### ", "#   #", "#   #", " ### "),
    "7": ("#####", "    #", "   # ", "  #  ", " #   ", " #   ", " #   "),
    "8": (" ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### "),
    "9": (" ### ", "#   #", "#   #", " ####", "    #", "   # ", " ##  "),
    "w": ("     ", "     ", "#   #", "#   #", "# # #", "# # #", " # # "),
    "r": ("     ", "     ", "# ## ", "##  #", "#    ", "#    ", "#    "),
    "d": ("    #", "    #", " ## #", "#  ##", "#   #", "#   #", " ####"),
    "s": ("     ", "     ", " ####", "#    ", " ### ", "    #", "#### "),
    "a": ("     ", "     ", " ### ", "    #", " ####", "#   #", " ####"),
    "c": ("     ", "     ", " ### ", "#    ", "#    ", "#   #", " ### "),
    "k": ("#    ", "#    ", "#  # ", "# #  ", "##   ", "# #  ", "#  # "),
    "m": ("     ", "     ", "## # ", "# # #", "# # #", "#   #", "#   #"),
    "b": ("#    ", "#    ", "# ## ", "##  #", "#   #", "#   #", "#### "),
    "B": ("#### ", "#   #", "#   #", "#### ", "#   #", "#   #", "#### "),
    "S": (" ####", "#    ", "#    ", " ### ", "    #", "    #", "#### "),
    "G": (" ### ", "#   #", "#    ", "# ###", "#   #", "#   #", " ####"),
}
# Upper-case letters and symbols for labels (building badges, the header); B, G and S are above.
_FONT_ROWS.update({
    "A": (" ### ", "#   #", "#   #", "#####", "#   #", "#   #", "#   #"),
    "C": (" ### ", "#   #", "#    ", "#    ", "#    ", "#   #", " ### "),
    "D": ("#### ", "#   #", "#   #", "#   #", "#   #", "#   #", "#### "),
    "E": ("#####", "#    ", "#    ", "#### ", "#    ", "#    ", "#####"),
    "F": ("#####", "#    ", "#    ", "#### ", "#    ", "#    ", "#    "),
    "H": ("#   #", "#   #", "#   #", "#####", "#   #", "#   #", "#   #"),
    "I": (" ### ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "),
    "J": ("  ###", "   # ", "   # ", "   # ", "   # ", "#  # ", " ##  "),
    "K": ("#   #", "#  # ", "# #  ", "##   ", "# #  ", "#  # ", "#   #"),
    "L": ("#    ", "#    ", "#    ", "#    ", "#    ", "#    ", "#####"),
    "M": ("#   #", "## ##", "# # #", "# # #", "#   #", "#   #", "#   #"),
    "N": ("#   #", "#   #", "##  #", "# # #", "#  ##", "#   #", "#   #"),
    "O": (" ### ", "#   #", "#   #", "#   #", "#   #", "#   #", " ### "),
    "P": ("#### ", "#   #", "#   #", "#### ", "#    ", "#    ", "#    "),
    "Q": (" ### ", "#   #", "#   #", "#   #", "# # #", "#  # ", " ## #"),
    "R": ("#### ", "#   #", "#   #", "#### ", "# #  ", "#  # ", "#   #"),
    "T": ("#####", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  "),
    "U": ("#   #", "#   #", "#   #", "#   #", "#   #", "#   #", " ### "),
    "V": ("#   #", "#   #", "#   #", "#   #", "#   #", " # # ", "  #  "),
    "W": ("#   #", "#   #", "#   #", "# # #", "# # #", "## ##", "#   #"),
    "X": ("#   #", "#   #", " # # ", "  #  ", " # # ", "#   #", "#   #"),
    "Y": ("#   #", "#   #", " # # ", "  #  ", "  #  ", "  #  ", "  #  "),
    "Z": ("#####", "    #", "   # ", "  #  ", " #   ", "#    ", "#####"),
    " ": ("     ",) * 7,
    ":": ("     ", "  #  ", "  #  ", "     ", "  #  ", "  #  ", "     "),
    "/": ("    #", "    #", "   # ", "  #  ", " #   ", "#    ", "#    "),
    "-": ("     ", "     ", "     ", "#####", "     ", "     ", "     "),
    "*": ("     ", "  #  ", "# # #", " ### ", "# # #", "  #  ", "     "),
    ">": ("#    ", " #   ", "  #  ", "   # ", "  #  ", " #   ", "#    "),
    "?": (" ### ", "#   #", "    #", "   # ", "  #  ", "     ", "  #  "),
    ",": ("     ", "     ", "     ", "     ", "     ", "  #  ", " #   "),
})
_FONT = {ch: np.array([[c == "#" for c in row] for row in rows], dtype=bool) for ch, rows in _FONT_ROWS.items()}


# ---------------------------------------------------------------------------- shared tile decoding
def _absolute(rel: np.ndarray, observer: int, num_players: int) -> np.ndarray:
    """Relative owner columns (0 none, 1 self, 2.. others) -> absolute player, -1 for none."""
    rel = np.asarray(rel)
    return np.where(rel > 0, (observer + rel - 1) % max(num_players, 1), -1)


def _check_tokens(tokens, map_size: int) -> np.ndarray:
    tokens = np.asarray(tokens)
    if tokens.ndim != 2 or tokens.shape[0] != map_size * map_size or tokens.shape[1] < _COLUMNS_READ:
        raise ValueError(f"tokens must be [map_size**2, {_TOKEN_COLUMNS}] map tokens, got shape {tokens.shape} "
                         f"for map_size {map_size}")
    return tokens


def _player_color(player: int) -> np.ndarray:
    return PLAYER_COLORS[player % len(PLAYER_COLORS)]


def _ink_for(color: np.ndarray) -> np.ndarray:
    """Black or white, whichever reads better on ``color``."""
    lum = 0.299 * float(color[0]) + 0.587 * float(color[1]) + 0.114 * float(color[2])
    return np.array((0, 0, 0) if lum > 140 else (255, 255, 255), dtype=np.uint8)


# ---------------------------------------------------------------------------- ANSI
def _xterm(color) -> int:
    """Nearest xterm-256 colour-cube index of an RGB triple."""
    r, g, b = (int(round(int(c) / 255 * 5)) for c in color)
    return 16 + 36 * r + 6 * g + b


def _sgr(fg=None, bg=None, bold=False) -> str:
    codes = ["1"] if bold else []
    if fg is not None:
        codes.append(f"38;5;{_xterm(fg)}")
    if bg is not None:
        codes.append(f"48;5;{_xterm(bg)}")
    return "\x1b[" + ";".join(codes) + "m"


_RESET = "\x1b[0m"


def render_ansi(tokens: np.ndarray, map_size: int, observer: int = 0, num_players: int = 16, header: str = "",
                names=None) -> str:
    """A coloured terminal map (xterm-256 colour escapes) of ``tokens`` (int32 [map_size², 23], seen by
    ``observer`` in a game of ``num_players``) under ``header``, one line per board row.

    Each tile is four characters on its terrain colour: the city level digit on
    the city owner's colour (or the terrain glyph, in the territory owner's
    colour when owned), then a unit chip on the unit owner's colour: the unit
    letter (``wrdsackmbBSG`` in ``UNIT_TYPES`` order, underlined for veterans)
    and its hp. Fog is dark grey. Colours are absolute players (``PLAYER_COLORS``):
    ``observer`` is the player the tokens are relative to. ``names`` (a list of
    per-player labels) adds a colour legend line.
    """
    tokens = _check_tokens(tokens, map_size)
    lines = [header] if header else []
    if names is not None:
        chips = [f"{_sgr(_ink_for(_player_color(p)), _player_color(p), bold=True)} p{p} {_RESET} {name}"
                 for p, name in enumerate(names)]
        lines.append("  ".join(chips))
    territory = _absolute(tokens[:, _TERRITORY], observer, num_players)
    city_owner = _absolute(tokens[:, _CITY_OWNER], observer, num_players)
    unit_owner = _absolute(tokens[:, _UNIT_OWNER], observer, num_players)
    for x in range(map_size):
        cells = []
        for y in range(map_size):
            i = x * map_size + y
            t = tokens[i]
            if t[_EXPLORED] == 0:
                cells.append(_sgr(_FOG_DOT, _FOG) + " .. ")
                continue
            terrain = int(t[_TERRAIN])
            ground = TERRAIN_COLORS[terrain] if 0 <= terrain < len(TERRAIN_COLORS) else _UNKNOWN_TERRAIN
            if t[_CITY_LEVEL] >= 1:
                owner_col = _player_color(city_owner[i]) if city_owner[i] >= 0 else ground
                capital = bool(t[_CITY_FLAGS] & _CAPITAL_FLAG)
                first = _sgr(_ink_for(owner_col), owner_col, bold=True) + ("\x1b[4m" if capital else "") \
                    + str(min(int(t[_CITY_LEVEL]), 9)) + _RESET
            else:
                glyph = _TERRAIN_CHAR[terrain] if 0 <= terrain < len(_TERRAIN_CHAR) else "?"
                if territory[i] >= 0:
                    first = _sgr(_player_color(territory[i]), ground, bold=True) + glyph
                else:
                    first = _sgr((0, 0, 0), ground) + glyph
            if t[_UNIT_TYPE] >= 0:
                col = _player_color(unit_owner[i])
                letter = _UNIT_CHAR[int(t[_UNIT_TYPE])]
                vet = "\x1b[4m" if t[_UNIT_FLAGS] & _VETERAN_FLAG else ""
                hp = int(t[_UNIT_HP])
                hp_text = f"{hp:>2}" if hp < 100 else "99"
                rest = _sgr(_ink_for(col), col, bold=True) + vet + letter + "\x1b[24m" + hp_text
            else:
                rest = _sgr(None, ground) + "   "
            cells.append(first + rest + _RESET)
        lines.append("".join(cells) + _RESET)
    return "\n".join(lines)


# ---------------------------------------------------------------------------- RGB image
def _blit_glyph(img: np.ndarray, ch: str, top: int, left: int, scale: int, color: np.ndarray) -> None:
    glyph = _FONT.get(ch)
    if glyph is None:
        return
    mask = np.kron(glyph, np.ones((scale, scale), dtype=bool))
    h, w = mask.shape
    region = img[top:top + h, left:left + w]
    region[mask[:region.shape[0], :region.shape[1]]] = color


def render_rgb(tokens: np.ndarray, map_size: int, observer: int = 0, num_players: int = 16,
               tile_px: int = 24) -> np.ndarray:
    """The map tokens ``tokens`` (int32 [map_size², 23], seen by ``observer`` in a game of
    ``num_players``) as an RGB image, ``uint8 [map_size * tile_px, map_size * tile_px, 3]``.

    Terrain colours (``TERRAIN_COLORS``); owned tiles are tinted towards their
    owner's colour (``PLAYER_COLORS``, absolute players) with a border where the
    territory changes; villages are a light hut square; cities a square in the
    owner's colour with the level digit (gold rim: capital, grey rim: walls);
    units a disc in the owner's colour with the unit letter and an hp bar
    (gold ring: veteran); fog is dark grey with a dot. ``tile_px`` >= 8.
    """
    tokens = _check_tokens(tokens, map_size)
    if isinstance(tile_px, bool) or not isinstance(tile_px, (int, np.integer)) or tile_px < 8:
        raise ValueError(f"tile_px must be an integer >= 8, got {tile_px!r}")
    n, px = map_size, int(tile_px)
    explored = tokens[:, _EXPLORED] != 0
    terrain = tokens[:, _TERRAIN]
    known = (terrain >= 0) & (terrain < len(TERRAIN_COLORS))
    colors = np.where(known[:, None], TERRAIN_COLORS[np.clip(terrain, 0, len(TERRAIN_COLORS) - 1)],
                      _UNKNOWN_TERRAIN).astype(np.float32)
    territory = _absolute(tokens[:, _TERRITORY], observer, num_players)
    owned = explored & (territory >= 0)
    tint = PLAYER_COLORS[np.clip(territory, 0, None) % len(PLAYER_COLORS)].astype(np.float32)
    colors[owned] = 0.78 * colors[owned] + 0.22 * tint[owned]
    colors[~explored] = _FOG
    base = colors.astype(np.uint8).reshape(n, n, 3)
    img = np.repeat(np.repeat(base, px, axis=0), px, axis=1)

    border = max(2, px // 10)
    terr = np.where(explored, territory, -2).reshape(n, n)
    city_owner = _absolute(tokens[:, _CITY_OWNER], observer, num_players)
    unit_owner = _absolute(tokens[:, _UNIT_OWNER], observer, num_players)
    scale = max(1, (px + 8) // 24)  # glyph scale: 1 up to 39 px, 2 from 40 px
    # Roads connect to neighbouring roads and cities.
    roads = (explored & ((tokens[:, _ROAD] != 0) | (tokens[:, _CITY_LEVEL] >= 1))).reshape(n, n)
    yy, xx = np.mgrid[0:px, 0:px]
    for x in range(n):
        for y in range(n):
            i = x * n + y
            cell = img[x * px:(x + 1) * px, y * px:(y + 1) * px]
            if not explored[i]:
                c = px // 2
                cell[c - 1:c + 1, c - 1:c + 1] = _FOG_DOT
                continue
            owner = terr[x, y]
            if owner >= 0:  # borders where the neighbouring territory differs
                col = _player_color(owner)
                if x == 0 or terr[x - 1, y] != owner:
                    cell[:border, :] = col
                if x == n - 1 or terr[x + 1, y] != owner:
                    cell[px - border:, :] = col
                if y == 0 or terr[x, y - 1] != owner:
                    cell[:, :border] = col
                if y == n - 1 or terr[x, y + 1] != owner:
                    cell[:, px - border:] = col
            t = tokens[i]
            if terrain[i] == _VILLAGE and t[_CITY_LEVEL] < 1:  # village hut
                a, b = px // 3, px - px // 3
                cell[a:b, a:b] = (235, 222, 190)
                cell[a:b, a] = cell[a:b, b - 1] = cell[a, a:b] = cell[b - 1, a:b] = (90, 60, 30)
            _draw_road(cell, roads, x, y, px)
            _draw_resource(cell, int(t[_RESOURCE]), px)
            _draw_building(cell, int(t[_BUILDING]), px, scale)
            if t[_CITY_LEVEL] >= 1:
                col = _player_color(city_owner[i]) if city_owner[i] >= 0 else np.array((200, 200, 200), np.uint8)
                m = px // 8
                rim = (230, 190, 40) if t[_CITY_FLAGS] & _CAPITAL_FLAG else \
                    (110, 110, 110) if t[_CITY_FLAGS] & _WALLS_FLAG else (30, 30, 30)
                cell[m:px - m, m:px - m] = rim
                cell[m + 2:px - m - 2, m + 2:px - m - 2] = col
            if t[_UNIT_TYPE] >= 0:
                col = _player_color(unit_owner[i])
                cy, cx, r = px * 0.56, px * 0.5, px * 0.28
                d2 = (yy + 0.5 - cy) ** 2 + (xx + 0.5 - cx) ** 2
                ring = (230, 190, 40) if t[_UNIT_FLAGS] & _VETERAN_FLAG else (0, 0, 0)
                cell[d2 <= (r + 1.5) ** 2] = ring
                cell[d2 <= r ** 2] = col
                letter = _UNIT_CHAR[int(t[_UNIT_TYPE])]
                _blit_glyph(cell, letter, int(cy - 3.5 * scale), int(cx - 2.5 * scale), scale, _ink_for(col))
                hp, max_hp = int(t[_UNIT_HP]), max(int(t[_UNIT_MAX_HP]), 1)
                bar_w = px - 4
                filled = int(round(bar_w * min(max(hp, 0), max_hp) / max_hp))
                cell[px - 3:px - 1, 2:2 + bar_w] = (200, 30, 30)
                cell[px - 3:px - 1, 2:2 + filled] = (40, 210, 60)
                if px >= 32:  # hp as digits above the bar, right-aligned
                    text = str(max(hp, 0))
                    _draw_text(cell, text, px - 11, px - 2 - 6 * len(text), 1, (255, 255, 255), (0, 0, 0))
            if t[_CITY_LEVEL] >= 1:  # level digit last, so a unit never hides it
                col = _player_color(city_owner[i]) if city_owner[i] >= 0 else np.array((200, 200, 200), np.uint8)
                m = px // 8
                cell[m:m + 7 * scale + 2, m:m + 5 * scale + 2] = col
                _blit_glyph(cell, str(min(int(t[_CITY_LEVEL]), 9)), m + 1, m + 1, scale, _ink_for(col))
    return img


def _draw_road(cell: np.ndarray, roads: np.ndarray, x: int, y: int, px: int) -> None:
    """A road: a dot at the centre and a segment towards every neighbouring road or city (8 directions)."""
    if not roads[x, y]:
        return
    n, w, c = roads.shape[0], max(2, px // 12), px // 2
    cell[c - w:c + w, c - w:c + w] = _ROAD_COLOR
    steps = np.arange(c, px)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if (dx or dy) and 0 <= x + dx < n and 0 <= y + dy < n and roads[x + dx, y + dy]:
                rows, cols = c + dx * (steps - c), c + dy * (steps - c)
                for k in range(-w // 2, w - w // 2):
                    cell[np.clip(rows + (k if dy else 0), 0, px - 1), np.clip(cols + (k if not dy else 0), 0, px - 1)] \
                        = _ROAD_COLOR


def _draw_resource(cell: np.ndarray, resource: int, px: int) -> None:
    style = _RESOURCE_STYLE.get(resource)
    if style is None:
        return
    color, shape = style
    r = max(2, px // 9)
    cy, cx = 2 + r, px - 3 - r
    if shape == "square":
        cell[cy - r:cy + r, cx - r:cx + r] = (20, 20, 20)
        cell[cy - r + 1:cy + r - 1, cx - r + 1:cx + r - 1] = color
        return
    yy, xx = np.mgrid[0:px, 0:px]
    d2 = (yy + 0.5 - cy) ** 2 + (xx + 0.5 - cx) ** 2
    cell[d2 <= (r + 1) ** 2] = (20, 20, 20)
    cell[d2 <= r ** 2] = color


def _draw_building(cell: np.ndarray, building: int, px: int, scale: int) -> None:
    if not 0 <= building < len(_BUILDING_LETTER):
        return
    h, w = 7 * scale + 4, 5 * scale + 4
    top, left = px - h - 4, 1
    cell[top:top + h, left:left + w] = (20, 20, 20)
    cell[top + 1:top + h - 1, left + 1:left + w - 1] = _BUILDING_COLOR[building]
    _blit_glyph(cell, _BUILDING_LETTER[building], top + 2, left + 2, scale, np.array((20, 20, 20), np.uint8))


def _draw_text(img: np.ndarray, text: str, top: int, left: int, scale: int, color, shadow=None) -> int:
    """Draws ``text`` (upper-cased, 5x7 glyphs, 1 column of spacing); returns the x after it."""
    color = np.asarray(color, np.uint8)
    for ch in text.upper():
        if shadow is not None:
            _blit_glyph(img, ch, top + 1, left + 1, scale, np.asarray(shadow, np.uint8))
        _blit_glyph(img, ch, top, left, scale, color)
        left += 6 * scale
    return left


def text_width(text: str, scale: int = 1) -> int:
    """Pixel width of ``text`` drawn by the header font at ``scale``."""
    return 6 * scale * len(text)


def render_header(width: int, lines: list, scale: int = 1) -> np.ndarray:
    """A dark strip ``uint8 [H, width, 3]`` of text lines; a line is a list of (text, player or None) items,
    a player drawing a chip of its colour before its text. Items wrap onto new lines when the width ends;
    ``scale`` multiplies the glyphs' size."""
    pad, line_h = 3 * scale, 9 * scale
    rows: list[list] = []
    for line in lines:
        rows.append([])
        x = pad
        for text, player in line:
            w = text_width(text, scale) + (8 * scale if player is not None else 0) + 6 * scale
            if rows[-1] and x + w > width - pad:
                rows.append([])
                x = pad
            rows[-1].append((x, text, player))
            x += w
    img = np.empty((2 * pad + line_h * len(rows), width, 3), np.uint8)
    img[:] = (28, 30, 36)
    for r, row in enumerate(rows):
        top = pad + r * line_h
        for x, text, player in row:
            if player is not None:
                img[top:top + 7 * scale, x:x + 6 * scale] = _player_color(player)
                x += 8 * scale
            _draw_text(img, text, top, x, scale, (235, 235, 235))
    return img


def game_header_lines(game, player: int | None = None) -> list:
    """The header of a frame of ``game`` (a ``GameEnv``): the turn (``GameEnv.turn_number``), who is to move
    (or the result) and the scores.

    With ``player`` (a player's view) only what that player knows is shown: the
    turn, who is to move, its own score and stars; other players appear by colour.
    """
    turn = f"TURN {game.turn_number}/{game.turn_limit}"
    if game.game_over:
        status = [("DRAW", None)] if game.winner < 0 else [("WINNER", game.winner), (f"P{game.winner}", None)]
    else:
        status = [("TO MOVE", game.current_player), (f"P{game.current_player}", None)]
    first = [(turn, None)] + status
    if player is not None:
        first.append((f"VIEW OF P{player}", None))
        second = [(f"P{player} SCORE {game.scores()[player]} STARS {game.stars(player)}", player)]
        second += [(f"P{p}", p) for p in range(game.num_players) if p != player]
    else:
        second = [(f"P{p} {score}", p) for p, score in enumerate(game.scores())]
    return [first, second]


def render_frame(game, player: int | None = None, tile_px: int = 32) -> np.ndarray:
    """A watchable frame of ``game`` (a ``GameEnv``): the header (:func:`game_header_lines`) over the map at ``tile_px``.

    ``player=None`` is the ground truth; a player index that player's fog-of-war view.
    """
    board = render(game, "rgb_array", player, tile_px=tile_px)
    header = render_header(board.shape[1], game_header_lines(game, player), scale=max(1, (int(tile_px) + 8) // 24))
    return np.concatenate([header, board], axis=0)


def save_png(image: np.ndarray, path) -> None:
    """Writes the RGB ``uint8 [H, W, 3]`` ``image`` as a PNG file at ``path`` (zlib only, no Pillow needed)."""
    image = np.ascontiguousarray(image)
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"image must be uint8 [H, W, 3], got {image.dtype} {image.shape}")
    h, w = image.shape[:2]
    raw = np.concatenate([np.zeros((h, 1), np.uint8), image.reshape(h, w * 3)], axis=1).tobytes()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


# ---------------------------------------------------------------------------- dispatch
RENDER_MODES = ("text", "ansi", "rgb_array")


def render(game, mode: str = "text", player: int | None = None, tile_px: int = 24):
    """Renders ``game`` (a ``GameEnv``) in ``mode`` ``"text"`` / ``"ansi"`` -> str, ``"rgb_array"`` -> uint8
    [H, W, 3] (``tile_px`` pixels per tile).

    ``player=None`` shows the ground truth (no fog); a player index shows that
    player's fog-of-war view. Player colours are absolute in every view.
    """
    if mode not in RENDER_MODES:
        raise ValueError(f"render mode must be one of {', '.join(RENDER_MODES)}, got {mode!r}")
    n, players = game.map_size, game.num_players
    if player is None:
        tokens, observer = game.full_map_numpy(), game.current_player
    else:
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < players:
            raise ValueError(f"player must be None or 0..{players - 1}, got {player!r}")
        tokens, observer = game.observe(int(player), max_actions=1)["map_tokens"], int(player)
    if mode == "rgb_array":
        return render_rgb(tokens, n, observer, players, tile_px=tile_px)
    header = game._header(None if player is None else int(player)) + ("" if player is None else f" (view of p{player})")
    names = [game.player(p)["tribe"] for p in range(players)]  # the game's configuration: known to every player
    if mode == "text":
        return render_text(tokens, n, observer, players, header=header, names=names)
    return render_ansi(tokens, n, observer, players, header=header, names=names)
