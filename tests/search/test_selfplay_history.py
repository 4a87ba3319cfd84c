"""SelfPlayPool's compact visible-action history (seed 002): rows checked against the ground truth
of mirrored random games (2 and 4 players), leaf histories extending their actor's live history,
twin worlds differing only in hidden content, validation of H, the *_into paths and the memory
figures (48 KiB per row at H = 1024, prefixes shared between nodes)."""
import numpy as np
import pytest

import polyenv
from polyenv import Bardur, Imperius, Oumaji, SelfPlayPool, XinXi
from polyenv.vector import allocate

from selfplay_helpers import mirror, model, search, truth_beliefs
from selfplay_helpers import hidden_from_everyone, twin_pools

TWO = (Bardur, Imperius)
FOUR = (Bardur, Imperius, Oumaji, XinXi)
NAMES = polyenv.VISIBLE_ACTION_HISTORY_FEATURE_NAMES
COL = {name: i for i, name in enumerate(NAMES)}
# Action blocks without a tile and without a history row: End Turn, Research. Declare War and Send
# Stars have no tile either but are public: every player records them, target_index the target's
# ownership code.
NON_WORLD_BLOCKS = (0, 1)
DIPLOMACY_BLOCKS = (3, 4)


def test_feature_names():
    assert NAMES == ("event_type", "actor_player", "actor_tribe", "visibility_flags", "source_index",
                     "target_index", "source_unit_type", "target_unit_type", "source_observed_unit_id",
                     "target_observed_unit_id", "detail_kind", "detail_value")
    assert polyenv._core.MAX_VISIBLE_ACTION_HISTORY == 1024


def _play_and_check(players, map_size, num_envs, moves, seed, H):
    """Random games mirrored in GameEnv; after every step each player's history must be exactly its
    expected rows: one per world action it acted in or whose source / target tile it had explored,
    with nothing shown on a tile it had not explored."""
    P = len(players)
    pool = SelfPlayPool(num_envs, seed=seed, map_size=map_size, players=players, num_threads=2,
                        max_actions=0, auto_reset=False, visible_action_history=H)
    req = pool.reset(seed=seed)
    envs = mirror(seed, num_envs, map_size=map_size, players=players)
    cursors = [[0] * P for _ in envs]
    expected = [[[] for _ in range(P)] for _ in envs]  # (event_type, source, target) per observer
    rng = np.random.default_rng(seed)
    rows_checked = 0
    for _ in range(moves):
        if all(e.game_over for e in envs):
            break
        actions = []
        for i, e in enumerate(envs):
            if e.game_over:
                actions.append(0)
                continue
            legal = e.legal_actions()
            a = int(legal[rng.integers(len(legal))])
            actions.append(a)
            actor, block = e.current_player, e.decode_action(a)["block"]
            e.step(a)
            # The actor's own record is the ground truth of where the action happened.
            own, cursors[i][actor] = e.visible_events_numpy(cursors[i][actor], player=actor)
            assert len(own["features"]) == 1
            truth = own["features"][0]
            kind, src, tgt = int(truth[2]), int(truth[4]), int(truth[5])
            for p in range(P):
                if p != actor:
                    cursors[i][p] = e.visible_events_numpy(cursors[i][p], player=p)[1]
                if block in NON_WORLD_BLOCKS:
                    continue
                if block in DIPLOMACY_BLOCKS:  # tgt: the target's code from the actor's view
                    target = (actor + tgt - 1) % P
                    expected[i][p].append((kind, -1, (target - p) % P + 1, None))
                    continue
                explored = e.observe(player=p)["map_tokens"][:, 0] == 1
                see_src = p == actor or (src >= 0 and explored[src])
                see_tgt = p == actor or (tgt >= 0 and explored[tgt])
                if see_src or see_tgt:
                    expected[i][p].append((kind, src if see_src else -1, tgt if see_tgt else -1, explored))
        req = pool.step(np.array(actions, np.int32))
        allp = pool.all_player_belief_requests()
        for i, e in enumerate(envs):
            for p in range(P):
                hist = allp["visible_action_history"][i, p]
                mask = allp["visible_action_history_mask"][i, p]
                want = expected[i][p][-H:]
                n = len(want)
                assert allp["visible_action_history_length"][i, p] == n
                assert mask.tolist() == [0] * (H - n) + [1] * n
                assert (hist[: H - n] == 0).all()
                for row, (kind, src, tgt, explored) in zip(hist[H - n:], want):
                    assert row[COL["event_type"]] == kind
                    assert row[COL["source_index"]] == src and row[COL["target_index"]] == tgt
                    if explored is None:  # diplomacy: no tile, no unit, public
                        assert row[COL["visibility_flags"]] == (1 if row[COL["actor_player"]] == 1 else 0)
                        rows_checked += 1
                        continue
                    # Nothing on a tile the observer had not explored when the action happened.
                    for tile, cols in ((src, ("source_unit_type", "source_observed_unit_id")),
                                       (tgt, ("target_unit_type", "target_observed_unit_id"))):
                        if tile < 0:
                            assert all(row[COL[c]] == -1 for c in cols)
                        else:
                            assert explored[tile]
                    if src < 0:
                        assert row[COL["actor_player"]] in (-1, 0) or row[COL["visibility_flags"]] & 1
                    if row[COL["visibility_flags"]] & 1:  # own action
                        assert row[COL["actor_player"]] == 1
                    rows_checked += 1
            # The request batch carries to_play's history.
            tp = req["to_play"][i]
            for key in ("visible_action_history", "visible_action_history_mask", "visible_action_history_length"):
                assert np.array_equal(req[key][i], allp[key][i, tp]), key
    return rows_checked


@pytest.mark.parametrize("players,map_size,H", [(TWO, 11, 1024), (FOUR, 12, 1024), (TWO, 8, 8)])
def test_history_rows_are_exactly_what_each_player_saw(players, map_size, H):
    assert _play_and_check(players, map_size, num_envs=3, moves=120, seed=61, H=H) > 100


@pytest.mark.soak
@pytest.mark.parametrize("players,map_size", [(TWO, 11), (FOUR, 12)])
def test_history_rows_over_long_random_games(players, map_size):
    _play_and_check(players, map_size, num_envs=6, moves=500, seed=62, H=1024)


def _world_rows_of_own_path(env, actions):
    """(event_type block check, source, target) expected for `actions` all played by the leaf actor."""
    rows = []
    for a in actions:
        d = env.decode_action(int(a))
        if d["block"] in NON_WORLD_BLOCKS:
            rows.append(None)
        else:
            rows.append(d)
    return rows


@pytest.mark.parametrize("players,max_nodes", [(TWO, 20_000), (FOUR, 20_000), (TWO, 3)])
def test_leaf_history_extends_the_actors_live_history(players, max_nodes):
    """A leaf's history is its to_play's live history followed by the rows of the path's actions
    (persistent prefix); budget-exhausted (transient) leaves included."""
    H = 64
    pool = SelfPlayPool(3, seed=8, map_size=8, players=players, num_threads=2, max_actions=256,
                        visible_action_history=H, max_pending_leaves_per_tree=3, max_nodes_per_tree=max_nodes)
    req = pool.reset(seed=8)
    envs = mirror(8, 3, map_size=8, players=players)
    rng = np.random.default_rng(8)
    checked, exhausted = 0, False
    for move in range(14):
        allp = pool.all_player_belief_requests()
        pool.submit_beliefs(req["state_id"], truth_beliefs(envs, allp))
        for _ in range(4):
            leaves = pool.select_leaves()
            if len(leaves["leaf_id"]) == 0:
                break
            for r, leaf_id in enumerate(leaves["leaf_id"]):
                env_i, actor = int(leaves["env_id"][r]), int(leaves["to_play"][r])
                live_n = int(allp["visible_action_history_length"][env_i, actor])
                n = int(leaves["visible_action_history_length"][r])
                hist = leaves["visible_action_history"][r]
                assert leaves["visible_action_history_mask"][r].tolist() == [0] * (H - n) + [1] * n
                path = pool._native._leaf_actions(int(leaf_id))
                assert live_n <= n <= live_n + len(path)
                live = allp["visible_action_history"][env_i, actor][H - live_n:]
                if n < H:
                    assert np.array_equal(hist[H - n: H - n + live_n], live)
                root_actor = int(req["to_play"][env_i])
                own = _world_rows_of_own_path(envs[env_i], path)
                if actor == root_actor and 0 not in path and n < H:
                    # Every path action is the actor's own: one row per world action, in order.
                    world = [d for d in own if d is not None]
                    assert n - live_n == len(world)
                    for row, d in zip(hist[H - n + live_n:], world):
                        assert row[COL["visibility_flags"]] & 1 and row[COL["actor_player"]] == 1
                        if d["block"] in DIPLOMACY_BLOCKS:  # the target's code: its relative seat (arg) + 1
                            assert row[COL["source_index"]] == -1 and row[COL["target_index"]] == d["arg"] + 1
                            continue
                        for c, key in (("source_index", "source"), ("target_index", "target")):
                            if d[key] >= 0 and d["block"] not in (6, 2):  # spawn: the city tile is the target
                                assert row[COL[c]] == d[key]
                    checked += 1
            pool.expand_and_backup(leaves["leaf_id"], *model(leaves, pool.player_count, pool.max_actions))
        exhausted = exhausted or bool(pool.search_stats()["node_budget_exhausted"].any())
        root = pool.root_policy()
        actions = []
        for i, e in enumerate(envs):
            legal = e.legal_actions()
            a = int(legal[rng.integers(len(legal))])
            actions.append(a)
            e.step(a)
        req = pool.step_checked(np.array(actions, np.int32), root["state_id"])
    assert checked > 20
    assert exhausted == (max_nodes == 3)


@pytest.mark.parametrize("players,moves", [(TWO, 12), (FOUR, 20)])
def test_twin_worlds_give_identical_history_channels(players, moves):
    """Worlds differing only in content hidden from every player (and in the authoritative random
    stream) give bit-identical history fields in every batch, while the difference stays hidden."""
    env, twin, (a, b) = twin_pools(players, moves, seed=33, visible_action_history=32)
    P = len(players)
    changed = [t for t in hidden_from_everyone(env, P)
               if not np.array_equal(env.full_map_numpy()[t], twin.full_map_numpy()[t])]
    rng = np.random.default_rng(4)
    steps = leaf_rows = live_rows = 0
    for _ in range(10):
        if set(changed) - set(hidden_from_everyone(env, P)):
            break  # a changed tile became visible: the worlds may legitimately differ now
        ra, rb = a.belief_requests(), b.belief_requests()
        pa, pb = a.all_player_belief_requests(), b.all_player_belief_requests()
        for x, y in ((ra, rb), (pa, pb)):
            for key in x:
                if key not in ("state_id", "episode_id"):
                    assert np.array_equal(x[key], y[key]), key
        beliefs = truth_beliefs([env], pa, particles=2)
        a.submit_beliefs(ra["state_id"], beliefs)
        b.submit_beliefs(rb["state_id"], beliefs)
        la, lb = search(a, 4), search(b, 4)
        assert len(la) == len(lb)
        for x, y in zip(la, lb):
            for key in x:
                if key.startswith("visible_action_history") or key in ("map_tokens", "to_play"):
                    assert np.array_equal(x[key], y[key]), key
            leaf_rows += int(x["visible_action_history_length"].sum())
        live_rows += int(pa["visible_action_history_length"].sum())
        legal = env.legal_actions()
        world = [a for a in legal if env.decode_action(int(a))["block"] not in NON_WORLD_BLOCKS]
        legal = world or legal  # world actions add live rows
        action = int(legal[rng.integers(len(legal))])
        env.step(action)
        twin.step(action)
        a.abort_search()
        b.abort_search()
        a.step(np.array([action], np.int32))
        b.step(np.array([action], np.int32))
        steps += 1
    assert steps >= 2 and leaf_rows > 0 and live_rows > 0


def test_history_argument_validation():
    for bad in (-1, 1025, 4096):
        with pytest.raises(ValueError, match="visible_action_history"):
            SelfPlayPool(2, seed=1, map_size=8, players=TWO, visible_action_history=bad)
    for bad in (True, 1.5, "8", None):
        with pytest.raises((TypeError, ValueError), match="visible_action_history"):
            SelfPlayPool(2, seed=1, map_size=8, players=TWO, visible_action_history=bad)
    for H in (0, 1, 1024):
        pool = SelfPlayPool(2, seed=1, map_size=8, players=TWO, num_threads=1, max_actions=128,
                            visible_action_history=H)
        assert pool.belief_batch_spec()["visible_action_history"]["shape"] == (2, H, 12)
        assert pool.all_player_belief_batch_spec()["visible_action_history"]["shape"] == (2, 2, H, 12)
        assert pool.leaf_batch_spec(max_leaves=5)["visible_action_history_mask"]["shape"] == (5, H)


def test_into_calls_validate_history_buffers_and_match_allocating_calls():
    """Wrong history buffers are rejected before anything changes; the *_into paths write the
    same history as the allocating calls."""
    H = 16
    pool = SelfPlayPool(3, seed=4, map_size=8, players=FOUR, num_threads=2, max_actions=256,
                        visible_action_history=H, max_pending_leaves_per_tree=2)
    envs = mirror(4, 3, map_size=8, players=FOUR)
    buffers = allocate(pool.belief_batch_spec())
    pool.reset_into(buffers, seed=4)
    rng = np.random.default_rng(4)
    for _ in range(12):
        legal = [e.legal_actions() for e in envs]
        actions = np.array([int(l[rng.integers(len(l))]) for l in legal], np.int32)
        for e, a in zip(envs, actions):
            e.step(int(a))
        pool.step_into_checked(actions, buffers["state_id"].copy(), buffers)
    ref = pool.belief_requests()
    for key in ("visible_action_history", "visible_action_history_mask", "visible_action_history_length"):
        assert np.array_equal(buffers[key], ref[key]), key
    assert ref["visible_action_history_length"].sum() > 0
    allp_buffers = allocate(pool.all_player_belief_batch_spec())
    pool.all_player_belief_requests_into(allp_buffers)
    allp = pool.all_player_belief_requests()
    for key in allp:
        assert np.array_equal(allp_buffers[key], allp[key]), key
    pool.submit_beliefs(ref["state_id"], truth_beliefs(envs, allp))
    digest = pool._native._belief_digest()
    # Wrong history shapes or dtypes: rejected, nothing changed (no leaf issued).
    for key, bad in (("visible_action_history", np.zeros((6, H + 1, 12), np.int32)),
                     ("visible_action_history_mask", np.zeros((6, H), np.int32)),
                     ("visible_action_history_length", np.zeros((6, 2), np.int32))):
        leaf_buffers = allocate(pool.leaf_batch_spec(max_leaves=6))
        leaf_buffers[key] = bad
        with pytest.raises(ValueError):
            pool.select_leaves_into(leaf_buffers, max_leaves=6)
        assert pool._native._belief_digest() == digest
    bad_live = allocate(pool.belief_batch_spec())
    bad_live["visible_action_history"] = np.zeros((3, H, 11), np.int32)
    with pytest.raises(ValueError):
        pool.belief_requests_into(bad_live)
    assert pool._native._belief_digest() == digest
    leaf_buffers = allocate(pool.leaf_batch_spec(max_leaves=6))
    count = pool.select_leaves_into(leaf_buffers, max_leaves=6)
    assert count > 0
    assert (leaf_buffers["visible_action_history_length"][:count] > 0).any()


def test_history_memory_is_within_the_seed_figures():
    """48 KiB per row at H = 1024 (12 MiB for 256 belief rows, 48 MiB for 1024 leaf rows), and the
    store shares prefixes: a node costs P int32 and a visible event one entry per observer, never
    an H-row copy."""
    H = 1024
    pool = SelfPlayPool(2, seed=3, map_size=8, players=TWO, num_threads=2, max_actions=256,
                        visible_action_history=H, max_pending_leaves_per_tree=4)
    spec = pool.leaf_batch_spec(max_leaves=1024)["visible_action_history"]
    assert spec["shape"] == (1024, H, 12) and np.dtype(spec["dtype"]).itemsize == 4
    row_bytes = H * 12 * 4
    assert row_bytes == 48 * 1024
    assert 1024 * row_bytes == 48 * 2**20 and 256 * row_bytes == 12 * 2**20
    req = pool.reset(seed=3)
    envs = mirror(3, 2, map_size=8, players=TWO)
    rng = np.random.default_rng(3)
    for _ in range(40):
        legal = [e.legal_actions() for e in envs]
        actions = np.array([int(l[rng.integers(len(l))]) for l in legal], np.int32)
        for e, a in zip(envs, actions):
            e.step(int(a))
        req = pool.step(actions)
    pool.submit_beliefs(req["state_id"], truth_beliefs(envs, pool.all_player_belief_requests()))
    search(pool, 30)
    mem = pool._native._history_memory()
    assert mem["live_entries"] > 0 and mem["tree_entries"] > 0 and mem["tree_nodes"] > 30
    entry_bytes = 14 * 4  # 12 features, previous entry, length
    exact = (mem["live_entries"] + mem["tree_entries"]) * entry_bytes + mem["tree_nodes"] * 2 * 4
    # Vector capacities at most double the exact figure (plus the per-game heads).
    assert mem["bytes"] <= 2 * exact + 2 * 64 * 4
    # Copying the window per node would cost 48 KiB each.
    assert mem["bytes"] < mem["tree_nodes"] * row_bytes / 50


def test_tree_byte_budget_charges_the_history():
    """With H > 0 every tree node is charged P heads and one entry per player on top of its state;
    the same games searched with H = 0 and H = 64 build the same nodes."""
    stats = []
    for H in (0, 64):
        pool = SelfPlayPool(2, seed=9, map_size=8, players=FOUR, num_threads=1, max_actions=256,
                            visible_action_history=H, max_pending_leaves_per_tree=2)
        req = pool.reset(seed=9)
        envs = mirror(9, 2, map_size=8, players=FOUR)
        pool.submit_beliefs(req["state_id"], truth_beliefs(envs, pool.all_player_belief_requests()))
        search(pool, 6)
        stats.append(pool.search_stats())
    assert np.array_equal(stats[0]["nodes"], stats[1]["nodes"]) and stats[0]["nodes"].sum() > 4
    per_node = 4 * (4 + 14 * 4)  # P = 4: a head and an entry per player
    assert np.array_equal(stats[1]["bytes"] - stats[0]["bytes"], stats[0]["nodes"] * per_node)


def test_history_does_not_depend_on_the_thread_count():
    runs = []
    for threads in (1, 2):
        pool = SelfPlayPool(3, seed=12, map_size=8, players=FOUR, num_threads=threads, max_actions=256,
                            visible_action_history=24, max_pending_leaves_per_tree=3)
        req = pool.reset(seed=12)
        envs = mirror(12, 3, map_size=8, players=FOUR)
        rng = np.random.default_rng(12)
        out = []
        for _ in range(8):
            allp = pool.all_player_belief_requests()
            out += [allp["visible_action_history"].copy(), req["visible_action_history"].copy()]
            pool.submit_beliefs(req["state_id"], truth_beliefs(envs, allp))
            out += [b["visible_action_history"].copy() for b in search(pool, 3)]
            root = pool.root_policy()
            actions = np.array([int(l[rng.integers(len(l))]) for l in (e.legal_actions() for e in envs)], np.int32)
            for e, a in zip(envs, actions):
                e.step(int(a))
            req = pool.step_checked(actions, root["state_id"])
        runs.append(out)
    assert len(runs[0]) == len(runs[1])
    assert sum(int((x != 0).sum()) for x in runs[0]) > 0
    for x, y in zip(*runs):
        assert np.array_equal(x, y)


def test_a_new_episode_starts_with_an_empty_history():
    """auto_reset: the step that ends a game returns the next episode's (empty) histories."""
    pool = SelfPlayPool(4, seed=2, map_size=8, players=TWO, num_threads=2, max_actions=256,
                        visible_action_history=32, max_turns=3)
    req = pool.reset(seed=2)
    rng = np.random.default_rng(2)
    ended = had_history = 0
    for _ in range(400):
        pick = (rng.random(4) * req["legal_action_count"]).astype(np.int64)
        before = pool.all_player_belief_requests()["visible_action_history_length"].copy()
        req = pool.step_checked(req["action_id"][np.arange(4), pick], req["state_id"])
        allp = pool.all_player_belief_requests()
        done = req["terminated"] == 1
        if done.any():
            had_history += int(before[done].sum())
            assert (allp["visible_action_history_length"][done] == 0).all()
            assert (req["visible_action_history_length"][done] == 0).all()
            assert (req["visible_action_history_mask"][done] == 0).all()
            ended += int(done.sum())
        if ended >= 4:
            break
    assert ended >= 4 and had_history > 0
