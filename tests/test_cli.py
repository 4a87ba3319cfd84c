"""The polyenv command line, run end to end in subprocesses (small maps, short games)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args, timeout=240, cwd=None):
    """Runs `python -m polyenv.cli ...` on the package under test: the installed one, or the one on
    the developer's PYTHONPATH (made absolute). The working directory is never the source root,
    whose `polyenv/` folder would shadow an installed package."""
    env = dict(os.environ)
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in env["PYTHONPATH"].split(os.pathsep) if p)
    return subprocess.run([sys.executable, "-m", "polyenv.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=cwd or Path(__file__).resolve().parent)


def test_play_shows_game_and_result_table():
    r = run("play", "--map-size", "8", "--seed", "3", "--max-turns", "4", "--render", "text")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "seed 3" in out and "winner: p" in out and "game over after 5 turns" in out
    header = next(line for line in out.splitlines() if line.startswith("player"))
    for column in ("tribe", "bot", "result", "score", "cities", "units", "kills"):
        assert column in header
    assert out.count("round ") >= 5  # one map per round and the final one
    rows = [line for line in out.splitlines() if line.startswith(("p0 ", "p1 "))]
    assert len(rows) == 2 and sum("win" in row for row in rows) == 1


def test_play_final_only_ansi_four_players():
    r = run("play", "--players", "4", "--map-size", "10", "--bots", "random", "--seed", "1", "--max-turns", "3",
            "--final-only")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("\x1b[") > 50 and r.stdout.count("round ") == 1
    assert sum(line.startswith(("p0 ", "p1 ", "p2 ", "p3 ")) for line in r.stdout.splitlines()) == 4


def test_play_rejects_unknown_bot():
    r = run("play", "--bots", "wizard", "--map-size", "8")
    assert r.returncode == 2 and "unknown bot" in r.stderr


def test_play_save_and_replay_round_trip(tmp_path):
    record_path = tmp_path / "game.json"
    r = run("play", "--map-size", "8", "--seed", "5", "--max-turns", "5", "--render", "none", "--save", record_path)
    assert r.returncode == 0, r.stderr
    record = json.loads(record_path.read_text())
    assert record["seed"] == 5 and record["config"]["map_size"] == 8 and record["config"]["max_turns"] == 5
    assert len(record["actions"]) > 0 and all(isinstance(a, int) for a in record["actions"])
    assert record["result"]["game_over"]
    table = [line for line in r.stdout.splitlines() if line.startswith(("p0 ", "p1 "))]

    png_dir = tmp_path / "png"
    r2 = run("replay", record_path, "--render", "none", "--png-dir", png_dir)
    assert r2.returncode == 0, r2.stderr
    assert "replay matches the recorded result" in r2.stdout
    assert [line for line in r2.stdout.splitlines() if line.startswith(("p0 ", "p1 "))] == table
    pngs = sorted(png_dir.glob("*.png"))
    assert len(pngs) == record["result"]["turns"] + 1  # rounds 0..turns-1 (the last round ends the game), final
    Image = pytest.importorskip("PIL.Image")
    with Image.open(pngs[0]) as im:
        assert im.size == (8 * 24, 8 * 24)

    # the replay is checked: a tampered record is rejected
    record["actions"][-1] = 10**9
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    r3 = run("replay", bad, "--render", "none")
    assert r3.returncode == 1 and "cannot be replayed" in r3.stderr
    record["actions"] = record["actions"][:-1]
    record["result"]["scores"] = [s + 1 for s in record["result"]["scores"]]
    bad.write_text(json.dumps(record))
    r4 = run("replay", bad, "--render", "none")
    assert r4.returncode == 1 and "differs" in r4.stderr


def test_replay_rejects_non_record(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"hello": 1}))
    r = run("replay", path)
    assert r.returncode == 2 and "not a polyenv game record" in r.stderr


def test_play_level_file():
    level = ROOT / "polyenv" / "levels" / "duel_11.csv"
    r = run("play", "--level", level, "--seed", "2", "--max-turns", "2", "--render", "none")
    assert r.returncode == 0, r.stderr
    assert "11x11" in r.stdout


def test_check_runs_pettingzoo_checkers():
    r = run("check", "--players", "2,3", "--cycles", "60", timeout=600)
    out = r.stdout
    assert "PASS  pettingzoo api_test tribes_aec_v0 players=2" in out, out + r.stderr
    assert "PASS  pettingzoo api_test tribes_aec_v0 players=3" in out
    assert "PASS  pettingzoo seed_test" in out and "PASS  pettingzoo render_test" in out
    assert ("gymnasium check_env" in out) or ("SKIP  Gymnasium" in out)
    failed = sum(line.startswith("FAIL") for line in out.splitlines())
    assert f"{failed} failed" in out and r.returncode == (1 if failed else 0)


def test_bench_runs_present_scripts_and_notes_missing(tmp_path):
    (tmp_path / "aec.py").write_text(
        "import os, sys\nprint('quick' if os.environ.get('POLYENV_BENCH_QUICK') == '1' and '--quick' in sys.argv "
        "else 'slow')\nprint('ratio 1.23x')\n")
    (tmp_path / "engine.py").write_text("import sys\nprint('broken')\nsys.exit(3)\n")
    r = run("bench", "--dir", tmp_path, "--seconds", "4")
    assert r.returncode == 1  # engine.py failed
    assert "note: benchmarks/vector.py does not exist; skipped" in r.stdout
    assert "quick" in r.stdout and "ratio 1.23x" in r.stdout
    lines = r.stdout.splitlines()
    assert any(line.startswith("aec") and " ok " in line for line in lines)
    assert any(line.startswith("engine") and "failed (exit 3)" in line for line in lines)


def test_record_is_reproducible(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        r = run("play", "--map-size", "8", "--seed", "9", "--max-turns", "3", "--render", "none", "--save", path)
        assert r.returncode == 0, r.stderr
    ra, rb = json.loads(a.read_text()), json.loads(b.read_text())
    assert ra["actions"] == rb["actions"] and np.array_equal(ra["result"]["scores"], rb["result"]["scores"])
