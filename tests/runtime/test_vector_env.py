"""VectorGameEnv: the batch contract of seed 000, seeds, stepping, auto-reset,
truncation, determinism across thread counts and the *_into twins.

Buffer validation and rejection paths: test_vector_buffers.py; the visible
event window, terminal observations and opponents: test_vector_events.py.
"""
import threading

import numpy as np
import pytest

import polyenv
from polyenv import Bardur, GameEnv, Imperius, VectorGameEnv
from polyenv.vector import allocate

from vector_reference import Reference, assert_batches_equal, assert_lockstep, random_actions

SEED_TABLE = [  # key, dtype, shape in (B, tiles, Amax, K) terms — the seed-000 table, in order
    ("map_tokens", np.int32, lambda B, T, A, K: (B, T, 23)),
    ("state", np.int32, lambda B, T, A, K: (B, 11)),
    ("action_id", np.int32, lambda B, T, A, K: (B, A)),
    ("action_features", np.int32, lambda B, T, A, K: (B, A, 17)),
    ("action_arg_mask", np.uint8, lambda B, T, A, K: (B, A, 12)),
    ("action_mask", np.uint8, lambda B, T, A, K: (B, A)),
    ("visible_event_features", np.int32, lambda B, T, A, K: (B, K, 26)),
    ("visible_event_sequence", np.uint64, lambda B, T, A, K: (B, K)),
    ("visible_event_action_sequence", np.uint64, lambda B, T, A, K: (B, K)),
    ("visible_event_mask", np.uint8, lambda B, T, A, K: (B, K)),
    ("visible_event_affected", np.int32, lambda B, T, A, K: (B, K, 9, 8)),
    ("visible_event_affected_mask", np.uint8, lambda B, T, A, K: (B, K, 9)),
    ("legal_action_count", np.int32, lambda B, T, A, K: (B,)),
    ("total_legal_action_count", np.int32, lambda B, T, A, K: (B,)),
    ("action_truncated", np.uint8, lambda B, T, A, K: (B,)),
    ("reward", np.float32, lambda B, T, A, K: (B,)),
    ("terminated", np.uint8, lambda B, T, A, K: (B,)),
    ("action_valid", np.uint8, lambda B, T, A, K: (B,)),
    ("env_id", np.int32, lambda B, T, A, K: (B,)),
    ("state_id", np.uint64, lambda B, T, A, K: (B,)),
    ("episode_id", np.uint64, lambda B, T, A, K: (B,)),
]

SMALL = dict(map_size=8, players=(Bardur, Imperius), max_turns=3)


def small_env(num_envs=6, **kwargs):
    args = dict(SMALL, seed=0, max_actions=48, num_threads=2)
    args.update(kwargs)
    return VectorGameEnv(num_envs, **args)


def reference_kwargs():
    return dict(map_size=SMALL["map_size"], players=SMALL["players"], max_turns=SMALL["max_turns"])


# ---------------------------------------------------------------------------- the batch table

@pytest.mark.parametrize("K", [0, 5])
def test_batch_keys_dtypes_shapes_follow_the_seed_table(K):
    B, A = 3, 40
    with VectorGameEnv(B, seed=7, map_size=9, max_actions=A, visible_event_history=K, num_threads=1) as env:
        T = 81
        spec = env.batch_spec()
        batch = env.reset(seed=7)
        assert list(spec) == [name for name, _, _ in SEED_TABLE]
        assert list(batch) == list(spec)
        for name, dtype, shape in SEED_TABLE:
            assert spec[name]["dtype"] == np.dtype(dtype), name
            assert tuple(spec[name]["shape"]) == shape(B, T, A, K), name
            assert batch[name].dtype == np.dtype(dtype), name
            assert batch[name].shape == shape(B, T, A, K), name
            assert batch[name].flags.c_contiguous and batch[name].flags.writeable


def test_feature_name_lists_are_exported_in_seed_order():
    assert VectorGameEnv.state_feature_names == (
        "turn", "current_player", "game_over", "winner", "player_stars", "owns_units", "own_cities",
        "next_turn_star_income", "pending_city_id", "pending_upgrade_a", "pending_upgrade_b")
    assert VectorGameEnv.action_feature_names == (
        "type_id", "source_index", "target_index", "city", "tech", "building", "spawn_type", "upgrade",
        "tile_action", "unit_upgrade", "unit_id", "population_gain", "cost_stars", "stars_before", "affordable",
        "damage_dealt", "damage_received")
    assert VectorGameEnv.visible_event_feature_names == polyenv.VISIBLE_EVENT_FEATURE_NAMES
    assert len(VectorGameEnv.visible_event_feature_names) == 26
    assert VectorGameEnv.visible_event_affected_feature_names == (
        "observed_unit_id", "tile_index", "unit_type", "damage", "hp_before", "hp_after", "destroyed", "splash")
    assert len(VectorGameEnv.map_token_feature_names) == 23
    assert len(VectorGameEnv.action_arg_mask_names) == 12
    env = small_env(1)
    assert env.visible_event_feature_names is VectorGameEnv.visible_event_feature_names
    env.close()


def test_reset_padding_counts_and_flags():
    with small_env(5, max_actions=30) as env:
        b = env.reset(seed=3)
        counts = b["legal_action_count"]
        assert (counts >= 1).all() and (counts <= 30).all()
        for r in range(5):
            n = counts[r]
            assert (b["action_mask"][r, :n] == 1).all() and (b["action_mask"][r, n:] == 0).all()
            assert (b["action_id"][r, n:] == -1).all() and (b["action_id"][r, :n] >= 0).all()
            assert b["action_id"][r, 0] == 0  # EndTurn is row 0 of a fresh turn
        assert (b["total_legal_action_count"] >= counts).all()
        np.testing.assert_array_equal(b["action_truncated"], (b["total_legal_action_count"] > counts).astype(np.uint8))
        assert not b["reward"].any() and not b["terminated"].any() and not b["action_valid"].any()
        np.testing.assert_array_equal(b["env_id"], np.arange(5, dtype=np.int32))
        assert len(set(b["state_id"].tolist())) == 5 and len(set(b["episode_id"].tolist())) == 5
        # combat previews are off by default: the last two action columns are -1 on real rows
        real = b["action_mask"].astype(bool)
        assert (b["action_features"][real][:, 15:] == -1).all()


# ---------------------------------------------------------------------------- seeds

def test_env_i_starts_from_seed_plus_i_like_gameenv():
    with VectorGameEnv(4, seed=1000, map_size=10, max_actions=64, num_threads=2) as env:
        b = env.reset(seed=1000)
        for i in range(4):
            o = GameEnv(seed=1000 + i, map_size=10).observe(max_actions=64)
            for key in ("map_tokens", "state", "action_id", "action_features", "action_arg_mask", "action_mask"):
                np.testing.assert_array_equal(b[key][i], o[key], err_msg=key)
    # seed 0 is an ordinary seed: environment i plays GameEnv(seed=i)
    with VectorGameEnv(2, seed=0, map_size=10, max_actions=64, num_threads=1) as env:
        b = env.reset(seed=0)
        np.testing.assert_array_equal(b["map_tokens"][1], GameEnv(seed=1, map_size=10).observe()["map_tokens"])


def test_reset_seed_restarts_the_sequence_and_unseeded_reset_advances_it():
    with small_env(3) as env:
        first = env.reset(seed=11)
        rng = np.random.default_rng(0)
        for _ in range(5):
            env.step(random_actions(first, rng))
        again = env.reset(seed=11)
        assert_batches_equal(first, again)
        assert not set(again["episode_id"].tolist()) & set(first["episode_id"].tolist())
        nxt = env.reset()  # episode 1 of every environment: seed 11 + i + 1 * B
        ref = Reference(3, seed=11, max_actions=48, **reference_kwargs())
        ref.reset(seed=11)
        assert_batches_equal(nxt, ref.reset())


def test_constructor_prepares_episode_zero():
    with small_env(3, seed=5) as env:
        observed = env.observe_slots(np.arange(3))
        assert_batches_equal(observed, env.reset(seed=5))


# ---------------------------------------------------------------------------- stepping

@pytest.mark.parametrize("auto_reset", [True, False])
def test_steps_match_a_python_loop_over_gameenv(auto_reset):
    B = 5
    env = small_env(B, seed=40, auto_reset=auto_reset)
    ref = Reference(B, seed=40, max_actions=48, auto_reset=auto_reset, **reference_kwargs())
    assert_lockstep(env, ref, seed=40, rng_seed=1, steps=300, auto_reset=auto_reset)
    env.close()


def test_rewards_are_plus_minus_one_on_terminal_rows_only():
    with small_env(6, seed=100) as env:
        batch = env.reset(seed=100)
        rng = np.random.default_rng(2)
        seen = 0
        for _ in range(600):
            batch = env.step(random_actions(batch, rng))
            done = batch["terminated"].astype(bool)
            assert set(np.unique(batch["reward"][done]).tolist()) <= {-1.0, 1.0}
            assert not batch["reward"][~done].any()
            seen += done.sum()
        assert seen > 0


def test_reward_sign_matches_the_winner_without_auto_reset():
    with small_env(6, seed=200, auto_reset=False) as env:
        batch = env.reset(seed=200)
        rng = np.random.default_rng(3)
        checked = 0
        for _ in range(800):
            actor = batch["state"][:, 1].copy()
            batch = env.step(random_actions(batch, rng))
            for r in np.flatnonzero(batch["terminated"]):
                winner = batch["state"][r, 3]
                assert batch["state"][r, 2] == 1  # game_over, seen by the actor
                assert batch["reward"][r] == (1.0 if winner == actor[r] else -1.0)
                checked += 1
            if batch["state"][:, 2].all():
                break
        assert checked > 0
        # a finished game accepts nothing until reset
        before = env.observe_slots(np.arange(6))
        done = np.flatnonzero(before["state"][:, 2])
        after = env.step(np.zeros(6, np.int32))
        assert not after["action_valid"][done].any() and not after["terminated"][done].any()
        np.testing.assert_array_equal(after["state_id"][done], before["state_id"][done])


def test_illegal_action_marks_only_that_row_and_changes_nothing():
    with small_env(4, seed=9) as env:
        b0 = env.reset(seed=9)
        actions = random_actions(b0, np.random.default_rng(4))
        actions[1] = -1                              # padding id
        actions[2] = env.action_space_size + 5       # out of range
        b1 = env.step(actions)
        np.testing.assert_array_equal(b1["action_valid"], [1, 0, 0, 1])
        for r in (1, 2):
            assert b1["state_id"][r] == b0["state_id"][r] and b1["episode_id"][r] == b0["episode_id"][r]
            for key in ("map_tokens", "state", "action_id", "action_features"):
                np.testing.assert_array_equal(b1[key][r], b0[key][r])
            assert b1["reward"][r] == 0 and b1["terminated"][r] == 0
        for r in (0, 3):
            assert b1["state_id"][r] != b0["state_id"][r] and b1["episode_id"][r] == b0["episode_id"][r]


def test_state_and_episode_ids_bookkeeping_over_auto_resets():
    with small_env(6, seed=300) as env:
        batch = env.reset(seed=300)
        rng = np.random.default_rng(5)
        seen_states = set(batch["state_id"].tolist())
        resets = 0
        for _ in range(500):
            prev = batch
            batch = env.step(random_actions(prev, rng))
            valid = batch["action_valid"].astype(bool)
            assert valid.all()
            new_states = batch["state_id"].tolist()
            assert not seen_states & set(new_states)  # every accepted action: a never-seen id
            seen_states.update(new_states)
            done = batch["terminated"].astype(bool)
            np.testing.assert_array_equal(batch["episode_id"] != prev["episode_id"], done)
            resets += done.sum()
            # the reset row already shows the next episode's first position
            assert (batch["state"][done, 0] == 0).all() and not batch["state"][done, 2].any()
        assert resets > 0


def test_truncation_keeps_the_canonical_prefix_with_end_turn():
    with VectorGameEnv(6, seed=50, map_size=11, max_actions=4, num_threads=2) as env:
        batch = env.reset(seed=50)
        rng = np.random.default_rng(6)
        truncated_rows = 0
        for _ in range(60):
            for r in range(6):
                n, total = batch["legal_action_count"][r], batch["total_legal_action_count"][r]
                assert n == min(total, 4)
                assert batch["action_truncated"][r] == (total > 4)
                ids = batch["action_id"][r, :n]
                assert (np.diff(ids) > 0).all()
                if total > 4:
                    truncated_rows += 1
                    if batch["state"][r, 8] == -1:  # no pending level-up: EndTurn is legal and kept
                        assert ids[0] == 0
            batch = env.step(random_actions(batch, rng))
        assert truncated_rows > 0
    # the represented rows are the prefix of GameEnv's canonical legal list
    with VectorGameEnv(1, seed=77, map_size=11, max_actions=3, num_threads=1) as env:
        b = env.reset(seed=77)
        legal = GameEnv(seed=77, map_size=11).legal_actions()
        np.testing.assert_array_equal(b["action_id"][0], legal[:3])
        assert b["total_legal_action_count"][0] == len(legal)


def test_combat_preview_option_fills_damage_columns():
    with small_env(8, seed=60, include_combat_preview=True, max_actions=200) as env:
        batch = env.reset(seed=60)
        rng = np.random.default_rng(7)
        attacks = 0
        for _ in range(300):
            f = batch["action_features"][batch["action_mask"].astype(bool)]
            attack = f[:, 0] == polyenv.ACTION_KINDS.index("attack")
            assert (f[~attack][:, 15:] == -1).all()
            assert (f[attack][:, 15:] >= 0).all()
            attacks += attack.sum()
            batch = env.step(random_actions(batch, rng))
        assert attacks > 0


# ---------------------------------------------------------------------------- determinism and *_into

def run_trajectory(num_threads, steps=120, into=False, seed=21):
    env = small_env(7, seed=seed, num_threads=num_threads, visible_event_history=3)
    rng = np.random.default_rng(8)
    if into:
        buffers = allocate(env.batch_spec())
        env.reset_into(buffers, seed=seed)
        batch = {k: v.copy() for k, v in buffers.items()}
    else:
        batch = env.reset(seed=seed)
    out = [batch]
    for _ in range(steps):
        actions = random_actions(batch, rng)
        if into:
            env.step_into(actions, buffers)
            batch = {k: v.copy() for k, v in buffers.items()}
        else:
            batch = env.step(actions)
        out.append(batch)
    env.close()
    return out


def id_pattern(batches):
    """Which rows got a new state / episode id at each call (ids themselves are process-unique)."""
    return [(b["state_id"] != a["state_id"], b["episode_id"] != a["episode_id"]) for a, b in zip(batches, batches[1:])]


def test_bit_identical_for_any_num_threads():
    runs = {t: run_trajectory(t) for t in (1, 2, 4)}
    for t in (2, 4):
        for a, b in zip(runs[1], runs[t]):
            assert_batches_equal(a, b)
        for (sa, ea), (sb, eb) in zip(id_pattern(runs[1]), id_pattern(runs[t])):
            np.testing.assert_array_equal(sa, sb)
            np.testing.assert_array_equal(ea, eb)


def test_rows_handed_out_in_chunks_are_bit_identical_for_any_num_threads():
    """Rows go to threads in chunks from a shared counter (a thread takes whatever is left), so
    which thread writes a row depends on timing: many rows (chunks of several rows, a short last
    one), full batches and slot subsets, into reused buffers, must not change a byte."""
    def run(threads):
        env = small_env(99, seed=5, num_threads=threads, max_turns=6)
        rng = np.random.default_rng(3)
        buffers = allocate(env.batch_spec())
        env.reset_into(buffers, seed=5)
        slot = np.arange(3, 99, 2, dtype=np.int32)
        slot_buffers = allocate(env.slot_batch_spec(len(slot)))
        out = []
        for t in range(30):
            env.step_into(random_actions(buffers, rng), buffers)
            out.append({k: v.copy() for k, v in buffers.items()})
            if t % 5 == 0:
                env.observe_slots_into(slot, slot_buffers)
                out.append({k: v.copy() for k, v in slot_buffers.items()})
        env.close()
        return out
    runs = {t: run(t) for t in (1, 2, 3)}
    for t in (2, 3):
        for a, b in zip(runs[1], runs[t]):
            assert_batches_equal(a, b)


def test_into_calls_are_bit_identical_to_allocating_calls():
    plain, into = run_trajectory(2), run_trajectory(2, into=True)
    for a, b in zip(plain, into):
        assert_batches_equal(a, b)
    for (sa, ea), (sb, eb) in zip(id_pattern(plain), id_pattern(into)):
        np.testing.assert_array_equal(sa, sb)
        np.testing.assert_array_equal(ea, eb)


def test_returned_arrays_are_fresh_and_independent():
    with small_env(3) as env:
        b1 = env.reset(seed=1)
        keep = {k: v.copy() for k, v in b1.items()}
        b2 = env.step(random_actions(b1, np.random.default_rng(0)))
        for key in b1:
            assert not np.shares_memory(b1[key], b2[key])
            np.testing.assert_array_equal(b1[key], keep[key])


def test_step_into_accepts_a_strided_view_of_its_own_buffers():
    with small_env(4, seed=31) as env, small_env(4, seed=31) as twin:
        buffers = allocate(env.batch_spec())
        env.reset_into(buffers, seed=31)
        ref = twin.reset(seed=31)
        for _ in range(20):
            action_ids = buffers["action_id"][:, 0]  # strided view into the output (EndTurn mostly)
            expected = twin.step(ref["action_id"][:, 0].copy())
            env.step_into(action_ids, buffers)
            assert_batches_equal(buffers, expected)
            ref = expected


# ---------------------------------------------------------------------------- lifecycle and errors

def test_close_is_idempotent_and_later_calls_raise():
    env = small_env(2)
    batch = env.reset(seed=0)
    env.close()
    env.close()
    assert env.closed
    for call in (lambda: env.reset(), lambda: env.step(batch["action_id"][:, 0]), lambda: env.batch_spec(),
                 lambda: env.observe_slots([0]), lambda: env.slot_partitions(2),
                 lambda: env.step_into(batch["action_id"][:, 0].copy(), allocate({}))):
        with pytest.raises(RuntimeError, match="closed"):
            call()
    with small_env(2) as env2:
        env2.reset()
    assert env2.closed


def test_worker_exception_is_reraised_and_requires_reset():
    with small_env(6, num_threads=3) as env:
        batch = env.reset(seed=2)
        env._native._inject_fault(4, "boom in env 4")
        with pytest.raises(RuntimeError, match="boom in env 4"):
            env.step(random_actions(batch, np.random.default_rng(0)))
        with pytest.raises(RuntimeError, match="reset"):
            env.step(random_actions(batch, np.random.default_rng(0)))
        with pytest.raises(RuntimeError, match="reset"):
            env.observe_slots([0])
        again = env.reset(seed=2)
        assert_batches_equal(again, batch)
        env.step(random_actions(again, np.random.default_rng(0)))


def test_constructor_rejects_bad_arguments():
    bad = [dict(num_envs=0), dict(num_threads=0), dict(max_actions=0), dict(visible_event_history=-1),
           dict(map_size=2), dict(map_size=99), dict(players=(Bardur,)), dict(players=(Bardur, 99)),
           dict(seed=-1), dict(mode="chess"), dict(max_turns=-3), dict(opponent="clever"),
           dict(learner_seats=(0,)), dict(opponent="random", learner_seats=(0, 1)),
           dict(opponent="random", learner_seats=(2,)), dict(opponent="random", learner_seats=(0, 0)),
           dict(reward="score")]
    for kwargs in bad:
        args = dict(num_envs=2, map_size=8)
        args.update(kwargs)
        with pytest.raises(ValueError):
            VectorGameEnv(**args)


def test_calls_from_several_python_threads_are_serialized_safely():
    with small_env(8, seed=90) as env:
        env.reset(seed=90)
        slots = env.slot_partitions(2)
        errors = []

        def worker(ids, seed):
            try:
                rng = np.random.default_rng(seed)
                b = env.observe_slots(ids)
                for _ in range(40):
                    b = env.step_slots_checked(ids, random_actions(b, rng), b["state_id"])
                    assert b["action_valid"].all()
            except Exception as e:  # surfaced below
                errors.append(e)

        threads = [threading.Thread(target=worker, args=(ids, k)) for k, ids in enumerate(slots)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors


# ---------------------------------------------------------------------------- the seed's snippets

def test_seed_snippet_create_select_and_step():
    env = VectorGameEnv(
        num_envs=16,
        seed=1234,
        map_size=11,
        players=(Bardur, Imperius),
        num_threads=2,
        max_actions=512,
        auto_reset=True,
        visible_event_history=16,
    )
    batch = env.reset(seed=1234)
    rng = np.random.default_rng(0)
    for _ in range(5):  # the seed's loop with a random policy standing in for the model
        scores = rng.random(batch["action_mask"].shape)
        valid = batch["action_mask"].astype(bool)
        rows = np.where(valid, scores, -np.inf).argmax(axis=1)
        env_rows = np.arange(env.num_envs)
        action_ids = batch["action_id"][env_rows, rows]
        batch = env.step(action_ids)
        assert batch["action_valid"].all()
    env.close()


def test_seed_snippet_create_a_batch_as_written():
    env = VectorGameEnv(
        num_envs=256,
        seed=1234,
        map_size=11,
        players=(Bardur, Imperius),
        num_threads=8,       # None: use up to the logical CPU count
        max_actions=512,
        auto_reset=True,
        visible_event_history=16,  # last K visible world events per environment
    )
    batch = env.reset(seed=1234)
    assert batch["map_tokens"].shape == (256, 121, 23) and batch["visible_event_features"].shape == (256, 16, 26)
    assert env.num_threads == 8
    env.close()


def test_thread_count_defaults_and_caps():
    with small_env(3, num_threads=None) as env:
        assert 1 <= env.num_threads <= 3
    with small_env(2, num_threads=16) as env:
        assert env.num_threads == 2  # never more threads than environments


def test_seed_snippet_slots():
    env = small_env(8, seed=5)
    slot_ids = env.slot_partitions(4)
    assert sorted(np.concatenate(slot_ids).tolist()) == list(range(8))
    assert {len(ids) for ids in slot_ids} == {2}
    slots = [{"env_ids": ids, "buffers": allocate(env.slot_batch_spec(len(ids)))} for ids in slot_ids]
    for slot in slots:
        env.observe_slots_into(slot["env_ids"], slot["buffers"])
        np.testing.assert_array_equal(slot["buffers"]["env_id"], slot["env_ids"])
    rng = np.random.default_rng(0)
    for k in range(12):
        slot = slots[k % 4]
        slot["action_ids"] = random_actions(slot["buffers"], rng)
        before = slot["buffers"]["state_id"].copy()
        env.step_slots_into_checked(slot["env_ids"], slot["action_ids"], slot["buffers"]["state_id"],
                                    slot["buffers"])
        assert slot["buffers"]["action_valid"].all()
        assert (slot["buffers"]["state_id"] != before).all()
        np.testing.assert_array_equal(slot["buffers"]["env_id"], slot["env_ids"])
    env.close()


def test_seed_snippet_pinned_buffers():
    torch = pytest.importorskip("torch")
    env = small_env(4, seed=1234, visible_event_history=4)
    model_fields = {
        "map_tokens", "state", "action_features", "action_arg_mask", "action_mask",
        "visible_event_features", "visible_event_mask", "visible_event_affected",
        "visible_event_affected_mask",
    }
    torch_dtypes = {np.dtype(np.int32): torch.int32, np.dtype(np.uint8): torch.uint8}
    pin = torch.cuda.is_available()
    host_tensors, buffers = {}, {}
    for name, field in env.batch_spec().items():
        shape, dtype = tuple(field["shape"]), np.dtype(field["dtype"])
        if name in model_fields:
            host_tensors[name] = torch.empty(shape, dtype=torch_dtypes[dtype], device="cpu", pin_memory=pin)
            buffers[name] = host_tensors[name].numpy()
        else:
            buffers[name] = np.empty(shape, dtype=dtype)
    env.reset_into(buffers, seed=1234)
    action_ids = buffers["action_id"][:, 0]
    env.step_into(action_ids, buffers)
    maps = torch.from_numpy(buffers["map_tokens"])
    assert maps.shape == (4, 64, 23)
    assert int(host_tensors["action_mask"].sum()) == int(buffers["legal_action_count"].sum())
    env.close()


def test_torch_select_and_step_on_cpu():
    torch = pytest.importorskip("torch")
    env = small_env(4, seed=3)
    batch = env.reset(seed=3)
    for _ in range(5):
        valid = torch.from_numpy(batch["action_mask"]).to("cpu", dtype=torch.bool)
        scores = torch.rand(valid.shape)
        rows = scores.masked_fill(~valid, -torch.inf).argmax(dim=1).cpu().numpy()
        action_ids = batch["action_id"][np.arange(env.num_envs), rows]
        batch = env.step(action_ids)
        assert batch["action_valid"].all()
    env.close()
