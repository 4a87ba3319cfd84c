"""Throughput of AlphaZero self-play (polyenv.train.alphazero) measured in one run.

    PYTHONPATH=. python benchmarks/alphazero.py --native-games 12 --native-simulations 64
    PYTHONPATH=. python benchmarks/alphazero.py --envs 64 --moves 12 --simulations 16

With ``--native-games N`` (the default loop, ``selfplay="native"``): N self-play games of the
native az player (``az:<--native-simulations>`` with the shipped weights, root Gumbel noise) on 1
and on 2 worker processes, the same seeds: positions/s, network evaluations/s (positions x
simulations, an upper bound: a position with one legal action is not searched) and the ratio.

Otherwise the pool loop (``selfplay="pool"``): for the same games (seed, B = ``--envs``,
``--simulations`` search rounds per move, the shipped az network in torch):

* self-play positions/s and leaf evaluations/s with 1 thread (pool and torch) and with 2,
  and their ratio;
* the share of the actor's time in the network (torch forward on leaf batches) and in the
  pool (selection, expansion/backup, root policy, stepping);
* actor and learner together (the training loop's layout: a learner thread beside the actor,
  one torch thread each) against each alone: positions/s and learner steps/s.

Wall-clock rates on a shared machine move with its load; the ratios compare phases measured
back to back in one process.
"""
from __future__ import annotations

import argparse
import threading
import time

import numpy as np
import torch

from polyenv import az_network
from polyenv.train.alphazero import Learner, SelfPlay
from polyenv.train.az_net import load_weights
from polyenv.train.config import AlphaZeroConfig
from polyenv.train.replay import ReplayBuffer


def selfplay_rate(cfg: AlphaZeroConfig, moves: int, threads: int, warmup: int = 2) -> dict:
    torch.set_num_threads(threads)
    net = load_weights(az_network.SHIPPED_WEIGHTS)
    sp = SelfPlay(cfg, net, seed=cfg.seed)
    if threads != 1:  # the pool's own worker threads
        sp.pool.close()
        from polyenv import MctsPool
        sp.pool = MctsPool(num_envs=cfg.envs, seed=cfg.seed, map_size=cfg.map_size, num_threads=threads,
                           max_actions=cfg.max_actions, require_all_actions=False, c_puct=cfg.c_puct,
                           max_pending_leaves_per_tree=cfg.pending_leaves, dirichlet_alpha=cfg.dirichlet_alpha,
                           dirichlet_fraction=cfg.dirichlet_fraction, full_observability=True)
        sp.live = sp.pool.reset()
    for _ in range(warmup):
        sp.move()
    sp.leaves, sp.time_network, sp.time_pool = 0, 0.0, 0.0
    t0 = time.perf_counter()
    for _ in range(moves):
        sp.move()
    wall = time.perf_counter() - t0
    out = {"positions/s": moves * cfg.envs / wall, "leaves/s": sp.leaves / wall,
           "network share": sp.time_network / (sp.time_network + sp.time_pool),
           "pool share": sp.time_pool / (sp.time_network + sp.time_pool)}
    sp.close()
    return out


def native_selfplay_rate(games: int, simulations: int, workers: int, seed: int = 3) -> dict:
    """Self-play games of the native az player on ``workers`` processes (the training loop's default)."""
    from polyenv.train.expert import expert_chunks
    teacher = f"az:{simulations}@{az_network.SHIPPED_WEIGHTS}"
    t0 = time.perf_counter()
    positions = sum(len(c) for c in expert_chunks(games, teacher, seed=seed, workers=workers, temperature_moves=0))
    wall = time.perf_counter() - t0
    return {"positions/s": positions / wall, "evaluations/s": positions * simulations / wall, "positions": positions}


def together(cfg: AlphaZeroConfig, moves: int, seconds: float) -> dict:
    """Actor alone, learner alone, then both at once (one torch thread each)."""
    torch.set_num_threads(1)
    net = load_weights(az_network.SHIPPED_WEIGHTS)
    buffer, lock = ReplayBuffer(100_000), threading.Lock()
    sp = SelfPlay(cfg, load_weights(az_network.SHIPPED_WEIGHTS), seed=cfg.seed + 1)
    while sp.positions < 4 * cfg.batch:  # positions for the learner (timing only: open games closed as draws)
        for c in sp.move():
            buffer.add(c)
    for env in range(cfg.envs):
        buffer.add(sp.builder.finish(env, np.zeros(sp.players, np.float32)))
    learner = Learner(net, cfg, buffer, lock)
    learner.cfg = AlphaZeroConfig(**{**cfg.__dict__, "replay_ratio": 1e12})
    t0 = time.perf_counter()
    steps = 0
    while time.perf_counter() - t0 < seconds:
        learner.step()
        steps += 1
    alone_steps = steps / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for _ in range(moves):
        sp.move()
    alone_positions = moves * cfg.envs / (time.perf_counter() - t0)
    stop = threading.Event()
    thread = threading.Thread(target=learner.run, args=(stop,))
    start_steps = learner.steps
    t0 = time.perf_counter()
    thread.start()
    for _ in range(moves):
        sp.move()
    stop.set()
    thread.join()
    wall = time.perf_counter() - t0
    sp.close()
    return {"actor alone positions/s": alone_positions, "learner alone steps/s": alone_steps,
            "together positions/s": moves * cfg.envs / wall, "together steps/s": (learner.steps - start_steps) / wall}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--moves", type=int, default=12)
    p.add_argument("--simulations", type=int, default=16)
    p.add_argument("--pending-leaves", type=int, default=2)
    p.add_argument("--learner-seconds", type=float, default=20.0)
    p.add_argument("--native-games", type=int, default=0, help="measure native self-play with this many games")
    p.add_argument("--native-simulations", type=int, default=64)
    args = p.parse_args()
    if args.native_games:
        print(f"native az self-play: {args.native_games} games of az:{args.native_simulations} (shipped weights), "
              "11x11, 2 players, full observability")
        rates = {w: native_selfplay_rate(args.native_games, args.native_simulations, w) for w in (1, 2)}
        for w, r in rates.items():
            print(f"  {w} worker{'s' if w > 1 else ' '}: {r['positions/s']:7.1f} positions/s  "
                  f"{r['evaluations/s']:8.0f} network evaluations/s (at most)  ({r['positions']} positions)")
        print(f"  2 workers / 1 worker: {rates[2]['positions/s'] / rates[1]['positions/s']:.2f}x")
        return
    cfg = AlphaZeroConfig(envs=args.envs, simulations=args.simulations, pending_leaves=args.pending_leaves, seed=3)
    print(f"AlphaZero self-play: B={cfg.envs}, {cfg.simulations} simulations per move, {cfg.pending_leaves} pending "
          f"leaves per tree, A={cfg.max_actions}, {args.moves} moves per measurement, shipped az network in torch")
    rates = {t: selfplay_rate(cfg, args.moves, t) for t in (1, 2)}
    for t, r in rates.items():
        print(f"  {t} thread{'s' if t > 1 else ' '}: {r['positions/s']:8.1f} positions/s {r['leaves/s']:9.1f} leaf "
              f"evaluations/s   network {100 * r['network share']:4.1f} %  pool {100 * r['pool share']:4.1f} %")
    print(f"  2 threads / 1 thread: positions {rates[2]['positions/s'] / rates[1]['positions/s']:.2f}x, "
          f"leaves {rates[2]['leaves/s'] / rates[1]['leaves/s']:.2f}x")
    both = together(cfg, args.moves, args.learner_seconds)
    print(f"  actor alone {both['actor alone positions/s']:.1f} positions/s, learner alone "
          f"{both['learner alone steps/s']:.2f} steps/s (batch {cfg.batch})")
    print(f"  together    {both['together positions/s']:.1f} positions/s and {both['together steps/s']:.2f} steps/s: "
          f"{both['together positions/s'] / both['actor alone positions/s']:.2f}x and "
          f"{both['together steps/s'] / both['learner alone steps/s']:.2f}x of each alone")


if __name__ == "__main__":
    main()
