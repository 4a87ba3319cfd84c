"""VectorGameEnv rejection paths: every malformed buffer, input vector, stale
state id, duplicate or out-of-range env id raises the documented error and
leaves every game and every buffer exactly as it was."""
import numpy as np
import pytest

import polyenv
from polyenv import Bardur, Imperius, StaleStateError, VectorGameEnv
from polyenv.vector import allocate

from vector_reference import assert_batches_equal, random_actions

B = 5


@pytest.fixture
def env():
    e = VectorGameEnv(B, seed=17, map_size=8, players=(Bardur, Imperius), max_actions=32, num_threads=2,
                      visible_event_history=3, keep_terminal_observation=True)
    batch = e.reset(seed=17)
    rng = np.random.default_rng(0)
    for _ in range(10):  # leave the games somewhere in the middle of a turn
        batch = e.step(random_actions(batch, rng))
    yield e
    e.close()


def snapshot(env):
    return env.observe_slots(np.arange(env.num_envs))


def sentinel_buffers(env, rows=None):
    spec = env.batch_spec() if rows is None else env.slot_batch_spec(rows)
    buffers = allocate(spec)
    for a in buffers.values():
        a.fill(7)
    return buffers


def assert_untouched(buffers, skip=()):
    for name, a in buffers.items():
        if name not in skip:
            assert (a == 7).all(), f"buffer {name} was written by a rejected call"


def assert_rejected(env, call, error, match, buffers=None):
    before = snapshot(env)
    with pytest.raises(error, match=match):
        call()
    assert_batches_equal(snapshot(env), before, skip=())
    if buffers is not None:
        assert_untouched(buffers)


def current_actions(env):
    return random_actions(snapshot(env), np.random.default_rng(1))


# ---------------------------------------------------------------------------- buffers

def bad_buffer_cases(env, rows):
    spec = env.slot_batch_spec(rows)
    shape = tuple(spec["map_tokens"]["shape"])
    raw = bytearray(int(np.prod(shape)) * 4 + 8)
    misaligned = np.ndarray(shape, dtype=np.int32, buffer=raw, offset=1)
    readonly = np.zeros(shape, np.int32)
    readonly.setflags(write=False)
    wide = np.zeros(shape[:-1] + (shape[-1] * 2,), np.int32)
    return [
        ("map_tokens", np.zeros(shape, np.int64), "dtype int32"),
        ("map_tokens", np.zeros(shape, np.float32), "dtype int32"),
        ("map_tokens", np.zeros(shape, np.dtype(">i4")), "dtype int32"),
        ("reward", np.zeros(rows, np.float64), "dtype float32"),
        ("state_id", np.zeros(rows, np.int64), "dtype uint64"),
        ("map_tokens", np.zeros(shape[:-1] + (22,), np.int32), "shape"),
        ("action_id", np.zeros((rows + 1, env.max_actions), np.int32), "shape"),
        ("visible_event_affected", np.zeros((rows, 3, 9), np.int32), "shape"),
        ("map_tokens", wide[..., ::2], "C-contiguous"),
        ("map_tokens", np.asfortranarray(np.zeros(shape, np.int32)), "C-contiguous"),
        ("map_tokens", readonly, "read-only"),
        ("map_tokens", misaligned, "aligned"),
        ("map_tokens", shape, "NumPy array"),
    ]


def test_each_malformed_buffer_is_rejected_before_anything_changes(env):
    for call in ("step_into", "step_into_checked", "reset_into", "observe_slots_into"):
        rows = 3 if call == "observe_slots_into" else B
        for name, bad, match in bad_buffer_cases(env, rows):
            buffers = sentinel_buffers(env, rows=rows)
            buffers[name] = bad
            state = snapshot(env)
            actions = random_actions(state, np.random.default_rng(2))
            calls = {
                "step_into": lambda: env.step_into(actions, buffers),
                "step_into_checked": lambda: env.step_into_checked(actions, state["state_id"], buffers),
                "reset_into": lambda: env.reset_into(buffers, seed=3),
                "observe_slots_into": lambda: env.observe_slots_into(np.arange(3), buffers),
            }
            with pytest.raises(ValueError, match=match):
                calls[call]()
            assert_batches_equal(snapshot(env), state, skip=())
            assert_untouched({k: v for k, v in buffers.items() if k != name})


def test_overlapping_buffers_are_rejected(env):
    buffers = sentinel_buffers(env)
    buffers["total_legal_action_count"] = buffers["legal_action_count"]  # the same memory twice
    assert_rejected(env, lambda: env.step_into(current_actions(env), buffers), ValueError, "overlap")
    # partial overlap: two fields carved out of one byte block, sharing 4 bytes
    buffers = sentinel_buffers(env)
    block = np.zeros(2 * B * 4 - 4, np.uint8)
    buffers["legal_action_count"] = block[: B * 4].view(np.int32)
    buffers["env_id"] = block[B * 4 - 4:].view(np.int32)
    assert buffers["env_id"].flags.aligned and buffers["env_id"].shape == (B,)
    assert_rejected(env, lambda: env.step_into(current_actions(env), buffers), ValueError, "overlap")
    # adjacent, non-overlapping views of one block are fine
    buffers = sentinel_buffers(env)
    block = np.zeros(2 * B, np.int32)
    buffers["legal_action_count"], buffers["env_id"] = block[:B], block[B:]
    env.step_into(current_actions(env), buffers)


def test_missing_extra_and_non_dict_buffers_are_rejected(env):
    buffers = sentinel_buffers(env)
    del buffers["final_state"]
    assert_rejected(env, lambda: env.step_into(current_actions(env), buffers), ValueError, "missing 'final_state'")
    buffers = sentinel_buffers(env)
    buffers["extra"] = np.full(3, 7)
    assert_rejected(env, lambda: env.step_into(current_actions(env), buffers), ValueError, "unexpected buffer 'extra'",
                    buffers=buffers)
    assert_rejected(env, lambda: env.step_into(current_actions(env), list(buffers.values())), ValueError, "dict")
    # a full-batch spec is not a slot spec
    buffers = sentinel_buffers(env)
    assert_rejected(env, lambda: env.observe_slots_into([0, 1], buffers), ValueError, "shape", buffers=buffers)


# ---------------------------------------------------------------------------- input vectors

def test_malformed_action_vectors_are_rejected(env):
    buffers = sentinel_buffers(env)
    actions = current_actions(env)
    assert_rejected(env, lambda: env.step_into(actions.astype(np.int64), buffers), ValueError, "int32", buffers)
    assert_rejected(env, lambda: env.step_into(list(actions), buffers), ValueError, "NumPy array", buffers)
    assert_rejected(env, lambda: env.step_into(actions[:-1], buffers), ValueError, "shape", buffers)
    assert_rejected(env, lambda: env.step_into(actions.reshape(1, -1), buffers), ValueError, "shape", buffers)
    assert_rejected(env, lambda: env.step(actions.astype(np.float32)), ValueError, "integers")
    assert_rejected(env, lambda: env.step(np.append(actions, 0)), ValueError, "shape")
    assert_rejected(env, lambda: env.step(actions.astype(np.int64) + 2**40), ValueError, "int32")
    # the allocating call converts any integer dtype
    assert env.step(actions.astype(np.int64))["action_valid"].all()


def test_stale_state_ids_reject_the_whole_call(env):
    assert issubclass(StaleStateError, RuntimeError) and polyenv.StaleStateError is StaleStateError
    old = snapshot(env)
    env.step(random_actions(old, np.random.default_rng(3)))  # every row advances: old ids are stale
    fresh = snapshot(env)
    actions = random_actions(fresh, np.random.default_rng(4))
    for stale_row in (0, B - 1):
        ids = fresh["state_id"].copy()
        ids[stale_row] = old["state_id"][stale_row]
        buffers = sentinel_buffers(env)
        assert_rejected(env, lambda: env.step_checked(actions, ids), StaleStateError, f"row {stale_row}")
        assert_rejected(env, lambda: env.step_into_checked(actions, ids, buffers), StaleStateError, "stale", buffers)
    assert_rejected(env, lambda: env.step_checked(actions, fresh["state_id"][:-1]), ValueError, "shape")
    assert_rejected(env, lambda: env.step_into_checked(actions, fresh["state_id"].astype(np.int64),
                                                       sentinel_buffers(env)), ValueError, "uint64")
    assert_rejected(env, lambda: env.step_checked(actions, -np.ones(B, np.int64)), ValueError, "non-negative")
    out = env.step_checked(actions, fresh["state_id"])
    assert out["action_valid"].all() and (out["state_id"] != fresh["state_id"]).all()


def test_a_checked_step_with_the_previous_batch_ids_works_after_observe(env):
    b = snapshot(env)
    again = snapshot(env)  # observing changes no id
    np.testing.assert_array_equal(b["state_id"], again["state_id"])
    env.step_checked(random_actions(b, np.random.default_rng(5)), b["state_id"])


# ---------------------------------------------------------------------------- slot ids

def test_duplicate_and_out_of_range_env_ids(env):
    s = snapshot(env)
    for ids, error, match in [([1, 1], ValueError, "twice"), ([0, B], IndexError, "outside"),
                              ([-1, 0], IndexError, "outside"), (np.array([0.0, 1.0]), ValueError, "integers"),
                              (list(range(B)) + [0], ValueError, "entries")]:
        n = len(ids)
        acts = np.zeros(n, np.int32)
        sids = np.zeros(n, np.uint64)
        assert_rejected(env, lambda: env.observe_slots(ids), error, match)
        assert_rejected(env, lambda: env.step_slots_checked(ids, acts, sids), error, match)
        buffers = sentinel_buffers(env, rows=n)
        assert_rejected(env, lambda: env.step_slots_into_checked(ids, acts, sids, buffers), error, match, buffers)
    ids = np.array([3, 1])
    assert_rejected(env, lambda: env.step_slots_checked(ids, np.zeros(2, np.int32), s["state_id"][[1, 3]]),
                    StaleStateError, "stale")
    out = env.step_slots_checked(ids, random_actions(env.observe_slots(ids), np.random.default_rng(6)),
                                 s["state_id"][[3, 1]])
    np.testing.assert_array_equal(out["env_id"], [3, 1])
    after = snapshot(env)
    untouched = [0, 2, 4]
    np.testing.assert_array_equal(after["state_id"][untouched], s["state_id"][untouched])


def test_slot_rows_use_local_positions_and_authoritative_env_ids(env):
    ids = np.array([4, 0, 2], dtype=np.int32)
    part = env.observe_slots(ids)
    full = snapshot(env)
    np.testing.assert_array_equal(part["env_id"], ids)
    for key in ("map_tokens", "state", "action_id", "state_id", "visible_event_features"):
        np.testing.assert_array_equal(part[key], full[key][ids], err_msg=key)
    assert set(env.slot_batch_spec(3)) == set(env.batch_spec())
    assert env.slot_batch_spec(3)["map_tokens"]["shape"] == (3, 64, 23)
    with pytest.raises(ValueError):
        env.slot_partitions(B + 1)
    with pytest.raises(ValueError):
        env.slot_partitions(0)
    with pytest.raises(ValueError):
        env.slot_batch_spec(-1)


@pytest.mark.parametrize("call", ["step_into", "step_into_checked", "reset_into", "observe_slots_into",
                                  "step_slots_into_checked"])
def test_none_buffers_raise_type_error_and_change_nothing(env, call):
    """An ``*_into`` call without buffers used to run, allocate a batch and drop it (a reset that
    returned nothing). It is a TypeError now (also a ValueError: a malformed argument)."""
    ids = np.arange(2, dtype=np.int32)
    batch = snapshot(env)
    calls = {
        "step_into": lambda: env.step_into(current_actions(env), None),
        "step_into_checked": lambda: env.step_into_checked(current_actions(env), batch["state_id"], None),
        "reset_into": lambda: env.reset_into(None),
        "observe_slots_into": lambda: env.observe_slots_into(ids, None),
        "step_slots_into_checked": lambda: env.step_slots_into_checked(
            ids, current_actions(env)[:2], batch["state_id"][:2], None),
    }
    assert_rejected(env, calls[call], TypeError, "buffers must be a dict")


def test_visible_event_history_has_a_named_bound():
    limit = polyenv.vector_env.MAX_VISIBLE_EVENT_HISTORY
    assert limit == polyenv._core.MAX_VISIBLE_EVENT_HISTORY == 1024
    for k in (limit + 1, 2 ** 31 - 1):
        with pytest.raises(ValueError, match="MAX_VISIBLE_EVENT_HISTORY"):
            VectorGameEnv(1, map_size=8, visible_event_history=k)
    with VectorGameEnv(1, map_size=8, visible_event_history=limit) as e:
        assert e.visible_event_history == limit
