"""PPO in plain PyTorch on the dense VectorGameEnv batch, against a pool of opponents.

    PYTHONPATH=. python examples/ppo_selfplay.py --minutes 30 --out runs/ppo       # the full recipe
    PYTHONPATH=. python examples/ppo_selfplay.py --updates 3 --envs 8 --steps 16 --bc-samples 200 --eval-games 4

The recipe, in order:

1. **Behaviour cloning from greedy** (``--bc-samples``): the greedy bot plays
   itself on GameEnvs; the pointer network (:class:`polyenv.train.PointerActorCritic`)
   learns to pick greedy's row (cross-entropy over the legal rows) and, from the
   game results, a first value estimate. PPO then starts from a policy about as
   strong as greedy instead of from random play.
2. **PPO** on :class:`polyenv.VectorGameEnv` batches: the policy scores the
   masked ``action_features`` rows; steps go into one :class:`polyenv.RolloutBuffer`
   per slot; GAE, clipped surrogate, value loss, entropy bonus.
3. **Opponent pool** (fictitious self-play): each rollout draws its opponent
   — ``greedy`` or ``random`` (native bots, stepped inside the env call) or one
   of the policy's own past checkpoints (self-play env: the frozen network
   plays the other seat) — with ``--pool`` weights; the learner's seat alternates.
4. **Shaping** ``reward="score_delta"``: every step pays the change of the score
   margin / 1000; its weight anneals linearly from 1 to 0 over ``--anneal`` of
   training, leaving the terminal ±1 alone (the terminal part is known exactly
   from ``final_state``'s winner).
5. **Two-slot pipeline**: every env is split by ``slot_partitions(2)``;
   while one slot is stepped natively in a worker thread (GIL released,
   ``step_slots_into_checked`` with the slot's own state ids) the main thread
   runs the network on the other slot's rows (``observe_slots_into`` fills the
   slots at start).

Every ``--eval-every`` updates: a checkpoint (``ckpt_<updates>.pt``), win rates
against random and greedy through :func:`polyenv.evaluation.tournament`
(``--eval-games`` games each, seats alternating, deterministic policy), the
learning curve ``learning_curve.png`` and ``log.csv``; ``best.pt`` keeps the best
win rate against greedy.
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch
import torch.nn.functional as F

import polyenv
from polyenv import RolloutBuffer, VectorGameEnv, bots
from polyenv.evaluation import TRIBE_ORDER, tournament
from polyenv.vector import allocate
from polyenv.train.pointer_net import OBSERVATION_KEYS, PointerActorCritic, load_checkpoint, save_checkpoint

# The state columns read here, by name (the engine's layout).
_STATE = polyenv.game_description().state_columns
CURRENT_PLAYER, WINNER = _STATE["current_player"], _STATE["winner"]


# ---------------------------------------------------------------------------- environments and slots
class Slot:
    """One of an env's two slots: its env ids, its batch buffers, its RolloutBuffer, and who plays where."""

    def __init__(self, env: VectorGameEnv, ids: np.ndarray, steps: int, learner_seat: np.ndarray, opponent=None):
        self.env, self.ids, self.n = env, ids, len(ids)
        self.buffers = allocate(env.slot_batch_spec(self.n))
        env.observe_slots_into(ids, self.buffers)
        self.rollout = RolloutBuffer(steps, self.n, list(OBSERVATION_KEYS), env=env, value=True)
        self.learner_seat = learner_seat          # [n] the learner's seat in each env
        self.opponent = opponent                  # a frozen PointerActorCritic in self-play envs, else None
        self.rows = np.arange(self.n)

    def obs(self) -> dict:
        return {k: self.buffers[k] for k in OBSERVATION_KEYS}

    def step(self, chosen_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Applies the learner's rows (and, in self-play envs, the frozen opponent's replies);
        returns the learner's total reward, done and game result (+1 / -1 / 0) per env."""
        b = self.buffers
        actions = b["action_id"][self.rows, chosen_rows]
        self.env.step_slots_into_checked(self.ids, actions, b["state_id"], b)
        reward, done = b["reward"].copy(), b["terminated"].astype(bool)
        result = self._result(b, done)
        while self.opponent is not None:           # the frozen opponent moves until the learner is to act
            theirs = b["state"][:, CURRENT_PLAYER] != self.learner_seat
            if not theirs.any():
                break
            sub = {k: b[k][theirs] for k in OBSERVATION_KEYS}
            rows = self.opponent.act(sub, deterministic=False)
            out = self.env.step_slots_checked(self.ids[theirs], b["action_id"][theirs][np.arange(len(rows)), rows],
                                              b["state_id"][theirs])
            live = ~done[theirs]                   # replies after the learner's episode ended do not count
            idx = np.flatnonzero(theirs)
            reward[idx[live]] -= out["reward"][live]   # two players: the margin is zero-sum
            ended = live & out["terminated"].astype(bool)
            result[idx[ended]] = self._result(out, out["terminated"].astype(bool), self.learner_seat[idx])[ended]
            done[idx[ended]] = True
            for k in b:
                b[k][theirs] = out[k]
        return reward, done.astype(np.uint8), result

    def _result(self, batch, done, seat=None):
        seat = self.learner_seat if seat is None else seat
        winner = batch["final_state"][:, WINNER]
        return np.where(done, np.where(winner == seat, 1.0, np.where(winner < 0, 0.0, -1.0)), 0.0).astype(np.float32)


def make_env(opponent, seat, args, seed):
    """A VectorGameEnv against a native bot (learner in ``seat``) or, with opponent=None, a self-play env."""
    kwargs = dict(seed=seed, map_size=args.map_size, players=TRIBE_ORDER[:2], num_threads=1,
                  max_actions=args.max_actions, reward="score_delta", keep_terminal_observation=True)
    if opponent is None:
        return VectorGameEnv(args.envs, **kwargs)
    return VectorGameEnv(args.envs, opponent=opponent, learner_seats=(seat,), **kwargs)


def make_slots(env, args, seat=None):
    """The env's two slots; the learner plays ``seat``, or (self-play, seat None) env id % 2."""
    slots = []
    for ids in env.slot_partitions(2):
        learner = np.full(len(ids), seat) if seat is not None else (ids % 2).astype(np.int32)
        slots.append(Slot(env, ids, args.steps, learner))
    return slots


# ---------------------------------------------------------------------------- behaviour cloning
def greedy_samples(n: int, args, seed: int) -> dict:
    """``n`` positions of greedy-vs-greedy games with greedy's row and the mover's final result."""
    rows = {k: [] for k in OBSERVATION_KEYS}
    labels, movers, results = [], [], []
    game_seed = seed
    while len(labels) < n:
        game = polyenv.GameEnv(seed=game_seed, map_size=args.map_size, players=TRIBE_ORDER[:2])
        game_seed += 1
        start = len(labels)
        while not game.game_over and len(labels) < n:
            obs = game.observe(max_actions=args.max_actions)
            choice = bots.choose(game, "greedy")
            hit = np.flatnonzero(obs["action_id"] == choice)
            if hit.size:                            # greedy's action may be past the truncated rows
                for k in OBSERVATION_KEYS:
                    rows[k].append(obs[k])
                labels.append(int(hit[0]))
                movers.append(game.current_player)
            game.step(choice)
        winner = game.winner if game.game_over else -1
        results.extend(0.0 if winner < 0 else (1.0 if m == winner else -1.0) for m in movers[start:])
    return {**{k: np.stack(v) for k, v in rows.items()}, "label": np.array(labels), "result": np.array(results)}


def behaviour_clone(model, opt, data, epochs: int, batch: int, log) -> None:
    n = len(data["label"])
    for epoch in range(epochs):
        perm, total, correct = np.random.permutation(n), 0.0, 0
        for i in range(0, n, batch):
            j = perm[i:i + batch]
            logits, value = model({k: data[k][j] for k in OBSERVATION_KEYS})
            target = torch.from_numpy(data["label"][j])
            loss = F.cross_entropy(logits, target) + 0.25 * F.mse_loss(value, torch.from_numpy(data["result"][j]).float())
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            total += loss.item() * len(j)
            correct += int((logits.argmax(-1) == target).sum())
        log(f"behaviour cloning epoch {epoch + 1}/{epochs}: loss {total / n:.3f}, greedy's row chosen {correct / n:.1%}")


# ---------------------------------------------------------------------------- PPO
def ppo_update(model, opt, slots, args) -> dict:
    """One PPO update over the rollouts of ``slots`` (each slot's GAE, then shuffled minibatches)."""
    obs, act, logp, adv, ret = {k: [] for k in OBSERVATION_KEYS}, [], [], [], []
    for s in slots:
        with torch.no_grad():
            _, last_v = model(s.obs())
        a, r = s.rollout.compute_gae(last_v.numpy().astype(np.float32), np.zeros(s.n, np.uint8), args.gamma, args.lam)
        for k in OBSERVATION_KEYS:
            obs[k].append(s.rollout.observations[k].reshape(-1, *s.rollout.observations[k].shape[2:]))
        act.append(s.rollout.actions().reshape(-1))
        logp.append(s.rollout.log_probs().reshape(-1))
        adv.append(a.reshape(-1).copy())
        ret.append(r.reshape(-1).copy())
    obs = {k: np.concatenate(v) for k, v in obs.items()}
    act, logp, adv, ret = (torch.from_numpy(np.concatenate(x)) for x in (act, logp, adv, ret))
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    n, stats = len(act), {"policy": 0.0, "value": 0.0, "entropy": 0.0, "clip": 0.0}
    count = 0
    for _ in range(args.epochs):
        perm = torch.randperm(n)
        for i in range(0, n, args.minibatch):
            j = perm[i:i + args.minibatch]
            logits, value = model({k: obs[k][j.numpy()] for k in OBSERVATION_KEYS})
            dist = torch.distributions.Categorical(logits=logits)
            new_logp = dist.log_prob(act[j])
            ratio = torch.exp(new_logp - logp[j])
            surrogate = torch.min(ratio * adv[j], ratio.clamp(1 - args.clip, 1 + args.clip) * adv[j])
            policy_loss = -surrogate.mean()
            value_loss = F.mse_loss(value, ret[j])
            entropy = dist.entropy().mean()
            loss = policy_loss + args.vf_coef * value_loss - args.ent_coef * entropy
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            opt.step()
            stats["policy"] += policy_loss.item()
            stats["value"] += value_loss.item()
            stats["entropy"] += entropy.item()
            stats["clip"] += ((ratio - 1).abs() > args.clip).float().mean().item()
            count += 1
    return {k: v / max(count, 1) for k, v in stats.items()}


def collect(model, slots, pool: ThreadPoolExecutor, shaping_weight: float, gen: torch.Generator) -> dict:
    """Fills both slots' rollouts: acting on one slot overlaps the native step of the other."""
    for s in slots:
        s.rollout.clear()
    pending = [None, None]
    stats = {"games": 0, "wins": 0}

    def finish(k):
        reward, done, result = pending[k].result()
        pending[k] = None
        s = slots[k]
        shaped = (result + shaping_weight * (reward - result)).astype(np.float32)
        s.rollout.set_outcome(shaped, done)
        stats["games"] += int(done.sum())
        stats["wins"] += int((result > 0).sum())

    for t in range(slots[0].rollout.max_length):
        for k, s in enumerate(slots):
            if pending[k] is not None:
                finish(k)
            with torch.no_grad():
                logits, value = model(s.obs())
            rows = torch.multinomial(torch.softmax(logits, -1), 1, generator=gen).squeeze(-1)
            log_prob = torch.log_softmax(logits, -1).gather(1, rows[:, None]).squeeze(1)
            s.rollout.add(s.buffers, rows.numpy().astype(np.int64), np.zeros(s.n, np.float32),
                          log_prob.numpy().astype(np.float32), np.zeros(s.n, np.uint8),
                          value.numpy().astype(np.float32))
            pending[k] = pool.submit(s.step, rows.numpy())   # the native step overlaps the other slot's forward
    for k in range(len(slots)):
        finish(k)
    return stats


# ---------------------------------------------------------------------------- evaluation and plots
def evaluate(path: str, args) -> dict:
    """Win rates of the checkpoint at ``path`` against random and greedy (seats alternating)."""
    out = {}
    for bot in ("random", "greedy"):
        r = tournament([path, bot], games=args.eval_games, map_size=args.map_size, threads=args.threads,
                       seed=args.eval_seed, max_actions=args.max_actions)
        out[bot] = r.win_rate(0, 1)
    return out


def plot(log_rows, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    steps = [r["env_steps"] for r in log_rows]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for bot in ("random", "greedy"):
        ax.plot(steps, [100 * r[f"win_{bot}"] for r in log_rows], marker="o", label=f"vs {bot}")
    ax.axhline(60, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("learner env steps")
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 100)
    ax.legend()
    ax.set_title(f"PPO + pool, {log_rows[-1]['minutes']:.1f} min")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def progress(done: float, total: float, text: str) -> None:
    width = 30
    filled = int(width * min(done / total, 1.0))
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {text}", end="", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------- main
def parse_pool(text: str) -> dict:
    pool = {}
    for item in text.split(","):
        name, _, weight = item.partition(":")
        if name not in ("greedy", "random", "self"):
            raise SystemExit(f"ppo_selfplay: unknown pool entry {name!r} (greedy, random, self)")
        pool[name] = float(weight or 1)
    return pool


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="runs/ppo_selfplay")
    p.add_argument("--minutes", type=float, default=30.0, help="training wall-time budget (BC included)")
    p.add_argument("--updates", type=int, default=None, help="stop after this many PPO updates")
    p.add_argument("--envs", type=int, default=32, help="environments per opponent env (two slots each)")
    p.add_argument("--steps", type=int, default=32, help="rollout steps per slot per update")
    p.add_argument("--map-size", type=int, default=11)
    p.add_argument("--max-actions", type=int, default=128)
    p.add_argument("--threads", type=int, default=1, help="simulation threads of the evaluation games")
    p.add_argument("--torch-threads", type=int, default=1)
    p.add_argument("--pool", default="greedy:0.7,random:0.1,self:0.2", help="opponent weights")
    p.add_argument("--snapshot-every", type=int, default=10, help="updates between pool checkpoints")
    p.add_argument("--bc-samples", type=int, default=16000, help="greedy positions for behaviour cloning (0: none)")
    p.add_argument("--bc-epochs", type=int, default=6)
    p.add_argument("--bc-lr", type=float, default=1e-3, help="learning rate of behaviour cloning")
    p.add_argument("--init", default=None, help="start from this checkpoint (skips behaviour cloning)")
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--minibatch", type=int, default=256)
    p.add_argument("--ent-coef", type=float, default=0.003)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--anneal", type=float, default=0.6, help="fraction of the budget over which shaping fades")
    p.add_argument("--eval-every", type=int, default=20)
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--eval-seed", type=int, default=777_000)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    start = time.perf_counter()
    minutes = lambda: (time.perf_counter() - start) / 60  # noqa: E731
    log = lambda msg: print(f"\n[{minutes():5.1f} min] {msg}", file=sys.stderr, flush=True)  # noqa: E731

    if args.init:
        model = load_checkpoint(args.init).train()
    else:
        model = PointerActorCritic(args.map_size ** 2, args.max_actions)
    if args.bc_samples and not args.init:
        data = greedy_samples(args.bc_samples, args, seed=args.seed + 50_000)
        log(f"{len(data['label'])} greedy positions collected")
        behaviour_clone(model, torch.optim.Adam(model.parameters(), lr=args.bc_lr), data, args.bc_epochs, 128, log)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    pool_weights = parse_pool(args.pool)
    runners: dict = {}                             # (opponent, seat) -> slots of a persistent env
    for k, (bot, seat) in enumerate([(b, s) for b in ("greedy", "random") if b in pool_weights for s in (0, 1)]):
        runners[(bot, seat)] = make_slots(make_env(bot, seat, args, args.seed + 1_000_003 * (k + 1)), args, seat)
    snapshots: list[str] = []
    rows_log: list[dict] = []
    env_steps = updates = 0
    best = -1.0
    executor = ThreadPoolExecutor(1)
    rng = np.random.default_rng(args.seed)
    budget = args.minutes

    def checkpoint_and_eval():
        nonlocal best
        path = os.path.join(args.out, f"ckpt_{updates:05d}.pt")
        save_checkpoint(path, model, updates=updates, env_steps=env_steps)
        model.eval()
        rates = evaluate(path, args)
        model.train()
        row = {"updates": updates, "env_steps": env_steps, "minutes": minutes(), "win_random": rates["random"],
               "win_greedy": rates["greedy"]}
        rows_log.append(row)
        if rates["greedy"] > best:
            best = rates["greedy"]
            save_checkpoint(os.path.join(args.out, "best.pt"), model, **row)
        with open(os.path.join(args.out, "log.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(row))
            w.writeheader()
            w.writerows(rows_log)
        plot(rows_log, os.path.join(args.out, "learning_curve.png"))
        log(f"eval after {updates} updates, {env_steps} steps: win vs random {rates['random']:.1%}, "
            f"vs greedy {rates['greedy']:.1%} ({args.eval_games} games each)")
        return path

    snapshots.append(checkpoint_and_eval())       # the starting point (after behaviour cloning)
    self_slots = None
    try:
        while (args.updates is None or updates < args.updates) and minutes() < budget:
            names = [n for n in pool_weights if n != "self" or snapshots]
            weights = np.array([pool_weights[n] for n in names])
            choice = names[rng.choice(len(names), p=weights / weights.sum())]
            if choice == "self":
                if self_slots is None:           # one persistent self-play env; its opponent changes
                    self_slots = make_slots(make_env(None, None, args, args.seed + 9_000_001), args)
                slots = self_slots
                opponent = load_checkpoint(snapshots[rng.integers(len(snapshots))])
                for s in slots:
                    s.opponent = opponent
                _advance_opponent(slots)
            else:
                slots = runners[(choice, updates % 2)]
            shaping = max(0.0, 1.0 - minutes() / (args.anneal * budget)) if args.anneal > 0 else 0.0
            stats = collect(model, slots, executor, shaping, gen)
            env_steps += sum(s.n for s in slots) * args.steps
            loss = ppo_update(model, opt, slots, args)
            updates += 1
            progress(minutes(), budget, f"update {updates}, {env_steps} steps, vs {choice}: "
                     f"{stats['wins']}/{stats['games']} won, shaping {shaping:.2f}, "
                     f"entropy {loss['entropy']:.2f}, clip {loss['clip']:.2f}")
            if updates % args.snapshot_every == 0:
                path = os.path.join(args.out, f"pool_{updates:05d}.pt")
                save_checkpoint(path, model, updates=updates)
                snapshots.append(path)
            if updates % args.eval_every == 0:
                checkpoint_and_eval()
        if not rows_log or rows_log[-1]["updates"] != updates:
            checkpoint_and_eval()
    finally:
        executor.shutdown()
    log(f"done: {updates} updates, {env_steps} env steps, best win rate vs greedy {best:.1%}; "
        f"curve in {os.path.join(args.out, 'learning_curve.png')}")
    return 0


def _advance_opponent(slots) -> None:
    """In a fresh self-play slot the frozen opponent moves until every row is the learner's turn."""
    for s in slots:
        s.env.observe_slots_into(s.ids, s.buffers)
        b = s.buffers
        while True:
            theirs = b["state"][:, CURRENT_PLAYER] != s.learner_seat
            if not theirs.any():
                break
            rows = s.opponent.act({k: b[k][theirs] for k in OBSERVATION_KEYS}, deterministic=False)
            out = s.env.step_slots_checked(s.ids[theirs], b["action_id"][theirs][np.arange(len(rows)), rows],
                                           b["state_id"][theirs])
            for k in b:
                b[k][theirs] = out[k]


if __name__ == "__main__":
    sys.exit(main())
