"""VectorGameEnv throughput, printed as ratios measured in one run.

    PYTHONPATH=. python benchmarks/vector.py            # 256 envs, 11x11, 2 players, Amax 256, K 0

Every variant plays uniformly random legal actions chosen in NumPy from the
previous batch (the choice itself is not timed). Figures are the best of
``--repeats`` runs, interleaved so that background load hits every variant
alike. Reported:

* env-steps/s of ``step_into`` (exact: every byte written) with 1 and 2 threads, and their ratio, with the
  CPU time per env-step (work efficiency) and the cores the process really got
  (on a shared machine the wall-clock ratio is bounded by the free cores);
* ``step_into`` vs a Python loop over ``GameEnv.step`` + ``observe`` that builds
  the same batch (same keys, dtypes and shapes);
* ``step_into`` vs the allocating ``step``;
* ``step_into(..., buffers_untouched=True)`` (the opt-in fast path) vs exact ``step_into``, 1 thread
  (benchmarks/buffers_untouched.py measures that ratio alone, over interleaved rounds);
* bytes written per env-step with ``buffers_untouched=True`` (zeros already in place in reused
  buffers — padding action rows, unexplored tiles — are not rewritten), and the split of a step between encoding (timed
  as ``observe_slots_into`` of every row: the same encoder work without any
  game change) and game logic (the remainder: legality check, transition,
  automatic resets), both in process CPU time with 1 thread.
"""
from __future__ import annotations

import argparse
import inspect
import os
import time

import numpy as np

from polyenv import Bardur, GameEnv, Imperius, VectorGameEnv, game_description
from polyenv.vector import allocate

EXPLORED = game_description().map_token_columns["explored"]


def choose(batch, rng):
    counts = batch["legal_action_count"]
    rows = np.minimum((rng.random(len(counts)) * counts).astype(np.int64), counts - 1)
    return batch["action_id"][np.arange(len(counts)), rows].astype(np.int32, copy=False)


def make(args, threads):
    return VectorGameEnv(args.envs, seed=args.seed, map_size=args.map_size, players=(Bardur, Imperius),
                         num_threads=threads, max_actions=args.max_actions, visible_event_history=0)


def run_native(args, threads, mode):
    """(wall seconds, process CPU seconds) spent inside the env calls for args.steps steps of every env."""
    wall, cpu, _ = time_native(args, threads, mode)
    return wall, cpu


def time_native(args, threads, mode):
    """(wall, process CPU, calling thread's CPU) seconds spent inside the env calls for args.steps
    steps of every env. With one thread only the calling thread works, so its CPU time can never
    exceed the wall time; process CPU time above that is another thread of the process (not the env)."""
    env = make(args, threads)
    rng = np.random.default_rng(args.seed)
    buffers = allocate(env.batch_spec())
    promise = untouched_keyword(env) if mode == "step_into_untouched" else {}
    env.reset_into(buffers, seed=args.seed, **promise)
    batch = buffers
    ids = np.arange(env.num_envs)
    spent = cpu = caller = 0.0
    for _ in range(args.steps):
        actions = choose(batch, rng)
        c0, h0, t0 = time.process_time(), time.thread_time(), time.perf_counter()
        if mode in ("step_into", "step_into_untouched"):
            env.step_into(actions, buffers, **promise)
        elif mode == "step":
            batch = env.step(actions)
        elif mode == "observe_into":
            env.observe_slots_into(ids, buffers)
        spent += time.perf_counter() - t0
        caller += time.thread_time() - h0
        cpu += time.process_time() - c0
        if mode == "observe_into":  # keep the games moving (untimed) so positions match a real run
            env.step_into(actions, buffers)
    env.close()
    return spent, cpu, caller


def untouched_keyword(env) -> dict:
    """The opt-in fast path's keyword, ``{"buffers_untouched": True}``; an older build without it
    (its ``*_into`` calls took the fast path by default) gets none."""
    return {"buffers_untouched": True} if "buffers_untouched" in inspect.signature(env.step_into).parameters else {}


def row_bytes(spec) -> int:
    """Bytes of one row of every field of a batch spec."""
    return sum(int(np.prod(f["shape"][1:])) * np.dtype(f["dtype"]).itemsize for f in spec.values())


def bytes_per_env_step(args) -> float:
    """Mean bytes one env-step of ``step_into(..., buffers_untouched=True)`` writes into buffers it
    reuses: a whole row, except the zeros already in place — features and arg mask of action rows
    that were and stay padding, tokens of tiles that were and stay unexplored — which a build with
    buffer reuse (it has ``VectorGameEnv.forget_buffers``) does not rewrite under that promise.
    (Exact ``step_into`` writes the whole row.)"""
    env = make(args, 1)
    spec = env.batch_spec()
    full, B, A, T = row_bytes(spec), env.num_envs, env.max_actions, env.num_tiles
    if not hasattr(env, "forget_buffers"):
        env.close()
        return float(full)
    # Bytes of one action row (action_features + action_arg_mask) and of one map token, from the spec.
    action_row = sum(int(np.prod(spec[k]["shape"][2:])) * np.dtype(spec[k]["dtype"]).itemsize
                     for k in ("action_features", "action_arg_mask"))
    tile = int(np.prod(spec["map_tokens"]["shape"][2:])) * np.dtype(spec["map_tokens"]["dtype"]).itemsize
    rng = np.random.default_rng(args.seed)
    buffers = allocate(spec)
    promise = untouched_keyword(env)
    env.reset_into(buffers, seed=args.seed, **promise)
    total = 0
    for _ in range(args.steps):
        old = buffers["legal_action_count"].copy()
        old_fog = buffers["map_tokens"][:, :, EXPLORED] == 0
        env.step_into(choose(buffers, rng), buffers, **promise)
        kept_fog = int((old_fog & (buffers["map_tokens"][:, :, EXPLORED] == 0)).sum())
        # valid rows and rows that turned from valid to padding get features; every tile but kept fog
        total += ((full - A * action_row - T * tile) * B + action_row * int(np.maximum(old, buffers["legal_action_count"]).sum())
                  + tile * (B * T - kept_fog))
    env.close()
    return total / (B * args.steps)


class PythonLoop:
    """The same batch built by a Python loop over GameEnv.step + observe."""

    def __init__(self, args):
        self.args = args
        self.games = [GameEnv(seed=args.seed + i, map_size=args.map_size, players=(Bardur, Imperius))
                      for i in range(args.envs)]
        self.episode = [0] * args.envs
        spec = make_spec(args)
        self.buffers = allocate(spec)

    def step(self, actions):
        b, A = self.buffers, self.args.max_actions
        for i, (g, a) in enumerate(zip(self.games, actions.tolist())):
            actor = g.current_player
            g.step(a)
            reward, done = 0.0, 0
            if g.game_over:
                reward, done = (1.0 if g.winner == actor else -1.0), 1
                self.episode[i] += 1
                g = self.games[i] = GameEnv(seed=self.args.seed + i + self.episode[i] * self.args.envs,
                                            map_size=self.args.map_size, players=(Bardur, Imperius))
            o = g.observe(max_actions=A)
            for key in ("map_tokens", "state", "action_id", "action_features", "action_arg_mask", "action_mask",
                        "legal_action_count", "total_legal_action_count", "action_truncated"):
                b[key][i] = o[key]
            b["reward"][i], b["terminated"][i], b["action_valid"][i] = reward, done, 1
            b["env_id"][i], b["state_id"][i], b["episode_id"][i] = i, g.state_id, g.episode_id
        return b


def make_spec(args):
    env = make(args, 1)
    spec = env.batch_spec()
    env.close()
    return spec


def run_python(args, steps):
    loop = PythonLoop(args)
    rng = np.random.default_rng(args.seed)
    for i, g in enumerate(loop.games):
        o = g.observe(max_actions=args.max_actions)
        loop.buffers["action_id"][i], loop.buffers["legal_action_count"][i] = o["action_id"], o["legal_action_count"]
    batch = loop.buffers
    spent = 0.0
    for _ in range(steps):
        actions = choose(batch, rng)
        t0 = time.perf_counter()
        batch = loop.step(actions)
        spent += time.perf_counter() - t0
    return spent


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--map-size", type=int, default=11)
    p.add_argument("--max-actions", type=int, default=256)
    p.add_argument("--steps", type=int, default=100, help="steps of every environment per native run")
    p.add_argument("--python-steps", type=int, default=8, help="steps per Python-loop run")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--seed", type=int, default=1234)
    args = p.parse_args()

    best, cpu_rate, cores = {}, {}, {}
    variants = [("step_into", 1), ("step_into", 2), ("step_into_untouched", 1), ("step", 2), ("observe_into", 1),
                ("python", 1)]
    for _ in range(args.repeats):
        for mode, threads in variants:
            if mode == "python":
                steps = args.python_steps
                seconds, cpu = run_python(args, steps), None
            else:
                steps = args.steps
                seconds, cpu = run_native(args, threads, mode)
            key, rate = (mode, threads), args.envs * steps / seconds
            if rate > best.get(key, 0.0):
                best[key] = rate
                if cpu:
                    cores[key] = cpu / seconds
            if cpu:
                cpu_rate[key] = max(cpu_rate.get(key, 0.0), args.envs * steps / cpu)

    written = bytes_per_env_step(args)
    one, two = best[("step_into", 1)], best[("step_into", 2)]
    alloc, py = best[("step", 2)], best[("python", 1)]
    # CPU seconds encoding per env-step / CPU seconds per env-step (1 thread; CPU time is
    # far less disturbed than wall time by other processes on a shared machine).
    encode_share = cpu_rate[("step_into", 1)] / cpu_rate[("observe_into", 1)]
    print(f"VectorGameEnv benchmark: {args.envs} envs, {args.map_size}x{args.map_size}, 2 players, "
          f"max_actions={args.max_actions}, K=0, uniform random legal actions (best of {args.repeats})")
    for t, rate in ((1, one), (2, two)):
        key = ("step_into", t)
        print(f"  step_into, {t} thread{'s' if t > 1 else ' '}     : {rate:12,.0f} env-steps/s  "
              f"({cpu_rate[key]:,.0f} per CPU-second; {cores[key]:.2f} cores busy during the calls)")
    fast = best[("step_into_untouched", 1)]
    print(f"  step_into, 1 thread, buffers_untouched=True: {fast:12,.0f} env-steps/s "
          f"({cpu_rate[('step_into_untouched', 1)]:,.0f} per CPU-second)")
    print(f"  step (allocating), 2 thr : {alloc:12,.0f} env-steps/s")
    print(f"  Python loop over GameEnv : {py:12,.0f} env-steps/s")
    print(f"  ratio 2 threads / 1 thread        : {two / one:6.2f}x  (work efficiency, CPU time per env-step "
          f"1 thread / 2 threads: {cpu_rate[('step_into', 2)] / cpu_rate[('step_into', 1)]:.2f}; "
          f"the machine has {os.cpu_count()} logical CPUs, load average {os.getloadavg()[0]:.1f})")
    print(f"  ratio step_into / Python loop     : {two / py:6.1f}x  (1 thread: {one / py:.1f}x)")
    print(f"  ratio step_into / step            : {two / alloc:6.2f}x")
    print(f"  ratio buffers_untouched / exact   : {fast / one:6.2f}x  (1 thread; per CPU-second "
          f"{cpu_rate[('step_into_untouched', 1)] / cpu_rate[('step_into', 1)]:.2f}x)")
    print(f"  bytes written per env-step        : {written:,.0f} of a {row_bytes(make_spec(args)):,}-byte row "
          f"with buffers_untouched=True (zeros already in place are not rewritten; exact: the whole row)")
    print(f"  CPU-time split of a step          : observation encoding incl. legal enumeration "
          f"{100 * encode_share:.0f}%, transition (legality check, apply, auto-reset) "
          f"{100 * (1 - encode_share):.0f}%")


if __name__ == "__main__":
    main()
