"""MCTS throughput: the native MCTS bot against the Java Tribes MCTS agent, and MctsPool.

    PYTHONPATH=. python benchmarks/mcts.py --java PATH

1. Native MCTS bot iterations/s on one core (one iteration = one PUCT descent,
   one lazily cloned child state, one expansion and one evaluation), timed with
   ``bots.choose(game, "mcts:N")`` (N: the shipped budget) on mid-game 11x11
   2-player positions (greedy self-play for a few rounds), next to the same
   search with the greedy-gain prior at the root only and at every node with
   every action probed (``_core._mcts_play``). With ``--java DIR`` the Java Tribes MCTS agent
   (``AnchorBench mcts entry``: the agent as ``Run.getAgent(MCTS)`` builds it)
   runs in the same invocation, and both rates are printed with their ratio.
   Wall-clock rates depend on the free cores of a shared machine, so the
   native rate is also given per CPU-second, and the JVM's CPU seconds are
   printed next to its wall time.
2. MctsPool with a NumPy uniform evaluator (zero logits, zero values): B = 256
   live 11x11 2-player games, 1 and 4 pending leaves per tree, 1 and 2 threads:
   simulations/s (leaf rows backed up per second, terminal backups excluded),
   bytes per leaf row, the share of worker time spent encoding leaf rows, and
   accounted memory per tree node.
3. Root selection: the same pool and evaluator with PUCT, with
   root_selection="gumbel" (num_simulations = the rounds per move) and with
   Gumbel plus reuse_tree=True, 1 thread, 1 and 4 pending leaves, measured
   interleaved in one run; prints simulations/s and the ratio Gumbel / PUCT.
   ``--sections selection`` runs only this part.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import time

import numpy as np

from polyenv import Bardur, GameEnv, Imperius, MctsPool, _core, bots


def mid_game_positions(count: int, rounds: int, map_size: int) -> list[GameEnv]:
    games = []
    for i in range(count):
        g = GameEnv(seed=500 + i, map_size=map_size)
        while not g.game_over and g.turn < rounds:
            bots.play(g, "greedy", seed=i)
        if not g.game_over:
            games.append(g)
    return games


def native_bot_rate(simulations: int, positions: list[GameEnv], prior_scope: int | None = None) -> tuple[float, float]:
    """(iterations per wall second, per CPU second) of mcts:<simulations> decisions on the positions.

    prior_scope None: the shipped bot (bots.choose; the inherited greedy-gain prior, scope 3). 0: the same
    search with the greedy-gain prior at the root only; 1: every node of the turn probing every action (the
    earlier shipped prior); both run on clones through _core._mcts_play (docs/mcts_pool.md).
    """
    def decide(g: GameEnv, k: int) -> None:
        if prior_scope is None:
            bots.choose(g, f"mcts:{simulations}", seed=k)
        else:
            _core._mcts_play(g.clone().native, simulations, 0, 2.0, 20, 0.0, 1,
                             _core.DEFAULT_MCTS_ROOT_PRIOR_TEMPERATURE, prior_scope, _core.DEFAULT_MCTS_TURN_HORIZON,
                             _core.DEFAULT_MCTS_PROBE_VISITS)

    decide(positions[0], 0)  # warm the scratch tree
    t0, c0 = time.perf_counter(), time.process_time()
    for k, g in enumerate(positions):
        decide(g, k)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    iters = simulations * len(positions)
    return iters / wall, iters / cpu


def java_rate(java_dir: str, decisions: int, warm: float) -> dict:
    """Runs AnchorBench's instrumented MCTS mode; returns its iterations/s and the JVM's wall and CPU seconds."""
    src = os.path.join(java_dir, "src")
    cp = "../build/instr:../build/harness:../build/tribes:lib/json.jar"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(["java", "-Djava.awt.headless=true", "-Xms2g", "-Xmx2g", "-cp", cp, "core.game.AnchorBench",
                          "mcts", "entry", str(decisions), "1", str(warm)], cwd=src, capture_output=True, text=True,
                         check=True).stdout
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = re.search(r"RUN mode=mcts .*act_time_s=([\d.]+).*iters_per_decision=([\d.]+).*iterations_per_s=([\d.]+)", out)
    if not run:
        raise RuntimeError("unexpected AnchorBench output:\n" + out)
    return {"iterations_per_s": float(run.group(3)), "act_time_s": float(run.group(1)),
            "iters_per_decision": float(run.group(2)), "jvm_wall_s": wall,
            "jvm_cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)}


def pool_run(threads: int, pending: int, args, **selection) -> dict:
    """One pool run; ``selection``: MctsPool's root_selection / num_simulations / reuse_tree arguments."""
    pool = MctsPool(args.envs, seed=7, map_size=11, players=(Bardur, Imperius), num_threads=threads,
                    max_actions=args.max_actions, require_all_actions=False,
                    max_pending_leaves_per_tree=pending, **selection)
    pool.reset()
    A = pool.max_actions
    leaf_rows = 0
    spent = 0.0
    cpu = 0.0
    nodes = bytes_ = 0
    for _ in range(args.moves):
        for _ in range(args.rounds):
            t0, c0 = time.perf_counter(), time.process_time()
            leaves = pool.select_leaves()
            L = len(leaves["leaf_id"])
            # The NumPy uniform evaluator: zero logits (a uniform prior) and zero values.
            pool.expand_and_backup(leaves["leaf_id"], np.zeros((L, A), np.float32), np.zeros(L, np.float32))
            spent += time.perf_counter() - t0
            cpu += time.process_time() - c0
            leaf_rows += L
        stats = pool.search_stats()
        nodes += int(stats["nodes"].sum())
        bytes_ += int(stats["bytes"].sum())
        root = pool.root_policy(1.0)
        pool.step_checked(root["selected_action"], root["state_id"])  # PUCT: the most visited row
    select_ns, encode_ns, backup_ns = pool._native._timing()
    spec = pool.leaf_batch_spec(1)
    row_bytes = sum(int(np.prod(f["shape"])) * f["dtype"].itemsize for f in spec.values())
    pool.close()
    return {"rows_per_s": leaf_rows / spent, "rows_per_cpu_s": leaf_rows / cpu, "row_bytes": row_bytes,
            "encode_share": encode_ns / (select_ns + encode_ns + backup_ns),
            "select_share": select_ns / (select_ns + encode_ns + backup_ns), "bytes_per_node": bytes_ / nodes,
            "cores": cpu / spent}


def full_capacity_row_bytes() -> int:
    with MctsPool(1, map_size=11, players=(Bardur, Imperius), max_actions=0) as pool:
        spec = pool.leaf_batch_spec(1)
        return sum(int(np.prod(f["shape"])) * f["dtype"].itemsize for f in spec.values())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--java", default=None, help="the built tribes-speed directory (runs the Java MCTS agent)")
    p.add_argument("--java-decisions", type=int, default=20)
    p.add_argument("--java-warm", type=float, default=10.0)
    p.add_argument("--simulations", type=int, default=_core.DEFAULT_MCTS_SIMULATIONS,
                   help="native bot simulations per decision (default: the shipped budget)")
    p.add_argument("--positions", type=int, default=30)
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--max-actions", type=int, default=256)
    p.add_argument("--rounds", type=int, default=16, help="select/backup rounds per move")
    p.add_argument("--moves", type=int, default=2)
    p.add_argument("--sections", default="bot,pool,selection",
                   help="comma-separated parts to run: bot (native bot, Java), pool, selection")
    args = p.parse_args()
    sections = set(args.sections.split(","))
    print(f"MCTS benchmark ({os.cpu_count()} logical CPUs, load average {os.getloadavg()[0]:.1f})")
    if "bot" in sections:
        bot_section(args)
    if "pool" in sections:
        pool_section(args)
    if "selection" in sections:
        selection_section(args)


def selection_section(args) -> None:
    """PUCT against Gumbel root selection (and Gumbel with subtree reuse), interleaved, one thread."""
    print(f"  Root selection, MctsPool, NumPy uniform evaluator, B={args.envs}, 11x11 2p, "
          f"max_actions={args.max_actions}, {args.rounds} rounds x {args.moves} moves, 1 thread:")
    variants = {"puct": {}, "gumbel": dict(root_selection="gumbel", num_simulations=args.rounds),
                "gumbel+reuse": dict(root_selection="gumbel", num_simulations=args.rounds, reuse_tree=True)}
    for pending in (1, 4):
        best = {name: 0.0 for name in variants}
        share = {}
        for _ in range(2):  # interleaved repeats: the faster of two, same conditions for all
            for name, kw in variants.items():
                r = pool_run(1, pending, args, **kw)
                best[name] = max(best[name], r["rows_per_s"])
                share[name] = r["select_share"]
        for name in variants:
            print(f"    pending {pending}, {name:13s}: {best[name]:10,.0f} simulations (leaf rows)/s, "
                  f"selection {100 * share[name]:4.1f}% of worker time")
        print(f"    pending {pending}, ratio gumbel / puct: {best['gumbel'] / best['puct']:.2f}x, "
              f"gumbel+reuse / puct: {best['gumbel+reuse'] / best['puct']:.2f}x")


def bot_section(args) -> None:
    positions = mid_game_positions(args.positions, 6, 11)
    # Native rates before and after the JVM run (the faster of the two: same conditions as Java's run).
    variants = {"shipped": None, "root": 0, "every": 1}
    rates = {name: native_bot_rate(args.simulations, positions, scope) for name, scope in variants.items()}
    java = java_rate(args.java, args.java_decisions, args.java_warm) if args.java else None
    for name, scope in variants.items():
        again = native_bot_rate(args.simulations, positions, scope)
        rates[name] = (max(rates[name][0], again[0]), max(rates[name][1], again[1]))
    labels = {"shipped": "shipped native MCTS bot (greedy-gain prior inherited from the parent node, prior_scope 3)",
              "root": "same search, greedy-gain prior at the root only (prior_scope 0)",
              "every": "same search, every node probing every action (prior_scope 1)"}
    print(f"  mcts:{args.simulations}, {len(positions)} mid-game 11x11 2p positions (round 6), 1 thread:")
    for name, (wall_rate, cpu_rate) in rates.items():
        print(f"    {labels[name]}:")
        print(f"      {wall_rate:12,.0f} iterations/s wall, {cpu_rate:12,.0f} per CPU-second")
    if java:
        share = java["jvm_cpu_s"] / java["jvm_wall_s"]
        print(f"  Java Tribes MCTS agent (AnchorBench mcts entry, {args.java_decisions} decisions, "
              f"{java['iters_per_decision']:.0f} iterations per decision):")
        print(f"    {java['iterations_per_s']:12,.0f} iterations/s wall (JVM: {java['jvm_cpu_s']:.1f} CPU-s in "
              f"{java['jvm_wall_s']:.1f} wall-s, {share:.2f} cores incl. JIT and GC threads)")
        for name in variants:
            print(f"  ratio {name:8s} / Java (wall-clock iterations/s, same run): "
                  f"{rates[name][0] / java['iterations_per_s']:8.1f}x")


def pool_section(args) -> None:
    print(f"  MctsPool, NumPy uniform evaluator, B={args.envs}, 11x11 2p, max_actions={args.max_actions} "
          f"(require_all_actions=False), {args.rounds} rounds x {args.moves} moves:")
    results = {}
    for pending in (1, 4):
        for threads in (1, 2):
            r = results[(pending, threads)] = pool_run(threads, pending, args)
            print(f"    pending {pending}, {threads} thread{'s' if threads > 1 else ' '}: {r['rows_per_s']:10,.0f} "
                  f"simulations (leaf rows)/s, {r['rows_per_cpu_s']:10,.0f} per CPU-second, "
                  f"leaf encoding {100 * r['encode_share']:4.1f}% of worker time, "
                  f"{r['bytes_per_node']:,.0f} bytes per node")
    r = results[(1, 1)]
    print(f"    bytes per leaf row: {r['row_bytes']:,} at max_actions={args.max_actions}; "
          f"{full_capacity_row_bytes():,} at max_actions=0 (action_space_size, every legal action)")
    print(f"    ratio 2 threads / 1 thread: pending 1 {results[(1, 2)]['rows_per_s'] / results[(1, 1)]['rows_per_s']:.2f}x,"
          f" pending 4 {results[(4, 2)]['rows_per_s'] / results[(4, 1)]['rows_per_s']:.2f}x")


if __name__ == "__main__":
    main()
