"""Engine speed: native random play next to the Java Tribes framework's figures.

For 11x11 2-player and 16x16 4-player games, once with ``full_observability=True``
(the Java framework's setting) and once with fog of war, this measures:

* **actions/s** — ``GameEnv.playout`` (native loop, GIL released, single thread):
  uniform over the *full* legal list rebuilt after every action, no observation
  encoding, no event journal (``record_events=False``); map generation excluded;
* **games/s** — whole games per second including ``reset`` (map generation + setup);
* **legal actions per decision** — mean / p95 / max over every decision of the same
  games (``Game.playout_stats``: the same playout, also returning the list sizes);
* **event journal** — the same games with ``record_events`` off and on (ratio);
* **greedy bot** — decisions per second of the built-in greedy bot (greedy vs greedy);
* **clone** — ns per copy of the state measured natively (``polyenv/_bench/clone.py``, ``Game.clone_benchmark``),
  median over random positions of different games, each the best of 5 timed batches: copy-assign into a reused state (what a
  search tree does) and copy-construct (a fresh state, like Java's ``GameState.copy``);
  plus ``GameEnv.clone()`` from Python, overhead included.

The Java anchors below were recorded earlier on the project's development machine (forward model
``GameState.advance``, full legal list rebuilt after every action, random agents, Capitals mode, full
observability); ``benchmarks/engine_vs_java.py --java DIR`` (source tree) measures the Java forward
model and polyenv side by side in one run instead. Ratios are polyenv / Java for throughput, Java /
polyenv for the copy time (both: bigger is better); legal counts show polyenv / Java means.

Usage: ``python -m polyenv._bench.engine [--quick] [--seconds S]`` (or ``python benchmarks/engine.py``
in the source tree). ``--quick`` takes about 10 s (or the POLYENV_BENCH_SECONDS budget set by
``polyenv bench``).
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

import polyenv
from polyenv import GameEnv
from polyenv._bench.clone import JAVA_COPY_US, SCENARIOS, measure_clone
from .._core import _testing

# The Java Tribes framework (recorded on the project's development machine).
JAVA = {
    "11x11 2p": dict(actions_per_s=61_600, legal_mean=26.6, legal_p95=81, legal_max=298),
    "16x16 4p": dict(actions_per_s=52_400, legal_mean=37.2, legal_p95=110, legal_max=401),
}


def measure_play(name: str, full_obs: bool, seconds: float, min_games: int = 3) -> dict:
    """Plays seeded random games until `seconds` of playout time are used."""
    env = GameEnv(seed=0, full_observability=full_obs, **SCENARIOS[name])
    games = actions = 0
    play_time = reset_time = 0.0
    while play_time < seconds or games < min_games:
        t0 = time.perf_counter()
        env.reset(seed=games)
        t1 = time.perf_counter()
        n = env.playout(seed=games, record_events=False)
        t2 = time.perf_counter()
        assert env.game_over
        reset_time += t1 - t0
        play_time += t2 - t1
        actions += n
        games += 1
    return dict(games=games, actions=actions, actions_per_s=actions / play_time,
                games_per_s=games / (play_time + reset_time), actions_per_game=actions / games)


def measure_legal(name: str, full_obs: bool, games: int) -> dict:
    """Legal-list size of every decision of the first `games` games (the same seeds as measure_play)."""
    env = GameEnv(seed=0, full_observability=full_obs, **SCENARIOS[name])
    counts = []
    for g in range(games):
        env.reset(seed=g)
        counts.append(_testing.playout_stats(env.native, -1, g))
        assert env.game_over
    c = np.concatenate(counts)
    return dict(decisions=len(c), legal_mean=float(c.mean()), legal_p95=float(np.percentile(c, 95)),
                legal_max=int(c.max()))


def measure_journal(seconds: float) -> dict:
    """The same seeded random games (11x11 2p, fog) with the event journal off and on."""
    rates = {}
    for record in (False, True):
        env = GameEnv(seed=0)
        actions, elapsed, game = 0, 0.0, 0
        while elapsed < seconds:
            env.reset(seed=game)
            t0 = time.perf_counter()
            actions += env.playout(seed=game, record_events=record)
            elapsed += time.perf_counter() - t0
            game += 1
        rates[record] = actions / elapsed
    return dict(off=rates[False], on=rates[True])


def measure_greedy(seconds: float) -> dict:
    """Greedy bot decisions per second (greedy vs greedy, 11x11 2p): choosing and applying."""
    env = GameEnv(seed=0)
    decisions, elapsed, game = 0, 0.0, 0
    while elapsed < seconds:
        env.reset(seed=game)
        t0 = time.perf_counter()
        while not env.game_over:
            decisions += polyenv.bots.play_turn(env, "greedy", seed=decisions)
        elapsed += time.perf_counter() - t0
        game += 1
    return dict(decisions_per_s=decisions / elapsed, games=game)


def fmt(x: float, digits: int = 0) -> str:
    return f"{x:,.{digits}f}"


def main(argv=None) -> None:
    """Prints the engine table and its summary line (``--quick``: a short run for ``polyenv bench``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="about 10 s (or POLYENV_BENCH_SECONDS)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="playout seconds per configuration (default 10; quick: budget / 8)")
    args = parser.parse_args(argv)
    quick = args.quick or os.environ.get("POLYENV_BENCH_QUICK") == "1"
    budget = float(os.environ.get("POLYENV_BENCH_SECONDS", "16")) if quick else None
    per_config = args.seconds if args.seconds is not None else (max(budget / 8, 0.3) if quick else 10.0)
    legal_games = 10 if quick else 50
    positions, iterations = (4, 2000) if quick else (20, 20000)

    print(f"polyenv {polyenv.__version__} engine benchmark: single thread, uniform random over the full legal list "
          f"rebuilt after every action, no observation encoding, record_events=False")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, load {load:.1f}; "
          f"{per_config:.1f} s of playout per configuration, legal counts over {legal_games} games, "
          f"clone over {positions} positions x {iterations} copies")
    print()
    header = (f"{'config':<10} {'obs':<5} {'games':>6} {'act/game':>9} {'actions/s':>11} {'x Java':>7} "
              f"{'games/s':>8} {'legal mean':>10} {'p95':>5} {'max':>5} {'copy ns':>8} {'new ns':>7} "
              f"{'x Java':>7} {'py clone us':>11}")
    print(header)
    print("-" * len(header))
    summary = []
    for name in SCENARIOS:
        java = JAVA[name]
        for full_obs in (True, False):
            play = measure_play(name, full_obs, per_config)
            legal = measure_legal(name, full_obs, min(legal_games, play["games"]) if quick else legal_games)
            clone = measure_clone(name, full_obs, positions, iterations)
            speedup = play["actions_per_s"] / java["actions_per_s"]
            copy_speedup = JAVA_COPY_US[name] * 1000 / clone["construct_ns"]
            print(f"{name:<10} {'full' if full_obs else 'fog':<5} {play['games']:>6} {play['actions_per_game']:>9.0f} "
                  f"{fmt(play['actions_per_s']):>11} {speedup:>6.1f}x {play['games_per_s']:>8.1f} "
                  f"{legal['legal_mean']:>10.1f} {legal['legal_p95']:>5.0f} {legal['legal_max']:>5d} "
                  f"{clone['assign_ns']:>8.0f} {clone['construct_ns']:>7.0f} {copy_speedup:>6.1f}x "
                  f"{clone['py_clone_us']:>11.1f}")
            if full_obs:
                summary.append(f"{name} {fmt(play['actions_per_s'])} act/s ({speedup:.1f}x a recorded Java figure)")
        print(f"{'Java':<10} {'full':<5} {'':>6} {'':>9} {fmt(java['actions_per_s']):>11} {'1.0x':>7} {'':>8} "
              f"{java['legal_mean']:>10.1f} {java['legal_p95']:>5} {java['legal_max']:>5} {'':>8} "
              f"{JAVA_COPY_US[name] * 1000:>7.0f} {'1.0x':>7} {'':>11}")
        print()
    print("copy ns = native copy-assign into a reused state; new ns = native copy-construct (Java's copy() "
          "allocates); x Java for the copy compares new ns with GameState.copy.")
    print("x Java divides by the Java figures recorded on another day (machines vary by 1.5x from day to day):"
          " an orientation, not a reference; benchmarks/engine_vs_java.py runs Java side by side.")
    journal = measure_journal(per_config / 2)
    print(f"event journal (11x11 2p, fog): off {fmt(journal['off'])} act/s, on {fmt(journal['on'])} act/s, "
          f"on/off {journal['on'] / journal['off']:.2f}")
    greedy = measure_greedy(per_config / 2)
    print(f"greedy bot (11x11 2p, greedy vs greedy, {greedy['games']} games): "
          f"{fmt(greedy['decisions_per_s'])} decisions/s")
    print("summary: " + "; ".join(summary))


if __name__ == "__main__":
    main()
