"""SelfPlayPool throughput with NumPy stand-in models (seed 002 / issue 15).

For each configuration (default: B=256, K=4, 11x11 2 players and 16x16 4 players,
2 threads) it plays a few real moves of the full lifecycle

    all_player_belief_requests -> stand-in belief completion -> submit_beliefs
    -> rounds x (select_leaves -> stand-in policy/value -> expand_and_backup)
    -> root_policy -> step_checked

and prints, measured in the same run: belief submission rows/s (particles validated and
built per second), simulations/s (leaves backed up), leaf rows/s (select_leaves alone),
bytes per leaf row, the cost of all_player_belief_requests (O(B*P*tiles)) and its ratio to
the ordinary [B] belief_requests packet. Each configuration runs twice in the same process,
with per-player re-determinization at actor changes (the default) and without it (trees
stay in the actor's belief world), and prints the ratio of their search rates and how many
actor changes were re-determinized. Keep runs short on a shared machine::

    PYTHONPATH=. python benchmarks/selfplay.py --moves 3 --rounds 8
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import polyenv
from polyenv.selfplay.beliefs import empty_world_completion


def stand_in(leaves: dict, players: int, max_actions: int):
    """A NumPy policy/value stand-in: uniform logits, a value from the state features."""
    L = len(leaves["leaf_id"])
    logits = np.zeros((L, max_actions), np.float32)
    s = leaves["state"][:, 4].astype(np.float32)  # stars
    values = np.tanh(s / 50.0) if players == 2 else np.tanh(np.outer(s, np.ones(players)) / 50.0)
    return logits, values.astype(np.float32)


def run(num_envs, map_size, players, particles, threads, moves, rounds, max_actions, pending, redet=True):
    """Plays ``moves`` real moves of the lifecycle; prints the figures and returns the search rate."""
    pool = polyenv.SelfPlayPool(num_envs, seed=1, map_size=map_size, players=players, num_threads=threads,
                                max_actions=max_actions, max_pending_leaves_per_tree=pending)
    switch = getattr(pool._native, "_set_redeterminize", None)  # absent in builds before re-determinization
    if switch is not None:
        switch(redet)
    counters = np.zeros(3, np.int64)
    cpu = np.zeros(3, np.int64)  # native worker CPU ns: selection, leaf encoding, expansion + backup
    P = pool.player_count
    req = pool.reset(seed=1)
    spec = pool.leaf_batch_spec(1)
    leaf_bytes = sum(int(np.prod(v["shape"][1:])) * v["dtype"].itemsize for v in spec.values())
    t = dict(allp=0.0, req=0.0, fill=0.0, submit=0.0, select=0.0, backup=0.0)
    rows = dict(submit=0, select=0, backup=0, rejected=0)
    rng = np.random.default_rng(0)
    for _ in range(moves):
        t0 = time.perf_counter()
        allp = pool.all_player_belief_requests()
        t1 = time.perf_counter()
        pool.belief_requests()
        t2 = time.perf_counter()
        beliefs = empty_world_completion(np.repeat(allp["map_tokens"][:, :, None], particles, axis=2), request=req)
        t3 = time.perf_counter()
        t["allp"] += t1 - t0
        t["req"] += t2 - t1
        t["fill"] += t3 - t2
        try:
            pool.submit_beliefs(req["state_id"], beliefs)
        except ValueError:
            rows["rejected"] += 1
        else:
            t["submit"] += time.perf_counter() - t3
            rows["submit"] += num_envs * P * particles
            cpu0 = np.array(pool._native._timing(), np.int64)
            for _ in range(rounds):
                a = time.perf_counter()
                leaves = pool.select_leaves()
                b = time.perf_counter()
                n = len(leaves["leaf_id"])
                if n == 0:
                    break
                logits, values = stand_in(leaves, P, pool.max_actions)
                c = time.perf_counter()
                pool.expand_and_backup(leaves["leaf_id"], logits, values)
                t["select"] += b - a
                t["backup"] += time.perf_counter() - c
                rows["select"] += n
                rows["backup"] += n
            cpu += np.array(pool._native._timing(), np.int64) - cpu0
            if switch is not None:
                counters += pool._native._redeterminize_stats()
        root = pool.root_policy()
        count = root["action_mask"].sum(axis=1)
        pick = (rng.random(num_envs) * count).astype(np.int64)
        req = pool.step_checked(root["action_id"][np.arange(num_envs), pick], root["state_id"])
    pool.close()
    mode = "re-determinization " + ("on" if redet else "off") if switch is not None else "no re-determinization"
    name = f"{map_size}x{map_size} {P}p B={num_envs} K={particles} threads={threads} A={pool.max_actions}, {mode}"
    print(name)
    if rows["submit"]:
        print(f"  submit_beliefs              {rows['submit'] / t['submit']:12.0f} particles/s "
              f"({rows['submit']} particles, {rows['rejected']} of {moves} submissions rejected)")
    else:
        print(f"  submit_beliefs              every submission rejected ({rows['rejected']})")
    if rows["select"]:
        print(f"  select_leaves               {rows['select'] / t['select']:12.0f} leaf rows/s")
        print(f"  expand_and_backup           {rows['backup'] / t['backup']:12.0f} simulations/s")
        print(f"  search (select + backup)    {rows['backup'] / (t['select'] + t['backup']):12.0f} simulations/s")
        us = cpu / rows["backup"] / 1e3
        print(f"  native worker CPU per simulation: selection {us[0]:.2f} us, leaf encoding {us[1]:.2f} us, "
              f"expansion + backup {us[2]:.2f} us")
    print(f"  bytes per leaf row          {leaf_bytes:12d}")
    print(f"  all_player_belief_requests  {t['allp'] / moves * 1e3:12.2f} ms/call "
          f"({num_envs * P / (t['allp'] / moves):.0f} player rows/s); "
          f"ratio to belief_requests {t['allp'] / t['req']:.2f}x")
    print(f"  (stand-in completion, not the pool: {t['fill'] / moves * 1e3:.2f} ms/call)")
    if switch is not None:
        print(f"  actor changes re-determinized {counters[0]}, kept (fallback) {counters[1]}, "
              f"own actions skipped {counters[2]}")
    if not rows["select"]:
        return 0.0, 0.0, 0.0
    return rows["backup"] / (t["select"] + t["backup"]), cpu[0] / rows["backup"], cpu[:2].sum() / rows["backup"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--particles", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--moves", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--pending", type=int, default=4)
    parser.add_argument("--max-actions", type=int, default=None,
                        help="action rows A for both configurations (default: 0 = all for 11x11, 512 for 16x16)")
    args = parser.parse_args()
    # The 4-player 16x16 action space has ~88k ids; A=512 rows with require_all_actions=True
    # raises instead of truncating if a position ever has more.
    for map_size, players, max_actions in ((11, (polyenv.Bardur, polyenv.Imperius), 0),
                                           (16, (polyenv.Bardur, polyenv.Imperius, polyenv.Oumaji,
                                                 polyenv.XinXi), 512)):
        if args.max_actions is not None:
            max_actions = args.max_actions
        config = (args.num_envs, map_size, players, args.particles, args.threads, args.moves, args.rounds,
                  max_actions, args.pending)
        if not hasattr(polyenv.SelfPlayPool(1, map_size=map_size, players=players)._native, "_set_redeterminize"):
            run(*config)
            continue
        off = run(*config, redet=False)
        on = run(*config, redet=True)
        if off[0] and on[0]:
            print(f"  with / without re-determinization: search rate {on[0] / off[0]:.2f}x; native CPU per "
                  f"simulation: selection {on[1] / off[1]:.2f}x, selection + encoding {on[2] / off[2]:.2f}x")


if __name__ == "__main__":
    main()
