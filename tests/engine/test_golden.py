"""Golden playthroughs (STYLE.md item 7): seeded random games replayed and compared with
tests/golden/*.txt. A difference means the rules, the action ids or the action
descriptions changed: if the change is intended, run
``PYTHONPATH=. python tests/regen_golden.py`` and review the diff of the golden files."""
import difflib

import pytest

from polyenv import GameEnv
from regen_golden import SPECS, SplitMix64, golden_path, playthrough


@pytest.mark.parametrize("name", list(SPECS))
def test_golden_playthrough(name):
    path = golden_path(name)
    assert path.exists(), f"{path} is missing: run PYTHONPATH=. python tests/regen_golden.py"
    expected = path.read_text()
    actual = playthrough(name)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                                 str(path), "now", n=2))[:80])
        pytest.fail(f"golden playthrough {name} changed (if intended, run "
                    f"PYTHONPATH=. python tests/regen_golden.py and review the diff):\n{diff}")


@pytest.mark.parametrize("name", list(SPECS))
def test_golden_game_ends_and_replays_from_its_file(name):
    """The file is a real game: its action ids replay to the end with the recorded result."""
    lines = golden_path(name).read_text().splitlines()
    env = GameEnv(**SPECS[name])
    actions = [int(line.split()[1]) for line in lines if line.startswith("p") and line.split()[1].isdigit()]
    assert actions, "no actions recorded"
    for a in actions:
        assert env.is_legal(a)
        env.step(a)
    assert env.game_over
    end = next(line for line in lines if line.startswith("end round"))
    assert end.split()[4] == f"p{env.winner}"
    assert end.split()[6:] == [str(s) for s in env.scores()]


def test_splitmix64_reference_values():
    # The policy PRNG must never change silently (it is part of every golden file).
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]
