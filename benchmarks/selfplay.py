"""SelfPlayPool throughput with NumPy stand-in models.

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
actor changes were re-determinized.

With ``--history H`` (H > 0) it also plays each configuration on two pools in lockstep,
``visible_action_history=0`` and ``=H``, on identical games (the stand-ins ignore the history,
so both search and play the same moves; each phase is timed on both pools back to back, in
alternating order) and prints the cost of the compact visible-action history per phase as a
ratio, the extra bytes per leaf row and the history store's memory. ``--warmup`` random real
moves first give the histories some length; ``--history-only`` skips the throughput run. (These ratios use process CPU time, summed over
threads, which a loaded machine disturbs less than wall time.) Keep runs short on a shared machine::

    PYTHONPATH=. python benchmarks/selfplay.py --moves 3 --rounds 8
    PYTHONPATH=. python benchmarks/selfplay.py --num-envs 64 --moves 3 --rounds 4 --history 256 --warmup 40
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import polyenv
from polyenv.selfplay.beliefs import empty_world_completion
from polyenv.vector import allocate

STARS = polyenv.game_description().state_columns["player_stars"]


def stand_in(leaves: dict, players: int, max_actions: int):
    """A NumPy policy/value stand-in: uniform logits, a value from the state features."""
    L = len(leaves["leaf_id"])
    logits = np.zeros((L, max_actions), np.float32)
    s = leaves["state"][:, STARS].astype(np.float32)
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
        beliefs = empty_world_completion(np.repeat(allp["map_tokens"][:, :, None], particles, axis=2), request=req,
                                         pool=pool)
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


def random_moves(pool, buffers, moves, rng):
    """Plays `moves` uniformly random real moves (no search) through the request buffers."""
    for _ in range(moves):
        pick = (rng.random(pool.num_envs) * buffers["legal_action_count"]).astype(np.int64)
        actions = buffers["action_id"][np.arange(pool.num_envs), pick].astype(np.int32)
        pool.step_into_checked(actions, buffers["state_id"], buffers)


def history_cost(num_envs, map_size, players, particles, threads, moves, rounds, max_actions, pending, H, warmup):
    """Times every phase on pools with visible_action_history 0 and H playing the same games in lockstep."""
    pools = [polyenv.SelfPlayPool(num_envs, seed=1, map_size=map_size, players=players, num_threads=threads,
                                  max_actions=max_actions, max_pending_leaves_per_tree=pending,
                                  visible_action_history=h) for h in (0, H)]
    P = pools[0].player_count
    t = [dict(step=0.0, req=0.0, allp=0.0, submit=0.0, select=0.0, backup=0.0) for _ in pools]
    flip = [False]

    def both(key, fn):
        """fn(i) on both pools, timed, in alternating order; returns the two results."""
        out = [None, None]
        flip[0] = not flip[0]
        for i in ((0, 1) if flip[0] else (1, 0)):
            a = time.process_time()  # CPU time of all threads: less disturbed by other processes than wall time
            out[i] = fn(i)
            t[i][key] += time.process_time() - a
        return out

    # Caller-owned buffers (the *_into path): the timings are the pools' work, not NumPy allocation.
    reqs = [allocate(p.belief_batch_spec()) for p in pools]
    allp = [allocate(p.all_player_belief_batch_spec()) for p in pools]
    leaves = [allocate(p.leaf_batch_spec()) for p in pools]
    for i in (0, 1):
        pools[i].reset_into(reqs[i], seed=1)
        random_moves(pools[i], reqs[i], warmup, np.random.default_rng(0))
    rng = np.random.default_rng(1)
    leaf_rows, memory = 0, None
    for _ in range(moves):
        both("allp", lambda i: pools[i].all_player_belief_requests_into(allp[i]))
        both("req", lambda i: pools[i].belief_requests_into(reqs[i]))
        beliefs = empty_world_completion(np.repeat(allp[0]["map_tokens"][:, :, None], particles, axis=2),
                                         request=reqs[0], pool=pools[0])
        try:
            both("submit", lambda i: pools[i].submit_beliefs(reqs[i]["state_id"], beliefs))
        except ValueError:
            pass  # a rejected hypothesis: this move is played without search (both pools alike)
        else:
            for _ in range(rounds):
                n = both("select", lambda i: pools[i].select_leaves_into(leaves[i]))
                assert n[0] == n[1], "the two pools must play the same games"
                if n[0] == 0:
                    break
                prefix = {k: v[: n[0]] for k, v in leaves[0].items()}
                logits, values = stand_in(prefix, P, pools[0].max_actions)
                both("backup", lambda i: pools[i].expand_and_backup(leaves[i]["leaf_id"][: n[0]], logits, values))
                leaf_rows += n[0]
            memory = pools[1]._native._history_memory()
        roots = [p.root_policy() for p in pools]
        pick = (rng.random(num_envs) * roots[0]["action_mask"].sum(axis=1)).astype(np.int64)
        actions = roots[0]["action_id"][np.arange(num_envs), pick].astype(np.int32)
        both("step", lambda i: pools[i].step_into_checked(actions, roots[i]["state_id"], reqs[i]))
    spec_bytes = [sum(int(np.prod(v["shape"][1:])) * v["dtype"].itemsize for v in p.leaf_batch_spec(1).values())
                  for p in pools]
    lengths = pools[1].all_player_belief_requests()["visible_action_history_length"]
    for p in pools:
        p.close()
    print(f"  visible_action_history={H} vs 0 (*_into path, A={max_actions}, {warmup} random + {moves} searched moves, {leaf_rows} leaf rows, "
          f"mean history length {lengths.mean():.0f}; ratio of CPU times, >1 = slower):")
    for key, label in (("step", "step_checked"), ("req", "belief_requests"), ("allp", "all_player_belief_requests"),
                       ("submit", "submit_beliefs"), ("select", "select_leaves"), ("backup", "expand_and_backup")):
        if t[0][key] > 0:
            print(f"    {label:28s} {t[1][key] / t[0][key]:6.2f}x  ({t[0][key] * 1e3:9.1f} ms -> {t[1][key] * 1e3:9.1f} ms)")
    print(f"    bytes per leaf row          +{spec_bytes[1] - spec_bytes[0]} ({spec_bytes[1]} total)")
    if memory:
        print(f"    history store after a search: {memory['bytes'] / 2**20:.2f} MiB, {memory['live_entries']} live + "
              f"{memory['tree_entries']} tree entries, {memory['tree_nodes']} tree nodes "
              f"(an H-row copy per node would be {memory['tree_nodes'] * H * 48 / 2**20:.1f} MiB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--particles", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--moves", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--pending", type=int, default=4)
    parser.add_argument("--history", type=int, default=0, help="H > 0: also measure visible_action_history=H")
    parser.add_argument("--warmup", type=int, default=0, help="random real moves before the --history comparison")
    parser.add_argument("--history-only", action="store_true", help="with --history: skip the throughput run")
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
        if args.history_only and args.history > 0:
            print(f"{map_size}x{map_size} {len(players)}p B={args.num_envs} K={args.particles} threads={args.threads}")
        else:
            off = run(*config, redet=False)
            on = run(*config, redet=True)
            if off[0] and on[0]:
                print(f"  with / without re-determinization: search rate {on[0] / off[0]:.2f}x; native CPU per "
                      f"simulation: selection {on[1] / off[1]:.2f}x, selection + encoding {on[2] / off[2]:.2f}x")
        if args.history > 0:
            # The history's cost does not depend on A: a small exact A keeps two pools' leaf buffers small.
            history_cost(*config[:7], min(max_actions or 2048, 2048), *config[8:], args.history, args.warmup)


if __name__ == "__main__":
    main()
