"""Gymnasium layer cost: TribesVectorEnv against the raw native batch and Gymnasium's vector envs.

One run prints environment steps per second of these loops (N = 64 games,
11x11, Bardur vs Imperius, the native random opponent, one simulation thread
each so every loop uses one core, and is timed in CPU seconds of the calling thread,
``time.thread_time``, so other load on the machine does not distort the ratios;
Async is timed in wall seconds, since its work runs in other processes):

* ``raw step_into``  — ``VectorGameEnv.step_into`` into pinned buffers (the floor);
* ``raw into x2``    — ``step_into`` alternating between two buffer sets (as ``copy=False``);
* ``raw step``       — ``VectorGameEnv.step`` (fresh arrays every step, as ``copy=True``);
* ``Tribes global``  — ``TribesVectorEnv.step``, ``action_mode="global"`` (the
  [N, 25452] action mask is kept up to date natively);
* ``Tribes rows``    — ``TribesVectorEnv.step``, ``action_mode="rows"``;
* ``... nc``         — the same with ``copy=False`` (double-buffered views, no allocation),
  compared with ``step_into`` and with ``raw into x2`` (same buffers); ``copy=True`` with ``step``;
* ``Sync 64``        — ``gymnasium.vector.SyncVectorEnv`` of 64 ``TribesEnv``;
* ``Async 64``       — ``gymnasium.vector.AsyncVectorEnv`` of 64 ``TribesEnv``
  (64 worker processes; ``--no-async`` skips it).

Every loop plays the same policy: a uniformly random represented legal action
per game, chosen with whole-batch NumPy from the previous step's legal rows
(outside the timed region, so only the environment is measured); the raw and
Tribes loops play identical games (same seeds, same choices). The loops run
interleaved in short rounds, and the ratios
asked by the Gymnasium issue are printed from the same run:
overhead of ``TribesVectorEnv.step`` over ``step_into`` (target <= 15%), and
TribesVectorEnv vs Sync (target >= 20x) and vs Async.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import polyenv
from polyenv.envs.gym_env import TribesEnv
from polyenv.vector import TribesVectorEnv, allocate

N = 64
_clock = time.thread_time  # CPU seconds of this thread (the simulation thread too: num_threads=1)
KW = dict(map_size=11, opponent="random", max_actions=512)  # --max-actions changes the row capacity


def _pick(rng, ids: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """A uniformly random represented legal row per game -> (rows int64 [B], global ids int32 [B])."""
    rows = (rng.random(len(counts)) * counts).astype(np.int64)
    return rows, ids[np.arange(len(counts)), rows].astype(np.int32)


class Raw:
    """``mode``: "into" (one pinned buffer set), "into x2" (two alternating sets, as copy=False) or "step"."""

    def __init__(self, seed, mode="into"):
        self.name = {"into": "raw step_into", "into x2": "raw into x2", "step": "raw step"}[mode]
        self.mode = mode
        self.env = polyenv.VectorGameEnv(num_envs=N, seed=seed, map_size=11, num_threads=1,
                                         max_actions=KW["max_actions"], opponent="random",
                                         keep_terminal_observation=True)
        self.bufs = [allocate(self.env.batch_spec()) for _ in range(2 if mode == "into x2" else 1)]
        self.buf = self.bufs[0]
        self.env.reset_into(self.buf, seed=seed)
        self.rng = np.random.default_rng(seed)

    def run(self, steps):
        t = 0.0
        for _ in range(steps):
            _, ids = _pick(self.rng, self.buf["action_id"], self.buf["legal_action_count"])
            t0 = _clock()
            if self.mode == "step":
                self.buf = self.env.step(ids)  # fresh arrays, as TribesVectorEnv's copy=True
            else:
                target = self.bufs[-1] if self.buf is self.bufs[0] else self.bufs[0]
                self.env.step_into(ids, target)
                self.buf = target
            t += _clock() - t0
        return t

    def close(self):
        self.env.close()


class Tribes:
    def __init__(self, seed, action_mode, copy=True):
        self.name = f"Tribes {action_mode}{'' if copy else ' nc'}"
        self.rows_mode = action_mode == "rows"
        self.env = TribesVectorEnv(num_envs=N, num_threads=1, action_mode=action_mode, copy=copy, seed=seed, **KW)
        self.env.reset(seed=seed)
        self.rng = np.random.default_rng(seed)

    def run(self, steps):
        t = 0.0
        for _ in range(steps):
            b = self.env._batch
            rows, ids = _pick(self.rng, b["action_id"], b["legal_action_count"])
            actions = rows if self.rows_mode else ids
            t0 = _clock()
            self.env.step(actions)
            t += _clock() - t0
        return t

    def close(self):
        self.env.close()


class GymVector:
    def __init__(self, seed, kind):
        self.name = f"{kind} {N}"
        self.clock = _clock if kind == "Sync" else time.perf_counter
        fns = [lambda: TribesEnv(**KW) for _ in range(N)]
        self.env = gym.vector.SyncVectorEnv(fns) if kind == "Sync" else gym.vector.AsyncVectorEnv(fns)
        _, self.infos = self.env.reset(seed=seed)
        self.rng = np.random.default_rng(seed)

    def run(self, steps):
        t = 0.0
        for _ in range(steps):
            _, ids = _pick(self.rng, self.infos["legal_global_ids_padded"], self.infos["legal_action_count"])
            t0 = self.clock()
            _, _, _, _, self.infos = self.env.step(ids)
            t += self.clock() - t0
        return t

    def close(self):
        self.env.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=30, help="interleaved rounds (default 30)")
    parser.add_argument("--steps", type=int, default=12, help="vector steps per loop per round (default 12)")
    parser.add_argument("--no-async", action="store_true", help="skip AsyncVectorEnv (64 processes)")
    parser.add_argument("--max-actions", type=int, default=512, help="action-row capacity (default 512)")
    args = parser.parse_args()
    KW["max_actions"] = args.max_actions

    loops = [Raw(1), Raw(1, "into x2"), Raw(1, "step"), Tribes(1, "global"), Tribes(1, "global", copy=False), Tribes(1, "rows"),
             Tribes(1, "rows", copy=False), GymVector(1, "Sync")]
    if not args.no_async:
        loops.append(GymVector(1, "Async"))
    times = {loop.name: 0.0 for loop in loops}
    steps = {loop.name: 0 for loop in loops}
    for loop in loops:  # warm-up
        loop.run(3)
    for _ in range(args.rounds):
        for loop in loops:
            # Gymnasium's vector envs are slow: fewer steps keep the run short (rates are per step).
            n = args.steps if loop.name.startswith(("raw", "Tribes")) else max(1, args.steps // 6)
            times[loop.name] += loop.run(n)
            steps[loop.name] += n * N
    for loop in loops:
        loop.close()

    rate = {k: steps[k] / times[k] for k in times}
    print(f"N={N} games, 11x11, 2 players, random opponent, max_actions={args.max_actions}, 1 simulation thread, "
          f"{args.rounds} interleaved rounds (thread CPU time; Async: wall time)")
    print(f"{'loop':<16}{'env steps/s':>14}{'us/env step':>14}")
    for k, r in rate.items():
        print(f"{k:<16}{r:>14,.0f}{1e6 / r:>14.2f}")
    raw = rate["raw step_into"]
    print()
    for mode in ("Tribes global nc", "Tribes rows nc", "Tribes global", "Tribes rows"):
        print(f"overhead {mode:<17} vs raw step_into: {100 * (raw / rate[mode] - 1):6.1f}%   (target <= 15%)")
    print(f"native cost of two alternating buffer sets (raw into x2 vs step_into): "
          f"{100 * (raw / rate['raw into x2'] - 1):6.1f}%")
    # copy=False steps into two alternating sets, as "raw into x2" does: the rest is the Python layer.
    for mode in ("Tribes global nc", "Tribes rows nc"):
        print(f"overhead {mode:<17} vs raw into x2:   {100 * (rate['raw into x2'] / rate[mode] - 1):6.1f}%   "
              f"(same buffers)")
    # copy=True returns fresh arrays every step, as the allocating native step does.
    for mode in ("Tribes global", "Tribes rows"):
        print(f"overhead {mode:<17} vs raw step:      {100 * (rate['raw step'] / rate[mode] - 1):6.1f}%   "
              f"(same allocation)")
    for mode in ("Tribes global", "Tribes rows"):
        print(f"speed-up {mode:<15} vs Sync {N}:       {rate[mode] / rate[f'Sync {N}']:6.1f}x   (target >= 20x)")
        if f"Async {N}" in rate:
            print(f"speed-up {mode:<15} vs Async {N}:      {rate[mode] / rate[f'Async {N}']:6.1f}x   (reported)")


if __name__ == "__main__":
    main()
