"""Win rates of a policy against the built-in bots, played on the native vector env.

```python
from polyenv.vector import evaluate, sb3_policy
result = evaluate(sb3_policy(model), opponent="greedy", games=200, action_mode="rows", max_actions=128)
print(result["win_rate"])
```

``games`` games are played at once, one per environment of
:class:`~polyenv.vector.TribesVectorEnv`s (half of them with the policy in
seat 0, half in seat 1, so moving first is no advantage); each environment's
first episode counts, so short games are not over-represented.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .gym_vector import TribesVectorEnv

__all__ = ["evaluate", "sb3_policy"]


def sb3_policy(model, deterministic: bool = True) -> Callable[[dict, np.ndarray], np.ndarray]:
    """``policy(obs, masks) -> actions`` from an SB3 / sb3-contrib model (masks are passed when it takes them)."""
    import inspect

    masked = "action_masks" in inspect.signature(model.predict).parameters

    def policy(obs: dict, masks: np.ndarray) -> np.ndarray:
        if masked:
            actions, _ = model.predict(obs, deterministic=deterministic, action_masks=masks)
        else:
            actions, _ = model.predict(obs, deterministic=deterministic)
        return actions

    return policy


def evaluate(policy: Callable[[dict, np.ndarray], np.ndarray], opponent: str = "random", games: int = 200,
             seed: int = 10_000, seats: tuple[int, ...] = (0, 1), **env_kwargs) -> dict:
    """Plays ``games`` games of ``policy`` against ``opponent`` and returns the results.

    ``policy(obs, masks)`` maps a batch of observations and bool action masks to
    actions (int [n]). ``env_kwargs`` are TribesVectorEnv arguments (map_size,
    action_mode, max_actions, ...); invalid actions end the turn. The games are
    split evenly over ``seats``. Returns ``{"win_rate", "wins", "games",
    "per_seat": {seat: (wins, games)}, "mean_length"}`` (length in policy steps).
    """
    if games < len(seats):
        raise ValueError(f"games must be at least the number of seats ({len(seats)})")
    env_kwargs = {"invalid_action": "end_turn", **env_kwargs}
    per_seat, lengths = {}, []
    for k, seat in enumerate(seats):
        n = games // len(seats) + (1 if k < games % len(seats) else 0)
        env = TribesVectorEnv(num_envs=n, opponent=opponent, learner_seat=seat, seed=seed, **env_kwargs)
        try:
            obs, _ = env.reset(seed=seed + 1_000_000 * k)
            result = np.zeros(n, dtype=np.int8)       # 0 playing, 1 won, -1 lost
            length = np.zeros(n, dtype=np.int64)
            while (result == 0).any():
                actions = np.asarray(policy(obs, env.action_masks()), dtype=np.int64)
                obs, rewards, terminations, _, _ = env.step(actions)
                playing = result == 0
                length += playing
                ended = playing & terminations
                result[ended] = np.where(rewards[ended] > 0, 1, -1)
        finally:
            env.close()
        per_seat[seat] = (int((result == 1).sum()), n)
        lengths.extend(length.tolist())
    wins = sum(w for w, _ in per_seat.values())
    return {"win_rate": wins / games, "wins": wins, "games": games, "per_seat": per_seat,
            "mean_length": float(np.mean(lengths))}
