"""Levels the level-pool tests share (tests/search/test_mcts_pool_levels.py, tests/runtime/test_vector_levels.py)."""
from pathlib import Path

import numpy as np

import polyenv
from polyenv import GameEnv

LEVELS = Path(polyenv.__file__).parent / "levels"
DUEL = LEVELS / "duel_11.csv"
ARCHIPELAGO = LEVELS / "archipelago_14.csv"
FOUR = LEVELS / "four_16.csv"

# A second 11x11 duel: two capitals, the rest plain.
PLAIN_DUEL = "\n".join(",".join("c:3" if (x, y) == (2, 2) else "c:6" if (x, y) == (8, 8) else ".:"
                                 for y in range(11)) for x in range(11)) + "\n"

# 11x11 with four capitals.
CORNERS = {(1, 1): 0, (1, 9): 4, (9, 1): 5, (9, 9): 8}
FOUR_11 = "\n".join(",".join(f"c:{CORNERS[x, y]}" if (x, y) in CORNERS else ".:" for y in range(11))
                     for x in range(11)) + "\n"

MAX_ACTIONS = 256


def assert_row_is(batch, env, game, max_actions=MAX_ACTIONS):
    """Row ``env`` of a batch shows what ``game`` shows its current player."""
    obs = game.observe(max_actions=max_actions)
    for key in ("map_tokens", "state", "action_id", "action_mask"):
        np.testing.assert_array_equal(batch[key][env], obs[key], err_msg=key)


def assert_episodes_follow_the_pool(owner, num_envs: int, seed: int, full_observability: bool) -> None:
    """Two rounds of episodes of ``owner`` (built on ``levels=[DUEL, PLAIN_DUEL]``): episode k of
    environment i plays level ``(i + k * num_envs) % 2`` with seed ``seed + i + k * num_envs``."""
    texts = [DUEL.read_text(), PLAIN_DUEL]
    for episode in range(2):
        batch = owner.reset() if episode else owner.reset(seed=seed)
        for i in range(num_envs):
            k = i + episode * num_envs
            assert_row_is(batch, i, GameEnv(seed=seed + k, level=texts[k % 2], full_observability=full_observability))
