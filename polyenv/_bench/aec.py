"""AEC (PettingZoo) steps per second next to the same random loop on GameEnv.

Random legal actions, 2 and 4 players on the default boards (11x11, 14x14),
games restarted when they end. Loops, each timed for the same number of
seconds in one run:

* ``GameEnv raw``      — ``legal_actions()``, pick one, ``step``;
* ``GameEnv + obs``    — the same plus ``observe(current player)`` each action
  (the work an agent that looks at its observation needs);
* ``AEC last()``       — ``tribes_aec_v0.raw_env``: ``last()`` (observation +
  action mask), pick a legal id, ``step``;
* ``AEC wrapped``      — the same through ``tribes_aec_v0.env()`` (PettingZoo's
  classic wrappers);
* ``AEC no-obs``       — ``last(observe=False)``, pick a legal id, ``step``.

The AEC loops pick from ``legal_actions()`` of the raw env (the mask's nonzero
ids), so the policy's cost stays out of the env's: ``np.flatnonzero`` over an
int8 mask of ~25,000 ids alone costs ~0.1 ms (view it as bool first: ~10 us).

Prints steps per CPU second (the loops run interleaved, so a busy machine
slows them alike) and the ratios raw/AEC (the AEC layer's overhead factor).
``--quick`` (or POLYENV_BENCH_QUICK=1, set by ``polyenv bench``) shortens the
runs to fit POLYENV_BENCH_SECONDS.

Usage: ``python -m polyenv._bench.aec [--quick] [--seconds S]`` (or ``python benchmarks/aec.py`` in
the source tree).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import polyenv
from polyenv.envs import default_map_size, tribes_aec_v0


class GameLoop:
    """A random-legal-action loop on GameEnv (optionally observing the current player each action)."""

    def __init__(self, players: int, observe: bool, seed: int = 0):
        tribes = tribes_aec_v0.DEFAULT_TRIBES[:players]
        self.game = polyenv.GameEnv(seed=seed, map_size=default_map_size(players), players=tribes)
        self.rng, self.observe = np.random.default_rng(seed), observe

    def run(self, steps: int) -> None:
        """Applies ``steps`` actions (restarting finished games)."""
        game, rng, observe = self.game, self.rng, self.observe
        for _ in range(steps):
            if game.game_over:
                game.reset()
            if observe:
                game.observe(game.current_player, max_actions=1)
            legal = game.legal_actions()
            game.step(int(legal[rng.integers(len(legal))]))


class AecLoop:
    """A random-legal-action AEC loop; every ``step`` call counts (dead steps included)."""

    def __init__(self, players: int, mode: str, seed: int = 0):
        make = tribes_aec_v0.env if mode == "wrapped" else tribes_aec_v0.raw_env
        self.env = make(players=players)
        self.env.reset(seed=seed)
        self.raw = self.env.unwrapped
        self.rng, self.observe = np.random.default_rng(seed), mode != "no-obs"

    def run(self, steps: int) -> None:
        """Plays ``steps`` AEC steps (restarting finished games)."""
        env, raw, rng, observe = self.env, self.raw, self.rng, self.observe
        for _ in range(steps):
            if not env.agents:
                env.reset()
            _, _, term, trunc, _ = env.last(observe=observe)
            if term or trunc:
                env.step(None)
            else:
                legal = raw.legal_actions()  # the same ids as the mask's nonzeros
                env.step(int(legal[rng.integers(len(legal))]))


def measure(loops: dict, seconds: float, slices: int = 10) -> dict:
    """Steps per CPU second of each loop; the loops run interleaved in ``slices`` rounds so that
    a busy machine slows them alike (CPU time of this process, not wall time)."""
    steps = dict.fromkeys(loops, 0)
    cpu = dict.fromkeys(loops, 0.0)
    for loop in loops.values():
        loop.run(50)  # warm up
    per_slice = seconds / slices
    for _ in range(slices):
        for name, loop in loops.items():
            t0 = time.process_time()
            while time.process_time() - t0 < per_slice:
                loop.run(100)
                steps[name] += 100
            cpu[name] += time.process_time() - t0
    return {name: steps[name] / cpu[name] for name in loops}


def main(argv=None) -> None:
    """Runs the loops for 2 and 4 players and prints a table with the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs (as polyenv bench does)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per loop")
    args = parser.parse_args(argv)
    quick = args.quick or os.environ.get("POLYENV_BENCH_QUICK") == "1"
    if args.seconds is not None:
        per_loop = args.seconds
    elif quick:
        per_loop = max(0.3, float(os.environ.get("POLYENV_BENCH_SECONDS", "7")) / 12)
    else:
        per_loop = 3.0
    print(f"AEC vs GameEnv, random legal actions, {per_loop:.1f} CPU s per loop (interleaved)")
    print(f"{'players':>7} {'board':>6} {'GameEnv raw':>12} {'GameEnv+obs':>12} {'AEC last()':>11} "
          f"{'AEC wrapped':>12} {'AEC no-obs':>11} {'raw/AEC':>8} {'obs/AEC':>8} {'raw/no-obs':>10}")
    overhead = []
    for players in (2, 4):
        rates = measure({"raw": GameLoop(players, observe=False), "obs": GameLoop(players, observe=True),
                         "aec": AecLoop(players, "raw"), "wrapped": AecLoop(players, "wrapped"),
                         "no-obs": AecLoop(players, "no-obs")}, per_loop)
        raw, with_obs, aec, wrapped, no_obs = (rates[k] for k in ("raw", "obs", "aec", "wrapped", "no-obs"))
        n = default_map_size(players)
        print(f"{players:>7} {f'{n}x{n}':>6} {raw:>12,.0f} {with_obs:>12,.0f} {aec:>11,.0f} {wrapped:>12,.0f} "
              f"{no_obs:>11,.0f} {raw / aec:>7.2f}x {with_obs / aec:>7.2f}x {raw / no_obs:>9.2f}x")
        overhead.append(f"{raw / aec:.2f}x ({players}p)")
    print("steps per CPU second; raw/AEC = GameEnv raw loop / AEC last() loop (the AEC layer's overhead factor);")
    print("obs/AEC = the same work on GameEnv (observe + legal + step) / AEC last(); "
          "raw/no-obs = AEC without observation")
    print("AEC overhead raw/AEC: " + ", ".join(overhead))


if __name__ == "__main__":
    main()
