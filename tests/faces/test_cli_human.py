"""``polyenv play --bots human,...``: a person plays a seat at the terminal, driven through a real
pseudo-terminal (the standard library's ``pty``): the map with a legend, the numbered actions by
group, a help line, ``end``, bad answers, ``q`` to save and quit, and a whole game to the end."""
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from polyenv.viz.record import game_from_config

ANSI = re.compile(r"\x1b\[[0-9;]*m")
PROMPT = re.compile(r"your move \(1-(\d+), end, q, h\)> ")


class Terminal:
    """``python -m polyenv.cli ARGS`` on a pseudo-terminal; ``expect`` reads until a pattern appears."""

    def __init__(self, *args, cwd):
        env = dict(os.environ)
        if env.get("PYTHONPATH"):
            env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in env["PYTHONPATH"].split(os.pathsep) if p)
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "polyenv.cli", *map(str, args)], stdin=slave,
                                     stdout=slave, stderr=slave, cwd=cwd, env=env, close_fds=True)
        os.close(slave)
        self.text = self.plain = ""
        self.pos = 0

    def expect(self, pattern, timeout=60):
        """Reads until ``pattern`` appears after the previous match (colours stripped); returns the match."""
        pattern = re.compile(pattern) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + timeout
        while True:
            match = pattern.search(self.plain, self.pos)
            if match:
                self.pos = match.end()
                return match
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {pattern.pattern!r}; last output:\n{self.plain[-2000:]}")
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"the program ended before {pattern.pattern!r}:\n{self.plain[-2000:]}")
                self.text += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
                self.plain = ANSI.sub("", self.text)

    def send(self, line):
        os.write(self.master, (line + "\n").encode())

    def close(self, timeout=60):
        """Reads what is left (a child blocked on a full terminal never ends) and waits; kills after ``timeout``."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    self.text += os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    break
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
        os.close(self.master)
        return self.proc.returncode


def screen_before(term, match):
    """The text of the last screen: from the last map header to the prompt that matched."""
    plain, end = term.plain, match.start()
    return plain[plain.rfind("\nturn ", 0, end) + 1:end]


def test_the_turn_screen_bad_answers_end_and_quit(tmp_path):
    term = Terminal("play", "--bots", "human,random", "--map-size", "6", "--max-turns", "3", "--seed", "1",
                    cwd=tmp_path)
    try:
        prompt = term.expect(PROMPT)
        screen = screen_before(term, prompt)
        assert "(view of p0)" in screen and "legend:" in screen and "w warrior" in screen and " .. " in screen
        assert "you are Bardur (p0)" in screen and "stars" in screen
        for group in ("Units:", "Cities:", "Research:", "Other:"):
            assert group in screen, group
        numbered = re.findall(r"^\s+(\d+)  (.+)$", screen, re.M)
        assert [int(k) for k, _ in numbered] == list(range(1, int(prompt.group(1)) + 1))
        assert "type a number to play that action" in term.text and "q: save and quit" in term.text
        for bad in ("xyz", "0", str(int(prompt.group(1)) + 1)):
            term.send(bad)
            term.expect(f"not a choice: '{bad}'")
            term.expect(PROMPT)  # asked again
        first = dict(numbered)["1"]
        term.send("1")  # the first action (a unit's)
        term.expect(PROMPT)
        assert "since your last move:" in term.text and "You: " in term.text
        term.send("end")
        term.expect(r"Imperius \(p1\): end of turn")  # the bot's turn, as the person saw it
        term.expect(PROMPT)
        term.send("q")
        term.expect(r"saved (\d+) actions to polyenv-game-1\.json")
    except BaseException:
        term.proc.kill()
        raise
    finally:
        status = term.close()
    assert status == 0
    record = json.loads((tmp_path / "polyenv-game-1.json").read_text())
    assert record["bots"] == ["human", "random"] and not record["result"]["game_over"]
    game = game_from_config(record["seed"], record["config"])
    assert game.describe_action(record["actions"][0]).split()[0] in first.lower()
    for a in record["actions"]:
        game.step(a)  # the record replays


@pytest.mark.parametrize("seat", [0, 1])
def test_a_whole_game_at_either_seat(tmp_path, seat):
    bots = "human,greedy" if seat == 0 else "greedy,human"
    save = tmp_path / "game.json"
    term = Terminal("play", "--bots", bots, "--map-size", "6", "--max-turns", "3", "--seed", "4", "--render",
                    "ansi", "--save", save, cwd=tmp_path)
    moves = 0
    try:
        while True:
            match = term.expect(re.compile(PROMPT.pattern + r"|winner: (p\d|none)"), timeout=120)
            if match.group(0).startswith("winner"):
                break
            screen = screen_before(term, match)
            assert f"(view of p{seat})" in screen
            choices = dict(re.findall(r"^\s+(\d+)  (.+)$", screen, re.M))
            # Play the first unit or city action twice a turn, then end the turn.
            pick = "1" if moves % 3 != 2 and "End turn" not in choices.get("1", "") else "end"
            if "level-up reward" in choices.get("1", ""):
                pick = "1"
            term.send(pick)
            moves += 1
            assert moves < 300
        term.expect(r"saved \d+ actions to")
    except BaseException:
        term.proc.kill()
        raise
    finally:
        status = term.close()
    assert status == 0
    record = json.loads(save.read_text())
    assert record["result"]["game_over"] and record["bots"][seat] == "human"
    assert "\x1b[" in term.text  # the ANSI map on a terminal
    headers = re.findall(r"^turn \d+/\d+, .*$", term.plain, re.M)
    assert len(headers) > 2 and all(f"(view of p{seat})" in h for h in headers[:-1])  # the full map only at the end


def test_the_plain_text_map_carries_its_legend(tmp_path):
    term = Terminal("play", "--bots", "random,human", "--map-size", "6", "--max-turns", "2", "--seed", "2",
                    "--render", "text", cwd=tmp_path)
    try:
        screen = screen_before(term, term.expect(PROMPT))
        assert "(view of p1)" in screen and " ?? " in screen
        assert "players: A p0" in screen and "B p1" in screen and "tile: ground or city owner" in screen
        assert "you are Imperius (p1)" in screen
        term.send("q")
        term.expect("saved")
    except BaseException:
        term.proc.kill()
        raise
    finally:
        status = term.close()
    assert status == 0
