"""AlphaZero-style training of the ``"az"`` network (``polyenv train az``).

The loop (every step a field of :class:`AlphaZeroConfig`):

1. **Expert warm start** (expert iteration, optional: ``expert_games``): the native MCTS bot
   ``mcts:<expert_simulations>`` plays itself in worker processes (:mod:`polyenv.train.expert`);
   every decision gives (observation, the bot's sharpened root visit distribution, the game's
   outcome).
2. **Self-play**, until the budget is spent:

   * ``selfplay="native"`` (default): the az player itself — the network's policy as the
     Gumbel root's prior, ``simulations`` evaluations per move, leaf values mixed from the
     value head and the engine's heuristic by ``leaf_value_mix`` — plays rounds of
     ``selfplay_games`` games in worker processes with root Gumbel noise (``gumbel_scale``),
     each round with the learner's newest weights; its improved policy (softmax of the prior's
     logits + σ(completed Q)) is the policy target. This is the search the shipped bot plays,
     so the network learns exactly the policy improvement it will be used for.
   * ``selfplay="pool"``: ``envs`` games at once on :class:`~polyenv.MctsPool` (full
     observability) or, with ``fog=1``, on :class:`~polyenv.SelfPlayPool` with the baseline
     belief (:func:`polyenv.selfplay.beliefs.empty_world_completion`; the agent never reads
     hidden state); every round's leaf batch is evaluated by the torch network (priors and
     values: the pools take the model's values); Gumbel (improved-policy targets, subtree
     reuse) or PUCT (visit-count targets, root noise, ``temperature_moves``).

   A fraction ``fog`` of the games plays under fog of war (the student only ever sees the
   acting player's observation).
3. **Learning** runs in a thread beside the actors (one torch thread): minibatches from a
   :class:`~polyenv.train.replay.ReplayBuffer` of the newest ``buffer`` positions, policy
   cross-entropy over each position's rows plus the value's squared error, AdamW. The
   learner never runs more than ``replay_ratio`` sampled positions per position generated.

Every ``checkpoint_minutes`` the run directory gets ``ckpt_<minutes>.pt`` (model, optimizer,
counters), ``ckpt_<minutes>.paz`` (the native weights, with ``leaf_value_mix``: ``polyenv
tournament --players az:32@<file>,greedy``), ``latest.pt``, ``replay.npz`` and a line of
``log.csv``; ``resume=True`` continues from ``latest.pt``. :func:`learning_curve` then measures
every checkpoint against fixed opponents through :func:`polyenv.evaluation.tournament` and
draws ``learning_curve.png``.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import os
import threading
import time
from pathlib import Path

import numpy as np
import torch

from .. import az_network as spec
from .az_net import AzNet, segment_log_softmax
from .config import AlphaZeroConfig
from .replay import ChunkBuilder, ReplayBuffer

__all__ = ["AlphaZeroConfig", "train", "learning_curve", "leaf_values", "Learner", "SelfPlay", "CURVE_OPPONENTS"]

#: The fixed opponents of the learning curve.
CURVE_OPPONENTS = ("random", "greedy", "mcts:200", "mcts:2000")


# ---------------------------------------------------------------------------- the network on leaf batches
def leaf_values(values: np.ndarray, to_play: np.ndarray, players: int) -> np.ndarray:
    """The pools' value convention from relative-seat values [L, 16]: [L] for the leaf's actor when
    two players, else [L, P] in global player order."""
    if players == 2:
        return np.ascontiguousarray(values[:, 0], np.float32)
    seats = (np.arange(players)[None] - np.asarray(to_play)[:, None]) % players   # global p -> relative seat
    return np.ascontiguousarray(np.take_along_axis(values[:, :players], seats, 1), np.float32)


def evaluate_leaves(net: AzNet, leaves: dict, players: int) -> tuple[np.ndarray, np.ndarray]:
    """(policy_logits float32 [L, A], values) of a leaf batch, ready for ``expand_and_backup``."""
    logits, values = net.dense_logits(leaves)
    return logits, leaf_values(values, leaves["to_play"], players)


# ---------------------------------------------------------------------------- learner
class Learner:
    """The optimisation side: minibatches from the buffer, loss, AdamW; publishes weights."""

    def __init__(self, net: AzNet, cfg: AlphaZeroConfig, buffer: ReplayBuffer, buffer_lock: threading.Lock):
        self.net, self.cfg, self.buffer, self.buffer_lock = net, cfg, buffer, buffer_lock
        self.optimizer = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        self.steps = 0
        self.rng = np.random.default_rng(cfg.seed + 7)
        self.published: dict | None = None
        self.version = 0
        self.weights_lock = threading.Lock()
        self.losses = {"policy": float("nan"), "value": float("nan")}
        self.progress = lambda: 0.0  # the fraction of the run's budget spent (the learning-rate schedule)
        self._ema = {}

    def ready(self) -> bool:
        """Whether a step is allowed now (enough data, within the replay ratio)."""
        cfg = self.cfg
        return len(self.buffer) >= cfg.batch and self.steps * cfg.batch < cfg.replay_ratio * self.buffer.added

    def step(self) -> None:
        """One optimisation step on a minibatch sampled from the replay buffer."""
        with self.buffer_lock:
            b = self.buffer.sample(self.cfg.batch, self.rng)
        self.net.train()
        logits, values = self.net(b["map_tokens"], b["state"], b["features"], b["row_position"], b["steps"])
        n = b["state"].shape[0]
        logp = segment_log_softmax(logits, b["row_position"], n)
        policy_loss = -(b["policy"] * logp).sum() / n
        value_loss = ((values - b["values"]) ** 2 * b["value_mask"]).sum() / b["value_mask"].sum()
        loss = policy_loss + self.cfg.value_weight * value_loss
        lr = self.cfg.lr * (1.0 - (1.0 - self.cfg.lr_final) * min(max(self.progress(), 0.0), 1.0))
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.net.parameters(), 5.0)
        self.optimizer.step()
        self.steps += 1
        for k, v in (("policy", policy_loss.item()), ("value", value_loss.item())):
            self._ema[k] = v if k not in self._ema else 0.98 * self._ema[k] + 0.02 * v
            self.losses[k] = self._ema[k]
        if self.steps % self.cfg.publish_every == 0:
            self.publish()

    def publish(self) -> None:
        """Makes a copy of the current weights the one the acting side loads next."""
        with self.weights_lock:
            self.published = {k: v.detach().clone() for k, v in self.net.state_dict().items()}
            self.version += 1

    def latest(self, known: int) -> tuple[int, dict | None]:
        """(version, weights) when newer than ``known``, else (known, None)."""
        with self.weights_lock:
            return (self.version, self.published) if self.version != known else (known, None)

    def run(self, stop: threading.Event) -> None:
        """Steps until ``stop`` is set (the learner thread)."""
        torch.set_num_threads(1)
        while not stop.is_set():
            if self.ready():
                self.step()
            else:
                time.sleep(0.02)


# ---------------------------------------------------------------------------- actor
class SelfPlay:
    """B games of self-play on a pool, the network evaluating its leaf batches (module docstring)."""

    def __init__(self, cfg: AlphaZeroConfig, net: AzNet, seed: int):
        from ..selfplay import MctsPool, SelfPlayPool
        self.cfg, self.net = cfg, net
        B = cfg.envs
        gumbel = cfg.root_selection == "gumbel"
        common = dict(num_envs=B, seed=seed, map_size=cfg.map_size, num_threads=1, max_actions=cfg.max_actions,
                      require_all_actions=False, auto_reset=True, c_puct=cfg.c_puct,
                      max_pending_leaves_per_tree=cfg.pending_leaves, virtual_loss=1.0,
                      max_nodes_per_tree=max(4 * cfg.simulations * cfg.pending_leaves, 256),
                      root_selection=cfg.root_selection, num_simulations=cfg.simulations if gumbel else None,
                      max_considered_actions=cfg.max_considered, include_combat_preview=True)
        if cfg.fog:  # belief-rooted trees: no root noise, no subtree reuse
            self.pool = SelfPlayPool(**common)
        else:
            noise = not gumbel and cfg.dirichlet_fraction > 0
            self.pool = MctsPool(**common, full_observability=True, reuse_tree=cfg.reuse_tree,
                                 dirichlet_alpha=cfg.dirichlet_alpha if noise else None,
                                 dirichlet_fraction=cfg.dirichlet_fraction)
        self.players = self.pool.player_count
        self.live = self.pool.reset()
        self.moves = np.zeros(B, np.int64)
        self.builder = ChunkBuilder(B)
        self.rng = np.random.default_rng(seed)
        self.positions = 0
        self.games = 0
        self.leaves = 0
        self.rejected_beliefs = 0
        self.time_network = 0.0
        self.time_pool = 0.0

    def close(self) -> None:
        """Closes the search pool (its worker threads end)."""
        self.pool.close()

    @torch.no_grad()
    def _search(self) -> bool:
        """The search rounds of one move; False when the beliefs were rejected (no search)."""
        cfg, pool = self.cfg, self.pool
        if cfg.fog and not self._submit_beliefs():
            return False
        rounds = math.ceil(cfg.simulations / cfg.pending_leaves) + 1
        for _ in range(rounds):
            t0 = time.perf_counter()
            leaves = pool.select_leaves()
            t1 = time.perf_counter()
            L = len(leaves["leaf_id"])
            if L == 0:
                self.time_pool += t1 - t0
                break
            logits, values = evaluate_leaves(self.net, leaves, self.players)
            t2 = time.perf_counter()
            pool.expand_and_backup(leaves["leaf_id"], logits, values)
            t3 = time.perf_counter()
            self.time_pool += (t1 - t0) + (t3 - t2)
            self.time_network += t2 - t1
            self.leaves += L
        return True

    def _submit_beliefs(self) -> bool:
        from ..selfplay.beliefs import empty_world_completion
        t0 = time.perf_counter()
        per_player = self.pool.all_player_belief_requests()
        beliefs = empty_world_completion(per_player["map_tokens"][:, :, None], request=self.live, pool=self.pool)
        try:
            self.pool.submit_beliefs(self.live["state_id"], beliefs)
            ok = True
        except ValueError:
            self.rejected_beliefs += 1
            ok = False
        self.time_pool += time.perf_counter() - t0
        return ok

    @torch.no_grad()
    def _policy_only(self) -> dict:
        """Visit-free targets when the search could not run: the network's own policy (a softmax)."""
        logits, _ = self.net.dense_logits(self.live, fill=-np.inf)
        mask = self.live["action_mask"].astype(bool)
        p = np.exp(logits - logits.max(1, keepdims=True)) * mask
        return {"policy": (p / p.sum(1, keepdims=True)).astype(np.float32), "state_id": self.live["state_id"],
                "action_id": self.live["action_id"]}

    def move(self) -> list:
        """Searches, records and plays one move in every game; returns the chunks of finished games."""
        live = self.live
        searched = self._search()
        t0 = time.perf_counter()
        root = self.pool.root_policy(temperature=1.0) if searched else self._policy_only()
        gumbel = searched and self.cfg.root_selection == "gumbel"
        policy = root["improved_policy"] if gumbel else root["policy"]
        mask = live["action_mask"].astype(bool)
        envs = np.arange(self.cfg.envs)
        self.builder.add_batch(envs, live["map_tokens"], live["state"], live["action_features"], mask, policy,
                               live["to_play"])
        if gumbel:  # the sequential-halving winner (the root's Gumbel noise explores)
            rows = root["selected_row"].astype(np.int64)
        else:
            rows = np.where(mask, policy, -1.0).argmax(1)
            sample = self.moves < self.cfg.temperature_moves
            if sample.any():
                u = self.rng.random((int(sample.sum()), 1))
                cdf = np.cumsum(np.where(mask[sample], policy[sample], 0.0), 1)
                rows[sample] = np.minimum((cdf < u * cdf[:, -1:]).sum(1), live["legal_action_count"][sample] - 1)
        actions = root["action_id"][envs, rows].astype(np.int32)
        self.live = live = self.pool.step_checked(actions, root["state_id"])
        self.time_pool += time.perf_counter() - t0
        self.positions += self.cfg.envs
        self.moves += 1
        chunks = []
        for env in np.flatnonzero(live["terminated"]):
            chunks.append(self.builder.finish(int(env), live["terminal_values"][env]))
            self.moves[env] = 0
            self.games += 1
        return [c for c in chunks if c is not None]


# ---------------------------------------------------------------------------- checkpoints
def _save(path: Path, net: AzNet, learner: Learner, counters: dict, cfg: AlphaZeroConfig) -> None:
    tmp = path.with_name(path.name + ".tmp")
    torch.save({"format": "polyenv-az", "config": dataclasses.asdict(cfg), "net": net.config,
                "state_dict": net.state_dict(), "optimizer": learner.optimizer.state_dict(),
                "counters": counters}, tmp)
    os.replace(tmp, path)


def _log(run: Path, row: dict) -> None:
    path = run / "log.csv"
    new = not path.exists()
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(row))
        if new:
            w.writeheader()
        w.writerow(row)


class _Progress:
    def __init__(self, enabled: bool, total_minutes: float):
        self.bar = None
        if enabled:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=round(total_minutes * 60), unit="s", desc="az", dynamic_ncols=True)
            except ImportError:
                self.bar = None
        self.shown = 0.0

    def update(self, elapsed: float, text: str) -> None:
        if self.bar is None:
            return
        step = int(elapsed) - int(self.shown)
        if step > 0:
            self.bar.update(step)
            self.shown = float(int(elapsed))
        self.bar.set_postfix_str(text, refresh=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# ---------------------------------------------------------------------------- native self-play
def _native_selfplay(cfg: AlphaZeroConfig, run: Path, learner: Learner, buffer: ReplayBuffer,
                     buffer_lock: threading.Lock, counters: dict, elapsed, budget: float, tick) -> None:
    """Rounds of the az player's own games (``az:<simulations>`` with root Gumbel noise, its improved
    policy the target) in worker processes, each round with the learner's newest weights, until
    the budget is spent; ``tick()`` after every game (progress, checkpoints)."""
    from .expert import expert_chunks
    while elapsed() < budget:
        actor = run / "actor.paz"
        with learner.weights_lock:
            snapshot = AzNet(**cfg.net)
            snapshot.load_state_dict(learner.published)
        snapshot.export(actor, cfg.leaf_value_mix)
        first = counters["selfplay_games"]
        teacher = f"az:{cfg.simulations}@{actor}"
        for chunk in expert_chunks(cfg.selfplay_games, teacher, seed=cfg.seed + 20_000_000 + first,
                                   map_size=cfg.map_size, fog=cfg.fog, workers=cfg.expert_workers,
                                   temperature_moves=0, gumbel_scale=cfg.gumbel_scale, first_index=first):
            with buffer_lock:
                buffer.add(chunk)
            counters["selfplay_games"] += 1
            counters["selfplay_positions"] += len(chunk)
            tick()
            if elapsed() >= budget:
                return
        counters["selfplay_rounds"] += 1


# ---------------------------------------------------------------------------- the run
def train(cfg: AlphaZeroConfig, resume: bool = False) -> Path:
    """Runs (or, with ``resume``, continues) a training run; returns the path of the last ``.paz``."""
    cfg.check()
    run = Path(cfg.out_dir)
    run.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    torch.manual_seed(cfg.seed)
    net = AzNet(**cfg.net)
    buffer, buffer_lock = ReplayBuffer(cfg.buffer), threading.Lock()
    learner = Learner(net, cfg, buffer, buffer_lock)
    counters = {"elapsed": 0.0, "expert_games": 0, "selfplay_positions": 0, "selfplay_games": 0, "selfplay_rounds": 0,
                "steps": 0, "checkpoints": 0, "leaves": 0, "time_network": 0.0, "time_pool": 0.0}
    latest = run / "latest.pt"
    if resume:
        if not latest.exists():
            raise ValueError(f"nothing to resume in {str(run)!r} (no latest.pt)")
        data = torch.load(latest, map_location="cpu", weights_only=False)
        net.load_state_dict(data["state_dict"])
        learner.optimizer.load_state_dict(data["optimizer"])
        counters.update(data["counters"])
        learner.steps = int(counters["steps"])
        if (run / "replay.npz").exists():
            with np.load(run / "replay.npz") as z:
                buffer.load_state_dict(dict(z))
    elif cfg.init_weights:
        from .az_net import load_weights
        net.load_state_dict(load_weights(cfg.init_weights).state_dict())
    (run / "config.json").write_text(json.dumps(dataclasses.asdict(cfg), indent=2))
    learner.publish()

    start = time.perf_counter() - counters["elapsed"]
    elapsed = lambda: time.perf_counter() - start  # noqa: E731
    budget = cfg.minutes * 60
    learner.progress = lambda: elapsed() / budget
    next_ckpt = (counters["checkpoints"] + 1) * cfg.checkpoint_minutes * 60
    progress = _Progress(cfg.progress, cfg.minutes)
    stop = threading.Event()
    thread = threading.Thread(target=learner.run, args=(stop,), name="az-learner", daemon=True)
    thread.start()
    last_paz = run / "latest.paz"

    def checkpoint(final: bool = False) -> None:
        nonlocal next_ckpt, last_paz
        counters["elapsed"] = elapsed()
        counters["steps"] = learner.steps
        counters["checkpoints"] += 0 if final else 1
        tag = f"{counters['elapsed'] / 60:06.1f}"
        with learner.weights_lock:
            snapshot = AzNet(**cfg.net)
            snapshot.load_state_dict(net.state_dict())
        _save(run / f"ckpt_{tag}.pt", snapshot, learner, counters, cfg)
        _save(latest, snapshot, learner, counters, cfg)
        snapshot.export(run / f"ckpt_{tag}.paz", cfg.leaf_value_mix)
        snapshot.export(run / "latest.paz", cfg.leaf_value_mix)
        last_paz = run / f"ckpt_{tag}.paz"
        if cfg.save_replay:
            with buffer_lock:
                arrays = buffer.state_dict()
            np.savez(run / "replay.tmp.npz", **arrays)
            os.replace(run / "replay.tmp.npz", run / "replay.npz")
        _log(run, {"minutes": round(counters["elapsed"] / 60, 2), "expert_games": counters["expert_games"],
                   "selfplay_games": counters["selfplay_games"], "selfplay_positions": counters["selfplay_positions"],
                   "buffer": len(buffer), "steps": learner.steps, "policy_loss": round(learner.losses["policy"], 4),
                   "value_loss": round(learner.losses["value"], 4), "weights": last_paz.name})
        next_ckpt = (counters["checkpoints"] + 1) * cfg.checkpoint_minutes * 60

    def status() -> str:
        return (f"exp {counters['expert_games']} sp {counters['selfplay_positions']} buf {len(buffer)} "
                f"steps {learner.steps} pl {learner.losses['policy']:.3f} vl {learner.losses['value']:.3f}")

    try:
        # 1. expert warm start
        expert_end = min(budget, cfg.expert_minutes * 60) if cfg.expert_minutes > 0 else budget
        if counters["expert_games"] < cfg.expert_games and elapsed() < expert_end:
            from .expert import expert_chunks
            done = counters["expert_games"]
            for chunk in expert_chunks(cfg.expert_games - done, f"mcts:{cfg.expert_simulations}",
                                       seed=cfg.seed + 10_000_000 + done, map_size=cfg.map_size, fog=cfg.fog,
                                       workers=cfg.expert_workers, policy_temperature=cfg.expert_temperature,
                                       first_index=done):
                with buffer_lock:
                    buffer.add(chunk)
                counters["expert_games"] += 1
                progress.update(elapsed(), status())
                if elapsed() >= next_ckpt:
                    checkpoint()
                if elapsed() >= expert_end:
                    break
        # 2. self-play
        if elapsed() < budget and cfg.selfplay == "native":
            _native_selfplay(cfg, run, learner, buffer, buffer_lock, counters, elapsed, budget,
                             lambda: (progress.update(elapsed(), status()),
                                      checkpoint() if elapsed() >= next_ckpt else None))
        elif elapsed() < budget:
            actor_net = AzNet(**cfg.net).eval()
            version, weights = learner.latest(-1)
            actor_net.load_state_dict(weights)
            sp = SelfPlay(cfg, actor_net, seed=cfg.seed + 1_000_003 * (1 + counters["checkpoints"]))
            try:
                while elapsed() < budget:
                    version, weights = learner.latest(version)
                    if weights is not None:
                        actor_net.load_state_dict(weights)
                    chunks = sp.move()
                    with buffer_lock:
                        for c in chunks:
                            buffer.add(c)
                    counters["selfplay_positions"] += cfg.envs
                    counters["selfplay_games"] += len(chunks)
                    counters["leaves"] += sp.leaves
                    counters["time_network"] += sp.time_network
                    counters["time_pool"] += sp.time_pool
                    sp.leaves, sp.time_network, sp.time_pool = 0, 0.0, 0.0
                    progress.update(elapsed(), status())
                    if elapsed() >= next_ckpt:
                        checkpoint()
            finally:
                counters["rejected_beliefs"] = counters.get("rejected_beliefs", 0) + sp.rejected_beliefs
                sp.close()
    finally:
        stop.set()
        thread.join()
        progress.close()
    checkpoint(final=True)
    return last_paz


# ---------------------------------------------------------------------------- learning curve
def learning_curve(run_dir, opponents=CURVE_OPPONENTS, games: int = 20, simulations: int = 32, seed: int = 50_000,
                   full_observability: bool = True, threads: int | None = None, out: str | None = None) -> Path:
    """Measures every ``ckpt_*.paz`` of a run against each opponent (``games`` games each, seats
    alternating) and its OpenSkill rating in one tournament with them (:func:`polyenv.evaluation.tournament`),
    caching results in ``curve.csv`` (a checkpoint already measured is skipped); draws
    ``learning_curve.png`` (or ``out``). Returns the PNG's path."""
    from ..evaluation import tournament
    run = Path(run_dir)
    cache = run / ("curve.csv" if full_observability else "curve_fog.csv")
    rows = {}
    if cache.exists():
        with open(cache) as f:
            rows = {r["weights"]: r for r in csv.DictReader(f)}
    opponents = list(opponents)
    for paz in sorted(run.glob("ckpt_*.paz")):
        if paz.name in rows:
            continue
        player = f"az:{simulations}@{paz}"
        result = tournament([player, *opponents], games=games * len(opponents) * (len(opponents) + 1) // 2,
                            seed=seed, threads=threads, full_observability=full_observability, max_actions=512)
        row = {"weights": paz.name, "minutes": float(paz.stem.split("_")[1]), "mu": round(float(result.mu[0]), 3),
               "sigma": round(float(result.sigma[0]), 3)}
        for j, opp in enumerate(opponents, 1):
            row[opp] = round(result.win_rate(0, j), 4)
        rows[paz.name] = row
        with open(cache, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(row))
            w.writeheader()
            for r in sorted(rows.values(), key=lambda r: float(r["minutes"])):
                w.writerow(r)
    return _plot_curve(sorted(rows.values(), key=lambda r: float(r["minutes"])), opponents,
                       Path(out) if out else run / ("learning_curve.png" if full_observability else "learning_curve_fog.png"),
                       simulations, games, full_observability)


def _plot_curve(rows, opponents, path: Path, simulations: int, games: int, full_observability: bool) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    x = [float(r["minutes"]) for r in rows]
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    for opp in opponents:
        a.plot(x, [100 * float(r[opp]) for r in rows], marker="o", label=f"vs {opp}")
    a.set_xlabel("training time (minutes)")
    a.set_ylabel("win rate (%)")
    a.set_ylim(0, 100)
    a.grid(alpha=0.3)
    a.legend()
    a.set_title(f"az:{simulations}, {games} games per opponent, " + ("full observability" if full_observability else "fog"))
    mu = np.array([float(r["mu"]) for r in rows])
    sigma = np.array([float(r["sigma"]) for r in rows])
    b.errorbar(x, mu, yerr=1.96 * sigma, marker="o", capsize=3)
    b.set_xlabel("training time (minutes)")
    b.set_ylabel("OpenSkill mu (95% interval)")
    b.grid(alpha=0.3)
    b.set_title("OpenSkill rating among the az checkpoint and\n" + ", ".join(opponents), fontsize="medium")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
