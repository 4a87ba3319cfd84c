"""The polyenv command line, run end to end in subprocesses (small maps, short games)."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_run import run_cli, run_cli_into_closed_pipe

ROOT = Path(__file__).resolve().parents[2]


run = run_cli


def test_play_shows_game_and_result_table():
    r = run("play", "--map-size", "8", "--seed", "3", "--max-turns", "4", "--render", "text")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "seed 3" in out and "winner: p" in out and "game over in turn 4 of 4" in out
    header = next(line for line in out.splitlines() if line.startswith("player "))
    for column in ("tribe", "bot", "result", "score", "cities", "units", "kills"):
        assert column in header
    assert len(re.findall(r"^turn \d/4, ", out, re.M)) >= 6  # one map per turn 0..4 and the final one
    rows = [line for line in out.splitlines() if line.startswith(("p0 ", "p1 "))]
    assert len(rows) == 2 and sum("win" in row for row in rows) == 1


def test_play_final_only_ansi_four_players():
    r = run("play", "--players", "4", "--map-size", "10", "--bots", "random", "--seed", "1", "--max-turns", "3",
            "--final-only", "--render", "ansi")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("\x1b[") > 50 and len(re.findall(r"^turn \d/3, ", r.stdout, re.M)) == 1
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
    assert len(pngs) == record["result"]["turn"] + 2  # turns 0..turn (the game ends in its last one), final
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


# ---------------------------------------------------------------------------- bad arguments (issue 10)
BAD_PLAY_ARGS = [
    (["--bots", ","], "--bots"),                       # was ZeroDivisionError
    (["--bots", "greedy,,random"], "--bots"),
    (["--bots", "wizard"], "unknown bot"),
    (["--map-size", "0"], "--map-size"),               # was silently 11
    (["--map-size", "41"], "--map-size"),
    (["--map-size", "8.5"], "--map-size"),
    (["--players", "1"], "--players"),
    (["--players", "17"], "--players"),
    (["--seed", "-1"], "--seed"),
    (["--seed", "1.5"], "--seed"),
    (["--max-turns", "-3"], "--max-turns"),
    (["--max-actions", "0"], "--max-actions"),
    (["--tribes", "Bardur,Foo"], "tribe"),
    (["--level", "/nonexistent/level.csv"], "--level"),
    (["--save", "/nonexistent-folder/game.json"], "--save"),  # was: failed after the whole game
    (["--render", "colour"], "--render"),
    (["--players", "16", "--map-size", "4"], "too small"),
]


@pytest.mark.parametrize("args,match", BAD_PLAY_ARGS, ids=[" ".join(a) for a, _ in BAD_PLAY_ARGS])
def test_bad_play_arguments_one_line_exit_2_before_any_work(capsys, args, match):
    from polyenv.cli import main

    assert main(["play", "--render", "none", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "", "the game started before the argument was rejected"
    assert len(err.strip().splitlines()) == 1 and match in err and "Traceback" not in err, err


def test_save_folder_checked_before_the_game(tmp_path, capsys):
    from polyenv.cli import main

    assert main(["play", "--render", "none", "--map-size", "8", "--save", str(tmp_path / "missing" / "g.json")]) == 2
    assert capsys.readouterr().out == ""
    assert main(["play", "--render", "none", "--save", str(tmp_path)]) == 2  # a directory


@pytest.mark.parametrize("args", [["check", "--players", "2,x"], ["check", "--players", "1"], ["check", "--cycles", "0"],
                                  ["bench", "--seconds", "-1"], ["bench", "--seconds", "nan"], ["frobnicate"], []])
def test_other_bad_arguments(capsys, args):
    from polyenv.cli import main

    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err


def _record(tmp_path):
    path = tmp_path / "game.json"
    r = run("play", "--map-size", "8", "--seed", "4", "--max-turns", "3", "--render", "none", "--save", path)
    assert r.returncode == 0, r.stderr
    return json.loads(path.read_text())


def test_malformed_replay_records_one_line_exit_2(tmp_path, capsys):
    from polyenv.cli import main

    good = _record(tmp_path)
    assert main(["replay", str(tmp_path / "game.json"), "--render", "none"]) == 0
    capsys.readouterr()

    def edited(**changes):
        record = json.loads(json.dumps(good))
        for key, value in changes.items():
            if value is KeyError:
                del record[key]
            else:
                record[key] = value
        return record

    cases = {
        "float seed": edited(seed=4.0), "bool seed": edited(seed=True), "negative seed": edited(seed=-4),
        "float action": edited(actions=[float(a) for a in good["actions"]]),
        "bool action": edited(actions=[True] + good["actions"][1:]), "str action": edited(actions=["0"]),
        "actions not a list": edited(actions=7), "config not an object": edited(config=[1]),
        "config key": edited(config=dict(good["config"], colour="red")),
        "float map size": edited(config=dict(good["config"], map_size=8.0)),
        "bad tribe": edited(config=dict(good["config"], players=["Bardur", "Foo"])),
        "float tribe": edited(config=dict(good["config"], players=[1.0, 2.0])),
        "bots count": edited(bots=["random"]), "bots type": edited(bots=3),
        "fingerprint": edited(action_space_fingerprint="x"), "no seed": edited(seed=KeyError),
        "result type": edited(result=[1]),
    }
    for name, record in cases.items():
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(record))
        assert main(["replay", str(path), "--render", "none"]) == 2, name
        out, err = capsys.readouterr()
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (name, err)
    for raw in (b"\xff\xfe not utf-8", b"{", b"[]", b""):
        path.write_bytes(raw)
        assert main(["replay", str(path)]) == 2, raw
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert main(["replay", str(tmp_path / "nope.json")]) == 2


def test_replay_png_dir_that_cannot_be_created(tmp_path, capsys):
    from polyenv.cli import main

    _record(tmp_path)
    (tmp_path / "file").write_text("x")
    assert main(["replay", str(tmp_path / "game.json"), "--render", "none", "--png-dir", str(tmp_path / "file")]) == 2
    assert "--png-dir" in capsys.readouterr().err


def test_colours_only_on_a_terminal():
    r = run("play", "--map-size", "8", "--seed", "1", "--max-turns", "2")  # stdout is a pipe
    assert r.returncode == 0, r.stderr
    assert "\x1b[" not in r.stdout and "turn 0/2, " in r.stdout
    forced = run("play", "--map-size", "8", "--seed", "1", "--max-turns", "2", "--render", "ansi")
    assert "\x1b[" in forced.stdout


def test_python_dash_m_polyenv():
    env = dict(os.environ)
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in env["PYTHONPATH"].split(os.pathsep) if p)
    r = subprocess.run([sys.executable, "-m", "polyenv", "play", "--map-size", "8", "--seed", "2", "--max-turns", "2",
                        "--render", "none"], capture_output=True, text=True, timeout=120, env=env,
                       cwd=Path(__file__).resolve().parent)
    assert r.returncode == 0 and "winner:" in r.stdout, r.stderr
    r = subprocess.run([sys.executable, "-m", "polyenv", "play", "--bots", ","], capture_output=True, text=True,
                       timeout=120, env=env, cwd=Path(__file__).resolve().parent)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr


# ---------------------------------------------------------------------------- output into a closed pipe
@pytest.mark.parametrize("args", [["play", "--map-size", "8", "--seed", "1", "--max-turns", "2", "--render", "text"],
                                  ["play", "--map-size", "8", "--seed", "1", "--max-turns", "2", "--final-only"],
                                  ["--help"], ["play", "--help"]])
def test_closed_stdout_ends_quietly(args):
    # `polyenv play | head`: once the reader has gone, the command stops without a traceback
    # (status 1: the output is incomplete; argparse's --help ignores the failed write itself).
    r = run_cli_into_closed_pipe(*args)
    assert r.stderr == "" and r.returncode == (0 if "--help" in args else 1), r.stderr


def test_replay_into_closed_pipe_ends_quietly(tmp_path):
    record = tmp_path / "game.json"
    assert run("play", "--map-size", "8", "--seed", "2", "--max-turns", "2", "--render", "none",
               "--save", record).returncode == 0
    r = run_cli_into_closed_pipe("replay", record, "--render", "text")
    assert r.stderr == "" and r.returncode == 1, r.stderr


# ---------------------------------------------------------------------------- one turn count everywhere
TURN_WORDS = re.compile(r"\b(?:turn|TURN|round|ROUND)s? (\d+)")


def test_max_turns_is_the_last_turn_printed(tmp_path):
    # Turns are numbered from 0 as Tribes' tick; --max-turns L is the last one played (turns 0..L).
    record = tmp_path / "game.json"
    r = run("play", "--map-size", "8", "--seed", "3", "--max-turns", "2", "--render", "text", "--save", record)
    assert r.returncode == 0, r.stderr
    assert "turn limit 2" in r.stdout and "game over in turn 2 of 2" in r.stdout, r.stdout[-400:]
    assert not re.search(r"\bround", r.stdout, re.I)
    assert max(int(n) for n in TURN_WORDS.findall(r.stdout)) == 2
    shown = [int(n) for n in re.findall(r"^turn (\d+)/2\b", r.stdout, re.M)]
    assert shown[:3] == [0, 1, 2] and shown[-1] == 2  # one map per turn, then the final one
    replay = run("replay", record, "--render", "text", "--png-dir", tmp_path / "png")
    assert replay.returncode == 0, replay.stderr
    assert "game over in turn 2 of 2" in replay.stdout and not re.search(r"\bround", replay.stdout, re.I)
    assert max(int(n) for n in TURN_WORDS.findall(replay.stdout)) == 2
    assert sorted(p.name for p in (tmp_path / "png").glob("*.png")) == [
        "final.png", "turn_000.png", "turn_001.png", "turn_002.png"]


def test_records_of_earlier_versions_still_replay(tmp_path):
    # Earlier records kept GameEnv.turn at the end as "turns" (3 for a game that ends in turn 2).
    record = _record(tmp_path)
    assert record["result"]["turn"] == 3
    record["result"]["turns"] = record["result"].pop("turn") + 1
    legacy = tmp_path / "legacy.json"
    legacy.write_text(json.dumps(record))
    r = run("replay", legacy, "--render", "none")
    assert r.returncode == 0 and "replay matches the recorded result" in r.stdout, r.stderr
    record["result"]["turns"] += 1
    legacy.write_text(json.dumps(record))
    assert run("replay", legacy, "--render", "none").returncode == 1


# ---------------------------------------------------------------------------- videos and pages
def _hide_modules(folder, *names):
    """A folder of packages that fail to import, as when they are not installed."""
    for name in names:
        (folder / name).mkdir(parents=True)
        (folder / name / "__init__.py").write_text(f"raise ImportError({'No module named ' + repr(name)!r})\n")
    return folder


@pytest.mark.parametrize("option, hidden, needs", [("--gif", ("imageio", "imageio_ffmpeg"), "imageio"),
                                                   ("--mp4", ("imageio", "imageio_ffmpeg"), "imageio"),
                                                   ("--mp4", ("imageio_ffmpeg",), "imageio-ffmpeg")])
def test_video_without_imageio_is_refused_before_any_work(tmp_path, option, hidden, needs):
    record = tmp_path / "game.json"
    assert run("play", "--map-size", "8", "--seed", "2", "--max-turns", "2", "--render", "none",
               "--save", record).returncode == 0
    out = tmp_path / f"game.{option[2:]}"
    r = run("replay", record, option, out, path_first=_hide_modules(tmp_path / "hidden", *hidden))
    assert r.returncode == 2 and r.stdout == "", (r.stdout, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1 and needs in r.stderr and "pip install" in r.stderr, r.stderr
    assert "polyenv[media]" in r.stderr and not out.exists()


def test_writing_a_file_prints_no_maps_unless_asked(tmp_path):
    record = tmp_path / "game.json"
    assert run("play", "--map-size", "8", "--seed", "2", "--max-turns", "2", "--render", "none",
               "--save", record).returncode == 0
    maps = re.compile(r"^turn \d+/2, ", re.M)
    for option, value in (("--html", tmp_path / "game.html"), ("--png-dir", tmp_path / "png")):
        quiet = run("replay", record, option, value)
        assert quiet.returncode == 0, quiet.stderr
        assert not maps.search(quiet.stdout) and "replay matches the recorded result" in quiet.stdout
        assert any(line.startswith("wrote ") for line in quiet.stdout.splitlines())
        shown = run("replay", record, option, value, "--render", "text")
        assert shown.returncode == 0 and len(maps.findall(shown.stdout)) >= 4  # turns 0..2 and the end
    plain = run("replay", record)  # no file written: the maps as before
    assert len(maps.findall(plain.stdout)) >= 4


def test_media_extra_is_small_and_part_of_test():
    tomllib = pytest.importorskip("tomllib")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert sorted(r.split(">")[0].split("=")[0] for r in extras["media"]) == ["imageio", "imageio-ffmpeg"]
    assert any("media" in r for r in extras["test"] if r.startswith("polyenv["))


def test_text_maps_mark_every_player_and_print_a_legend():
    r = run("play", "--players", "4", "--map-size", "10", "--seed", "1", "--max-turns", "1", "--render", "text")
    assert r.returncode == 0, r.stderr
    assert "players: A p0 Bardur, B p1 Imperius, C p2 Xin-Xi, D p3 Oumaji" in r.stdout
    first_map = r.stdout.split("turn 0/1, ", 1)[1].splitlines()[1:11]
    cities = {c[0] for row in first_map for c in row.split(" ") if len(c) > 1 and c[1].isdigit()}
    units = {row[k + 3] for row in first_map for k in range(0, len(row), 5) if row[k + 2:k + 3].strip()}
    assert cities == units == set("ABCD"), first_map


# ---------------------------------------------------------------------------- bench from an installed package
def test_bench_runs_from_an_installed_package(installed_package):
    # An install has no benchmarks/ folder: bench runs the parts shipped in polyenv/_bench.
    site, workdir = installed_package
    env = dict(os.environ, PYTHONPATH=str(site))
    r = subprocess.run([sys.executable, "-m", "polyenv.cli", "bench", "--seconds", "6"], capture_output=True,
                       text=True, env=env, cwd=workdir, timeout=240)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    table = r.stdout[r.stdout.index("benchmark  status"):].splitlines()[2:]
    assert [row.split()[:2] for row in table] == [["engine", "ok"], ["vector", "ok"], ["gym", "ok"], ["aec", "ok"]]
    assert "act/s" in table[0] and "env-steps/s" in table[1] and "overhead" in table[2] and "AEC overhead" in table[3]
