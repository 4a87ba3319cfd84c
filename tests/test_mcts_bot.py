"""The native MCTS player: bot names with budgets everywhere a bot is accepted."""

import numpy as np
import pytest

import polyenv
from polyenv import GameEnv, VectorGameEnv, bots
from cli_run import run_cli


def test_bot_names_with_budget():
    assert bots.parse_bot("mcts") == (2, bots.DEFAULT_MCTS_SIMULATIONS)
    assert bots.parse_bot("mcts:800") == (2, 800)
    assert bots.parse_bot("greedy") == (1, bots.DEFAULT_MCTS_SIMULATIONS)
    for bad in ("mcts:", "mcts:0", "mcts:-3", "mcts:1.5", "greedy:10", "alpha", 3, None):
        with pytest.raises(ValueError):
            bots.parse_bot(bad)
        with pytest.raises(ValueError):
            bots.choose(GameEnv(seed=1), bad)


def test_mcts_choices_are_legal_and_reproducible():
    env = GameEnv(seed=4, map_size=8)
    for k in range(60):
        if env.game_over:
            break
        legal = set(env.legal_actions().tolist())
        chosen = bots.choose(env, "mcts:64", seed=k)
        assert chosen in legal
        assert bots.choose(env, "mcts:64", seed=k) == chosen
        assert bots.play(env, "mcts:64", seed=k) == chosen
        env.check_invariants()


def test_budget_changes_the_search_not_the_legality():
    a, b = GameEnv(seed=9, map_size=8), GameEnv(seed=9, map_size=8)
    for _ in range(5):
        bots.play_turn(a, "mcts:1")
        bots.play_turn(b, "mcts:300")
    a.check_invariants()
    b.check_invariants()


def test_vector_env_with_mcts_opponent():
    with VectorGameEnv(3, seed=2, map_size=8, opponent="mcts:16", max_actions=64, num_threads=2) as env:
        assert env.opponent == "mcts:16"
        batch = env.reset()
        rng = np.random.default_rng(0)
        for _ in range(30):
            rows = [rng.choice(np.flatnonzero(m)) for m in batch["action_mask"]]
            batch = env.step(batch["action_id"][np.arange(3), rows])
            assert batch["action_valid"].all()
    with pytest.raises(ValueError):
        VectorGameEnv(1, opponent="mcts:0")


def test_gym_env_with_mcts_opponent():
    import gymnasium as gym
    env = gym.make("polyenv/Tribes-v0", map_size=8, opponent="mcts:16")
    obs, info = env.reset(seed=1)
    for _ in range(10):
        action = int(np.flatnonzero(env.unwrapped.action_masks())[-1])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert env.unwrapped.game.num_players == 2
    env.close()


def test_cli_play_with_mcts():
    r = run_cli("play", "--bots", "mcts:32,greedy", "--map-size", "8", "--seed", "2", "--max-turns", "3",
                "--final-only")
    assert r.returncode == 0, r.stderr
    assert "mcts:32" in r.stdout
