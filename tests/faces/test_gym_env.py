"""polyenv/Tribes-v0, the single-agent Gymnasium environment (polyenv/envs/gym_env.py)."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import polyenv
from polyenv.envs.gym_env import TribesEnv, observation_bounds

ENV_ID = "polyenv/Tribes-v0"
LEVELS = polyenv.__path__[0] + "/levels"


def make(**kwargs) -> TribesEnv:
    return gym.make(ENV_ID, **kwargs).unwrapped


def legal_play(env, obs, info, rng, steps):
    """Plays up to ``steps`` random represented legal actions; returns the transitions seen."""
    out = []
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        out.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            break
    return out


# ---------------------------------------------------------------------------- registration
def test_import_polyenv_does_not_import_gymnasium_and_registers_later():
    code = ("import sys, polyenv; assert 'gymnasium' not in sys.modules; import gymnasium as gym; "
            "assert 'polyenv/Tribes-v0' in gym.registry; env = gym.make('polyenv/Tribes-v0'); env.reset(seed=0)")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=polyenv.__path__[0] + "/..")


def test_registered_when_gymnasium_is_imported_first():
    code = ("import gymnasium as gym, polyenv; assert 'polyenv/Tribes-v0' in gym.registry; "
            "spec = gym.spec('polyenv/Tribes-v0'); assert spec.vector_entry_point == 'polyenv.vector:TribesVectorEnv'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=polyenv.__path__[0] + "/..")


def test_register_is_idempotent():
    from polyenv.envs import registration

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        registration.register()
    assert gym.spec(ENV_ID).entry_point == "polyenv.envs.gym_env:TribesEnv"


# ---------------------------------------------------------------------------- checkers
@pytest.mark.parametrize("action_mode", ["global", "rows"])
@pytest.mark.parametrize("players", [2, 4])
def test_gymnasium_env_checker(action_mode, players):
    # The checker steps random actions of the whole space: invalid ones must not raise.
    for invalid in ("penalty", "end_turn"):
        check_env(make(players=players, action_mode=action_mode, invalid_action=invalid, max_actions=128),
                  skip_render_check=True)


@pytest.mark.parametrize("action_mode", ["global", "rows"])
@pytest.mark.parametrize("players", [2, 4])
def test_sb3_env_checker(action_mode, players):
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    for invalid in ("penalty", "end_turn"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SB3 suggests flattening [tiles, 23] observations
            sb3_checker.check_env(make(players=players, action_mode=action_mode, invalid_action=invalid,
                                       max_actions=128))


def test_registered_defaults_pass_both_checkers_as_they_are():
    """gym.make("polyenv/Tribes-v0") with no argument: the default invalid-action policy ("end_turn")
    lets the checkers step random ids of the declared space."""
    check_env(gym.make(ENV_ID).unwrapped)
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb3_checker.check_env(gym.make(ENV_ID).unwrapped)


def test_render_check():
    for mode in ("ansi", "rgb_array"):
        env = make(render_mode=mode, invalid_action="penalty")
        check_env(env)
        env.reset(seed=1)
        out = env.render()
        assert isinstance(out, str) if mode == "ansi" else (out.dtype == np.uint8 and out.ndim == 3)


# ---------------------------------------------------------------------------- spaces and bounds
@pytest.mark.parametrize("action_mode", ["global", "rows"])
@pytest.mark.parametrize("players,opponent", [(2, "random"), (2, "greedy"), (4, "random")])
def test_observations_stay_inside_the_declared_bounds(action_mode, players, opponent):
    env = make(players=players, opponent=opponent, action_mode=action_mode, max_actions=96,
               map_size=11 if players == 2 else 14)
    space = env.observation_space
    rng = np.random.default_rng(players)
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            bad = [k for k in obs if not space[k].contains(obs[k])]
            assert not bad, f"{bad} outside the space (seed {seed}, round {env.game.turn})"
            (obs, _, done, _, info), = legal_play(env, obs, info, rng, 1)
        assert space.contains(obs)


def test_bounds_shapes_and_documented_ranges():
    b = observation_bounds(num_tiles=121, num_players=2, turn_limit=50, max_actions=8, action_space_size=25452)
    assert b["map_tokens"][0].shape == (121, 23) and b["action_features"][1].shape == (8, 17)
    names = polyenv.MAP_TOKEN_FEATURE_NAMES
    assert b["map_tokens"][1][0, names.index("terrain")] == 6
    assert b["map_tokens"][1][0, names.index("territory_owner")] == 2
    assert b["state"][1][0] == 51 and b["action_id"][1][0] == 25451
    for low, high in b.values():
        assert (low <= 0).all() and (high >= 0).all()  # fog and padding (zeros) are inside


def test_action_spaces_and_masks_agree_with_the_game():
    env = make(action_mode="global")
    obs, info = env.reset(seed=3)
    assert env.action_space.n == env.game.action_space_size
    legal = env.game.legal_actions()
    assert np.array_equal(np.flatnonzero(env.action_masks()), legal)
    assert np.array_equal(info["legal_global_ids_padded"][:len(legal)], legal)
    assert info["legal_action_valid_mask"].sum() == info["legal_action_count"] == len(legal)
    assert info["action_space_fingerprint"] == env.game.action_space_fingerprint

    rows = make(action_mode="rows", max_actions=64)
    obs, info = rows.reset(seed=3)
    n = info["legal_action_count"]
    assert rows.action_space.n == 64 and obs["action_mask"][:n].all() and not obs["action_mask"][n:].any()
    assert np.array_equal(obs["action_id"][:n], rows.game.legal_actions()[:n])
    assert (obs["action_id"][n:] == -1).all()


def test_truncated_lists_keep_end_turn_and_only_represented_actions_are_legal():
    env = make(action_mode="global", max_actions=2, invalid_action="raise")
    obs, info = env.reset(seed=0)
    assert info["total_legal_action_count"] > 2 and info["action_truncated"]
    assert env.action_masks().sum() == 2 and env.action_masks()[0]
    hidden = int(env.game.legal_actions()[-1])
    with pytest.raises(ValueError, match="not a legal action"):
        env.step(hidden)


# ---------------------------------------------------------------------------- seeding
def episode(env, seed, steps=60, rng_seed=0):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    return [obs] + [t[0] for t in legal_play(env, obs, info, rng, steps)]


def same(a, b):
    return len(a) == len(b) and all(all(np.array_equal(x[k], y[k]) for k in x) for x, y in zip(a, b))


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_same_seed_same_episode(opponent):
    a, b = make(opponent=opponent), make(opponent=opponent)
    assert same(episode(a, 7), episode(b, 7))
    assert not same(episode(a, 7), episode(a, 8))


def test_unseeded_resets_continue_the_seed_sequence():
    env = make()
    env.reset(seed=20)
    after, _ = env.reset()
    fresh, _ = make().reset(seed=21)
    assert all(np.array_equal(after[k], fresh[k]) for k in after)
    assert np.array_equal(env.reset(seed=5)[0]["map_tokens"], make().reset(seed=5)[0]["map_tokens"])


def test_first_observation_is_the_game_of_that_seed():
    obs, _ = make().reset(seed=11)
    game = polyenv.GameEnv(seed=11)
    assert np.array_equal(obs["map_tokens"], game.observe(0)["map_tokens"])


@pytest.mark.parametrize("selection", ["round_robin", "seeded_random"])
def test_level_selection_is_reproducible(selection):
    levels = [f"{LEVELS}/duel_11.csv", f"{LEVELS}/duel_11.csv", open(f"{LEVELS}/duel_11.csv").read()]

    def paths(env, n):
        out = [env.reset(seed=3)[1]["level_index"]]
        return out + [env.reset()[1]["level_index"] for _ in range(n - 1)]

    a = make(levels=levels, level_selection=selection, info_mode="debug")
    b = make(levels=levels, level_selection=selection, info_mode="debug")
    pa = paths(a, 9)
    assert pa == paths(b, 9) == paths(a, 9)
    if selection == "round_robin":
        assert pa == [0, 1, 2, 0, 1, 2, 0, 1, 2]
    else:
        assert set(pa) <= {0, 1, 2} and len(set(pa)) > 1
    _, info = a.reset(seed=3)
    assert info["level_path"] in (levels[0], None)


def test_level_plays_one_level_like_a_pool_of_one():
    # level= (one level, as VectorGameEnv takes it): reproducible, the same for a path, its text and levels=[path].
    path = f"{LEVELS}/duel_11.csv"
    with open(path, encoding="utf-8") as f:
        text = f.read()

    def run(**kwargs):
        env = make(info_mode="debug", **kwargs)
        obs, info = env.reset(seed=4)
        assert env.map_size == 11 and info["level_index"] == 0
        steps = legal_play(env, obs, info, np.random.default_rng(0), 40)
        return info["level_path"], [obs["map_tokens"]] + [o["map_tokens"] for o, *_ in steps]

    level_path, tokens = run(level=path)
    assert level_path == path
    for kwargs in (dict(level=path), dict(level=text), dict(levels=[path])):
        assert all(np.array_equal(a, b) for a, b in zip(tokens, run(**kwargs)[1], strict=True)), kwargs
    game = polyenv.GameEnv(seed=4, level=path)
    assert np.array_equal(tokens[0], game.observe(0)["map_tokens"])


def test_level_glob_and_path_info():
    env = make(levels=f"{LEVELS}/duel_*.csv", info_mode="debug")
    _, info = env.reset(seed=0)
    assert info["level_path"].endswith("duel_11.csv") and env.map_size == 11
    assert isinstance(info["legal_action_descriptions"], list) and info["legal_action_descriptions"][0] == "end_turn"


# ---------------------------------------------------------------------------- opponents and seats
@pytest.mark.parametrize("seat", [0, 1])
def test_opponents_play_until_the_learner_is_to_move(seat):
    env = make(opponent="greedy", learner_seat=seat)
    obs, info = env.reset(seed=2)
    assert obs["state"][1] == seat and env.game.current_player == seat and info["learner_seat"] == seat
    rng = np.random.default_rng(0)
    transitions = legal_play(env, obs, info, rng, 200)
    for obs, _, terminated, _, _ in transitions:
        assert terminated or obs["state"][1] == seat
    assert len(transitions) > 20


def test_random_learner_seat_varies_and_is_reproducible():
    env = make(learner_seat="random")
    seats = [env.reset(seed=s)[1]["learner_seat"] for s in range(12)]
    assert set(seats) == {0, 1}
    assert seats == [make(learner_seat="random").reset(seed=s)[1]["learner_seat"] for s in range(12)]


def test_callable_opponent():
    calls = []

    def first_legal(game):
        calls.append(game.current_player)
        return int(game.legal_actions()[-1])

    env = make(opponent=first_legal, learner_seat=1)
    obs, _ = env.reset(seed=4)
    assert calls and set(calls) == {0} and env.game.current_player == 1

    env = make(opponent=lambda game: 10**6, learner_seat=1)
    with pytest.raises(ValueError, match="opponent returned"):
        env.reset(seed=0)


def test_self_play_observes_the_player_to_move():
    env = make(opponent=None)
    obs, _ = env.reset(seed=0)
    players = set()
    rng = np.random.default_rng(1)
    for _ in range(300):
        players.add(int(obs["state"][1]))
        obs, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated:
            break
    assert players == {0, 1}


# ---------------------------------------------------------------------------- rewards and termination
def play_to_end(env, seed, rng_seed=0):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    rewards = []
    while True:
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        rewards.append(reward)
        if terminated or truncated:
            return rewards, terminated, info


def test_terminal_reward_is_the_learners_result():
    env = make(opponent="greedy")
    rewards, terminated, info = play_to_end(env, 0)
    assert terminated and env.game.game_over
    assert rewards[-1] == (1.0 if info["winner"] == 0 else -1.0) and not any(rewards[:-1])
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_score_delta_sums_to_the_margin_change():
    env = make(opponent="random", reward="score_delta", max_turns=6)
    obs, _ = env.reset(seed=1)
    scores = env.game.scores()
    start = scores[0] - scores[1]
    rewards, terminated, info = play_to_end(env, 1)
    scores = env.game.scores()
    result = 1.0 if info["winner"] == 0 else -1.0
    assert terminated and sum(rewards) == pytest.approx((scores[0] - scores[1] - start) / 1000 + result)


def test_score_margin_is_own_score_minus_the_best_other():
    game = polyenv.GameEnv(seed=3, players=(polyenv.Bardur, polyenv.Imperius, polyenv.Oumaji))
    game.playout("random", max_actions=400, seed=0)
    scores = game.scores()
    assert len(set(scores)) > 1
    for p in range(3):
        assert game.score_margin(p) == scores[p] - max(s for q, s in enumerate(scores) if q != p)
    with pytest.raises(IndexError):
        game.score_margin(3)


def test_max_episode_steps_truncates():
    env = gym.make(ENV_ID, max_episode_steps=5)
    env.reset(seed=0)
    for i in range(5):
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[-1]))
    assert truncated and not terminated


# ---------------------------------------------------------------------------- invalid actions and bad input
def illegal_global_id(env):
    mask = env.action_masks()
    return int(np.flatnonzero(~mask)[0])


def test_invalid_action_raise_changes_nothing():
    env = make(invalid_action="raise")
    env.reset(seed=0)
    before = env.game.to_bytes()
    with pytest.raises(ValueError, match="not a legal action"):
        env.step(illegal_global_id(env))
    assert env.game.to_bytes() == before
    rows = make(invalid_action="raise", action_mode="rows", max_actions=300)
    _, info = rows.reset(seed=0)
    with pytest.raises(ValueError, match="row"):
        rows.step(299)


def test_invalid_action_end_turn_plays_end_turn():
    env = make(invalid_action="end_turn", opponent="random")
    env.reset(seed=0)
    turn = env.game.turn
    _, reward, _, _, info = env.step(illegal_global_id(env))
    assert info["invalid_action"] and env.game.turn == turn + 1 and env.game.current_player == 0
    _, _, _, _, info = env.step(0)
    assert not info["invalid_action"]


def test_invalid_action_penalty_keeps_the_position():
    env = make(invalid_action="penalty", invalid_action_penalty=-0.5, action_mode="rows", max_actions=300)
    obs, _ = env.reset(seed=0)
    before = env.game.to_bytes()
    obs2, reward, terminated, truncated, info = env.step(299)
    assert reward == -0.5 and info["invalid_action"] and not terminated and not truncated
    assert env.game.to_bytes() == before and all(np.array_equal(obs[k], obs2[k]) for k in obs)


@pytest.mark.parametrize("invalid", ["raise", "end_turn", "penalty"])
def test_actions_outside_the_space_always_raise(invalid):
    env = make(invalid_action=invalid)
    env.reset(seed=0)
    before = env.game.to_bytes()
    for bad in (-1, env.action_space.n, 1.5, "0", None):
        with pytest.raises(ValueError):
            env.step(bad)
    assert env.game.to_bytes() == before


def test_step_before_reset_raises():
    with pytest.raises(RuntimeError, match="reset"):
        make().step(0)


@pytest.mark.parametrize("kwargs,match", [
    (dict(action_mode="dense"), "action_mode"),
    (dict(opponent="expert"), "opponent"),
    (dict(learner_seat=2), "learner_seat"),
    (dict(learner_seat=True), "learner_seat"),
    (dict(opponent=None, learner_seat=1), "learner_seat"),
    (dict(reward="win"), "reward"),
    (dict(invalid_action="ignore"), "invalid_action"),
    (dict(invalid_action_penalty=float("nan")), "invalid_action_penalty"),
    (dict(info_mode="verbose"), "info_mode"),
    (dict(render_mode="text"), "render_mode"),
    (dict(max_actions=0), "max_actions"),
    (dict(level_selection="shuffle"), "level_selection"),
    (dict(players=1), "players"),
    (dict(players="Bardur"), "players"),
    (dict(mode="domination"), "mode"),
    (dict(max_turns=-1), "max_turns"),
    (dict(levels=[]), "empty"),
    (dict(levels="/nonexistent/*.csv"), "matches no file"),
    (dict(levels="/nonexistent/level.csv"), "matches no file"),
    (dict(levels=f"{LEVELS}/duel_11.csv", map_size=14), "map_size"),
    (dict(level=f"{LEVELS}/duel_11.csv", levels=f"{LEVELS}/duel_11.csv"), "not both"),
    (dict(level=3), "level must be a path or CSV text"),
    (dict(level="/nonexistent/level.csv"), "matches no file"),
    (dict(level=f"{LEVELS}/duel_11.csv", map_size=14), "map_size"),
])
def test_bad_kwargs_raise_clear_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        TribesEnv(**kwargs)


def test_levels_of_different_sizes_name_the_file():
    with pytest.raises(ValueError, match="archipelago_14.csv"):
        make(levels=[f"{LEVELS}/duel_11.csv", f"{LEVELS}/archipelago_14.csv"], players=None)


def test_reset_rejects_options():
    with pytest.raises(ValueError, match="options"):
        make().reset(seed=0, options={"level": 1})
