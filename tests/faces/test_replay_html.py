"""``polyenv replay --html``: the web app's viewer with the record embedded, opened in a real headless
Chromium (Debian's chromium + chromedriver). Skipped only when Chromium is not installed.

Position k is the game after k actions: the unit of that position is drawn, its caption and its
highlighted log entry are the action that produced it, the header names the tribes, the players
panel has each player's stats, the board has coordinates; play reaches the last position.
"""
import time

import numpy as np
import pytest
from browser_helpers import chromium, needs_chromium, severe_logs

from polyenv import GameEnv
from polyenv.viz.render import PLAYER_COLORS
from polyenv.viz.replay_html import replay_html
from polyenv.viz.board import FIELD
from polyenv.viz.replay_page import MODULES, replay_data
from polyenv.viz.view import build_view

SIZE, SEED = 8, 11


def random_game(actions=120):
    game, rng, played = GameEnv(seed=SEED, map_size=SIZE), np.random.default_rng(SEED), []
    while len(played) < actions and not game.game_over:
        legal = game.legal_actions()
        played.append(int(legal[rng.integers(len(legal))]))
        game.step(played[-1])
    return played


def positions(actions):
    game = GameEnv(seed=SEED, map_size=SIZE)
    out = [build_view(game, None)]
    for a in actions:
        game.step(a)
        out.append(build_view(game, None))
    return out


def test_page_is_self_contained_and_embeds_the_viewer():
    actions = random_game(30)
    page = replay_html(GameEnv(seed=SEED, map_size=SIZE), actions)
    assert "http://" not in page and "https://" not in page and "<script src" not in page
    assert page.count('id="slider"') == 1 and 'id="play"' in page and 'id="panel-log"' in page
    for module in MODULES:  # the web app's own modules, inlined
        assert f'"polyenv/{module}": "data:text/javascript;base64,' in page
    assert "Bardur vs Imperius" in page
    data = replay_data(GameEnv(seed=SEED, map_size=SIZE), actions)
    assert len(data["frames"]) == len(actions) + 1 and data["frames"][-1]["e"] == len(data["log"])
    with pytest.raises(ValueError):
        replay_html(GameEnv(seed=SEED, map_size=SIZE), actions, tile_px=8)


def canvas_pixel(driver, tile, fx=0.32, fy=0.55):
    """The colour at (fx, fy) of a tile on the board canvas (inside a unit's disc, beside its letter)."""
    return np.asarray(driver.execute_script("""
        const c = document.getElementById('board'), n = +c.dataset.n, px = +c.dataset.px, m = +c.dataset.margin;
        const [row, col] = [Math.floor(arguments[0] / n), arguments[0] % n];
        const d = c.getContext('2d').getImageData(Math.round(m + (col + arguments[1]) * px),
                                                  Math.round(m + (row + arguments[2]) * px), 1, 1).data;
        return [d[0], d[1], d[2]];""", tile, fx, fy), int)


def open_at(driver, page, fragment):
    driver.get(f"{page.as_uri()}#{fragment}")
    driver.refresh()  # a new fragment alone would not reload the page
    deadline = time.monotonic() + 30
    while not driver.execute_script("return document.getElementById('pos').textContent"):
        assert time.monotonic() < deadline, severe_logs(driver)
        time.sleep(0.05)


def text(driver, css):
    return driver.execute_script(f"return document.querySelector({css!r}).textContent")


@needs_chromium
def test_positions_captions_stats_and_play(tmp_path):
    actions = random_game()
    page = tmp_path / "replay.html"
    page.write_text(replay_html(GameEnv(seed=SEED, map_size=SIZE), actions), encoding="utf-8")
    views = positions(actions)
    log = replay_data(GameEnv(seed=SEED, map_size=SIZE), actions)["log"]
    tiles = [np.asarray(v["tiles"]).reshape(SIZE * SIZE, -1) for v in views]
    unit_type, unit_owner, city = FIELD["unit_type"], FIELD["unit_owner"], FIELD["city_level"]
    # A position with a unit on a tile that was empty at the start (and no city, whose badge may cover it).
    k, tile = next((k, t) for k in range(len(tiles) - 1, 0, -1) for t in range(SIZE * SIZE)
                   if tiles[k][t, unit_type] >= 0 and tiles[0][t, unit_type] < 0 and tiles[k][t, city] < 1)
    owner = tiles[k][tile, unit_owner]
    with chromium(1400, 800) as driver:
        open_at(driver, page, f"frame={k}")
        assert np.abs(canvas_pixel(driver, tile) - PLAYER_COLORS[owner]).max() <= 12, "the unit of that position"
        assert int(driver.execute_script("return +document.getElementById('board').dataset.margin")) > 0  # coordinates
        # The action that produced position k labels it: the caption and the highlighted log entry.
        caption = text(driver, "#caption")
        assert caption.startswith(f"after action {k}: ")
        latest = text(driver, "#panel-log .log-entry.latest")
        assert latest in caption
        frames = replay_data(GameEnv(seed=SEED, map_size=SIZE), actions)["frames"]
        assert latest == log[frames[k]["e"] - 1]["text"]
        # Tribe names in the header and the players panel with each player's score at that position.
        assert "Bardur vs Imperius" in text(driver, "#title")
        players = text(driver, "#players")
        for p, stats in enumerate(views[k]["players"]):
            assert f"{stats['tribe']} (p{p})" in players and str(stats["score"]) in players
        open_at(driver, page, "frame=0")
        assert np.abs(canvas_pixel(driver, tile) - PLAYER_COLORS[owner]).max() > 12, "absent at the start"
        assert text(driver, "#caption") == "the start of the game"
        open_at(driver, page, "frame=0&play&speed=60")
        deadline = time.monotonic() + len(actions) / 60 + 30
        while text(driver, "#pos") != f"position {len(actions)} / {len(actions)}":
            assert time.monotonic() < deadline, text(driver, "#pos")
            time.sleep(0.1)
        assert not severe_logs(driver)
