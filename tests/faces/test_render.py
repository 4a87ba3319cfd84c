"""polyenv.viz.render: text / ansi / rgb_array views of the same tiles, shapes, determinism, colours, PNG."""
import re

import numpy as np
import pytest

from polyenv import Bardur, GameEnv, Imperius
from polyenv.viz.render import PLAYER_COLORS, TERRAIN_COLORS, render_ansi, render_rgb, render_text, save_png

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def played(seed=3, map_size=10, players=(Bardur, Imperius, 0), actions=120):
    g = GameEnv(seed=seed, map_size=map_size, players=players)
    g.playout(max_actions=actions, seed=seed)
    return g


def test_text_mode_default_and_shape():
    g = played()
    text = g.render()
    assert text == g.render("text")
    lines = text.splitlines()
    rows = lines[1:1 + g.map_size]  # header, rows, legend
    assert all(len(row) == 5 * g.map_size - 1 for row in rows)
    assert lines[1 + g.map_size].startswith("tile: ") and any(line.startswith("players: ") for line in lines)
    assert "??" not in text.replace("??: unexplored", "")  # ground truth: no fog
    assert "??" in g.render(player=0)


def test_ansi_mode_layout():
    g = played()
    out = g.render("ansi")
    assert "\x1b[" in out
    lines = out.splitlines()
    assert len(lines) == 2 + g.map_size  # header, legend, rows
    for row in lines[2:]:
        assert len(ANSI.sub("", row)) == 4 * g.map_size
    assert "Bardur" in lines[1] and "Imperius" in lines[1]
    fogged = g.render("ansi", player=0)
    assert " .. " in ANSI.sub("", fogged), "the player's view shows fog"


def test_ansi_shows_units_and_cities():
    g = GameEnv.blank(6, (Bardur, Imperius))
    g.place_city(0, (1, 1), level=3, capital=True)
    g.place_unit(1, "knight", (4, 4), hp=7)
    plain = [ANSI.sub("", row) for row in g.render("ansi").splitlines()[2:]]
    assert plain[1][4:5] == "3"  # city level digit at (1, 1)
    assert plain[4][16:20] == ".k 7"  # terrain, knight letter, hp at (4, 4)


def test_rgb_shape_dtype_determinism():
    g = played()
    img = g.render("rgb_array")
    assert img.shape == (g.map_size * 24, g.map_size * 24, 3) and img.dtype == np.uint8
    np.testing.assert_array_equal(img, g.render("rgb_array"))
    np.testing.assert_array_equal(img, played().render("rgb_array"))  # same seed, same picture
    assert not np.array_equal(img, played(seed=4).render("rgb_array"))
    small = render_rgb(g.full_map_numpy(), g.map_size, g.current_player, g.num_players, tile_px=8)
    assert small.shape == (g.map_size * 8, g.map_size * 8, 3)
    with pytest.raises(ValueError):
        render_rgb(g.full_map_numpy(), g.map_size, tile_px=4)
    with pytest.raises(ValueError):
        render_rgb(g.full_map_numpy(), g.map_size + 1)


def test_rgb_draws_terrain_fog_and_owner_colours():
    g = GameEnv.blank(5, (Bardur, Imperius), terrain="forest")
    g.set_terrain((4, 0), "deep_water")
    g.place_unit(1, "warrior", (2, 2))
    img = g.render("rgb_array")
    px = 24
    np.testing.assert_array_equal(img[px * 4 + 12, 6], TERRAIN_COLORS[2])  # deep water, inside the tile
    np.testing.assert_array_equal(img[px * 0 + 5, px * 4 + 5], TERRAIN_COLORS[6])  # plain forest tile
    centre = img[2 * px + 13, 2 * px + 7]  # left part of the unit disc, off the letter
    np.testing.assert_array_equal(centre, PLAYER_COLORS[1])
    # the same unit has the same colour from either player's view (absolute colours)
    for viewer in (0, 1):
        view = g.render("rgb_array", player=viewer)
        np.testing.assert_array_equal(view[2 * px + 13, 2 * px + 7], PLAYER_COLORS[1])


def test_rgb_fog_in_player_view():
    g = GameEnv(seed=1, map_size=11)
    view = g.render("rgb_array", player=0)
    tokens = g.observe(0, max_actions=1)["map_tokens"]
    hidden = np.flatnonzero(tokens[:, 0] == 0)
    assert len(hidden) > 0
    t = int(hidden[0])
    x, y = divmod(t, 11)
    np.testing.assert_array_equal(view[x * 24 + 2, y * 24 + 2], (38, 38, 42))


def test_city_and_territory_drawn():
    g = GameEnv.blank(6, (Bardur, Imperius))
    g.place_city(0, (2, 2), level=2)
    img = g.render("rgb_array")
    px = 24
    # city square in the owner's colour (away from the level digit in its corner)
    np.testing.assert_array_equal(img[2 * px + 16, 2 * px + 16], PLAYER_COLORS[0])
    # a territory border on the outer edge of a claimed tile
    np.testing.assert_array_equal(img[1 * px + 0, 1 * px + 12], PLAYER_COLORS[0])
    # an unowned tile has no tint
    np.testing.assert_array_equal(img[5 * px + 12, 5 * px + 12], TERRAIN_COLORS[0])


def test_render_functions_validate_and_text_unchanged():
    g = played()
    with pytest.raises(ValueError):
        g.render("video")
    with pytest.raises(ValueError):
        g.render("text", player=7)
    tokens = g.full_map_numpy()
    assert render_text(tokens, g.map_size, legend=False).count("\n") == g.map_size - 1
    assert render_ansi(tokens, g.map_size, g.current_player, g.num_players).count("\n") == g.map_size - 1


def test_save_png_round_trip(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    img = played().render("rgb_array")
    path = tmp_path / "map.png"
    save_png(img, path)
    with Image.open(path) as im:
        np.testing.assert_array_equal(np.asarray(im.convert("RGB")), img)
    with pytest.raises(ValueError):
        save_png(img.astype(np.float32), path)


# ---------------------------------------------------------------------------- watchable frames (issue 18)
def test_frame_header_over_the_map_at_any_scale():
    from polyenv.viz.render import render_frame
    g = GameEnv(seed=0, map_size=8)
    for px in (16, 32, 48):
        frame = render_frame(g, None, px)
        assert frame.shape[1:] == (8 * px, 3) and frame.shape[0] > 8 * px and frame.dtype == np.uint8
        np.testing.assert_array_equal(frame[-8 * px:], g.render("rgb_array") if px == 24 else
                                      render_rgb(g.full_map_numpy(), 8, g.current_player, g.num_players, tile_px=px))


def test_player_header_shows_only_what_the_player_knows():
    from polyenv.viz.render import game_header_lines
    g = GameEnv(seed=0, map_size=8, players=(0, 1, 2))
    truth = [text for line in game_header_lines(g) for text, _ in line]
    assert all(f"P{p} {s}" in truth for p, s in enumerate(g.scores()))
    view = [text for line in game_header_lines(g, player=1) for text, _ in line]
    assert any(f"P1 SCORE {g.scores()[1]} STARS {g.stars(1)}" == t for t in view)
    assert "P0" in view and "P2" in view and not any(t.startswith(("P0 ", "P2 ")) for t in view)


def test_roads_resources_and_buildings_are_drawn():
    g = GameEnv.blank(8, players=(0, 1))
    g.place_city(0, (5, 4))
    px = 32

    def cell(tile):
        img = render_rgb(g.full_map_numpy(), 8, 0, 2, tile_px=px)
        x, y = tile
        return img[x * px:(x + 1) * px, y * px:(y + 1) * px]

    plain = cell((3, 3)).copy()
    g.set_road((3, 3))
    assert ((cell((3, 3)) == (126, 92, 56)).all(-1)).sum() > 4, "road"
    g.set_resource((4, 4), "fruit")
    assert ((cell((4, 4)) == (214, 40, 120)).all(-1)).sum() > 4, "fruit mark"
    g.set_building((5, 5), "farm")
    assert ((cell((5, 5)) == (236, 206, 120)).all(-1)).sum() > 20, "farm badge"
    assert (plain != cell((3, 3))).any()


def test_headers_count_turns_as_the_cli_does():
    # A game that reaches --max-turns 2 ends in turn 2 (the engine's tick is then 3).
    from polyenv.viz.render import game_header_lines
    g = GameEnv(seed=3, map_size=8, max_turns=2)
    g.playout(seed=3)
    assert g.game_over and g.turn == 3 and g.turn_number == 2
    assert g.render().splitlines()[0].startswith("turn 2/2, ")
    assert ANSI.sub("", g.render("ansi")).splitlines()[0].startswith("turn 2/2, ")
    for player in (None, 0):
        assert game_header_lines(g, player)[0][0] == ("TURN 2/2", None)
    fresh = GameEnv(seed=3, map_size=8, max_turns=2)
    assert fresh.turn_number == 0 and fresh.render().startswith("turn 0/2, ")


# ---------------------------------------------------------------------------- text map: markers and legend
def cell(text, x, y):
    """The 4-character cell of tile (x, y) in a rendered text map (header line first)."""
    return text.splitlines()[1 + x][5 * y:5 * y + 4]


def test_every_player_has_its_own_marker_from_every_view():
    # Four players: p1..p3 used to share upper case (lower case was whoever was "owner 1").
    g = GameEnv.blank(8, (Bardur, Imperius, 0, 3))
    for p in range(4):
        g.place_city(p, (2 * p, 1), level=p + 1)
        g.place_unit(p, "warrior", (2 * p, 5))
    g.place_unit(3, "knight", (0, 1))  # p3's knight in p0's city
    for view in (None, 0, 1, 2, 3):
        text = g.render("text", player=view)
        for p, marker in enumerate("ABCD"):
            assert cell(text, 2 * p, 5) == f". w{marker}", (view, p)
            assert cell(text, 2 * p, 1)[:2] == f"{marker}{p + 1}", (view, p)
        assert cell(text, 0, 1) == "A1kD"


def test_legend_names_players_and_what_the_map_shows():
    g = GameEnv.blank(8, (Bardur, Imperius, 0, 3))
    g.place_city(1, (1, 1))
    g.place_unit(2, "catapult", (4, 4))
    g.set_resource((5, 5), "fruit")
    g.place_city(0, (6, 5))
    g.set_building((6, 6), "windmill")
    g.set_terrain((7, 7), "mountain")
    g.set_road((3, 6))
    legend = g.render().splitlines()[1 + 8:]
    text = "\n".join(legend)
    assert "players: A p0 Bardur, B p1 Imperius, C p2 Xin-Xi, D p3 Oumaji" in text
    assert "terrain: . plain, ^ mountain" in text
    assert "units: c catapult" in text and "buildings: W windmill" in text and "resources: u fruit" in text
    assert "roads: + road" in text and "knight" not in text and "forest" not in text
    assert cell(g.render(), 4, 4) == ". cC" and cell(g.render(), 5, 5) == ".u  " and cell(g.render(), 6, 6) == ".W  "
    assert cell(g.render(), 3, 6) == ".+  " and cell(g.render(), 1, 1)[:2] == "B1"


def test_legend_is_data_for_other_front_ends():
    from polyenv.viz.text_map import PLAYER_MARKERS, map_legend, player_marker, text_cells
    g = GameEnv.blank(6, (Bardur, Imperius))
    g.place_unit(1, "giant", (2, 3))
    cells = text_cells(g.full_map_numpy(), 6, g.current_player, 2)
    assert len(cells) == 6 and all(len(row) == 6 and all(len(c) == 4 for c in row) for row in cells)
    assert cells[2][3] == ". GB" and player_marker(15) == PLAYER_MARKERS[15] == "P"
    legend = dict(map_legend(g.full_map_numpy(), g.current_player, 2, ["Bardur", "Imperius"]))
    assert legend["players"] == [("A", "p0 Bardur"), ("B", "p1 Imperius")] and legend["units"] == [("G", "giant")]


def test_legend_wraps_between_entries():
    g = GameEnv(seed=3, map_size=20, players=[t % 12 for t in range(16)])
    lines = g.render().splitlines()[21:]
    assert all(len(line) <= 99 for line in lines)  # the rows' width (20 cells)
    players = " ".join(line.strip() for line in lines if line.startswith(("players:", "  ")) and "e.g." not in line)
    assert all(f"{m} p{p} " in players for p, m in enumerate("ABCDEFGHIJKLMNOP"))
