"""TribesVectorEnv: polyenv/Tribes-v0 as a Gymnasium VectorEnv on the native VectorGameEnv."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import polyenv
from polyenv import _core
from polyenv.vector import TribesVectorEnv, allocate

ENV_ID = "polyenv/Tribes-v0"


def make_vec(n=4, **kwargs) -> TribesVectorEnv:
    return gym.make_vec(ENV_ID, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)


def random_legal(rng, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row of a bool mask batch."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def test_make_vec_builds_the_native_vector_env():
    envs = make_vec(3, action_mode="rows", max_actions=64)
    assert isinstance(envs, TribesVectorEnv) and isinstance(envs.native, polyenv.VectorGameEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert envs.num_envs == 3 and envs.action_space.shape == (3,) and envs.single_action_space.n == 64
    single = gym.make(ENV_ID, action_mode="rows", max_actions=64)
    assert envs.single_observation_space == single.observation_space
    obs, infos = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    assert infos["legal_action_count"].shape == (3,) and infos["_legal_action_count"].all()
    assert envs.action_masks().shape == (3, 64) and envs.action_masks().dtype == bool
    envs.close()


@pytest.mark.parametrize("opponent,action_mode,reward", [
    (None, "global", "terminal"), (None, "rows", "terminal"), ("random", "global", "terminal"),
    ("random", "rows", "terminal"), ("greedy", "rows", "terminal"), ("random", "rows", "score_delta"),
    (None, "global", "score_delta")])
def test_matches_single_envs(opponent, action_mode, reward):
    """Observations, rewards, terminations and autoreset equal N single envs fed the same actions.

    Episode k of vector env i plays seed + i + k * N; the single envs are reset
    with those seeds when they finish. Bot replies match too: both draw each bot
    turn's choices from a stream derived from the position where it starts.
    """
    N, seed = 3, 40
    kw = dict(opponent=opponent, action_mode=action_mode, max_actions=128, map_size=8, max_turns=8, reward=reward)
    envs = make_vec(N, **kw)
    singles = [gym.make(ENV_ID, **kw).unwrapped for _ in range(N)]
    obs, _ = envs.reset(seed=seed)
    single_obs = [s.reset(seed=seed + i)[0] for i, s in enumerate(singles)]
    episodes, finished, shaped = [0] * N, 0, False
    rng = np.random.default_rng(0)
    for _ in range(1500):
        for i in range(N):
            for key in obs:
                assert np.array_equal(obs[key][i], single_obs[i][key]), (i, key)
        actions = random_legal(rng, envs.action_masks())
        actors = [s.game.current_player for s in singles]
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        assert not truncations.any()
        shaped |= bool(rewards[~terminations].any())
        for i, s in enumerate(singles):
            o, r, term, trunc, _ = s.step(int(actions[i]))
            assert (r, term, trunc) == (rewards[i], terminations[i], False)
            if term:
                assert infos["_final_obs"][i]
                for key in o:
                    assert np.array_equal(infos["final_obs"][i][key], o[key]), key
                assert infos["final_info"]["winner"][i] == s.game.winner
                assert infos["final_info"]["is_success"][i] == (s.game.winner == actors[i])
                episodes[i] += 1
                finished += 1
                o, _ = s.reset(seed=seed + i + episodes[i] * N)
            elif "_final_obs" in infos:
                assert not infos["_final_obs"][i] and infos["final_obs"][i] is None
            single_obs[i] = o
        if finished >= 2 * N:
            break
    assert finished >= N  # autoreset was exercised
    assert shaped or reward == "terminal"  # score_delta paid something before the game ends


def test_first_observations_match_single_envs_with_a_bot_opponent():
    envs = make_vec(3, opponent="greedy")
    obs, _ = envs.reset(seed=100)
    for i in range(3):
        single, _ = gym.make(ENV_ID, opponent="greedy").reset(seed=100 + i)
        assert all(np.array_equal(obs[k][i], single[k]) for k in obs)


@pytest.mark.parametrize("action_mode", ["global", "rows"])
def test_matches_the_raw_native_batch(action_mode):
    """The Gymnasium layer only converts: same games as a VectorGameEnv stepped with the same ids."""
    N, seed = 4, 9
    envs = make_vec(N, opponent="random", action_mode=action_mode, max_actions=96, map_size=8)
    raw = polyenv.VectorGameEnv(N, seed=seed, map_size=8, max_actions=96, opponent="random",
                                keep_terminal_observation=True)
    obs, _ = envs.reset(seed=seed)
    batch = raw.reset(seed=seed)
    rng = np.random.default_rng(1)
    done = 0
    for _ in range(600):
        assert np.array_equal(obs["map_tokens"], batch["map_tokens"]) and np.array_equal(obs["state"], batch["state"])
        rows = (rng.random(N) * batch["legal_action_count"]).astype(np.int64)
        ids = batch["action_id"][np.arange(N), rows]
        mask = np.zeros((N, envs.action_space_size), dtype=bool)
        for i in range(N):
            mask[i, batch["action_id"][i, :batch["legal_action_count"][i]]] = True
        if action_mode == "global":
            assert np.array_equal(envs.action_masks(), mask)
        else:
            assert np.array_equal(obs["action_id"], batch["action_id"])
            assert np.array_equal(obs["action_features"], batch["action_features"])
        obs, rewards, terminations, _, infos = envs.step(rows if action_mode == "rows" else ids)
        batch = raw.step(ids)
        assert np.array_equal(rewards, batch["reward"]) and np.array_equal(terminations, batch["terminated"] == 1)
        for i in np.flatnonzero(terminations):
            assert np.array_equal(infos["final_obs"][i]["map_tokens"], batch["final_map_tokens"][i])
            done += 1
    assert done > 0
    raw.close()


def test_seed_list_and_continued_sequences():
    envs = make_vec(3)
    a, _ = envs.reset(seed=[5, 6, 7])
    b, _ = make_vec(3).reset(seed=5)
    assert np.array_equal(a["map_tokens"], b["map_tokens"])
    with pytest.raises(ValueError, match="seed"):
        envs.reset(seed=[5, 9, 1])
    nxt, _ = envs.reset()
    single, _ = gym.make(ENV_ID).reset(seed=5 + 3)  # episode 1 of env 0: seed + 0 + 1 * N
    assert np.array_equal(nxt["map_tokens"][0], single["map_tokens"])


# ---------------------------------------------------------------------------- invalid actions
def illegal_rows(envs):
    masks = envs.action_masks()
    return np.array([np.flatnonzero(~m)[0] for m in masks])


def test_invalid_raise_changes_nothing():
    envs = make_vec(3, invalid_action="raise", action_mode="rows", max_actions=200)
    obs, _ = envs.reset(seed=0)
    ids = envs._batch["state_id"].copy()
    actions = np.zeros(3, dtype=np.int64)
    actions[1] = illegal_rows(envs)[1]
    with pytest.raises(ValueError, match=r"environments \[1\]"):
        envs.step(actions)
    assert np.array_equal(envs.native.observe_slots(np.arange(3))["state_id"], ids)
    envs.step(np.zeros(3, dtype=np.int64))  # still usable


def test_invalid_end_turn_and_penalty():
    envs = make_vec(2, invalid_action="end_turn")
    envs.reset(seed=0)
    turn = envs._batch["state"][:, 0].copy()
    _, rewards, _, _, infos = envs.step(illegal_rows(envs))
    assert infos["invalid_action"].all() and (envs._batch["state"][:, 0] == turn + 1).all()

    envs = make_vec(2, invalid_action="penalty", invalid_action_penalty=-0.25, action_mode="rows", max_actions=200)
    obs, _ = envs.reset(seed=0)
    before = envs._batch["state_id"].copy()
    actions = illegal_rows(envs)
    actions[0] = 0
    obs2, rewards, _, _, infos = envs.step(actions)
    assert rewards[1] == pytest.approx(-0.25) and infos["invalid_action"].tolist() == [False, True]
    assert envs._batch["state_id"][1] == before[1] and envs._batch["state_id"][0] != before[0]
    assert np.array_equal(obs2["map_tokens"][1], obs["map_tokens"][1])


@pytest.mark.parametrize("actions", [np.zeros(3), np.zeros(2, dtype=np.int64), np.array([0, 0, -1]),
                                     np.array([0, 0, 10**6]), [[0, 0, 0]]])
def test_malformed_actions_raise(actions):
    envs = make_vec(3)
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="actions"):
        envs.step(actions)


def test_step_before_reset_raises():
    with pytest.raises(RuntimeError, match="reset"):
        TribesVectorEnv(num_envs=2).step(np.zeros(2, dtype=np.int64))


@pytest.mark.parametrize("kwargs,match", [
    (dict(levels="x.csv"), "matches no file"),
    (dict(levels=str(polyenv.__path__[0] + "/levels/duel_11.csv"), level_selection="seeded_random"),
     "seeded_random"),
    (dict(opponent=lambda game: 0), "callable"),
    (dict(learner_seat="random"), "learner_seat"),
    (dict(reward="margin"), "reward"),
    (dict(info_mode="debug"), "debug"),
    (dict(max_episode_steps=10), "max_episode_steps"),
    (dict(action_mode="dense"), "action_mode"),
    (dict(opponent="expert"), "opponent"),
    (dict(learner_seat=5), "learner_seat"),
    (dict(num_envs=0), "num_envs"),
])
def test_unsupported_and_bad_kwargs(kwargs, match):
    with pytest.raises(ValueError, match=match):
        TribesVectorEnv(**{"num_envs": 2, **kwargs})


# ---------------------------------------------------------------------------- native extras and buffers
def test_native_extras():
    envs = make_vec(2, action_mode="rows", max_actions=32)
    envs.reset(seed=1)
    spec = envs.batch_spec()
    assert spec["action_id"]["shape"] == (2, 32) and "final_map_tokens" in spec
    buffers = allocate(spec)
    ids = envs._batch["action_id"][:, 0].astype(np.int32)
    envs.step_into(ids, buffers)
    assert buffers["action_valid"].all()
    obs, *_ = envs.step(np.zeros(2, dtype=np.int64))  # rows of the step_into batch
    assert np.array_equal(obs["state"], envs._batch["state"])
    batch = envs.step_checked(envs._batch["action_id"][:, 0], envs._batch["state_id"])
    with pytest.raises(polyenv.StaleStateError):
        envs.step_checked(batch["action_id"][:, 0], batch["state_id"] + 1)


def test_copy_false_double_buffers():
    envs = make_vec(2, copy=False, action_mode="global")
    obs0, _ = envs.reset(seed=2)
    obs1, *_ = envs.step(envs._batch["action_id"][:, 0].astype(np.int64))
    snapshot = {k: v.copy() for k, v in obs1.items()}
    obs2, *_ = envs.step(envs._batch["action_id"][:, 0].astype(np.int64))
    assert all(np.array_equal(obs1[k], snapshot[k]) for k in obs1)  # valid through the next step
    assert obs2["map_tokens"] is not obs1["map_tokens"]
    assert obs2["action_mask"].sum() == (envs._batch["action_mask"] == 1).sum()


def expected_global_mask(envs) -> np.ndarray:
    mask = np.zeros((envs.num_envs, envs.action_space_size), dtype=np.int8)
    for i in range(envs.num_envs):
        mask[i, envs._batch["action_id"][i, :envs._batch["legal_action_count"][i]]] = 1
    return mask


def test_copy_true_global_masks_are_recycled_only_once_dropped():
    """copy=True: a returned mask never changes while the caller holds it (or a view of it)."""
    envs = make_vec(3, action_mode="global")
    obs, _ = envs.reset(seed=5)
    rng = np.random.default_rng(0)
    held = []                                            # (mask or a view of it, its values when returned)
    for step in range(40):
        assert np.array_equal(obs["action_mask"], expected_global_mask(envs))
        if step < 10:  # nothing held yet: the masks come from the recycling pool
            assert any(obs["action_mask"] is entry[0] for entry in envs._mask_pool)
        elif step % 5 == 0:
            held.append((obs["action_mask"], obs["action_mask"].copy()))
        elif step % 5 == 1:
            view = obs["action_mask"][1:]
            held.append((view, view.copy()))
        obs, *_ = envs.step(random_legal(rng, envs.action_masks()))
        for mask, values in held:
            assert np.array_equal(mask, values)
    envs.close()


def test_render_and_close():
    envs = make_vec(2, render_mode="ansi")
    envs.reset(seed=0)
    out = envs.render()
    assert len(out) == 2 and all(isinstance(s, str) for s in out)
    envs.close()
    with pytest.raises(RuntimeError):
        envs.native.reset()


def test_without_autoreset_resets_follow_the_seed_sequence_of_an_autoreset_twin():
    """autoreset=False: a finished game stays over in the native env (VectorGameEnv auto_reset=False) until
    a partial or a full reset starts its next episode: the games match an autoreset twin's."""
    kwargs = dict(action_mode="rows", max_turns=3, map_size=8, max_actions=48)
    held, auto = make_vec(3, autoreset=False, **kwargs), make_vec(3, **kwargs)
    held.reset(seed=6)
    obs_a, _ = auto.reset(seed=6)
    rng = np.random.default_rng(5)
    for _ in range(300):
        actions = random_legal(rng, obs_a["action_mask"].astype(bool))
        obs_h, _, term_h, _, _ = held.step(actions)
        obs_a, _, term_a, _, _ = auto.step(actions)
        np.testing.assert_array_equal(term_h, term_a)
        if term_h.any():
            np.testing.assert_array_equal(held.native.observe_slots(np.flatnonzero(term_h))["state"][:, 2], 1)
            obs_h, _ = held.reset(options={"reset_mask": term_h})
        for key in obs_a:
            np.testing.assert_array_equal(obs_h[key], obs_a[key], err_msg=key)
    # A full reset while a game is over: its next episode is the one after the episode the autoreset twin
    # started at once, so both seed sequences stay in step.
    while not term_h.any():
        actions = random_legal(rng, obs_a["action_mask"].astype(bool))
        _, _, term_h, _, _ = held.step(actions)
        obs_a, _, term_a, _, _ = auto.step(actions)
    assert not term_h.all()
    obs_h, _ = held.reset()
    obs_a, _ = auto.reset()
    for key in obs_a:
        np.testing.assert_array_equal(obs_h[key], obs_a[key], err_msg=key)


@pytest.mark.parametrize("autoreset", [True, False])
def test_copy_false_slots_equal_copy_true_batches(autoreset):
    """copy=False reuses two native slots (whose zeros the native writer keeps) and, without
    autoreset, copies the previous slot before a partial reset writes the restarted rows: every
    observation must still equal the copy=True twin's."""
    kwargs = dict(action_mode="global", max_turns=3, map_size=8, autoreset=autoreset)
    fast, ref = make_vec(3, copy=False, **kwargs), make_vec(3, **kwargs)
    obs_f, _ = fast.reset(seed=4)
    obs_r, _ = ref.reset(seed=4)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(120):
        for key in obs_r:
            np.testing.assert_array_equal(obs_f[key], obs_r[key], err_msg=key)
        assert all(np.array_equal(fast._batch[k], ref._batch[k]) for k in
                   ("map_tokens", "action_id", "action_features", "action_arg_mask", "action_mask"))
        actions = random_legal(rng, ref.action_masks())
        obs_f, _, term_f, trunc_f, _ = fast.step(actions)
        obs_r, _, term_r, trunc_r, _ = ref.step(actions)
        np.testing.assert_array_equal(term_f, term_r)
        done = term_r | trunc_r
        ended += int(done.sum())
        if not autoreset and done.any():
            obs_f, _ = fast.reset(options={"reset_mask": done})
            obs_r, _ = ref.reset(options={"reset_mask": done})
    assert ended > 0


def test_row_objects_splits_batched_rows_into_one_dict_of_views_per_listed_env():
    rows = {"a": np.arange(6).reshape(2, 3), "b": np.array([7.0, 8.0])}
    out = _core.row_objects(rows, np.array([3, 1]), 5)
    assert out.dtype == object and out.shape == (5,)
    assert [o is None for o in out] == [True, False, True, False, True]
    assert out[3]["a"].tolist() == [0, 1, 2] and out[1]["a"].tolist() == [3, 4, 5]
    assert float(out[3]["b"]) == 7.0 and np.shares_memory(out[1]["a"], rows["a"])
    assert _core.row_objects({}, np.zeros(0, np.int64), 0).shape == (0,)


@pytest.mark.parametrize("rows, ids, n, match", [
    ({"a": np.zeros((2, 3))}, [0, 5], 5, "outside"),
    ({"a": np.zeros((2, 3))}, [0, -1], 5, "outside"),
    ({"a": np.zeros((3, 3))}, [0, 1], 5, "2 rows"),
    ({"a": [1, 2]}, [0, 1], 5, "2 rows"),
    ({"a": np.zeros((2, 3))}, [[0, 1]], 5, "one-dimensional"),
    ({"a": np.zeros((2, 3))}, [0, 1], -1, "num_envs"),
])
def test_row_objects_refuses_bad_input(rows, ids, n, match):
    with pytest.raises(ValueError, match=match):
        _core.row_objects(rows, np.asarray(ids, np.int64), n)
