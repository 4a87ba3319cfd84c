"""Video frames a person can read (``polyenv replay --gif / --mp4``): the board with coordinates on
its edges, a header with the turn, whose move, the tribe names and per-player stats, a caption naming
the action that produced the frame, and the legend — the web viewer's legend and colours
(:func:`polyenv.viz.style.style`), the board drawn by :func:`polyenv.viz.render.render_rgb`.

A player's frame (``player=p``) shows only what p may know (its own map tokens and stats; the
others by tribe and colour), like every other view.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..game_env import GameEnv
from .render import render_rgb
from .style import style
from .view import build_view

__all__ = ["frame", "legend_strip"]

_BACKGROUND, _INK, _DIM = (28, 30, 36), (235, 235, 235), (160, 168, 190)


@lru_cache(maxsize=8)
def _font(size: int):
    return ImageFont.load_default(size)


def _text_width(draw, text, font) -> int:
    return int(draw.textlength(text, font=font))


def _lines(game: GameEnv, player: int | None, caption: str) -> list[list[tuple[str, int | None]]]:
    """The header as lines of (text, colour chip player or None) items."""
    view = build_view(game, player, with_actions=False)
    tribe = lambda p: f"{view['tribes'][p]} (p{p})"  # noqa: E731
    first = [(f"Turn {game.turn_number}/{game.turn_limit}", None)]
    if game.game_over:
        first.append((f"game over: {tribe(game.winner)} wins" if game.winner >= 0 else "game over: a draw", None))
    else:
        first.append((f"{tribe(game.current_player)} to move", game.current_player))
    first.append(("full view" if player is None else f"view of {tribe(player)}", None))
    stats = []
    for s in view["players"]:
        known = [f"{s['stars']} stars +{s['income']}/turn" if "stars" in s else "",
                 f"score {s['score']}" if "score" in s else "",
                 f"{s['cities']} cities" if "cities" in s else f"{s['cities_seen']} cities seen"]
        stats.append((f"{tribe(s['player'])}  " + "  ".join(k for k in known if k), s["player"]))
    lines = [first, stats]
    if caption:  # the default font has no arrows or stars
        lines.append([(caption.replace("→", "->").replace("★", " stars"), None)])
    return lines


def _draw_items(draw, lines, width: int, top: int, font, line_h: int, colors, draw_it=True) -> int:
    """Draws (or only measures, without ``draw_it``) the header lines, wrapping items at ``width``;
    returns the y below them."""
    y = top
    for line in lines:
        x = 6
        for text, chip in line:
            chip_w = line_h if chip is not None else 0
            w = chip_w + _text_width(draw, text, font) + 14
            if x > 6 and x + w > width - 6:
                x, y = 6, y + line_h
            if draw_it:
                if chip is not None:
                    c = tuple(colors[chip % len(colors)])
                    draw.rectangle([x, y + 3, x + line_h - 8, y + line_h - 5], fill=c, outline=(0, 0, 0))
                draw.text((x + chip_w, y + 1), text, fill=_INK, font=font)
            x += w
        y += line_h
    return y


@lru_cache(maxsize=4)
def _legend(width: int, scale: float) -> np.ndarray:
    strip = legend_strip(width, scale)
    strip.setflags(write=False)
    return strip


def legend_strip(width: int, scale: float = 1.0) -> np.ndarray:
    """The legend as an image ``uint8 [H, width, 3]``: terrains, resources, buildings, units and marks,
    with the labels and colours of the style table the web viewer's legend shows."""
    st = style()
    font, line_h = _font(max(10, int(12 * scale))), max(16, int(18 * scale))
    sw = line_h - 4
    items = []
    for section in st["legend"]:
        items.append(("title", section["title"] + ":", None))
        items.extend(("item", entry["label"], entry) for entry in section["items"])

    def layout(draw, paint):
        x, y = 6, 4
        for kind, label, entry in items:
            w = _text_width(draw, label, font) + (sw + 6 if kind == "item" else 0) + 12
            if x > 6 and (x + w > width - 6 or (kind == "title" and x > 6)):
                x, y = 6, y + line_h
            if paint:
                if kind == "item":
                    _swatch(draw, st, entry, x, y + 2, sw)
                    draw.text((x + sw + 5, y + 1), label, fill=_INK, font=font)
                else:
                    draw.text((x, y + 1), label, fill=_DIM, font=font)
            x += w
        return y + line_h + 4

    probe = ImageDraw.Draw(Image.new("RGB", (width, 10)))
    image = Image.new("RGB", (width, layout(probe, False)), _BACKGROUND)
    layout(ImageDraw.Draw(image), True)
    return np.asarray(image)


def _swatch(draw, st, entry, x, y, s):
    kind, code = entry["kind"], entry.get("code")
    box = [x, y, x + s, y + s]
    plain = tuple(st["terrains"][0]["color"])
    if kind == "terrain":
        draw.rectangle(box, fill=tuple(st["terrains"][code]["color"]), outline=(0, 0, 0))
    elif kind == "resource":
        r = st["resources"][code]
        draw.rectangle(box, fill=plain)
        shape = draw.rectangle if r["shape"] == "square" else draw.ellipse
        shape([x + s // 4, y + s // 4, x + 3 * s // 4, y + 3 * s // 4], fill=tuple(r["color"]), outline=(20, 20, 20))
    elif kind == "building":
        b = st["buildings"][code]
        draw.rectangle(box, fill=tuple(b["color"]), outline=(20, 20, 20))
        draw.text((x + s // 2, y + s // 2), b["letter"], fill=(20, 20, 20), font=_font(max(8, s - 4)), anchor="mm")
    elif kind in ("unit", "veteran"):
        ring = tuple(st["veteran_ring"]) if kind == "veteran" else (0, 0, 0)
        draw.rectangle(box, fill=plain)
        draw.ellipse([x + 1, y + 1, x + s - 1, y + s - 1], fill=tuple(st["players"][0]), outline=ring, width=2)
        letter = st["units"][code]["letter"] if kind == "unit" else st["units"][0]["letter"]
        draw.text((x + s // 2, y + s // 2 + 1), letter, fill=(255, 255, 255), font=_font(max(8, s - 6)), anchor="mm")
    elif kind in ("city", "capital", "walls"):
        rim = {"city": (30, 30, 30), "capital": tuple(st["capital_rim"]), "walls": tuple(st["walls_rim"])}[kind]
        draw.rectangle(box, fill=rim)
        draw.rectangle([x + 2, y + 2, x + s - 2, y + s - 2], fill=tuple(st["players"][0]))
        if kind == "city":
            draw.text((x + s // 2, y + s // 2), "2", fill=(255, 255, 255), font=_font(max(8, s - 4)), anchor="mm")
    elif kind == "road":
        draw.rectangle(box, fill=plain)
        draw.line([x, y + s // 2, x + s, y + s // 2], fill=tuple(st["road"]), width=3)
    elif kind == "territory":
        draw.rectangle(box, fill=plain)
        draw.line([x, y, x + s, y], fill=tuple(st["players"][1]), width=3)
        draw.line([x, y, x, y + s], fill=tuple(st["players"][1]), width=3)
    elif kind == "fog":
        draw.rectangle(box, fill=tuple(st["fog"]), outline=(0, 0, 0))


def frame(game: GameEnv, player: int | None = None, tile_px: int = 32, caption: str = "") -> np.ndarray:
    """One readable frame of ``game`` as ``uint8 [H, W, 3]``: header, board with coordinates, legend.

    ``player=None`` is the ground truth, a seat that player's fog-of-war view; ``caption`` names the
    action that produced the position (``polyenv replay`` writes ``"after: <the action>"``).
    """
    n = game.map_size
    if player is None:
        tokens, observer = game.full_map_numpy(), game.current_player
    else:
        tokens, observer = game.observe(int(player), max_actions=1)["map_tokens"], int(player)
    board = render_rgb(tokens, n, observer, game.num_players, tile_px=tile_px)
    scale = max(1.0, tile_px / 32)
    font, line_h = _font(max(10, int(13 * scale))), max(16, int(19 * scale))
    margin = max(14, int(18 * scale))
    width = max(margin + board.shape[1] + 4, 720)
    lines = _lines(game, player, caption)
    probe = ImageDraw.Draw(Image.new("RGB", (width, 10)))
    header_h = _draw_items(probe, lines, width, 4, font, line_h, [], draw_it=False) + 4
    image = Image.new("RGB", (width, header_h + margin + board.shape[0] + 4), _BACKGROUND)
    draw = ImageDraw.Draw(image)
    _draw_items(draw, lines, width, 4, font, line_h, style()["players"])
    left, top = (width - board.shape[1]) // 2, header_h + margin
    image.paste(Image.fromarray(board), (left, top))
    coord = _font(max(9, int(11 * scale)))
    for k in range(n):  # columns (y) along the top edge, rows (x) along the left edge
        draw.text((left + k * tile_px + tile_px // 2, top - margin // 2), str(k), fill=_DIM, font=coord, anchor="mm")
        draw.text((left - margin // 2 - 2, top + k * tile_px + tile_px // 2), str(k), fill=_DIM, font=coord, anchor="mm")
    return np.concatenate([np.asarray(image), _legend(width, scale)], axis=0)
