"""SelfPlayPool: the belief lifecycle (legacy [B, tiles, 23], per-player [B, P, tiles, 23] and
[B, P, K, tiles, 23]), validation that rejects whole submissions atomically, and fog safety
(packets equal each player's own observation; hidden content and the authoritative random
stream never change packets, leaves, visit counts or root policies)."""
import os

import numpy as np
import pytest

import polyenv
from polyenv import AiMo, Bardur, GameEnv, Imperius, SelfPlayPool, StaleStateError, Vengir, Zebasi
from polyenv.selfplay import BeliefsMissingError, PendingLeavesError
from polyenv.selfplay.beliefs import empty_world_completion
from polyenv.vector import allocate

from selfplay_helpers import FOUR, TWO, mirror, root_truth, search, truth_beliefs, twin_pools

def make(players=TWO, num_envs=3, map_size=8, seed=21, **kw):
    kw.setdefault("num_threads", 2)
    kw.setdefault("max_actions", 256)
    pool = SelfPlayPool(num_envs, seed=seed, map_size=map_size, players=players, **kw)
    req = pool.reset(seed=seed)
    envs = mirror(seed, num_envs, map_size=map_size, players=players)
    envs_episodes[id(envs)] = (seed, dict(map_size=map_size, players=players), [0] * num_envs)
    return pool, req, envs


envs_episodes = {}  # id(envs) -> (seed, game kwargs, episode index per game): auto_reset mirrors


def advance(pool, envs, rng, temperature=1.0):
    root = pool.root_policy(temperature)
    rows = [rng.choice(int(m.sum()), p=p[: int(m.sum())] / p[: int(m.sum())].sum())
            for p, m in zip(root["policy"], root["action_mask"])]
    actions = root["action_id"][np.arange(pool.num_envs), rows].astype(np.int32)
    for env, a in zip(envs, actions):
        env.step(int(a))
    req = pool.step_checked(actions, root["state_id"])
    assert req["action_valid"].all()
    for i, env in enumerate(envs):  # auto_reset: episode k of game i is GameEnv(seed=seed + i + k * B)
        assert bool(req["terminated"][i]) == env.game_over
        if env.game_over:
            seed, game, episodes = envs_episodes[id(envs)]
            episodes[i] += 1
            envs[i] = GameEnv(seed=seed + i + episodes[i] * len(envs), **game)
    return req


def check_packets_are_observations(pool, envs, req):
    """Every packet row equals that player's own fog-filtered observation of the ground truth."""
    allp = pool.all_player_belief_requests()
    P = pool.player_count
    for i, env in enumerate(envs):
        assert req["to_play"][i] == env.current_player
        assert np.array_equal(req["map_tokens"][i], env.observe()["map_tokens"])
        for p in range(P):
            obs = env.observe(player=p)
            assert np.array_equal(allp["map_tokens"][i, p], obs["map_tokens"])
            assert np.array_equal(allp["state"][i, p], obs["state"])
        assert (allp["belief_player"][i] == np.arange(P)).all()
        assert (allp["to_play"][i] == env.current_player).all()
    assert np.array_equal(allp["state_id"], req["state_id"])
    return allp


@pytest.mark.parametrize("players,form", [(TWO, "root"), (TWO, "player"), (TWO, "particles"),
                                          (FOUR, "root"), (FOUR, "player"), (FOUR, "particles")])
def test_lifecycle_with_truth_beliefs(players, form):
    pool, req, envs = make(players, max_pending_leaves_per_tree=2)
    rng = np.random.default_rng(0)
    P = len(players)
    leaf_rows = 0
    for _ in range(25):
        allp = check_packets_are_observations(pool, envs, req)
        if form == "root":
            beliefs = root_truth(envs, req)
        else:
            beliefs = truth_beliefs(envs, allp, particles=3 if form == "particles" else None)
        pool.submit_beliefs(req["state_id"], beliefs)
        for batch in search(pool, 4):
            # Leaf packets: only the leaf actor's view (no row outside its explored mask in the
            # belief world, whose masks are the players' own); P-sized values per the seed.
            assert (batch["player_count"] == P).all()
            assert batch["visible_action_history"].shape == (len(batch["leaf_id"]), 0, 12)
            leaf_rows += len(batch["leaf_id"])
        stats = pool.search_stats()
        assert (stats["pending_leaves"] == 0).all() and (stats["nodes"] >= 1).all()
        req = advance(pool, envs, rng)
    assert leaf_rows > 25 * pool.num_envs


def test_select_requires_beliefs_for_the_live_state():
    pool, req, envs = make()
    with pytest.raises(BeliefsMissingError):
        pool.select_leaves()
    pool.submit_beliefs(req["state_id"], root_truth(envs, req))
    search(pool, 2)
    req = advance(pool, envs, np.random.default_rng(1))
    with pytest.raises(BeliefsMissingError):
        pool.select_leaves()
    with pytest.raises(BeliefsMissingError):
        pool.select_leaves_into(allocate(pool.leaf_batch_spec()))


def _digest_unchanged(pool, call, error):
    before = pool._native._belief_digest()
    with pytest.raises(error):
        call()
    assert pool._native._belief_digest() == before


def test_malformed_particles_reject_the_whole_submission():
    pool, req, envs = make(FOUR, num_envs=2)
    allp = pool.all_player_belief_requests()
    good = truth_beliefs(envs, allp, particles=2)
    pool.submit_beliefs(req["state_id"], good)
    search(pool, 3)
    pending = pool.select_leaves()
    pool.cancel_leaves(pending["leaf_id"])
    root = pool.root_policy()
    ids = req["state_id"].copy()
    T = good.shape[3]

    def bad(mutate):
        b = good.copy()
        mutate(b)
        return b

    def visible_row(b):  # a visible row of a non-actor player's second particle
        i, p, k = 1, 2, 1
        t = int(np.flatnonzero(b[i, p, k, :, 0])[0])
        b[i, p, k, t, 1] = (b[i, p, k, t, 1] + 1) % 7

    def column0(b):  # a hidden row marked visible
        t = int(np.flatnonzero(b[0, 1, 0, :, 0] == 0)[0])
        b[0, 1, 0, t, 0] = 1

    def own_unit(b):  # the actor gains a unit in a hidden tile: its legal set changes
        actor = int(req["to_play"][0])
        t = int(np.flatnonzero(b[0, actor, 1, :, 0] == 0)[-1])
        b[0, actor, 1, t, 1] = 0  # plain
        b[0, actor, 1, t, 13:23] = [1, 0, 10, 10, 0, 0, 0, -1, -1, -1]

    def inconsistent(b):  # territory of a hidden tile pointing at a tile without a city
        t = int(np.flatnonzero(b[1, 3, 1, :, 0] == 0)[0])
        b[1, 3, 1, t, 6:8] = [2, (t + 1) % T]
        b[1, 3, 1, (t + 1) % T, 8] = 0

    for mutate, text in ((visible_row, "visible row"), (column0, "column 0"), (own_unit, "legal root action set"),
                         (inconsistent, "malformed belief")):
        with pytest.raises(ValueError, match=text):
            pool.submit_beliefs(ids, bad(mutate))
        after = pool.root_policy()
        for key in ("visit_count", "policy", "state_id", "episode_id"):
            assert np.array_equal(after[key], root[key])
    _digest_unchanged(pool, lambda: pool.submit_beliefs(ids, bad(own_unit)), ValueError)
    _digest_unchanged(pool, lambda: pool.submit_beliefs(ids + np.uint64(1), good), StaleStateError)
    _digest_unchanged(pool, lambda: pool.submit_beliefs(ids, good[:, :, :, :-1]), ValueError)
    _digest_unchanged(pool, lambda: pool.submit_beliefs(ids, good.astype(np.int64)), ValueError)
    _digest_unchanged(pool, lambda: pool.submit_beliefs(ids, good[:, :, :, ::-1]), ValueError)
    pool.select_leaves()
    _digest_unchanged(pool, lambda: pool.submit_beliefs(ids, good), PendingLeavesError)


def test_stale_state_ids_after_a_step():
    pool, req, envs = make()
    old = req["state_id"].copy()
    pool.submit_beliefs(old, root_truth(envs, req))
    req = advance(pool, envs, np.random.default_rng(2))
    with pytest.raises(StaleStateError):
        pool.submit_beliefs(old, root_truth(envs, req))
    pool.submit_beliefs(req["state_id"], root_truth(envs, req))


@pytest.mark.parametrize("players,moves", [(TWO, 12), (FOUR, 20)])
def test_hidden_content_and_rng_never_reach_the_search(players, moves):
    env, twin, (a, b) = twin_pools(players, moves, seed=33)
    assert not np.array_equal(env.full_map_numpy(), twin.full_map_numpy())
    ra, rb = a.belief_requests(), b.belief_requests()
    pa, pb = a.all_player_belief_requests(), b.all_player_belief_requests()
    for key in ra:
        if key not in ("state_id", "episode_id"):
            assert np.array_equal(ra[key], rb[key]), key
    for key in pa:
        if key not in ("state_id", "episode_id"):
            assert np.array_equal(pa[key], pb[key]), key
    beliefs = truth_beliefs([env], pa, particles=2)  # one hypothesis, submitted to both
    a.submit_beliefs(ra["state_id"], beliefs)
    b.submit_beliefs(rb["state_id"], beliefs)
    la, lb = search(a, 12), search(b, 12)
    assert len(la) == len(lb) and la
    for x, y in zip(la, lb):
        for key in x:
            if key not in ("leaf_id", "state_id", "episode_id"):
                assert np.array_equal(x[key], y[key]), key
    for key, value in a.root_policy().items():
        if key not in ("state_id", "episode_id"):
            assert np.array_equal(value, b.root_policy()[key]), key
    sa, sb = a.search_stats(), b.search_stats()
    for key in sa:
        assert np.array_equal(sa[key], sb[key]), key


def test_legacy_root_form_and_into_calls_match_allocating_calls():
    pool, req, envs = make(num_envs=2)
    buffers = allocate(pool.belief_batch_spec())
    pool.belief_requests_into(buffers)
    fresh = pool.belief_requests()
    for key in fresh:
        assert np.array_equal(buffers[key], fresh[key]), key
    allp_buffers = allocate(pool.all_player_belief_batch_spec())
    pool.all_player_belief_requests_into(allp_buffers)
    allp = pool.all_player_belief_requests()
    for key in allp:
        assert np.array_equal(allp_buffers[key], allp[key]), key
    pool.submit_beliefs(buffers["state_id"], root_truth(envs, fresh))
    leaf_buffers = allocate(pool.leaf_batch_spec(max_leaves=4))
    count = pool.select_leaves_into(leaf_buffers, max_leaves=4)
    assert count == 2
    root_buffers = allocate(pool.root_policy_spec())
    pool.root_policy_into(root_buffers)
    actions = root_buffers["action_id"][:, 0].copy()
    pool.abort_search()
    pool.step_into_checked(actions, buffers["state_id"], buffers)
    assert buffers["action_valid"].all()


def test_step_into_matches_step_and_rejects_atomically():
    """step_into (synchronous legacy loops, seed 002): step's semantics on the *_into protocol,
    history fields included; bad input raises and changes no game, tree, belief root or buffer."""
    a = SelfPlayPool(3, seed=8, map_size=8, players=FOUR, num_threads=2, max_actions=256, visible_action_history=8)
    b = SelfPlayPool(3, seed=8, map_size=8, players=FOUR, num_threads=2, max_actions=256, visible_action_history=8)
    ra = a.reset(seed=8)
    buffers = allocate(b.belief_batch_spec())
    b.reset_into(buffers, seed=8)
    rng = np.random.default_rng(8)
    for move in range(30):
        rows = (rng.random(3) * ra["legal_action_count"]).astype(int)
        actions = ra["action_id"][np.arange(3), rows].astype(np.int32)
        if move % 7 == 3:
            actions[move % 3] = -1  # illegal: action_valid 0, that game unchanged
        ra = a.step(actions)
        if move % 2:
            b.step_into(actions, buffers)
        else:  # the actions may view the output buffers (copied before the batch is written)
            buffers["action_id"][:, 0] = actions
            b.step_into(buffers["action_id"][:, 0], buffers)
        for key in ra:
            if key not in ("state_id", "episode_id"):
                assert np.array_equal(ra[key], buffers[key]), (move, key)
        assert (ra["action_valid"] == 0).any() == (move % 7 == 3)
    assert ra["visible_action_history_length"].sum() > 0
    digest = b._native._belief_digest()
    before = {k: v.copy() for k, v in buffers.items()}
    actions = buffers["action_id"][:, 0].copy()
    bad = allocate(b.belief_batch_spec())
    bad["visible_action_history"] = np.zeros((3, 8, 11), np.int32)
    for call in (lambda: b.step_into(actions.astype(np.int64), buffers), lambda: b.step_into(actions[:2], buffers),
                 lambda: b.step_into(actions, bad), lambda: b.step_into(actions, {})):
        with pytest.raises(ValueError):
            call()
        assert b._native._belief_digest() == digest
        for key, value in before.items():
            assert np.array_equal(buffers[key], value), key
    b.submit_beliefs(buffers["state_id"], empty_world_completion(
        b.all_player_belief_requests()["map_tokens"][:, :, None], request=b.belief_requests(), pool=b))
    b.select_leaves()
    digest = b._native._belief_digest()
    with pytest.raises(PendingLeavesError):
        b.step_into(actions, buffers)
    assert b._native._belief_digest() == digest
    for key, value in before.items():
        assert np.array_equal(buffers[key], value), key


def test_constructor_arguments():
    pool = SelfPlayPool(2, seed=1, map_size=8, players=TWO, num_threads=1, max_actions=0,
                        require_all_actions=True, auto_reset=True, c_puct=1.5, visible_action_history=0,
                        max_pending_leaves_per_tree=4, virtual_loss=1.0, max_nodes_per_tree=20_000,
                        max_tree_bytes=512 * 1024 * 1024)
    assert pool.player_count == pool.num_players == 2
    assert pool.max_actions == pool.action_space_size
    assert pool.visible_action_history == 0
    for bad in (dict(visible_action_history=-1), dict(visible_action_history=1025),
                dict(max_pending_leaves_per_tree=9), dict(players=(Bardur,))):
        with pytest.raises(ValueError):
            SelfPlayPool(2, seed=1, map_size=8, **{"players": TWO, **bad})
    assert SelfPlayPool(2, seed=1, map_size=8, players=TWO, visible_action_history=1024).visible_action_history == 1024


@pytest.mark.parametrize("players", [TWO, FOUR])
def test_empty_world_completion_is_a_valid_hypothesis(players):
    pool, req, envs = make(players, num_envs=4, map_size=11)
    rng = np.random.default_rng(3)
    for _ in range(6):
        allp = pool.all_player_belief_requests()
        beliefs = empty_world_completion(allp["map_tokens"][:, :, None], request=req, pool=pool)
        visible = allp["map_tokens"][..., 0] == 1
        assert np.array_equal(beliefs[:, :, 0][visible], allp["map_tokens"][visible])
        assert np.array_equal(beliefs[..., 0][:, :, 0], allp["map_tokens"][..., 0])
        pool.submit_beliefs(req["state_id"], beliefs)
        search(pool, 2)
        req = advance(pool, envs, rng)


def test_results_do_not_depend_on_the_thread_count():
    runs = []
    for threads in (1, 2):
        pool, req, envs = make(FOUR, num_envs=3, num_threads=threads, max_pending_leaves_per_tree=3)
        rng = np.random.default_rng(5)
        out = []
        for _ in range(4):
            pool.submit_beliefs(req["state_id"], truth_beliefs(envs, pool.all_player_belief_requests(), particles=2))
            out += [b["map_tokens"].copy() for b in search(pool, 3)]
            out.append(pool.root_policy()["visit_count"].copy())
            req = advance(pool, envs, rng)
        runs.append(out)
    assert len(runs[0]) == len(runs[1])
    for x, y in zip(*runs):
        assert np.array_equal(x, y)


def _truth_accepted_over_random_games(players, map_size, num_envs, moves, seed):
    """Per-player truth completions are valid hypotheses in every position of random games
    (uniform random legal moves reach captures, boats, roads, ...). Returns the positions checked."""
    pool = SelfPlayPool(num_envs, seed=seed, map_size=map_size, players=players, num_threads=2, auto_reset=False,
                        max_actions=512)
    req = pool.reset(seed=seed)
    envs = mirror(seed, num_envs, map_size=map_size, players=players)
    rng = np.random.default_rng(seed)
    positions = 0
    for _ in range(moves):
        if all(e.game_over for e in envs):
            break
        pool.submit_beliefs(req["state_id"], truth_beliefs(envs, pool.all_player_belief_requests()))
        positions += sum(not e.game_over for e in envs)
        actions = []
        for e in envs:
            legal = e.legal_actions() if not e.game_over else np.array([0])
            actions.append(int(legal[rng.integers(len(legal))]))
            if not e.game_over:
                e.step(actions[-1])
        req = pool.step(np.array(actions, np.int32))
    pool.close()
    return positions


# Zebasi starts with Farming without Organization (RULES §2): "build farm" is legal on crops, which
# the observation must then show, or no belief reproduces the legal list.
@pytest.mark.parametrize("players,map_size", [(TWO, 11), (FOUR, 12), ((Zebasi, Imperius), 11),
                                              ((Vengir, Zebasi, AiMo), 11)])
def test_truth_beliefs_are_accepted_over_random_games(players, map_size):
    assert _truth_accepted_over_random_games(players, map_size, num_envs=4, moves=100, seed=50) > 0


@pytest.mark.soak
def test_truth_beliefs_are_accepted_over_long_random_games():
    """The true world is every player's belief in POLYENV_BELIEF_POSITIONS (default 10,000)
    positions of 2-4 player games with random tribes (every starting tech)."""
    wanted = int(os.environ.get("POLYENV_BELIEF_POSITIONS", "10000"))
    rng = np.random.default_rng(int(os.environ.get("POLYENV_SOAK_SEED", "0")))
    positions, config = 0, 0
    while positions < wanted:
        players = tuple(int(t) for t in rng.choice(len(polyenv.TRIBES), 2 + config % 3, replace=False))
        positions += _truth_accepted_over_random_games(players, (10, 11, 12)[config % 3], num_envs=8, moves=300,
                                                       seed=51 + config)
        config += 1
