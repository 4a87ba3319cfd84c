"""The native MCTS player: bot names with budgets everywhere a bot is accepted."""

import numpy as np
import pytest

import polyenv
from polyenv import GameEnv, VectorGameEnv, bots
from cli_run import run_cli


def test_bot_names_with_budget():
    assert bots.parse_bot("mcts") == (2, bots.DEFAULT_MCTS_SIMULATIONS, -1)
    assert bots.parse_bot("mcts:800") == (2, 800, -1)
    assert bots.parse_bot("greedy") == (1, bots.DEFAULT_MCTS_SIMULATIONS, -1)
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


@pytest.mark.parametrize("evaluation, rollout_turns, prior_temperature, prior_scope, turn_horizon, probe_visits", [
    (0, 1, 0.0, 0, 0, 3),    # greedy-evaluation leaves, uniform prior (issue 14's configuration)
    (0, 1, 10.0, 0, 0, 3),   # ... with the root prior from the greedy one-ply gains
    (0, 1, 10.0, 1, 0, 3),   # ... that prior at every node of the mover's turn
    (0, 1, 10.0, 2, 0, 3),   # ... and at every node
    (0, 1, 10.0, 3, 1, 3),   # ... every node of the turn, inherited from the parent where it can be (shipped)
    (0, 1, 10.0, 3, 1, 1),   # ... new actions probed at once
    (0, 1, 10.0, 3, 1, 0),   # ... new actions never probed
    (1, 1, 10.0, 3, 0, 2),   # ... with the score margin as leaf value, unlimited tree
    (0, 1, 10.0, 0, 1, 3),   # the tree stops at the mover's End Turn
    (0, 1, 10.0, 0, 2, 3),   # ... or after the opponent's turn
    (3, 1, 0.0, 0, 0, 3),    # greedy rollout to the end of the turn
    (3, 2, 20.0, 0, 0, 3),   # ... and the next player's turn, with the root prior
])
def test_tuning_hook_variants_play_legal_reproducible_games(evaluation, rollout_turns, prior_temperature,
                                                            prior_scope, turn_horizon, probe_visits):
    """``_core._mcts_play`` (the strength benchmark's hook): every variant plays legal actions, and the
    same position gives the same choice (the bot's stream comes from the position)."""
    env = GameEnv(seed=6, map_size=8)
    for _ in range(40):
        if env.game_over:
            break
        legal = set(env.legal_actions().tolist())
        twin = env.clone()
        chosen = polyenv._core._mcts_play(env._game, 24, evaluation, 2.0, 60, 0.0, rollout_turns, prior_temperature,
                                          prior_scope, turn_horizon, probe_visits)
        assert chosen in legal
        assert polyenv._core._mcts_play(twin._game, 24, evaluation, 2.0, 60, 0.0, rollout_turns,
                                        prior_temperature, prior_scope, turn_horizon, probe_visits) == chosen
        env.check_invariants()


def test_shipped_bot_is_the_hook_with_default_settings():
    assert polyenv._core.DEFAULT_MCTS_ROOT_PRIOR_TEMPERATURE == 10.0
    assert polyenv._core.DEFAULT_MCTS_TURN_HORIZON == 1
    assert polyenv._core.DEFAULT_MCTS_PRIOR_SCOPE == 3
    assert polyenv._core.DEFAULT_MCTS_PROBE_VISITS == 3
    env = GameEnv(seed=8, map_size=8)
    for k in range(30):
        if env.game_over:
            break
        twin = env.clone()
        expected = polyenv._core._mcts_play(twin._game, 50, 0, 2.0, 20, 0.0, 1,
                                            polyenv._core.DEFAULT_MCTS_ROOT_PRIOR_TEMPERATURE,
                                            polyenv._core.DEFAULT_MCTS_PRIOR_SCOPE,
                                            polyenv._core.DEFAULT_MCTS_TURN_HORIZON,
                                            polyenv._core.DEFAULT_MCTS_PROBE_VISITS)
        assert bots.play(env, "mcts:50") == expected


def test_inherited_prior_is_the_full_prior_at_the_root():
    """With two simulations the bot plays the root's highest-prior action (the second simulation follows
    it), so the inherited prior (scope 3) must choose exactly what probing every action (scope 1) does:
    the root is always probed in full."""
    env = GameEnv(seed=3, map_size=8)
    for _ in range(40):
        if env.game_over:
            break
        full, inherited = env.clone(), env.clone()
        a = polyenv._core._mcts_play(full._game, 2, 0, 2.0, 20, 0.0, 1, 10.0, 1, 1, 3)
        assert polyenv._core._mcts_play(inherited._game, 2, 0, 2.0, 20, 0.0, 1, 10.0, 3, 1, 3) == a
        bots.play(env, "greedy")


def test_tuning_hook_rejects_bad_settings():
    env = GameEnv(seed=1, map_size=8)
    before = env.to_bytes()
    for args in [(0, 0, 2.0, 20, 0.0, 1, 0.0), (10, 4, 2.0, 20, 0.0, 1, 0.0), (10, 3, 2.0, 20, 0.0, -1, 0.0),
                 (10, 0, 2.0, 20, 0.0, 1, -1.0), (10, 0, 2.0, 20, 0.0, 1, float("nan")),
                 (10, 0, 2.0, 20, 0.0, 1, 10.0, 4), (10, 0, 2.0, 20, 0.0, 1, 10.0, -1),
                 (10, 0, 2.0, 20, 0.0, 1, 10.0, 0, -1), (10, 0, 2.0, 20, 0.0, 1, 10.0, 3, 1, -1)]:
        with pytest.raises(ValueError):
            polyenv._core._mcts_play(env._game, *args)
    assert env.to_bytes() == before
