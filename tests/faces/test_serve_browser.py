"""``polyenv serve`` end to end in a real headless Chromium (Debian's chromium + chromedriver through
Selenium, with explicit paths: nothing is downloaded).

A person opens the page, starts a 2-player game against ``random`` and plays it to the end only by
clicks on the board (select a unit, click a highlighted target) and on buttons (research, train,
level-up rewards, End turn); the final screen must name the winner. Screenshots of the opening, a
fight (an attack preview on the board) and the end are written to ``$POLYENV_SCREENSHOTS`` or the
test's temporary folder (the path is printed). Skipped only when Chromium is not installed.
"""
import os
import re
import time
from pathlib import Path

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from browser_helpers import chromium, needs_chromium, severe_logs
from serve_helpers import running_server

pytestmark = needs_chromium
SEED, SIZE, TURNS = 5, 8, 6


@pytest.fixture()
def browser():
    with chromium() as driver:
        yield driver


@pytest.fixture()
def shots(tmp_path):
    folder = Path(os.environ.get("POLYENV_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {folder}")
    return folder


def wait(driver, test, timeout=60, what="the page"):
    deadline = time.monotonic() + timeout
    while True:
        value = test()
        if value:
            return value
        if time.monotonic() > deadline:
            logs = "\n".join(str(e) for e in driver.get_log("browser"))
            raise AssertionError(f"timed out waiting for {what}\n{logs}")
        time.sleep(0.05)


class Page:
    """What a person does on the page: clicks on board tiles and on buttons."""

    def __init__(self, driver):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By
        self.driver, self.By, self.ActionChains = driver, By, ActionChains

    def find(self, css):
        return self.driver.find_elements(self.By.CSS_SELECTOR, css)

    def one(self, css):
        return self.driver.find_element(self.By.CSS_SELECTOR, css)

    def status(self):
        return self.one("#status").text

    def click_tile(self, tile):
        canvas = self.one("#board")
        n, px, margin = (int(canvas.get_attribute(f"data-{k}")) for k in ("n", "px", "margin"))
        row, col = divmod(tile, n)
        width, height = canvas.size["width"], canvas.size["height"]
        x, y = margin + col * px + px // 2 - width // 2, margin + row * px + px // 2 - height // 2
        self.ActionChains(self.driver).move_to_element_with_offset(canvas, x, y).click().perform()

    def actions(self):
        """The enabled legal-action buttons of the Actions panel: (kind, source, target, element), read in one call."""
        return [tuple(row) for row in self.driver.execute_script(
            "return [...document.querySelectorAll('#panel-actions button[data-action]')].filter(b => !b.disabled)"
            ".map(b => [b.dataset.kind, +b.dataset.source, +b.dataset.target, b]);")]

    def state(self):
        """(status line, position token, final screen shown, level-up dialog open), read in one call."""
        return self.driver.execute_script(
            "return [document.getElementById('status').textContent, document.body.dataset.token || '',"
            " !document.getElementById('final').hidden, document.getElementById('levelup').open];")

    def selected(self):
        """The tile the viewer has selected (-1: none)."""
        return int(self.driver.execute_script("return document.body.dataset.selected ?? '-1';"))

    def select_tile(self, tile):
        """Selects the tile (a click, unless the viewer already follows the unit there: a second click would
        deselect it) and waits until the viewer shows it selected."""
        if self.selected() != tile:
            self.click_tile(tile)
        wait(self.driver, lambda: self.selected() == tile, what=f"tile {tile} selected")

    def my_turn(self):
        return "your turn" in self.status() and bool(self.actions())

    def ready(self):
        """A turn to play, a level-up to choose, or the end."""
        status, _, final, level_up = self.state()
        return final or level_up or ("your turn" in status and bool(self.actions()))


def play_one(browser, page, shots, done, fought, clicks):
    """One click of the person's strategy; returns (game over, fought, clicks)."""
    wait(browser, page.ready, timeout=120, what="a turn")
    status, token, final, level_up = page.state()
    if final:
        return True, fought, clicks
    turn = int(re.search(r"Turn (\d+)", status).group(1))
    step = done[turn] = done.get(turn, 0) + 1
    actions = page.actions()
    by_kind = lambda kind: [a for a in actions if a[0] == kind]  # noqa: E731
    if level_up:  # a level-up reward: a button of the dialog
        page.find("#levelup-options button")[0].click()
    elif by_kind("attack"):  # select the unit: its targets light up with the preview; click one
        _, source, target, _ = by_kind("attack")[0]
        page.select_tile(source)
        wait(browser, lambda: "targets on the board" in page.one("#selection").text, what="the selection")
        if not fought:
            browser.save_screenshot(str(shots / "fight.png"))
        fought = True
        page.click_tile(target)
    elif step == 1 and by_kind("spawn"):
        by_kind("spawn")[0][3].click()
    elif step == 2 and by_kind("research"):
        by_kind("research")[0][3].click()
    elif step <= 6 and by_kind("move"):  # head for the far corner, where the opponent started
        _, source, target, _ = max(by_kind("move"), key=lambda a: (a[2] // SIZE + a[2] % SIZE, a[2]))
        page.select_tile(source)
        page.click_tile(target)
    else:
        page.one("#end-turn").click()
    clicks += 1
    assert clicks < 1000
    wait(browser, lambda: page.state()[1] != token or page.state()[2],
         what=f"the answer to a click (turn {turn}, click {step}; selection: {page.one('#selection').text!r}, "
              f"error: {page.one('#error').text!r})")
    return False, fought, clicks


def test_play_a_whole_game_against_random_by_clicks(browser, shots):
    from selenium.webdriver.support.ui import Select
    with running_server() as base:
        browser.get(base + "/")
        page = Page(browser)
        wait(browser, lambda: page.one("#setup").get_attribute("open") is not None, what="the new-game form")
        players = page.find(".f-player")
        assert [o.text for o in Select(players[0]).options][0] == "You"
        Select(players[1]).select_by_value("random")
        page.one("#f-size").send_keys(str(SIZE))
        page.one("#f-turns").send_keys(str(TURNS))
        page.one("#f-seed").send_keys(str(SEED))
        page.one("#f-start").click()
        wait(browser, page.my_turn, what="the first turn")
        Select(page.one("#speed")).select_by_value("0")  # the bot's moves without waiting
        browser.save_screenshot(str(shots / "opening.png"))
        legend = page.one("#tabs button[data-tab=legend]")
        legend.click()
        assert "Warrior" in page.one("#panel-legend").text and "Forest" in page.one("#panel-legend").text
        page.one("#tabs button[data-tab=actions]").click()

        fought, clicks, done = False, 0, {}
        while True:
            try:
                finished, fought, clicks = play_one(browser, page, shots, done, fought, clicks)
            except StaleElementReferenceException:  # the page redrew its buttons between reading and clicking
                continue
            if finished:
                break
        title = page.one("#final-title").text
        browser.save_screenshot(str(shots / "end.png"))
        assert re.search(r"(Bardur|Imperius) \(p[01]\) wins", title), title
        assert title.startswith(("You win!", "You lose."))
        assert "game over" in page.status()
        assert fought, "the game had a fight"
        assert not severe_logs(browser)
    for name in ("opening", "fight", "end"):
        assert (shots / f"{name}.png").stat().st_size > 10_000
