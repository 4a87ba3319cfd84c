"""MctsPool rejection paths: every malformed argument, buffer, stale or
duplicate leaf id, stale state id and protocol misuse raises the documented
error and leaves every game, tree, pending leaf and caller buffer as it was."""
import numpy as np
import pytest

from polyenv import Bardur, Imperius, MctsPool, Oumaji, StaleStateError
from polyenv.selfplay import PendingLeavesError, StaleLeafError
from polyenv.vector import allocate

A = 64


def uniform_round(pool):
    leaves = pool.select_leaves()
    L = len(leaves["leaf_id"])
    shape = (L,) if pool.player_count == 2 else (L, pool.player_count)
    pool.expand_and_backup(leaves["leaf_id"], np.zeros((L, A), np.float32), np.zeros(shape, np.float32))


@pytest.fixture
def pool():
    p = MctsPool(3, seed=4, map_size=8, players=(Bardur, Imperius), max_actions=A, num_threads=2,
                 max_pending_leaves_per_tree=3)
    p.reset(seed=4)
    for _ in range(4):
        uniform_round(p)
    yield p
    p.close()


@pytest.fixture
def pending(pool):
    """The pool with leaves in flight; returns their batch."""
    return pool.select_leaves()


def sentinel(spec):
    buffers = allocate(spec)
    for a in buffers.values():
        a.fill(7)
    return buffers


def rejects(pool, error, call, buffers=None):
    digest = pool._native._state_digest()
    copies = None if buffers is None else {k: v.copy() for k, v in buffers.items()}
    with pytest.raises(error):
        call()
    assert pool._native._state_digest() == digest
    if buffers is not None:
        for key, value in buffers.items():
            np.testing.assert_array_equal(value, copies[key], err_msg=key)


def test_expand_and_backup_rejections(pool, pending):
    ids = pending["leaf_id"]
    L = len(ids)
    logits = np.zeros((L, A), np.float32)
    values = np.zeros(L, np.float32)
    bad_values = [values.astype(np.float64), np.zeros(L + 1, np.float32), np.zeros((L, 2), np.float32),
                  np.full(L, 1.5, np.float32), np.full(L, np.nan, np.float32), [0.0] * L]
    for v in bad_values:
        rejects(pool, ValueError, lambda: pool.expand_and_backup(ids, logits, v))
    bad_logits = [logits.astype(np.float64), np.zeros((L, A + 1), np.float32), np.zeros((L + 1, A), np.float32),
                  np.zeros((L, 2 * A), np.float32)[:, ::2], logits.tolist()]
    for lg in bad_logits:
        rejects(pool, ValueError, lambda: pool.expand_and_backup(ids, lg, values))
    nan_row = logits.copy()
    nan_row[-1, 0] = np.nan  # row 0 is always a valid action row
    rejects(pool, ValueError, lambda: pool.expand_and_backup(ids, nan_row, values))
    rejects(pool, ValueError, lambda: pool.expand_and_backup(ids.astype(np.int64), logits, values))
    dup = ids.copy()
    dup[-1] = dup[0]
    rejects(pool, ValueError, lambda: pool.expand_and_backup(dup, logits, values))
    stale = ids.copy()
    stale[-1] = np.uint64(12345)
    rejects(pool, StaleLeafError, lambda: pool.expand_and_backup(stale, logits, values))
    # Padding rows may hold -inf (masked by the model): accepted.
    masked = np.where(pending["action_mask"].astype(bool), 0.0, -np.inf).astype(np.float32)
    pool.expand_and_backup(ids, masked, values)
    rejects(pool, StaleLeafError, lambda: pool.expand_and_backup(ids, logits, values))  # consumed


def test_three_player_values_shape():
    with MctsPool(2, seed=4, map_size=8, players=(Bardur, Imperius, Oumaji), max_actions=A) as pool:
        pool.reset()
        leaves = pool.select_leaves()
        L = len(leaves["leaf_id"])
        logits = np.zeros((L, A), np.float32)
        rejects(pool, ValueError, lambda: pool.expand_and_backup(leaves["leaf_id"], logits, np.zeros(L, np.float32)))
        rejects(pool, ValueError,
                lambda: pool.expand_and_backup(leaves["leaf_id"], logits, np.full((L, 3), -2, np.float32)))
        pool.expand_and_backup(leaves["leaf_id"], logits, np.zeros((L, 3), np.float32))


def test_cancel_rejections(pool, pending):
    ids = pending["leaf_id"]
    rejects(pool, ValueError, lambda: pool.cancel_leaves(np.concatenate([ids, ids[:1]])))
    rejects(pool, StaleLeafError, lambda: pool.cancel_leaves(np.array([0], np.uint64)))
    rejects(pool, ValueError, lambda: pool.cancel_leaves(ids.astype(np.int32)))


def test_select_leaves_into_rejections(pool):
    spec = pool.leaf_batch_spec(5)
    good = sentinel(spec)
    cases = []
    b = sentinel(spec); b["map_tokens"] = b["map_tokens"].astype(np.int64); cases.append(b)
    b = sentinel(spec); b["action_id"] = np.zeros((6, A), np.int32); cases.append(b)
    b = sentinel(spec); b["state"].flags.writeable = False; cases.append(b)
    b = sentinel(spec); del b["leaf_id"]; cases.append(b)
    b = sentinel(spec); b["extra"] = np.zeros(1); cases.append(b)
    b = sentinel(spec); b["to_play"] = b["tree_id"]; cases.append(b)  # overlap
    b = sentinel(spec); b["action_mask"] = np.zeros((A, 5), np.uint8).T; cases.append(b)  # not C-contiguous
    for buffers in cases:
        rejects(pool, ValueError, lambda: pool.select_leaves_into(buffers, 5), buffers)
    rejects(pool, ValueError, lambda: pool.select_leaves_into(good, 6), good)  # capacity mismatch
    rejects(pool, ValueError, lambda: pool.select_leaves_into(good, -1), good)
    rejects(pool, ValueError, lambda: pool.select_leaves_into([], 5))
    assert pool.select_leaves_into(good, 5) == 5


def test_root_policy_rejections(pool, pending):
    spec = pool.root_policy_spec()
    for t in (-1.0, float("nan"), float("inf"), "1"):
        buffers = sentinel(spec)
        rejects(pool, ValueError, lambda: pool.root_policy_into(buffers, t), buffers)
    buffers = sentinel(spec)
    buffers["policy"] = buffers["policy"].astype(np.float64)
    rejects(pool, ValueError, lambda: pool.root_policy_into(buffers, 1.0), buffers)


def test_step_rejections(pool, pending):
    live_spec = pool.batch_spec()
    root = pool.root_policy()
    actions = root["action_id"][:, 0].copy()
    buffers = sentinel(live_spec)
    rejects(pool, PendingLeavesError, lambda: pool.step_into_checked(actions, root["state_id"], buffers), buffers)
    rejects(pool, PendingLeavesError, lambda: pool.step(actions))
    pool.abort_search()
    stale = root["state_id"].copy()
    stale[1] += np.uint64(1)
    rejects(pool, StaleStateError, lambda: pool.step_into_checked(actions, stale, buffers), buffers)
    rejects(pool, ValueError, lambda: pool.step_into_checked(actions.astype(np.int64), root["state_id"], buffers),
            buffers)
    rejects(pool, ValueError, lambda: pool.step_into_checked(actions[:2], root["state_id"][:2], buffers), buffers)
    bad = sentinel(live_spec)
    bad["terminal_values"] = np.zeros((3, 3), np.float32)
    rejects(pool, ValueError, lambda: pool.step_into_checked(actions, root["state_id"], bad), bad)
    # The action vectors may view the output buffers (they are copied first).
    buffers["action_id"][:, 0] = actions
    buffers["state_id"][:] = root["state_id"]
    pool.step_into_checked(buffers["action_id"][:, 0], buffers["state_id"], buffers)
    assert buffers["action_valid"].all()


@pytest.mark.parametrize("kwargs", [
    dict(num_envs=0), dict(max_actions=-1), dict(max_pending_leaves_per_tree=0), dict(max_pending_leaves_per_tree=9),
    dict(c_puct=-1.0), dict(c_puct=float("nan")), dict(virtual_loss=-0.5), dict(max_nodes_per_tree=-1),
    dict(max_tree_bytes=-1), dict(dirichlet_alpha=0.0), dict(dirichlet_fraction=1.5), dict(players=(Bardur,)),
    dict(map_size=3), dict(num_threads=0),
])
def test_constructor_rejections(kwargs):
    args = dict(num_envs=2, seed=1, map_size=8, players=(Bardur, Imperius), max_actions=A)
    args.update(kwargs)
    with pytest.raises(ValueError):
        MctsPool(**args)


def test_closed_pool_raises():
    pool = MctsPool(1, seed=1, map_size=8, max_actions=A)
    pool.close()
    pool.close()
    for call in (pool.reset, pool.select_leaves, pool.abort_search, pool.root_policy, pool.search_stats):
        with pytest.raises(RuntimeError):
            call()


def test_step_into_rejections(pool, pending):
    # step_into: step's semantics on the *_into buffer protocol; every rejection changes nothing.
    live_spec = pool.batch_spec()
    actions = pool.root_policy()["action_id"][:, 0].copy()
    buffers = sentinel(live_spec)
    rejects(pool, PendingLeavesError, lambda: pool.step_into(actions, buffers), buffers)
    pool.abort_search()
    rejects(pool, ValueError, lambda: pool.step_into(actions.astype(np.int64), buffers), buffers)
    rejects(pool, ValueError, lambda: pool.step_into(actions[:2], buffers), buffers)
    rejects(pool, ValueError, lambda: pool.step_into(actions.tolist(), buffers), buffers)
    for key, bad_value in (("terminal_values", np.zeros((3, 3), np.float32)),
                           ("map_tokens", np.zeros((3, 64, 23), np.int64)),
                           ("state_id", np.zeros(3, np.uint64)[::-1].copy()[None])):
        bad = sentinel(live_spec)
        bad[key] = bad_value
        rejects(pool, ValueError, lambda: pool.step_into(actions, bad), bad)
    missing = sentinel(live_spec)
    del missing["winner"]
    rejects(pool, ValueError, lambda: pool.step_into(actions, missing), missing)
    # The action vector may view the output buffers (it is copied first).
    buffers["action_id"][:, 0] = actions
    pool.step_into(buffers["action_id"][:, 0], buffers)
    assert buffers["action_valid"].all()
