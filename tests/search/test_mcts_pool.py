"""MctsPool: agreement with a pure-Python reference PUCT (2 and 3 players),
virtual loss, fan-out, budgets, cancel/abort, terminal leaves, determinism
across thread counts and *_into calls equal to the allocating calls."""
import numpy as np
import pytest

import polyenv
from polyenv import Bardur, Imperius, MctsPool, Oumaji
from polyenv.selfplay import PendingLeavesError, StaleLeafError
from polyenv.vector import allocate

from mcts_reference import ReferencePuct, evaluation

A = 128


def run_lockstep(players, pending, rounds, num_envs=2, c_puct=1.5, virtual_loss=1.0):
    pool = MctsPool(num_envs, seed=5, map_size=8, players=players, max_actions=A, num_threads=2,
                    max_pending_leaves_per_tree=pending, c_puct=c_puct, virtual_loss=virtual_loss)
    live = pool.reset(seed=5)
    P = len(players)
    refs = [ReferencePuct(int(live["to_play"][t]), P, c_puct, virtual_loss) for t in range(num_envs)]
    for _ in range(rounds):
        leaves = pool.select_leaves()
        # The reference selects the same number of leaves per tree, in tree order.
        expected = []
        for t, ref in enumerate(refs):
            quota = pending if ref.root.expanded else 1
            for _ in range(quota):
                got = ref.descend()
                if got is None:
                    break
                expected.append((t, got))
        assert len(leaves["leaf_id"]) == len(expected)
        L = len(expected)
        logits = np.zeros((L, A), np.float32)
        values = np.zeros((L,) if P == 2 else (L, P), np.float32)
        for i, (t, (path, trail, node)) in enumerate(expected):
            leaf_id = int(leaves["leaf_id"][i])
            assert leaves["tree_id"][i] == t
            assert tuple(pool._native._leaf_actions(leaf_id)) == path
            rows = int(leaves["legal_action_count"][i])
            logits[i], values[i] = evaluation(path, rows, A, P)
        for i, (t, (path, trail, node)) in enumerate(expected):
            rows = int(leaves["legal_action_count"][i])
            refs[t].expand(node, int(leaves["to_play"][i]), leaves["action_id"][i, :rows], logits[i])
            refs[t].backup(trail, node, int(leaves["to_play"][i]), values[i])
        pool.expand_and_backup(leaves["leaf_id"], logits, values)
    root = pool.root_policy(1.0)
    for t, ref in enumerate(refs):
        n = len(ref.root.actions)
        assert list(root["action_id"][t, :n]) == ref.root.actions
        assert list(root["visit_count"][t, :n]) == ref.root.edge_visits
        assert root["root_visit_count"][t] == ref.root.visits
        assert root["root_value"][t] == pytest.approx(ref.root.value / ref.root.visits, rel=1e-6, abs=1e-7)
    pool.close()
    return root


@pytest.mark.parametrize("pending", [1, 4])
def test_two_player_search_matches_reference(pending):
    root = run_lockstep((Bardur, Imperius), pending, rounds=60)
    assert root["root_visit_count"].min() == 60 if pending == 1 else root["root_visit_count"].min() > 60


@pytest.mark.parametrize("pending", [1, 3])
def test_three_player_maxn_matches_reference(pending):
    run_lockstep((Bardur, Imperius, Oumaji), pending, rounds=50)


def test_zero_virtual_loss_and_high_c_puct_match_reference():
    run_lockstep((Bardur, Imperius), 2, rounds=30, c_puct=4.0, virtual_loss=0.0)


def uniform_round(pool, leaves=None):
    leaves = pool.select_leaves() if leaves is None else leaves
    L = len(leaves["leaf_id"])
    values = np.linspace(-0.5, 0.5, L, dtype=np.float32) if pool.player_count == 2 else \
        np.zeros((L, pool.player_count), np.float32)
    pool.expand_and_backup(leaves["leaf_id"], np.zeros((L, pool.max_actions), np.float32), values)
    return L


def make_pool(**kw):
    args = dict(num_envs=3, seed=11, map_size=8, players=(Bardur, Imperius), max_actions=A, num_threads=2,
                max_pending_leaves_per_tree=4)
    args.update(kw)
    return MctsPool(**args)


def test_fan_out_and_virtual_loss_rollback():
    with make_pool() as pool:
        pool.reset(seed=3)
        first = pool.select_leaves()
        assert len(first["leaf_id"]) == 3  # unexpanded roots: one leaf each
        assert pool.select_leaves()["leaf_id"].size == 0  # roots in flight: nothing more
        uniform_round(pool, first)
        fan = pool.select_leaves()
        assert len(fan["leaf_id"]) == 12
        assert pool.search_stats()["pending_leaves"].tolist() == [4, 4, 4]
        paths = [tuple(pool._native._leaf_actions(int(i))) for i in fan["leaf_id"][:4]]
        assert len(set(paths)) == 4  # virtual loss spreads the in-flight paths
        # Cancelling rolls the virtual loss back: the same leaves are selected again.
        pool.cancel_leaves(fan["leaf_id"])
        again = pool.select_leaves()
        assert [tuple(pool._native._leaf_actions(int(i))) for i in again["leaf_id"][:4]] == paths
        with pytest.raises(StaleLeafError):
            pool.expand_and_backup(fan["leaf_id"][:1], np.zeros((1, A), np.float32), np.zeros(1, np.float32))


def test_cancel_then_search_equals_plain_search():
    with make_pool() as a, make_pool() as b:
        a.reset(seed=3)
        b.reset(seed=3)
        uniform_round(a)
        uniform_round(b)
        a.cancel_leaves(a.select_leaves()["leaf_id"])
        for _ in range(10):
            uniform_round(a)
            uniform_round(b)
        ra, rb = a.root_policy(), b.root_policy()
        np.testing.assert_array_equal(ra["visit_count"], rb["visit_count"])
        np.testing.assert_array_equal(ra["root_value"], rb["root_value"])


def test_abort_search_and_steps_invalidate_leaves():
    with make_pool() as pool:
        live = pool.reset(seed=3)
        uniform_round(pool)
        leaves = pool.select_leaves()
        with pytest.raises(PendingLeavesError):
            pool.step_checked(np.zeros(3, np.int32), live["state_id"])
        pool.abort_search()
        assert pool.search_stats()["pending_leaves"].sum() == 0
        with pytest.raises(StaleLeafError):
            pool.cancel_leaves(leaves["leaf_id"])
        root = pool.root_policy(0.0)
        actions = root["action_id"][np.arange(3), root["policy"].argmax(1)]
        nxt = pool.step_checked(actions, root["state_id"])
        assert nxt["action_valid"].all()
        with pytest.raises(polyenv.StaleStateError):
            pool.step_checked(actions, root["state_id"])
        assert pool.search_stats()["nodes"].tolist() == [1, 1, 1]  # new roots
        leaves = pool.select_leaves()
        pool.reset()
        with pytest.raises(StaleLeafError):
            pool.cancel_leaves(leaves["leaf_id"])


def test_node_budget_stops_admission_but_search_continues():
    with make_pool(max_nodes_per_tree=10) as pool:
        pool.reset(seed=3)
        for _ in range(20):
            uniform_round(pool)
        stats = pool.search_stats()
        assert stats["nodes"].max() == 10
        assert stats["node_budget_exhausted"].all() and not stats["byte_budget_exhausted"].any()
        before = pool.root_policy()["root_visit_count"].copy()
        uniform_round(pool)
        assert (pool.root_policy()["root_visit_count"] > before).all()
        assert pool.search_stats()["nodes"].max() == 10


def test_byte_budget():
    with make_pool(max_tree_bytes=1) as pool:  # not even one child fits
        pool.reset(seed=3)
        for _ in range(5):
            uniform_round(pool)
        stats = pool.search_stats()
        assert stats["nodes"].tolist() == [1, 1, 1]
        assert stats["byte_budget_exhausted"].all()
        assert (pool.root_policy()["root_visit_count"] > 5).all()
    with make_pool(max_tree_bytes=300_000) as pool:
        pool.reset(seed=3)
        for _ in range(40):
            uniform_round(pool)
        stats = pool.search_stats()
        assert stats["byte_budget_exhausted"].all() and (stats["bytes"] <= 300_000 + 4 * A * 28).all()


def test_terminal_leaves_are_backed_up_without_the_model():
    # Score mode with a one-turn limit: End Turns reach finished games inside the tree.
    with make_pool(mode="score", max_turns=1, max_pending_leaves_per_tree=1) as pool:
        pool.reset(seed=3)
        evaluated = 0
        for _ in range(40):
            evaluated += uniform_round(pool)
        root = pool.root_policy()
        assert root["root_visit_count"].sum() > evaluated


def test_terminal_transition_fields():
    with MctsPool(2, seed=1, map_size=8, players=(Bardur, Imperius), mode="score", max_turns=1,
                  max_actions=A) as pool:
        live = pool.reset()
        assert (live["winner"] == -1).all() and not live["terminal_values"].any()
        for _ in range(50):
            live = pool.step(np.zeros(2, np.int32))  # End Turn
            if live["terminated"].any():
                break
        assert live["terminated"].all()
        for i in range(2):
            w = live["winner"][i]
            expected = np.full(2, -1.0, np.float32)
            expected[w] = 1.0
            np.testing.assert_array_equal(live["terminal_values"][i], expected)


def test_three_player_terminal_values():
    with MctsPool(1, seed=1, map_size=8, players=(Bardur, Imperius, Oumaji), mode="score", max_turns=1,
                  max_actions=A) as pool:
        pool.reset()
        for _ in range(50):
            live = pool.step(np.zeros(1, np.int32))
            if live["terminated"][0]:
                break
        w = live["winner"][0]
        assert live["terminal_values"][0, w] == 1.0
        assert sorted(live["terminal_values"][0]) == [-0.5, -0.5, 1.0]


def search_trace(num_threads, pending):
    pool = MctsPool(5, seed=21, map_size=8, players=(Bardur, Imperius), max_actions=A, num_threads=num_threads,
                    max_pending_leaves_per_tree=pending, dirichlet_alpha=0.3)
    pool.reset()
    trace = []
    rng = np.random.default_rng(0)
    for move in range(3):
        for _ in range(8):
            leaves = pool.select_leaves()
            L = len(leaves["leaf_id"])
            trace.append({k: v.copy() for k, v in leaves.items()})
            pool.expand_and_backup(leaves["leaf_id"], rng.normal(size=(L, A)).astype(np.float32),
                                   rng.uniform(-1, 1, L).astype(np.float32))
        root = pool.root_policy(1.0)
        trace.append(root)
        pool.step_checked(root["action_id"][np.arange(5), root["visit_count"].argmax(1)], root["state_id"])
    pool.close()
    return trace


def test_results_identical_for_any_thread_count():
    one, two = search_trace(1, 4), search_trace(2, 4)
    assert len(one) == len(two)
    for a, b in zip(one, two):
        for key in a:
            if key in ("leaf_id", "state_id", "episode_id"):
                continue  # opaque process-unique ids
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_into_calls_equal_allocating_calls():
    with make_pool() as a, make_pool() as b:
        live_a = a.reset(seed=9)
        live_buf = allocate(b.batch_spec())
        b.reset_into(live_buf, seed=9)
        for key in live_a:
            if key not in ("state_id", "episode_id"):
                np.testing.assert_array_equal(live_a[key], live_buf[key], err_msg=key)
        leaf_buf = allocate(b.leaf_batch_spec(7))
        root_buf = allocate(b.root_policy_spec())
        for _ in range(6):
            la = a.select_leaves(7)
            n = b.select_leaves_into(leaf_buf, 7)
            assert n == len(la["leaf_id"])
            for key in la:
                if key not in ("leaf_id", "state_id", "episode_id"):
                    np.testing.assert_array_equal(la[key], leaf_buf[key][:n], err_msg=key)
            uniform_round(a, la)
            uniform_round(b, {k: v[:n] for k, v in leaf_buf.items()})
        ra = a.root_policy(0.5)
        b.root_policy_into(root_buf, 0.5)
        for key in ra:
            if key not in ("state_id", "episode_id"):
                np.testing.assert_array_equal(ra[key], root_buf[key], err_msg=key)
        actions = ra["action_id"][np.arange(3), ra["visit_count"].argmax(1)]
        sa = a.step_checked(actions, ra["state_id"])
        b.step_into_checked(root_buf["action_id"][np.arange(3), ra["visit_count"].argmax(1)].copy(),
                            root_buf["state_id"], live_buf)
        for key in sa:
            if key not in ("state_id", "episode_id"):
                np.testing.assert_array_equal(sa[key], live_buf[key], err_msg=key)
        # step_into is step on the buffers, illegal ids included (action_valid 0, nothing moves).
        for _ in range(4):
            ra = a.root_policy(1.0)
            actions = ra["action_id"][:, 0].copy()
            actions[1] = -5
            sa = a.step(actions)
            b.step_into(actions.copy(), live_buf)
            assert sa["action_valid"].tolist() == [1, 0, 1]
            for key in sa:
                if key not in ("state_id", "episode_id"):
                    np.testing.assert_array_equal(sa[key], live_buf[key], err_msg=key)


def test_root_policy_temperatures():
    with make_pool() as pool:
        pool.reset(seed=2)
        untouched = pool.root_policy()
        n = untouched["action_mask"].sum(1)
        np.testing.assert_allclose(untouched["policy"].sum(1), 1.0, rtol=1e-6)
        assert (untouched["policy"][0, :n[0]] == untouched["policy"][0, 0]).all()  # uniform before search
        for _ in range(15):
            uniform_round(pool)
        greedy = pool.root_policy(0.0)
        visits = greedy["visit_count"]
        assert (greedy["policy"][np.arange(3), visits.argmax(1)] == 1.0).all()
        warm = pool.root_policy(1.0)
        np.testing.assert_allclose(warm["policy"], visits / visits.sum(1, keepdims=True), rtol=1e-6)
        assert (warm["root_visit_count"] == visits.sum(1) + 1).all()
        assert (warm["player_count"] == 2).all() and (warm["env_id"] == np.arange(3)).all()


def test_default_capacity_is_the_action_space():
    with MctsPool(1, seed=1, map_size=8, players=(Bardur, Imperius)) as pool:
        assert pool.max_actions == pool.action_space_size
        live = pool.reset()
        assert live["action_id"].shape == (1, pool.action_space_size)
        assert not live["action_truncated"].any()


def test_require_all_actions_overflow_and_truncation():
    from polyenv.selfplay import ActionOverflowError
    with pytest.raises(ActionOverflowError):
        MctsPool(1, seed=1, map_size=8, players=(Bardur, Imperius), max_actions=2).reset()
    with MctsPool(1, seed=1, map_size=8, players=(Bardur, Imperius), max_actions=2,
                  require_all_actions=False) as pool:
        live = pool.reset()
        assert live["action_truncated"][0] == 1 and live["action_id"][0, 0] == 0
        leaves = pool.select_leaves()
        assert leaves["action_truncated"][0] == 1


@pytest.mark.parametrize("players", [(Bardur, Imperius), (Bardur, Imperius, Oumaji)])
def test_long_mixed_run(players):
    """Select with varying capacities, partial backups, cancels, aborts, steps and resets under tight
    budgets and short games; the pool's accounting stays consistent throughout (run under ASan in CI)."""
    P = len(players)
    rng = np.random.default_rng(3)
    with MctsPool(4, seed=8, map_size=8, players=players, max_actions=A, num_threads=2, mode="score",
                  max_turns=2, max_pending_leaves_per_tree=3, max_nodes_per_tree=40, dirichlet_alpha=0.5,
                  require_all_actions=False) as pool:
        live = pool.reset()
        pending = []
        for it in range(150):
            op = rng.integers(6)
            if op <= 2:
                leaves = pool.select_leaves(int(rng.integers(0, 13)))
                pending.extend(leaves["leaf_id"].tolist())
            elif op == 3 and pending:
                take = [pending.pop(int(rng.integers(len(pending)))) for _ in range(int(rng.integers(1, len(pending) + 1)))]
                L = len(take)
                values = rng.uniform(-1, 1, (L,) if P == 2 else (L, P)).astype(np.float32)
                pool.expand_and_backup(np.array(take, np.uint64), rng.normal(size=(L, A)).astype(np.float32), values)
            elif op == 4 and pending:
                pool.cancel_leaves(np.array([pending.pop()], np.uint64))
            else:
                if rng.random() < 0.1:
                    live = pool.reset()
                else:
                    pool.abort_search()
                    root = pool.root_policy(float(rng.choice([0.0, 0.5, 1.0])))
                    rows = root["visit_count"].argmax(1)
                    live = pool.step_checked(root["action_id"][np.arange(4), rows], root["state_id"])
                    assert live["action_valid"].all()
                pending = []
            stats = pool.search_stats()
            assert stats["pending_leaves"].sum() == len(pending)
            assert (stats["nodes"] <= 40).all()
