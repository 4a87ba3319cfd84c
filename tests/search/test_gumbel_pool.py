"""root_selection="gumbel": the pools against the pure-Python Gumbel reference (2 and 3 players,
pending leaves, subtree reuse), sequential-halving visit counts, the improved policy, the
search's chosen action, determinism across thread counts and bad arguments."""
import numpy as np
import pytest

from polyenv import Bardur, Imperius, MctsPool, Oumaji, SelfPlayPool, XinXi

from gumbel_reference import ReferenceGumbel, considered_visits, improved_policy, sigma
from mcts_reference import Node, evaluation

A = 128
TWO, THREE = (Bardur, Imperius), (Bardur, Imperius, Oumaji)


def lockstep(players, pending, simulations, rounds, moves, num_envs=3, reuse=False, max_considered=16,
             virtual_loss=1.0, seed=5):
    """Runs the pool and one reference per tree in lockstep for `moves` real moves; asserts every
    leaf, visit count, improved policy and chosen action agree. Returns the pool's last root policy."""
    pool = MctsPool(num_envs, seed=seed, map_size=8, players=players, max_actions=A, num_threads=2,
                    max_pending_leaves_per_tree=pending, virtual_loss=virtual_loss, root_selection="gumbel",
                    num_simulations=simulations, max_considered_actions=max_considered, reuse_tree=reuse)
    live = pool.reset(seed=seed)
    P = len(players)
    refs = [ReferenceGumbel(int(live["to_play"][t]), P, virtual_loss, simulations, max_considered)
            for t in range(num_envs)]
    kept_any = False
    for move in range(moves):
        for t, ref in enumerate(refs):  # a kept root is expanded already: its draws were made at the move
            if ref.root.expanded and ref.gumbel is None:
                root = pool.root_policy()
                ref.start(root["gumbel"][t, :len(ref.root.actions)])
        for _ in range(rounds):
            leaves = pool.select_leaves()
            expected = []
            for t, ref in enumerate(refs):
                for _ in range(pending if ref.root.expanded else 1):
                    got = ref.descend()
                    if got is None:
                        break
                    expected.append((t, got))
            assert len(leaves["leaf_id"]) == len(expected)
            L = len(expected)
            logits = np.zeros((L, A), np.float32)
            values = np.zeros((L,) if P == 2 else (L, P), np.float32)
            for i, (t, (path, trail, node)) in enumerate(expected):
                assert leaves["tree_id"][i] == t
                assert tuple(pool._native._leaf_actions(int(leaves["leaf_id"][i]))) == path
                logits[i], values[i] = evaluation(path + (move,), int(leaves["legal_action_count"][i]), A, P)
            for i, (t, (path, trail, node)) in enumerate(expected):
                rows = int(leaves["legal_action_count"][i])
                refs[t].expand(node, int(leaves["to_play"][i]), leaves["action_id"][i, :rows], logits[i])
                refs[t].backup(trail, node, int(leaves["to_play"][i]), values[i])
            pool.expand_and_backup(leaves["leaf_id"], logits, values)
            root = pool.root_policy()
            for t, ref in enumerate(refs):
                if ref.root.expanded and ref.gumbel is None:
                    draws = root["gumbel"][t, :len(ref.root.actions)]
                    assert np.all(draws != 0) and np.all(np.isfinite(draws))
                    ref.start(draws)
        root = pool.root_policy(1.0)
        for t, ref in enumerate(refs):
            n = len(ref.root.actions)
            assert list(root["action_id"][t, :n]) == ref.root.actions
            assert list(root["visit_count"][t, :n]) == ref.root.edge_visits
            assert root["root_visit_count"][t] == ref.root.visits
            want = np.asarray(ref.root_improved_policy(), np.float64).astype(np.float32)
            np.testing.assert_array_equal(root["improved_policy"][t, :n], want)
            assert not root["improved_policy"][t, n:].any()
            assert root["improved_policy"][t, :n].sum() == pytest.approx(1.0, abs=1e-5)
            assert root["selected_row"][t] == ref.final_row()
            assert root["selected_action"][t] == ref.root.actions[ref.final_row()]
        chosen = root["selected_action"].copy()
        live = pool.step_checked(chosen, root["state_id"])
        stats = pool.search_stats()
        for t in range(num_envs):
            action = int(chosen[t])
            if reuse and stats["reuse"][t] == 1:
                kept_any = True
                refs[t].advance(action)
                assert stats["kept_nodes"][t] == count_nodes(refs[t].root)
            else:
                assert stats["kept_nodes"][t] == 0 and stats["nodes"][t] == 1
                refs[t] = ReferenceGumbel(int(live["to_play"][t]), P, virtual_loss, simulations, max_considered)
    pool.close()
    if reuse:
        assert kept_any
    return root


def count_nodes(node: Node) -> int:
    return 1 + sum(count_nodes(c) for c in node.children.values())


@pytest.mark.parametrize("pending", [1, 4])
def test_two_player_gumbel_matches_reference(pending):
    lockstep(TWO, pending, simulations=24, rounds=26 if pending == 1 else 10, moves=3)


@pytest.mark.parametrize("pending", [1, 3])
def test_three_player_maxn_gumbel_matches_reference(pending):
    lockstep(THREE, pending, simulations=20, rounds=22 if pending == 1 else 9, moves=3)


def test_fewer_and_more_rounds_than_the_budget_match_reference():
    lockstep(TWO, 1, simulations=40, rounds=12, moves=2, max_considered=8)  # stopped early
    lockstep(TWO, 2, simulations=10, rounds=30, moves=2, max_considered=4)  # halving goes on past the budget


def test_gumbel_with_reuse_matches_reference():
    lockstep(TWO, 2, simulations=24, rounds=16, moves=5, reuse=True, num_envs=4)
    lockstep(THREE, 1, simulations=16, rounds=18, moves=4, reuse=True, num_envs=2, virtual_loss=0.5)


def test_zero_virtual_loss_matches_reference():
    lockstep(TWO, 4, simulations=32, rounds=10, moves=2, virtual_loss=0.0)


def per_action(counts_by_level: list[int]) -> list[int]:
    # counts_by_level[v]: actions visited at least v + 1 times
    out = []
    for k in range(counts_by_level[0] if counts_by_level else 0):
        out.append(sum(1 for c in counts_by_level if c > k))
    return out


@pytest.mark.parametrize("m,n,sims", [(16, 32, 32), (16, 64, 64), (8, 50, 50), (4, 16, 40), (16, 8, 8), (1, 10, 10),
                                      (3, 20, 20)])
def test_sequential_halving_visit_counts(m, n, sims):
    with MctsPool(2, seed=3, map_size=8, players=TWO, max_actions=A, num_threads=1, root_selection="gumbel",
                  num_simulations=n, max_considered_actions=m) as pool:
        pool.reset(seed=3)
        rng = np.random.default_rng(1)
        for _ in range(sims + 1):  # the first round evaluates the root
            leaves = pool.select_leaves()
            L = len(leaves["leaf_id"])
            pool.expand_and_backup(leaves["leaf_id"], rng.normal(size=(L, A)).astype(np.float32),
                                   rng.uniform(-1, 1, L).astype(np.float32))
        root = pool.root_policy()
        seq = considered_visits(min(m, int(root["action_mask"][0].sum())), n, sims)
        levels = [sum(1 for v in seq if v == level) for level in range(max(seq) + 1)]
        for t in range(2):
            visits = sorted(root["visit_count"][t][root["visit_count"][t] > 0].tolist(), reverse=True)
            assert visits == per_action(levels)
            assert root["root_visit_count"][t] == sims + 1


def test_schedule_matches_mctx_table():
    # mctx's get_sequence_of_considered_visits for (m, n) = (4, 16) and (16, 32), and m = 1.
    assert considered_visits(4, 16, 16) == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert considered_visits(16, 32, 32) == [0] * 16 + [1] * 8 + [2] * 4 + [3] * 4
    assert considered_visits(1, 5, 5) == [0, 1, 2, 3, 4]


def tree_node(tree, n) -> Node:
    node = Node(int(tree["actor"][n]))
    node.raw = float(tree["raw_value"][n])
    first, count = int(tree["first_edge"][n]), int(tree["num_edges"][n])
    node.actions = tree["edge_action"][first:first + count].tolist()
    node.priors = [float(p) for p in tree["edge_prior"][first:first + count]]
    node.edge_visits = tree["edge_visits"][first:first + count].tolist()
    node.edge_vl = [0] * count
    node.edge_value = [float(v) for v in tree["edge_value_sum"][first:first + count]]
    return node


def test_puct_root_policy_has_the_improved_policy_and_the_most_visited_action():
    with MctsPool(3, seed=4, map_size=8, players=TWO, max_actions=A, num_threads=2,
                  max_pending_leaves_per_tree=2) as pool:
        pool.reset(seed=4)
        root = pool.root_policy()
        n = root["action_mask"].sum(1)
        for t in range(3):  # nothing searched: uniform, first row, no draws
            np.testing.assert_allclose(root["improved_policy"][t, :n[t]], 1.0 / n[t], rtol=1e-6)
        assert (root["selected_row"] == 0).all() and not root["gumbel"].any()
        rng = np.random.default_rng(2)
        for _ in range(25):
            leaves = pool.select_leaves()
            L = len(leaves["leaf_id"])
            pool.expand_and_backup(leaves["leaf_id"], rng.normal(size=(L, A)).astype(np.float32),
                                   rng.uniform(-1, 1, L).astype(np.float32))
        root = pool.root_policy()
        assert not root["gumbel"].any()
        for t in range(3):
            tree = pool._native._tree(t)
            node = tree_node(tree, 0)
            sig, _ = sigma(node, False, 0.0, 0.1, 50.0)
            want = np.asarray(improved_policy(node, sig)).astype(np.float32)
            k = len(node.actions)
            np.testing.assert_array_equal(root["improved_policy"][t, :k], want)
            assert root["improved_policy"][t, :k].sum() == pytest.approx(1.0, abs=1e-5)
            assert not root["improved_policy"][t, k:].any()
            visits = root["visit_count"][t]
            assert root["selected_row"][t] == int(np.argmax(visits))
            assert root["selected_action"][t] == root["action_id"][t, np.argmax(visits)]


def test_no_noise_is_deterministic_and_follows_the_prior():
    # gumbel_scale=0 and uniform values: the considered actions are the prior's top m.
    with MctsPool(1, seed=3, map_size=8, players=TWO, max_actions=A, num_threads=1, root_selection="gumbel",
                  num_simulations=8, max_considered_actions=4, gumbel_scale=0.0) as pool:
        pool.reset(seed=3)
        leaves = pool.select_leaves()
        rows = int(leaves["legal_action_count"][0])
        logits = np.zeros((1, A), np.float32)
        logits[0, :rows] = np.arange(rows, dtype=np.float32) * 0.1  # the later rows are preferred
        pool.expand_and_backup(leaves["leaf_id"], logits, np.zeros(1, np.float32))
        for _ in range(8):
            leaves = pool.select_leaves()
            pool.expand_and_backup(leaves["leaf_id"], np.zeros((1, A), np.float32), np.zeros(1, np.float32))
        root = pool.root_policy()
        assert not root["gumbel"].any()
        visited = set(np.flatnonzero(root["visit_count"][0]).tolist())
        assert visited == set(range(rows - 4, rows))
        assert root["selected_row"][0] == rows - 1


def gumbel_trace(num_threads, pool_cls=MctsPool, **kw):
    pool = pool_cls(5, seed=21, map_size=8, players=TWO, max_actions=A, num_threads=num_threads,
                    max_pending_leaves_per_tree=4, root_selection="gumbel", num_simulations=16, **kw)
    pool.reset()
    trace = []
    rng = np.random.default_rng(0)
    for move in range(3):
        for _ in range(6):
            leaves = pool.select_leaves()
            L = len(leaves["leaf_id"])
            trace.append({k: v.copy() for k, v in leaves.items()})
            pool.expand_and_backup(leaves["leaf_id"], rng.normal(size=(L, A)).astype(np.float32),
                                   rng.uniform(-1, 1, L).astype(np.float32))
        root = pool.root_policy(1.0)
        trace.append(root)
        trace.append(pool.search_stats())
        pool.step_checked(root["selected_action"], root["state_id"])
    trace.append(pool.search_stats())
    pool.close()
    return trace


def test_gumbel_and_reuse_identical_for_any_thread_count():
    one, two = gumbel_trace(1, reuse_tree=True), gumbel_trace(2, reuse_tree=True)
    assert len(one) == len(two)
    assert one[-1]["kept_nodes"].sum() > 0
    for a, b in zip(one, two):
        for key in a:
            if key in ("leaf_id", "state_id", "episode_id"):
                continue  # opaque process-unique ids
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_gumbel_draws_come_from_the_pool_seed():
    def draws(seed):
        with MctsPool(2, seed=seed, map_size=8, players=TWO, max_actions=A, num_threads=1,
                      root_selection="gumbel", num_simulations=8) as pool:
            pool.reset()
            leaves = pool.select_leaves()
            pool.expand_and_backup(leaves["leaf_id"], np.zeros((2, A), np.float32), np.zeros(2, np.float32))
            return pool.root_policy()["gumbel"]
    a, b, c = draws(7), draws(7), draws(8)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    assert not np.array_equal(a[0], a[1])


def test_selfplay_pool_gumbel_roots():
    from selfplay_helpers import mirror, truth_beliefs
    pool = SelfPlayPool(2, seed=4, map_size=8, players=TWO, max_actions=A, num_threads=2,
                        root_selection="gumbel", num_simulations=12, max_considered_actions=4)
    request = pool.reset(seed=4)
    envs = mirror(4, 2, map_size=8, players=TWO)
    seq = considered_visits(4, 12, 12)
    expected = per_action([sum(1 for v in seq if v == level) for level in range(max(seq) + 1)])
    for move in range(2):
        pool.submit_beliefs(request["state_id"], truth_beliefs(envs, pool.all_player_belief_requests()))
        for _ in range(13):
            leaves = pool.select_leaves()
            L = len(leaves["leaf_id"])
            pool.expand_and_backup(leaves["leaf_id"], np.zeros((L, A), np.float32), np.zeros(L, np.float32))
        root = pool.root_policy()
        assert root["gumbel"][:, 0].all()
        for t in range(2):
            visits = sorted(root["visit_count"][t][root["visit_count"][t] > 0].tolist(), reverse=True)
            assert visits == expected
            n = int(root["action_mask"][t].sum())
            assert root["improved_policy"][t, :n].sum() == pytest.approx(1.0, abs=1e-5)
        request = pool.step_checked(root["selected_action"], root["state_id"])
        for env, action in zip(envs, root["selected_action"]):
            env.step(int(action))
    assert pool.search_stats()["kept_nodes"].sum() == 0
    pool.close()


@pytest.mark.parametrize("kwargs,message", [
    (dict(root_selection="gumbel"), "needs num_simulations"),
    (dict(root_selection="gumbel", num_simulations=0), "num_simulations"),
    (dict(root_selection="alpha", num_simulations=8), "root_selection must be"),
    (dict(num_simulations=8), "applies to root_selection='gumbel' only"),
    (dict(root_selection="gumbel", num_simulations=8, max_considered_actions=0), "max_considered_actions"),
    (dict(root_selection="gumbel", num_simulations=8, gumbel_scale=-1.0), "gumbel_scale"),
    (dict(root_selection="gumbel", num_simulations=8, gumbel_scale=float("nan")), "gumbel_scale"),
    (dict(root_selection="gumbel", num_simulations=8, gumbel_value_scale=float("inf")), "gumbel_value_scale"),
    (dict(root_selection="gumbel", num_simulations=8, gumbel_maxvisit_init=-2.0), "gumbel_maxvisit_init"),
    (dict(root_selection="gumbel", num_simulations=8, dirichlet_alpha=0.3), "dirichlet_alpha cannot"),
    (dict(reuse_tree=1), "reuse_tree must be True or False"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        MctsPool(1, map_size=8, max_actions=A, **kwargs)


def test_bad_arguments_native_and_selfplay():
    from polyenv import _core
    base = (1, 0, 8, [2, 1], 0, -1, True, 1, A, True, True, 1.5, 1, 1.0, 0, 0, 0.0, 0.25)
    with pytest.raises(ValueError, match="needs num_simulations"):
        _core.MctsPool(*base, root_selection="gumbel")
    with pytest.raises(ValueError, match="root_selection must be"):
        _core.MctsPool(*base, root_selection="Gumbel", num_simulations=3)
    with pytest.raises(TypeError):  # reuse is MctsPool's: belief roots are rebuilt every move
        SelfPlayPool(1, map_size=8, max_actions=A, reuse_tree=True)
    with pytest.raises(ValueError, match="needs num_simulations"):
        SelfPlayPool(1, map_size=8, max_actions=A, root_selection="gumbel")
    with pytest.raises(ValueError, match="max_considered_actions"):
        SelfPlayPool(1, map_size=8, max_actions=A, root_selection="gumbel", num_simulations=4,
                     max_considered_actions=-1)


def test_rejected_calls_leave_a_gumbel_pool_untouched():
    with MctsPool(2, seed=9, map_size=8, players=(Bardur, XinXi), max_actions=A, num_threads=2,
                  max_pending_leaves_per_tree=3, root_selection="gumbel", num_simulations=12,
                  reuse_tree=True) as pool:
        pool.reset(seed=9)
        for _ in range(4):
            leaves = pool.select_leaves()
            L = len(leaves["leaf_id"])
            pool.expand_and_backup(leaves["leaf_id"], np.zeros((L, A), np.float32),
                                   np.linspace(-0.5, 0.5, L, dtype=np.float32))
        leaves = pool.select_leaves()
        L = len(leaves["leaf_id"])
        before = pool._native._state_digest()
        bad_values = np.full(L, 2.0, np.float32)
        with pytest.raises(ValueError):
            pool.expand_and_backup(leaves["leaf_id"], np.zeros((L, A), np.float32), bad_values)
        bad_logits = np.zeros((L, A), np.float32)
        bad_logits[-1, 0] = np.nan
        with pytest.raises(ValueError):
            pool.expand_and_backup(leaves["leaf_id"], bad_logits, np.zeros(L, np.float32))
        root = pool.root_policy()
        from polyenv.selfplay import PendingLeavesError
        with pytest.raises(PendingLeavesError):
            pool.step_checked(root["selected_action"], root["state_id"])
        assert pool._native._state_digest() == before
        pool.expand_and_backup(leaves["leaf_id"], np.zeros((L, A), np.float32), np.zeros(L, np.float32))
        root = pool.root_policy()
        after = pool._native._state_digest()
        from polyenv import StaleStateError
        with pytest.raises(StaleStateError):
            pool.step_checked(root["selected_action"], root["state_id"] + np.uint64(1))
        with pytest.raises(ValueError):
            pool.step_checked(root["selected_action"][:1], root["state_id"])
        with pytest.raises(ValueError):
            pool.root_policy_into({"policy": np.zeros((2, A), np.float32)})
        assert pool._native._state_digest() == after
