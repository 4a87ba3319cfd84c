"""reuse_tree=True: a real move keeps exactly the chosen child's subtree (nodes, visits, values,
priors, renumbered compactly), budgets still hold, moves with chance, auto-reset, invalid moves
and fresh roots, Dirichlet noise on the kept root, and the search continues identically."""
import numpy as np
import pytest

from polyenv import Bardur, GameEnv, Imperius, MctsPool, Oumaji

A = 128
TWO = (Bardur, Imperius)


def make(**kw):
    args = dict(num_envs=3, seed=11, map_size=8, players=TWO, max_actions=A, num_threads=2,
                max_pending_leaves_per_tree=3, reuse_tree=True)
    args.update(kw)
    return MctsPool(**args)


def search(pool, rounds, rng):
    P = pool.player_count
    for _ in range(rounds):
        leaves = pool.select_leaves()
        L = len(leaves["leaf_id"])
        values = rng.uniform(-1, 1, L if P == 2 else (L, P)).astype(np.float32)
        pool.expand_and_backup(leaves["leaf_id"], rng.normal(size=(L, A)).astype(np.float32), values)


def subtree(tree: dict, top: int) -> list[int]:
    """The nodes under `top` (itself included) in creation order, as the pool renumbers them."""
    keep = {top}
    for n in range(top + 1, len(tree["visits"])):
        if tree["parent"][n] in keep:
            keep.add(n)
    return sorted(keep)


def child_of(tree: dict, node: int, action: int) -> int:
    first, count = tree["first_edge"][node], tree["num_edges"][node]
    for e in range(first, first + count):
        if tree["edge_action"][e] == action:
            return int(tree["edge_child"][e])
    return -1


def assert_kept(old: dict, new: dict, top: int, noise: bool = False):
    nodes = subtree(old, top)
    index = {o: i for i, o in enumerate(nodes)}
    assert len(new["visits"]) == len(nodes)
    for i, o in enumerate(nodes):
        for key in ("visits", "value_sum", "raw_value", "actor", "expanded", "num_edges"):
            assert new[key][i] == old[key][o], (key, i, o)
        assert new["parent"][i] == (-1 if i == 0 else index[old["parent"][o]])
        a, b = old["first_edge"][o], new["first_edge"][i]
        for j in range(old["num_edges"][o]):
            assert new["edge_action"][b + j] == old["edge_action"][a + j]
            assert new["edge_visits"][b + j] == old["edge_visits"][a + j]
            assert new["edge_value_sum"][b + j] == old["edge_value_sum"][a + j]
            child = old["edge_child"][a + j]
            assert new["edge_child"][b + j] == (-1 if child < 0 else index[child])
            if not (noise and i == 0):
                assert new["edge_prior"][b + j] == old["edge_prior"][a + j]
    edges = int(sum(old["num_edges"][o] for o in nodes))
    assert len(new["edge_action"]) == edges
    charge = (new["bytes"] - edges * 28) / len(nodes)
    assert charge == int(charge) and charge > 0  # every node the same charge, edges 28 bytes


@pytest.mark.parametrize("selection", [dict(), dict(root_selection="gumbel", num_simulations=30)])
def test_reuse_keeps_exactly_the_chosen_subtree(selection):
    rng = np.random.default_rng(3)
    with make(**selection) as pool:
        pool.reset(seed=4)
        for move in range(4):
            search(pool, 12, rng)
            root = pool.root_policy()
            olds = [pool._native._tree(t) for t in range(3)]
            actions = root["selected_action"]
            pool.step_checked(actions, root["state_id"])
            stats = pool.search_stats()
            for t in range(3):
                top = child_of(olds[t], 0, int(actions[t]))
                assert top > 0, "the most visited action has a child"
                assert stats["reuse"][t] == 1
                assert stats["kept_nodes"][t] == stats["nodes"][t] == len(subtree(olds[t], top))
                assert_kept(olds[t], pool._native._tree(t), top)
            after = pool.root_policy()
            # The kept root's visits show in the next root policy before any new search.
            assert (after["root_visit_count"] > 1).all()
            assert (after["root_visit_count"] == 1 + after["visit_count"].sum(1)).all()


def test_unexpanded_child_gives_a_fresh_root_and_a_reset_discards_the_tree():
    rng = np.random.default_rng(5)
    with make() as pool:
        live = pool.reset(seed=4)
        search(pool, 6, rng)
        root = pool.root_policy()
        never = [int(root["action_id"][t, np.flatnonzero((root["visit_count"][t] == 0) & (root["action_mask"][t] == 1))[0]])
                 for t in range(3)]
        pool.step_checked(np.array(never, np.int32), root["state_id"])
        stats = pool.search_stats()
        assert stats["reuse"].tolist() == [2, 2, 2] and stats["nodes"].tolist() == [1, 1, 1]
        assert stats["kept_nodes"].tolist() == [0, 0, 0]
        search(pool, 6, rng)
        root = pool.root_policy()
        pool.step_checked(root["selected_action"], root["state_id"])
        assert pool.search_stats()["kept_nodes"].min() > 1
        pool.reset()
        stats = pool.search_stats()
        assert stats["nodes"].tolist() == [1, 1, 1] and stats["reuse"].tolist() == [0, 0, 0]


def test_invalid_action_keeps_the_tree_and_fresh_episodes_start_fresh():
    rng = np.random.default_rng(6)
    with MctsPool(2, seed=1, map_size=8, players=TWO, mode="score", max_turns=1, max_actions=A, num_threads=1,
                  reuse_tree=True) as pool:
        pool.reset()
        search(pool, 5, rng)
        before = pool._native._state_digest()
        live = pool.step(np.full(2, 10**6, np.int32))  # not a legal id: nothing changes
        assert not live["action_valid"].any()
        assert pool._native._state_digest() == before
        for _ in range(60):  # End Turn until the one-turn games end (auto-reset)
            search(pool, 3, rng)
            live = pool.step(np.zeros(2, np.int32))
            stats = pool.search_stats()
            ended = live["terminated"].astype(bool)
            assert (stats["nodes"][ended] == 1).all() and (stats["reuse"][ended] == 0).all()
            if ended.all():
                break
        assert ended.all()


def test_search_after_reuse_equals_search_on_the_rebuilt_tree_for_both_thread_counts():
    def trace(threads):
        rng = np.random.default_rng(8)
        out = []
        with make(num_threads=threads, num_envs=4, players=(Bardur, Imperius, Oumaji)) as pool:
            pool.reset(seed=2)
            for move in range(4):
                search(pool, 8, rng)
                root = pool.root_policy()
                out.append(root)
                out.append(pool.search_stats())
                pool.step_checked(root["selected_action"], root["state_id"])
            out.append([pool._native._tree(t) for t in range(4)])
        return out
    one, two = trace(1), trace(2)
    for a, b in zip(one[:-1], two[:-1]):
        for key in a:
            if key not in ("state_id", "episode_id"):
                np.testing.assert_array_equal(a[key], b[key], err_msg=key)
    for ta, tb in zip(one[-1], two[-1]):
        for key in ta:
            np.testing.assert_array_equal(ta[key], tb[key], err_msg=key)
    assert sum(s["kept_nodes"].sum() for s in one[1:-1:2]) > 0


def test_budgets_hold_across_reuse():
    rng = np.random.default_rng(9)
    with make(max_nodes_per_tree=25) as pool:
        pool.reset(seed=4)
        for move in range(5):
            search(pool, 15, rng)
            stats = pool.search_stats()
            assert stats["nodes"].max() <= 25
            root = pool.root_policy()
            pool.step_checked(root["selected_action"], root["state_id"])
            stats = pool.search_stats()
            assert stats["nodes"].max() <= 25 and (stats["kept_nodes"] <= 25).all()
    limit = 200_000
    with make(max_tree_bytes=limit, max_pending_leaves_per_tree=1) as pool:
        pool.reset(seed=4)
        for move in range(4):
            search(pool, 40, rng)
            assert (pool.search_stats()["bytes"] <= limit + A * 28).all()
            root = pool.root_policy()
            pool.step_checked(root["selected_action"], root["state_id"])
            stats = pool.search_stats()
            assert (stats["bytes"] <= limit).all()
            assert (stats["kept_nodes"] > 0).any()


def test_dirichlet_noise_is_mixed_into_the_kept_root_again():
    rng = np.random.default_rng(10)
    with make(dirichlet_alpha=0.3, dirichlet_fraction=0.5) as pool:
        pool.reset(seed=4)
        search(pool, 12, rng)
        root = pool.root_policy()
        olds = [pool._native._tree(t) for t in range(3)]
        pool.step_checked(root["selected_action"], root["state_id"])
        for t in range(3):
            new = pool._native._tree(t)
            top = child_of(olds[t], 0, int(root["selected_action"][t]))
            assert_kept(olds[t], new, top, noise=True)
            a, k = olds[t]["first_edge"][top], olds[t]["num_edges"][top]
            old_priors = olds[t]["edge_prior"][a:a + k]
            new_priors = new["edge_prior"][new["first_edge"][0]:new["first_edge"][0] + k]
            assert not np.array_equal(old_priors, new_priors)
            assert new_priors.sum() == pytest.approx(1.0, abs=1e-5)  # deeper priors: unchanged (assert_kept)


def ruins_position(seed: int) -> tuple[GameEnv, int]:
    """A game where player 0's warrior stands on ruins: Examine has a random outcome."""
    env = GameEnv(seed=seed, map_size=8, players=TWO)
    tile = next(t for t in range(64) if env.unit_at(t) is None and env.city_at(t) is None
                and env.full_map_numpy()[t, 1] in (0, 6))
    env.set_resource(tile, "ruins")
    env.place_unit(0, "warrior", tile)
    return env, env.action_id("examine", source=tile)


def test_a_move_with_chance_keeps_the_subtree_only_when_the_outcome_matches():
    outcomes = set()
    for seed in range(12):
        env, examine = ruins_position(seed)
        if examine not in env.legal_actions().tolist():
            continue
        pools = [MctsPool(1, seed=seed, map_size=8, players=TWO, max_actions=A, num_threads=1, reuse_tree=reuse)
                 for reuse in (True, False)]
        roots = []
        for pool in pools:
            pool.reset()
            pool._native._load_state(0, env.to_bytes())
            for _ in range(20):
                leaves = pool.select_leaves()
                logits = np.zeros((len(leaves["leaf_id"]), A), np.float32)
                logits[:, :] = np.where(leaves["action_id"] == examine, 5.0, 0.0)
                pool.expand_and_backup(leaves["leaf_id"], logits, np.zeros(len(leaves["leaf_id"]), np.float32))
            roots.append(pool.root_policy())
        tree = pools[0]._native._tree(0)
        assert child_of(tree, 0, examine) > 0
        for pool, root in zip(pools, roots):
            pool.step_checked(np.array([examine], np.int32), root["state_id"])
        outcome = int(pools[0].search_stats()["reuse"][0])
        outcomes.add(outcome)
        assert outcome in (1, 3)
        # Kept or not, the root's rows are the live position's legal actions (the fresh root's).
        np.testing.assert_array_equal(pools[0].root_policy()["action_id"], pools[1].root_policy()["action_id"])
        if outcome == 3:  # refused: exactly the fresh root the pool without reuse has
            assert pools[0].search_stats()["nodes"][0] == 1
            ta, tb = pools[0]._native._tree(0), pools[1]._native._tree(0)
            for key in ta:
                np.testing.assert_array_equal(ta[key], tb[key], err_msg=key)
        for pool in pools:
            pool.close()
    assert outcomes == {1, 3}, "these seeds give both a ruins outcome equal to the tree's and a different one"


def test_reuse_tree_is_a_boolean():
    with pytest.raises(Exception, match="reuse_tree"):
        MctsPool(1, map_size=8, max_actions=A, reuse_tree="yes")
