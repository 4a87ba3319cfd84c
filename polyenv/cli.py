"""The ``polyenv`` command line: play, replay, bench, check, tournament, train.

* ``polyenv play``   — built-in bots play a whole game; the map every turn (or
  only the final one) and a result table; a ``human`` seat is played at the terminal
  (polyenv/viz/terminal.py); ``--save FILE`` writes a JSON record
  (seed, config, action ids) that ``replay`` re-plays exactly.
* ``polyenv replay FILE`` — re-plays a saved game, renders it, checks the result
  against the record; ``--png-dir DIR`` writes one PNG per turn, ``--gif`` /
  ``--mp4`` a video (imageio: the ``media`` extra), ``--html`` a self-contained page with a
  slider (writing files prints no maps unless ``--render`` asks for them).
* ``polyenv bench``  — the quick benchmarks shipped in ``polyenv/_bench`` (about 30 s; ``--dir`` runs a
  benchmarks folder's scripts instead).
* ``polyenv check``  — the PettingZoo, Gymnasium and SB3 checkers on the shipped
  environments, pass/fail.
* ``polyenv serve``  — a local web app: play against the bots by clicking, watch bot games, open
  records (polyenv/viz/server.py).
* ``polyenv tournament`` — OpenSkill ratings of bots and checkpoints (polyenv/evaluation/cli.py).
* ``polyenv train az`` — AlphaZero-style training of the ``az`` network (polyenv/train/cli.py, torch).

``main(argv)`` returns the exit code (0 = success).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import threading
import time
import traceback
import warnings
from pathlib import Path

import numpy as np

from .description import MAX_MAP_SIZE, MAX_PLAYERS, MAX_TURNS, MIN_MAP_SIZE, MIN_PLAYERS
from .viz.record import (HUMAN, RECORD_FORMAT, check_record, game_from_config, game_record, game_result,
                         load_record)

__all__ = ["main", "load_record", "check_record", "RECORD_FORMAT"]

#: Scripts ``polyenv bench --dir DIR`` runs, in order (DIR/<name>.py); without --dir it runs polyenv/_bench.
BENCH_SCRIPTS = ("engine", "vector", "gym", "aec")


# ---------------------------------------------------------------------------- shared helpers
def _style(render: str, out) -> str:
    """``--render auto`` (default): ANSI colours on a terminal, plain text otherwise."""
    if render != "auto":
        return render
    isatty = getattr(out, "isatty", None)
    return "ansi" if isatty is not None and isatty() else "text"


def _show(game, style: str, out) -> None:
    if style != "none":
        print(game.render("ansi" if style == "ansi" else "text"), file=out, flush=True)


def _result_rows(game, bots=None) -> list[list[str]]:
    rows = []
    for p in range(game.num_players):
        info = game.player(p)
        units = int(game.observe(p, max_actions=1)["state"][game.description.state_columns["owns_units"]])
        result = info["result"] if info["alive"] else "eliminated"
        row = [f"p{p}", info["tribe"]] + ([bots[p]] if bots else []) + [
            result, str(info["score"]), str(info["num_cities"]), str(units), str(info["kills"])]
        rows.append(row)
    return rows


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


def _print_result(game, bots, actions: int, out) -> None:
    header = ["player", "tribe"] + (["bot"] if bots else []) + ["result", "score", "cities", "units", "kills"]
    print(_table(header, _result_rows(game, bots)), file=out)
    w = game.winner
    who = f"p{w} ({game.player(w)['tribe']}{', ' + bots[w] if bots else ''})" if w >= 0 else "none (draw)"
    state = "game over" if game.game_over else "unfinished"
    print(f"winner: {who}; {state} in turn {game.turn_number} of {game.turn_limit}, {actions} actions", file=out,
          flush=True)


# ---------------------------------------------------------------------------- play
def _cmd_play(args) -> int:
    from . import bots as bots_module
    from ._botspec import is_bot
    from .envs import default_map_size
    names = args.bots
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**32)
    level = args.level
    if args.tribes:
        players = args.tribes
    elif level is None:
        from .envs.tribes_aec import DEFAULT_TRIBES
        players = [DEFAULT_TRIBES[i % len(DEFAULT_TRIBES)] for i in range(args.players)]
    else:
        players = None
    size = args.map_size if args.map_size is not None else default_map_size(len(players) if players else 2)
    config = dict(map_size=size, players=players,
                  mode=args.mode, max_turns=args.max_turns, level=level)
    game = game_from_config(seed, config)
    config["players"] = [game.player(p)["tribe"] for p in range(game.num_players)]
    config["map_size"] = game.map_size
    seats = [names[p % len(names)] for p in range(game.num_players)]
    out = sys.stdout
    style = _style(args.render, out)
    print(f"polyenv play: seed {seed}, {game.map_size}x{game.map_size}, {game.num_players} players, "
          f"mode {args.mode}, turn limit {game.turn_limit}, bots {', '.join(seats)}", file=out)
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    shown_turn = -1
    people = _people(seats, style)  # a person's seat sees only its own view: no ground-truth maps then
    quit_early = False
    while not game.game_over:
        if not people and not args.final_only and game.turn != shown_turn:
            shown_turn = game.turn
            _show(game, style, out)
        seat = game.current_player
        if seat in people:
            action = people[seat].choose(game)
            if action is None:
                quit_early = True
                break
            game.step(action)
            actions.append(int(action))
        else:
            actions.append(int(bots_module.play(game, seats[seat], seed=int(rng.integers(2**63)))))
        if args.max_actions is not None and len(actions) >= args.max_actions:
            break
    if not quit_early or not people:
        _show(game, style if style != "none" or not people else "text", out)
        _print_result(game, seats, len(actions), out)
    save = args.save or (f"polyenv-game-{seed}.json" if quit_early else None)
    if save:
        record = game_record(seed, config, seats, game, actions)
        try:  # the folder was checked before the game; a later failure is still one line
            with open(save, "w", encoding="utf-8") as f:
                json.dump(record, f)
        except OSError as e:
            print(f"polyenv play: error: cannot write {save}: {e.strerror}", file=sys.stderr)
            return 1
        print(f"saved {len(actions)} actions to {save}" + (" (polyenv replay plays it)" if quit_early else ""),
              file=out)
    return 0


def _people(seats: list[str], style: str) -> dict:
    """The terminal players of the ``human`` seats (polyenv/viz/terminal.py), by seat."""
    if HUMAN not in seats:
        return {}
    from .viz.terminal import TerminalPlayer
    return {p: TerminalPlayer(p, sys.stdout, sys.stdin, ansi=style == "ansi") for p, s in enumerate(seats) if s == HUMAN}


# ---------------------------------------------------------------------------- replay
def _tile_px(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 16, got {text!r}") from None
    if value < 16:
        raise argparse.ArgumentTypeError(f"must be an integer >= 16, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number > 0, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number > 0, got {text!r}")
    return value


def _write_media(record: dict, args, out) -> int:
    """--gif / --mp4 / --html: re-plays the (already checked) record once per output."""
    from .viz.replay_html import replay_html
    from .viz.replay_media import video_frames, write_video
    actions = record["actions"]
    for path in (args.gif, args.mp4):  # imageio was checked before the replay (_check_media)
        if path is None:
            continue
        game = game_from_config(int(record["seed"]), record["config"])
        n = write_video(video_frames(game, actions, args.frames, args.tile_px or 32), path, args.fps)
        print(f"wrote {n} frames to {path}", file=out)
    if args.html is not None:
        game = game_from_config(int(record["seed"]), record["config"])
        page = replay_html(game, actions, title=f"polyenv replay: {Path(args.file).name}", tile_px=args.tile_px,
                           seats=record.get("bots"))
        Path(args.html).write_text(page, encoding="utf-8")
        print(f"wrote {len(actions) + 1} positions to {args.html}", file=out)
    return 0


def _check_media(args) -> str | None:
    """Why the --gif / --mp4 / --html outputs cannot be written (a file name, a missing package), or None."""
    from .viz.replay_media import missing_video_support
    for path, suffix in ((args.gif, ".gif"), (args.mp4, ".mp4"), (args.html, ".html")):
        if path is not None and not str(path).lower().endswith(suffix):
            return f"--{suffix[1:]} needs a file name ending in {suffix}, got {path!r}"
    for path, option in ((args.gif, "--gif"), (args.mp4, "--mp4")):
        missing = None if path is None else missing_video_support(path)
        if missing is not None:
            return f"{option}: {missing}"
    return None


def _cmd_replay(args) -> int:
    from .viz.render import save_png
    bad = _check_media(args)
    if bad is not None:
        print(f"polyenv replay: error: {bad}", file=sys.stderr)
        return 2
    try:
        record = load_record(args.file)
    except ValueError as e:
        print(f"polyenv replay: {e}", file=sys.stderr)
        return 2
    game = game_from_config(record["seed"], record["config"])
    bots = record.get("bots")
    if bots is not None and len(bots) != game.num_players:
        raise ValueError(f"{args.file}: {len(bots)} bots for {game.num_players} players")
    fingerprint = record.get("action_space_fingerprint")
    if fingerprint is not None and int(fingerprint) != int(game.action_space_fingerprint):
        print("polyenv replay: the record's action-id layout differs from this version's", file=sys.stderr)
        return 1
    png_dir = Path(args.png_dir) if args.png_dir else None
    if png_dir is not None:
        try:
            png_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ValueError(f"--png-dir: cannot create {png_dir}: {e.strerror}") from None
    out, shown_turn, pngs = sys.stdout, -1, 0
    writes_files = any(p is not None for p in (args.gif, args.mp4, args.html, args.png_dir))
    style = _style(args.render or ("none" if writes_files else "auto"), out)  # files: no maps unless asked

    def snapshot(final=False):
        nonlocal pngs
        if not args.final_only or final:
            _show(game, style, out)
        if png_dir is not None:
            name = "final.png" if final else f"turn_{game.turn_number:03d}.png"
            save_png(game.render("rgb_array"), png_dir / name)
            pngs += 1

    for k, action in enumerate(record["actions"]):
        if game.turn != shown_turn:
            shown_turn = game.turn
            snapshot()
        try:
            game.step(action)
        except ValueError as e:
            print(f"polyenv replay: action {k} ({action}) cannot be replayed: {e}", file=sys.stderr)
            return 1
    snapshot(final=True)
    _print_result(game, bots, len(record["actions"]), out)
    if png_dir is not None:
        print(f"wrote {pngs} PNG files to {png_dir}", file=out)
    expected = record.get("result")
    if expected is not None:
        got = game_result(game, legacy="turns" in expected and "turn" not in expected)
        if got != expected:
            print(f"polyenv replay: result differs from the record: {got} != {expected}", file=sys.stderr)
            return 1
        print("replay matches the recorded result", file=out)
    return _write_media(record, args, out)


# ---------------------------------------------------------------------------- serve
def _cmd_serve(args) -> int:
    try:
        from .viz.server import serve
    except ImportError as e:  # starlette / uvicorn are core dependencies; a broken install says which is missing
        print(f"polyenv serve: {e} (pip install starlette uvicorn wsproto)", file=sys.stderr)
        return 1
    try:
        serve(args.host, args.port, args.save_dir)
    except OSError as e:
        print(f"polyenv serve: error: cannot listen on {args.host}:{args.port}: {e.strerror}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl+C is how the server is stopped (uvicorn re-raises it after shutting down)
        pass
    return 0


# ---------------------------------------------------------------------------- bench
def _bench_jobs(args) -> tuple[list, list]:
    """([(label, command, cwd), ...], missing script names): the parts shipped in polyenv/_bench, run as
    ``python -m polyenv._bench.<part> --quick`` from the folder holding this very package (so that the
    child imports it, not another copy), or with ``--dir`` the scripts of a benchmarks folder."""
    root = str(Path(__file__).resolve().parent.parent)
    if args.dir is None:
        from ._bench import PARTS
        return [(n, [sys.executable, "-m", f"polyenv._bench.{n}", "--quick"], root) for n in PARTS], []
    directory = Path(args.dir)
    present = [n for n in BENCH_SCRIPTS if (directory / f"{n}.py").is_file()]
    jobs = []
    for n in present:
        path = directory / f"{n}.py"
        quick = ["--quick"] if "--quick" in path.read_text(encoding="utf-8", errors="replace") else []
        jobs.append((n, [sys.executable, str(path), *quick], None))
    return jobs, [n for n in BENCH_SCRIPTS if n not in present]


def _bar(done: float, total: float, label: str, width: int = 30) -> str:
    frac = min(max(done / total, 0.0), 1.0) if total > 0 else 1.0
    filled = int(round(frac * width))
    return f"\r[{'#' * filled}{'.' * (width - filled)}] {done:5.1f}/{total:.0f}s {label:<12}"


def _cmd_bench(args) -> int:
    jobs, missing = _bench_jobs(args)
    for n in missing:
        print(f"note: benchmarks/{n}.py does not exist; skipped")
    if not jobs:
        print("polyenv bench: none of the benchmark scripts exist", file=sys.stderr)
        return 2
    budget = float(args.seconds)
    per_script = budget / len(jobs)
    env = dict(os.environ, POLYENV_BENCH_QUICK="1", POLYENV_BENCH_SECONDS=f"{per_script:.1f}")
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    tty = sys.stderr.isatty()
    start, results = time.perf_counter(), []
    for name, command, cwd in jobs:
        t0 = time.perf_counter()
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=cwd)
        captured: list[str] = []
        reader = threading.Thread(target=lambda p=proc: captured.extend(p.stdout), daemon=True)
        reader.start()
        limit = per_script + 15  # scripts that ignore the budget are stopped
        status = None
        while proc.poll() is None:
            if tty:
                sys.stderr.write(_bar(time.perf_counter() - start, budget, name))
                sys.stderr.flush()
            if time.perf_counter() - t0 > limit:
                proc.kill()
                status = f"timeout ({limit:.0f}s)"
            time.sleep(0.2)
        proc.wait()
        reader.join(timeout=5)
        seconds = time.perf_counter() - t0
        if status is None:
            status = "ok" if proc.returncode == 0 else f"failed (exit {proc.returncode})"
        if not tty:
            print(f"[{len(results) + 1}/{len(jobs)}] {name}: {status} in {seconds:.1f}s", file=sys.stderr)
        results.append((name, status, seconds, "".join(captured)))
    if tty:
        sys.stderr.write(_bar(time.perf_counter() - start, budget, "done") + "\n")
    for name, status, seconds, output in results:
        print(f"== {name} ({status}, {seconds:.1f}s)")
        print(output.rstrip())
    rows = [[name, status, f"{seconds:.1f}", _last_line(output)] for name, status, seconds, output in results]
    rows += [[n, "missing", "-", "skipped"] for n in missing]
    print(_table(["benchmark", "status", "seconds", "summary"], rows))
    return 0 if all(r[1] == "ok" for r in results) else 1


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1][:80] if lines else ""


# ---------------------------------------------------------------------------- check
def _run_check(name: str, fn, report: list) -> None:
    caught = io.StringIO()
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as w, contextlib.redirect_stdout(caught):
        warnings.simplefilter("always")
        try:
            fn()
            status, detail = "PASS", ""
        except Exception as e:  # every failure is reported, none stops the other checks
            status = "FAIL"
            detail = f"{type(e).__name__}: {e}".splitlines()[0][:200]
            if os.environ.get("POLYENV_CHECK_TRACEBACK"):
                detail += "\n" + traceback.format_exc()
    seconds = time.perf_counter() - t0
    warns = sorted({str(x.message).splitlines()[0][:100] for x in w})
    if warns and status == "PASS":
        detail = f"{len(warns)} distinct warning(s): " + "; ".join(warns[:3])
    print(f"{status}  {name}  ({seconds:.1f}s){'  ' + detail if detail else ''}", flush=True)
    report.append((name, status))


def _gym_env_ids() -> list[str]:
    import gymnasium
    with contextlib.suppress(Exception):
        import polyenv.envs  # noqa: F401  (registers the Gymnasium environments, if any)
    ids = []
    for env_id, spec in gymnasium.registry.items():
        entry = spec.entry_point if isinstance(spec.entry_point, str) else getattr(spec.entry_point, "__module__", "")
        if entry.startswith("polyenv"):
            ids.append(env_id)
    return sorted(ids)


def _make_gym(env_id: str, map_size: int):
    """``gym.make`` for the checkers: a small board, and random (possibly illegal) actions penalised
    rather than raised (the checkers sample the whole action space), when the env takes those options."""
    import gymnasium
    for kwargs in (dict(map_size=map_size, invalid_action="penalty"), dict(invalid_action="penalty"), {}):
        try:
            return gymnasium.make(env_id, **kwargs)
        except TypeError:
            continue
    return gymnasium.make(env_id)


def _cmd_check(args) -> int:
    report: list = []
    players = args.players
    try:
        from pettingzoo.test import api_test, seed_test
        from .envs import tribes_aec_v0
    except ImportError as e:
        print(f"SKIP  PettingZoo checks ({e})")
    else:
        for p in players:
            kwargs = dict(players=p, map_size=args.map_size, max_turns=args.max_turns)
            _run_check(f"pettingzoo api_test tribes_aec_v0 players={p}",
                       lambda kw=kwargs: api_test(tribes_aec_v0.env(**kw), num_cycles=args.cycles), report)
        kwargs = dict(players=players[0], map_size=args.map_size, max_turns=args.max_turns)
        _run_check(f"pettingzoo seed_test tribes_aec_v0 players={players[0]}",
                   lambda: seed_test(lambda: tribes_aec_v0.env(**kwargs), num_cycles=args.cycles), report)
        try:
            from pettingzoo.test import render_test
        except ImportError:
            pass
        else:
            _run_check("pettingzoo render_test tribes_aec_v0",
                       lambda: render_test(lambda render_mode=None: tribes_aec_v0.env(
                           players=players[0], map_size=args.map_size, render_mode=render_mode)), report)
    try:
        import gymnasium
        from gymnasium.utils.env_checker import check_env as gym_check
    except ImportError as e:
        print(f"SKIP  Gymnasium checks ({e})")
        ids = []
    else:
        ids = _gym_env_ids()
        if not ids:
            print("SKIP  Gymnasium checks (polyenv registers no Gymnasium environment yet)")
        for env_id in ids:
            _run_check(f"gymnasium check_env {env_id}",
                       lambda i=env_id: gym_check(_make_gym(i, args.map_size).unwrapped, skip_render_check=False),
                       report)
    try:
        from stable_baselines3.common.env_checker import check_env as sb3_check
    except ImportError:
        print("SKIP  Stable-Baselines3 checks (stable_baselines3 is not installed)")
    else:
        if not ids:
            print("SKIP  Stable-Baselines3 checks (no Gymnasium environment to check)")
        for env_id in ids:
            _run_check(f"sb3 check_env {env_id}", lambda i=env_id: sb3_check(_make_gym(i, args.map_size).unwrapped),
                       report)
    failed = [name for name, status in report if status != "PASS"]
    print(f"{len(report) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


# ---------------------------------------------------------------------------- arguments
# Every argument is checked by its argparse type, so a bad one stops the command
# before any work (a game, a file, a benchmark) with one line and exit status 2.
class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors ("polyenv play: error: ..."), exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _int_in(low: int, high: int | None = None):
    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{value} is outside [{low}, {high if high is not None else 'inf'}]")
        return value
    parse.__name__ = "integer"
    return parse


def _names(text: str) -> list[str]:
    names = [t.strip() for t in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of names, got {text!r}")
    return names


def _bot_list(text: str) -> list[str]:
    from ._botspec import BOT_SYNTAX, is_bot
    from .bots import BOTS
    names = _names(text)
    for b in names:
        if b != HUMAN and not is_bot(b):
            raise argparse.ArgumentTypeError(f"unknown bot {b!r}; choose from {', '.join(BOTS)} "
                                             f"(or {BOT_SYNTAX}), or {HUMAN} to play a seat yourself")
    return names


def _tribe_list(text: str) -> list[str]:
    from ._names import tribe_code
    names = _names(text)
    for t in names:
        try:
            tribe_code(t)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return names


def _player_counts(text: str) -> list[int]:
    parse = _int_in(MIN_PLAYERS, MAX_PLAYERS)
    return [parse(t) for t in _names(text)]


def _level_text(path: str) -> str:
    from ._levels import read_level
    if not os.path.isfile(path):
        raise argparse.ArgumentTypeError(f"no level file {path!r}")
    try:
        return read_level(path)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _writable_file(path: str) -> str:
    """A file that can be written when the game ends: its folder exists and is writable."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise argparse.ArgumentTypeError(f"{path!r} is a directory")
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"the folder {folder!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"the folder {folder!r} is not writable")
    return path


_RENDER = ("auto", "ansi", "text", "none")
_RENDER_HELP = "map style: auto (default: ANSI colours on a terminal, text otherwise), ansi, text or none"


# ---------------------------------------------------------------------------- entry point
def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="polyenv", description="Tribes (Polytopia-like) environments: "
                     "play a game between bots, replay it, benchmark, check the environments.")
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="bots play a whole game; map every turn and a result table")
    play.add_argument("--players", type=_int_in(MIN_PLAYERS, MAX_PLAYERS), default=2,
                      help=f"number of players, {MIN_PLAYERS}..{MAX_PLAYERS} (default 2)")
    play.add_argument("--map-size", type=_int_in(MIN_MAP_SIZE, MAX_MAP_SIZE), default=None, help=f"board side {MIN_MAP_SIZE}..{MAX_MAP_SIZE} (default 11 for 2 "
                      "players, 14 for 3-4, 16 for 5-8, 18 for 9-12, 20 for 13-16)")
    play.add_argument("--bots", type=_bot_list, default=["greedy", "random"],
                      help="comma-separated bots (random, greedy, mcts, mcts:<simulations>, az, az:<simulations>), cycled over the players "
                       "(default greedy,random); human: you play that seat here, from its own view")
    play.add_argument("--tribes", type=_tribe_list, default=None,
                      help="comma-separated tribes (default Bardur,Imperius,Xin-xi,...)")
    play.add_argument("--seed", type=_int_in(0, 2**64 - 1), default=None, help="game seed (default: random, printed)")
    play.add_argument("--render", choices=_RENDER, default="auto", help=_RENDER_HELP)
    play.add_argument("--final-only", action="store_true", help="show only the final map")
    play.add_argument("--level", type=_level_text, default=None, help="a Tribes CSV level file")
    play.add_argument("--mode", choices=("capitals", "score"), default="capitals")
    play.add_argument("--max-turns", type=_int_in(0, MAX_TURNS), default=None,
                      help="the last turn (turns are numbered from 0; default: the mode's, 50 or 30)")
    play.add_argument("--max-actions", type=_int_in(1), default=None, help="stop after this many actions")
    play.add_argument("--save", type=_writable_file, default=None, metavar="FILE",
                      help="write a JSON record of the game (its folder must exist)")

    replay = sub.add_parser("replay", help="re-play a game saved by play --save")
    replay.add_argument("file")
    replay.add_argument("--render", choices=_RENDER, default=None,
                        help=_RENDER_HELP + "; with --png-dir, --gif, --mp4 or --html the default is none")
    replay.add_argument("--final-only", action="store_true", help="show only the final map")
    replay.add_argument("--png-dir", default=None, metavar="DIR", help="write one PNG per turn into DIR")
    # Watchable output (docs/integrations.md): a GIF / MP4 through imageio, a self-contained HTML page.
    replay.add_argument("--gif", default=None, metavar="OUT.gif",
                        help='write an animated GIF (needs imageio: pip install "polyenv[media]")')
    replay.add_argument("--mp4", default=None, metavar="OUT.mp4",
                        help='write an MP4 video (needs imageio and imageio-ffmpeg: pip install "polyenv[media]")')
    replay.add_argument("--html", default=None, metavar="OUT.html",
                        help="write one self-contained HTML page: the web app's viewer with the game (slider, "
                        "play/pause, event log, legend)")
    replay.add_argument("--tile-px", type=_tile_px, default=None, metavar="PX",
                        help="pixels per tile of --gif/--mp4 (default 32) and --html (default: scaled to the window)")
    replay.add_argument("--frames", choices=("turn", "action", "round"), default="turn",
                        help="--gif/--mp4: one frame per turn (default; 'round' is the same) or per action")
    replay.add_argument("--fps", type=_positive_float, default=2.0, help="--gif/--mp4 frames per second (default 2)")

    bench = sub.add_parser("bench", help="quick benchmarks of the engine, VectorGameEnv, Gymnasium and PettingZoo "
                           "layers (about 30 s)")
    bench.add_argument("--seconds", type=_seconds, default=30.0, help="total time budget (default 30)")
    bench.add_argument("--dir", default=None, help="run the scripts engine.py, vector.py, gym.py and aec.py of this "
                       "folder instead (e.g. a source tree's benchmarks/: their longer forms)")

    check = sub.add_parser("check", help="run the PettingZoo / Gymnasium / SB3 checkers")
    check.add_argument("--players", type=_player_counts, default=[2, 4],
                       help="player counts for the PettingZoo checks (default 2,4)")
    check.add_argument("--map-size", type=_int_in(MIN_MAP_SIZE, MAX_MAP_SIZE), default=8, help="board side for the checks (default 8)")
    check.add_argument("--max-turns", type=_int_in(0, MAX_TURNS), default=12,
                       help="turn limit for the checks (default 12)")
    check.add_argument("--cycles", type=_int_in(1), default=200,
                       help="num_cycles of api_test / seed_test (default 200)")

    serve = sub.add_parser("serve", help="a local web app to play against the bots and watch games in a browser")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=_int_in(1, 65535), default=8765, help="port (default 8765)")
    serve.add_argument("--save-dir", default="polyenv-games", metavar="DIR",
                       help="folder of the game records written on request and when a game ends (default polyenv-games)")

    from .evaluation.cli import add_parser as add_tournament  # self-contained subcommand (evaluation/cli.py)
    add_tournament(sub)
    from .train.cli import add_parser as add_train  # self-contained subcommand (train/cli.py)
    add_train(sub)
    return parser


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text} is outside (0, 3600]")
    return value


def main(argv=None) -> int:
    """Runs the ``polyenv`` command line; returns the exit code (2: a bad argument or input file;
    1 also when the reader of stdout went away, as in ``polyenv play | head``, which ends quietly)."""
    try:
        status = _run(argv)
        sys.stdout.flush()  # a closed pipe shows here at the latest, not in the interpreter's last flush
        return status
    except BrokenPipeError:
        _stdout_to_devnull()
        return 1


def _run(argv) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: --help (0) or a bad argument (2, already reported)
        return int(e.code or 0)
    try:
        if getattr(args, "handler", None) is not None:  # subcommands defined in their own modules
            return args.handler(args)
        return {"play": _cmd_play, "replay": _cmd_replay, "bench": _cmd_bench, "check": _cmd_check,
                "serve": _cmd_serve}[args.command](args)
    except ValueError as e:
        print(f"polyenv {args.command}: error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _stdout_to_devnull() -> None:
    """Points stdout at os.devnull once its reader has gone, so that the output still buffered goes
    nowhere instead of failing again when the interpreter exits (Python's recipe for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout is not a file (captured in tests, closed)
        pass


if __name__ == "__main__":
    sys.exit(main())
