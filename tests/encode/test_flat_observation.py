"""observation_format="flat" on Tribes-v0 and TribesVectorEnv, and TribesVectorEnv(autoreset=False)."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import polyenv  # noqa: F401  (registers polyenv/Tribes-v0)
import flat_reference
from flat_reference import ReferenceFlatEncoder
from polyenv.envs.gym_env import TribesEnv
from polyenv.envs.flat import FLAT_ACTION_FEATURE_NAMES, FLAT_STATE_FEATURE_NAMES, FLAT_TILE_FEATURE_NAMES, FlatEncoder
from polyenv.vector import TribesVectorEnv
from polyenv.vector.gym_vector import EnvironmentFinishedError


def masked_actions(rng, masks):
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def test_feature_names_cover_the_vector_and_bounds_hold():
    enc = FlatEncoder(map_size=8, num_players=2, turn_limit=30, max_actions=16)
    names = enc.feature_names()
    assert len(names) == enc.size == 64 * len(FLAT_TILE_FEATURE_NAMES) + len(FLAT_STATE_FEATURE_NAMES) \
        + 16 * len(FLAT_ACTION_FEATURE_NAMES)
    assert len(set(names)) == len(names) and names[0] == "tile0.explored" and names[-1] == "row15.affordable"
    low, high = enc.bounds()
    assert low.min() == -1 and high.max() == 1


def test_names_and_bounds_match_the_numpy_reference():
    assert FLAT_TILE_FEATURE_NAMES == flat_reference.FLAT_TILE_FEATURE_NAMES
    assert FLAT_STATE_FEATURE_NAMES == flat_reference.FLAT_STATE_FEATURE_NAMES
    assert FLAT_ACTION_FEATURE_NAMES == flat_reference.FLAT_ACTION_FEATURE_NAMES
    for args in ((8, 2, 30, 16), (11, 4, 50, 0)):
        native, reference = FlatEncoder(*args).bounds(), ReferenceFlatEncoder(*args).bounds()
        for a, b in zip(native, reference):
            assert a.dtype == b.dtype == np.float32 and np.array_equal(a, b)


@pytest.mark.parametrize("players,map_size,rows", [(2, 8, 24), (4, 11, 0), (16, 16, 64)])
def test_native_encoding_matches_the_numpy_reference(players, map_size, rows):
    env = TribesVectorEnv(num_envs=4, map_size=map_size, players=players, max_turns=12, action_mode="rows",
                          max_actions=max(rows, 1), opponent=None, seed=players)
    native = FlatEncoder(map_size, players, env.turn_limit, rows)
    reference = ReferenceFlatEncoder(map_size, players, env.turn_limit, rows)
    rng = np.random.default_rng(0)
    obs, infos = env.reset(seed=0)
    for _ in range(120):
        features = obs["action_features"][:, :rows]
        count = np.minimum(infos["legal_action_count"], rows)
        for observer in (obs["state"][:, 1], (obs["state"][:, 1] + 1) % players):
            args = (obs["map_tokens"], obs["state"], observer, features, count)
            np.testing.assert_array_equal(native.encode(*args), reference.encode(*args))
        obs, _, _, _, infos = env.step((rng.random(4) * infos["legal_action_count"]).astype(np.int64))


def random_inputs(rng, B, n, P, R):
    """Arrays covering every column's range (and beyond), fog tiles all zeros as the engine writes them."""
    T = n * n
    high = [2, 8, 9, 20, 6, 2, P + 1, T, P + 1, 13, 41, 32, 41, P + 1, 13, 46, 46, 7, 2, 11, 13, 1 << 24, T]
    low = [0, -1, -1, -1, 0, 0, 0, -1, 0, -1, -40, 0, -40, 0, -1, -1, -1, -1, 0, -1, -1, -1, -1]
    tokens = rng.integers(low, high, size=(B, T, 23)).astype(np.int32)
    tokens[tokens[..., 0] == 0] = 0
    state = rng.integers([0, 0, 0, -1, 0, 0, 0, 0, -1, -1, -1], [40, P, 2, P, 300, 50, 20, 100, T, 8, 8],
                         size=(B, 11)).astype(np.int32)
    rows = rng.integers([0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, -15, 0, 0, -1, -1],
                        [23, T, T, T, 24, 19, 12, 8, 5, 12, 1000, 20, 30, 50, 2, 0, 0], size=(B, R, 17)).astype(np.int32)
    return tokens, state, rng.integers(0, P, B).astype(np.int32), rows, rng.integers(0, R + 1, B).astype(np.int32)


@pytest.mark.parametrize("players,map_size,rows", [(2, 8, 16), (5, 11, 0), (16, 16, 32)])
def test_native_encoding_matches_the_reference_on_every_column_range(players, map_size, rows):
    rng = np.random.default_rng(players)
    native = FlatEncoder(map_size, players, 30, rows)
    reference = ReferenceFlatEncoder(map_size, players, 30, rows)
    for _ in range(5):
        args = random_inputs(rng, 16, map_size, players, rows)
        flat = native.encode(*args)
        np.testing.assert_array_equal(flat, reference.encode(*args))
        assert (flat != 0).any(axis=0).sum() > 0.5 * native.size  # most columns exercised


def test_encode_into_a_bad_out_raises():
    enc = FlatEncoder(map_size=8, num_players=2, turn_limit=30)
    o = polyenv.GameEnv(seed=0, map_size=8).observe(0)
    for bad in (np.zeros(enc.size, np.float64), np.zeros(enc.size + 1, np.float32),
                np.zeros((enc.size, 2), np.float32)[:, 0]):
        with pytest.raises(ValueError, match="out must be"):
            enc.encode(o["map_tokens"], o["state"], 0, out=bad)
    out = np.full(enc.size, 7, np.float32)
    assert enc.encode(o["map_tokens"], o["state"], 0, out=out) is out and out.max() <= 1


def test_flat_encoding_of_known_tiles():
    game = polyenv.GameEnv(seed=0, map_size=8)
    game.place_unit(0, "warrior", (2, 3), hp=5)
    o = game.observe(0)
    enc = FlatEncoder(8, 2, game.turn_limit)
    flat = enc.encode(o["map_tokens"], o["state"], 0).reshape(-1)
    F = len(FLAT_TILE_FEATURE_NAMES)
    tile = flat[(2 * 8 + 3) * F:(2 * 8 + 4) * F]
    col = {n: tile[i] for i, n in enumerate(FLAT_TILE_FEATURE_NAMES)}
    assert col["explored"] == 1 and col["unit_own"] == 1 and col["unit_warrior"] == 1 and col["unit_other"] == 0
    assert col["unit_hp"] == pytest.approx(5 / 45)
    unexplored = np.flatnonzero(o["map_tokens"][:, 0] == 0)
    assert unexplored.size and not flat[:64 * F].reshape(64, F)[unexplored].any(), "fog must be all zeros"
    state = dict(zip(FLAT_STATE_FEATURE_NAMES, flat[64 * F:]))
    assert state["my_turn"] == 1 and state["game_over"] == 0


@pytest.mark.parametrize("observation_format", ["flat", "box"])
@pytest.mark.parametrize("action_mode", ["global", "rows"])
def test_gym_env_flat_passes_checkers(action_mode, observation_format):
    env = gym.make("polyenv/Tribes-v0", map_size=8, max_turns=6, observation_format=observation_format,
                   action_mode=action_mode, max_actions=32, invalid_action="end_turn")
    check_env(env.unwrapped, skip_render_check=True)
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(env.unwrapped, warn=True)


def test_vector_flat_matches_the_encoding_of_the_dict_observation():
    kw = dict(num_envs=3, map_size=8, max_turns=5, action_mode="rows", max_actions=24, seed=5)
    flat = TribesVectorEnv(observation_format="flat", **kw)
    nested = TribesVectorEnv(**kw)
    enc = FlatEncoder(8, 2, flat.turn_limit, 24)
    rng = np.random.default_rng(0)
    (fo, _), (no, _) = flat.reset(seed=1), nested.reset(seed=1)
    for _ in range(150):
        expected = enc.encode(no["map_tokens"], no["state"], 0, no["action_features"],
                              no["action_mask"].sum(axis=1))
        np.testing.assert_array_equal(fo["observation"], expected)
        np.testing.assert_array_equal(fo["action_mask"], no["action_mask"])
        assert flat.observation_space.contains(fo)
        a = masked_actions(rng, flat.action_masks())
        fo, *_ = flat.step(a)
        no, *_ = nested.step(a)


@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("observation_format", ["dict", "flat"])
def test_autoreset_disabled_holds_finished_envs_until_reset_mask(copy, observation_format):
    env = TribesVectorEnv(num_envs=4, map_size=8, max_turns=3, autoreset=False, copy=copy,
                          observation_format=observation_format, seed=0)
    assert env.autoreset_mode == AutoresetMode.DISABLED and env.metadata["autoreset_mode"] == AutoresetMode.DISABLED
    assert TribesVectorEnv(num_envs=1, map_size=8).autoreset_mode == AutoresetMode.SAME_STEP
    env.reset(seed=0)
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(300):
        obs, rewards, term, trunc, infos = env.step(masked_actions(rng, env.action_masks()))
        assert "final_obs" not in infos
        if term.any():
            finished += int(term.sum())
            held = np.flatnonzero(term)
            assert not obs["action_mask"][held].any() and rewards[held].all()
            with pytest.raises(EnvironmentFinishedError):
                env.step(np.zeros(4, np.int64))
            running = np.flatnonzero(~term)
            if running.size:
                with pytest.raises(ValueError, match="mid-episode"):
                    env.reset(options={"reset_mask": ~term})
            obs, _ = env.reset(options={"reset_mask": term.copy()})
            assert obs["action_mask"][held].any(axis=1).all()
    assert finished > 0


def test_reset_mask_needs_autoreset_off():
    env = TribesVectorEnv(num_envs=2, map_size=8, seed=0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="autoreset=False"):
        env.reset(options={"reset_mask": np.array([True, False])})
    with pytest.raises(ValueError, match="autoreset"):
        TribesVectorEnv(num_envs=2, map_size=8, autoreset="no")
    with pytest.raises(ValueError, match="observation_format"):
        TribesVectorEnv(num_envs=2, map_size=8, observation_format="nested")
