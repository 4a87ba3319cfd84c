"""Shared-policy self-play over the PettingZoo AEC env (``tribes_aec_v0``).

One policy plays every seat. Each agent's trajectory (observation, action id,
legal ids) is collected; at the end of a game every step of an agent gets that
agent's terminal reward as its return (Tribes rewards are terminal: +1 winner,
-1/(P-1) losers), and the finished trajectories go to ``on_episode`` — the place
to plug a learner.

Policies: ``random`` (uniform over the legal ids), ``greedy`` (polyenv's built-in
one-ply bot, playing the selected agent's move on the underlying GameEnv),
``mcts`` / ``mcts:<simulations>`` (the built-in MCTS bot, likewise), ``az`` /
``az:<simulations>`` (the trained network the package ships, likewise; no torch needed), or
your model: ``--policy package.module:function`` where
``function(observation, legal_ids, env) -> action id`` receives the agent's
observation dict ({"observation": {"map_tokens", "state"}, "action_mask"}).

    python examples/pettingzoo_selfplay.py --players 3 --games 4 --policy greedy
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections import Counter, defaultdict
from collections.abc import Callable

import numpy as np

from polyenv import bots
from polyenv.envs import tribes_aec_v0

Policy = Callable[[dict, np.ndarray, object], int]


def random_policy(rng: np.random.Generator) -> Policy:
    """Uniform over the legal ids."""
    return lambda observation, legal, env: int(legal[rng.integers(len(legal))])


def bot_policy(bot: str, rng: np.random.Generator) -> Policy:
    """A built-in bot choosing for the selected agent (its turn = the game's current player)."""
    return lambda observation, legal, env: bots.choose(env.unwrapped.game, bot, seed=int(rng.integers(2**63)))


def load_policy(spec: str, rng: np.random.Generator) -> Policy:
    """``random``, ``greedy``, ``mcts[:simulations]``, ``az[:simulations]`` or ``module:function`` (a user model)."""
    if spec == "random":
        return random_policy(rng)
    if spec in ("greedy", "mcts", "az") or spec.startswith(("mcts:", "az:", "az@")):
        return bot_policy(spec, rng)
    module, _, name = spec.partition(":")
    if not name:
        raise SystemExit(f"--policy must be random, greedy, mcts[:simulations], az[:simulations] or module:function, "
                         f"got {spec!r}")
    return getattr(importlib.import_module(module), name)


def play_episode(env, policy: Policy, seed: int) -> dict:
    """Plays one game; returns {agent: {"steps": [(observation, action, legal)], "return": float}}."""
    env.reset(seed=seed)
    trajectories = defaultdict(lambda: {"steps": [], "return": 0.0})
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            trajectories[agent]["return"] = float(reward)  # terminal reward = return of every step
            env.step(None)
            continue
        legal = env.unwrapped.legal_actions()
        action = policy(observation, legal, env)
        trajectories[agent]["steps"].append((observation, action, legal))
        env.step(action)
    return dict(trajectories)


def summarize(stats: dict) -> Callable[[dict, object], None]:
    """The default ``on_episode``: win counts per seat, returns, lengths."""
    def on_episode(trajectories: dict, env) -> None:
        game = env.unwrapped.game
        stats["wins"][f"player_{game.winner}"] += 1
        stats["steps"] += sum(len(t["steps"]) for t in trajectories.values())
        stats["turns"].append(game.turn)
        for agent, t in trajectories.items():
            stats["returns"][agent].append(t["return"])
    return on_episode


def main() -> None:
    """Runs ``--games`` self-play games and prints a summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--map-size", type=int, default=None)
    parser.add_argument("--max-turns", type=int, default=15)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", default="random", help="random, greedy, mcts[:N], az[:N] or module:function")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    policy = load_policy(args.policy, rng)
    env = tribes_aec_v0.env(players=args.players, map_size=args.map_size, max_turns=args.max_turns)
    stats = {"wins": Counter(), "steps": 0, "turns": [], "returns": defaultdict(list)}
    on_episode = summarize(stats)
    t0 = time.perf_counter()
    for game in range(args.games):
        on_episode(play_episode(env, policy, seed=args.seed + game), env)
    seconds = time.perf_counter() - t0
    print(f"{args.games} games, {args.players} players, policy {args.policy}: {stats['steps']} agent steps "
          f"in {seconds:.1f}s ({stats['steps'] / seconds:,.0f} steps/s), "
          f"mean length {np.mean(stats['turns']):.1f} turns")
    for agent in env.possible_agents:
        r = stats["returns"][agent]
        print(f"  {agent}: {stats['wins'][agent]} wins, mean return {np.mean(r):+.3f}")


if __name__ == "__main__":
    main()
