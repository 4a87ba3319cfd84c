"""``polyenv replay --html``: the page opens and plays in a real headless browser (Chromium).

Skipped when no Chromium is installed (CI installs Debian's ``chromium``).
"""

import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image

from polyenv import GameEnv
from polyenv.render import PLAYER_COLORS
from polyenv.replay_html import TILE_COLUMNS, _tiles, replay_html

BROWSER = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
needs_browser = pytest.mark.skipif(BROWSER is None, reason="no headless Chromium installed (apt-get install chromium)")
PX, SIZE, SEED = 32, 8, 11


def random_game(actions=120):
    game, rng, played = GameEnv(seed=SEED, map_size=SIZE), np.random.default_rng(SEED), []
    while len(played) < actions and not game.game_over:
        legal = game.legal_actions()
        played.append(int(legal[rng.integers(len(legal))]))
        game.step(played[-1])
    return played


def positions(actions):
    game = GameEnv(seed=SEED, map_size=SIZE)
    out = [_tiles(game)]
    for a in actions:
        game.step(a)
        out.append(_tiles(game))
    return out


def screenshot(page, tmp_path, fragment, budget_ms=3000):
    shot = tmp_path / f"shot_{abs(hash(fragment))}.png"
    subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--force-device-scale-factor=1", "--window-size=1000,700", f"--virtual-time-budget={budget_ms}",
                    f"--screenshot={shot}", f"{page.as_uri()}#{fragment}"],
                   check=True, capture_output=True, timeout=120)
    return np.asarray(Image.open(shot).convert("RGB"))[:SIZE * PX, :SIZE * PX].astype(int)


def unit_pixel(img, tile):
    x, y = divmod(tile, SIZE)
    return img[int(x * PX + 0.56 * PX), int(y * PX + 0.5 * PX - 0.2 * PX)]  # inside the disc, beside the letter


def test_page_is_self_contained():
    actions = random_game(30)
    page = replay_html(GameEnv(seed=SEED, map_size=SIZE), actions, tile_px=PX)
    assert "http://" not in page and "https://" not in page and "<script src" not in page
    assert page.count('id="slider"') == 1 and 'id="play"' in page and 'id="log"' in page


@needs_browser
def test_slider_draws_each_position_and_play_reaches_the_end(tmp_path):
    actions = random_game()
    page = tmp_path / "replay.html"
    page.write_text(replay_html(GameEnv(seed=SEED, map_size=SIZE), actions, tile_px=PX), encoding="utf-8")
    states = positions(actions)
    unit_type, unit_owner = TILE_COLUMNS.index("unit_type"), TILE_COLUMNS.index("unit_owner")
    # A position with a unit on a tile that was empty at the start (and is not a city, whose badge may cover it).
    k, tile = next((k, t) for k in range(len(states) - 1, 0, -1) for t in range(SIZE * SIZE)
                   if states[k][t, unit_type] >= 0 and states[0][t, unit_type] < 0
                   and states[k][t, TILE_COLUMNS.index("city_level")] < 1)
    owner = states[k][tile, unit_owner]
    first, moved = screenshot(page, tmp_path, "frame=0"), screenshot(page, tmp_path, f"frame={k}")
    assert np.abs(unit_pixel(moved, tile) - PLAYER_COLORS[owner]).max() <= 12, "the unit of that position is drawn"
    assert np.abs(unit_pixel(first, tile) - PLAYER_COLORS[owner]).max() > 12, "and is absent at the start"
    assert (first != moved).any()
    # Play from the start at 60 positions a second: within the time budget it reaches the last position.
    last = screenshot(page, tmp_path, f"frame={len(actions)}")
    played = screenshot(page, tmp_path, "frame=0&play&speed=60", budget_ms=1000 * (len(actions) // 60 + 4))
    np.testing.assert_array_equal(played, last)
