"""SelfPlayPool's per-player re-determinization at actor changes (seed 002 ISMCTS): the next
actor acts in its own belief world (its own particle, its own replayed actions, only tiles seen
in the simulated world merged), deterministically for any thread count, fog-safe (hidden content
of the authoritative world never matters, the submitted particles of every player do)."""
import numpy as np
import pytest

from polyenv import SelfPlayPool
from polyenv.selfplay.beliefs import empty_world_completion

from selfplay_helpers import END_TURN, mirror, model, search, truth_beliefs
from selfplay_helpers import FOUR, TWO, twin_pools



def search_ending_turns(pool, rounds, bonus=3.0):
    """Stand-in model rounds with End Turn favoured, so paths cross to other actors; batches carry "paths"."""
    return search(pool, rounds, end_turn_bonus=bonus, paths=True)


def stats(pool):
    rebuilt, fallbacks, skipped = pool._native._redeterminize_stats()
    return dict(rebuilt=rebuilt, fallbacks=fallbacks, skipped=skipped)


def actor_blind_beliefs(pool, envs, req, allp, particles=2):
    """Truth completions for every player except the live actor, whose hidden rows are the
    empty-world guess: the actor's guesses of tiles it cannot see are wrong."""
    truth = truth_beliefs(envs, allp, particles=particles)
    empty = empty_world_completion(np.repeat(allp["map_tokens"][:, :, None], particles, axis=2), request=req,
                                   pool=pool)
    out = truth.copy()
    for i, actor in enumerate(req["to_play"]):
        out[i, actor] = empty[i, actor]
    return out


@pytest.mark.parametrize("players", [TWO, FOUR])
def test_next_actor_acts_in_its_own_world(players):
    """After the root actor's End Turn the leaf is the next actor's own world: with truthful
    particles for that player its packet equals its real observation after End Turn, although
    the root actor's particle guessed every tile it cannot see wrongly. The legacy root form
    (no other player's belief, no re-determinization) shows the next actor the root actor's
    guesses instead."""
    B = 3
    found = {}
    for form in ("particles", "root"):
        pool = SelfPlayPool(B, seed=7, map_size=11, players=players, num_threads=2, max_actions=512,
                            max_pending_leaves_per_tree=4)
        req = pool.reset(seed=7)
        envs = mirror(7, B, map_size=11, players=players)
        allp = pool.all_player_belief_requests()
        beliefs = actor_blind_beliefs(pool, envs, req, allp)
        if form == "root":
            beliefs = np.ascontiguousarray(beliefs[np.arange(B), req["to_play"], 0])
        pool.submit_beliefs(req["state_id"], beliefs)
        matches = []
        for _ in range(6):
            leaves = pool.select_leaves()
            if len(leaves["leaf_id"]) == 0:
                break
            for j, leaf in enumerate(leaves["leaf_id"]):
                if list(pool._native._leaf_actions(int(leaf))) != [END_TURN]:
                    continue
                truth = envs[int(leaves["env_id"][j])].clone()
                truth.step(END_TURN)
                assert leaves["to_play"][j] == truth.current_player != req["to_play"][leaves["env_id"][j]]
                obs = truth.observe(player=truth.current_player)
                matches.append(np.array_equal(obs["map_tokens"], leaves["map_tokens"][j]) and
                               np.array_equal(obs["state"], leaves["state"][j]))
            logits, values = model(leaves, pool.player_count, pool.max_actions)
            logits[leaves["action_id"] == END_TURN] += 5
            pool.expand_and_backup(leaves["leaf_id"], logits, values)
        assert len(matches) == B
        found[form] = (matches, stats(pool))
    matches, counters = found["particles"]
    assert all(matches)
    assert counters["rebuilt"] >= B and counters["fallbacks"] == 0
    matches, counters = found["root"]
    assert not any(matches)
    assert counters == dict(rebuilt=0, fallbacks=0, skipped=0)


@pytest.mark.parametrize("players", [TWO, FOUR])
def test_truthful_particles_reproduce_the_game_after_actor_changes(players):
    """With truthful particles for every player, every leaf reached through one or more actor
    changes (the next actor's world rebuilt from its particle, its own earlier actions replayed,
    stars sent to it credited, the tiles seen by both actors merged) shows its actor exactly the
    real game's observation after the same actions: map tokens, state and legal actions. Column 2
    (resource) is left out: crops/ore/whales hidden from a player without the revealing tech are
    -1 in its visible rows, so no belief can hold them when a simulated Research reveals them."""
    pool = SelfPlayPool(4, seed=11, map_size=11, players=players, num_threads=2, max_actions=512,
                        max_pending_leaves_per_tree=4)
    req = pool.reset(seed=11)
    envs = mirror(11, 4, map_size=11, players=players)
    pool.submit_beliefs(req["state_id"], truth_beliefs(envs, pool.all_player_belief_requests(), particles=2))
    changes = []
    for batch in search_ending_turns(pool, 30, bonus=1.5):
        for j, path in enumerate(batch["paths"]):
            truth = envs[int(batch["env_id"][j])].clone()
            for a in path:
                truth.step(a)
            actor_changes = sum(a == END_TURN for a in path)
            if actor_changes == 0:
                continue  # the root actor's own world: also the synthetic chance seed's outcomes
            obs = truth.observe(player=truth.current_player)
            assert batch["to_play"][j] == truth.current_player
            assert np.array_equal(np.delete(obs["map_tokens"], 2, axis=1), np.delete(batch["map_tokens"][j], 2, axis=1))
            assert np.array_equal(obs["state"], batch["state"][j])
            assert np.array_equal(np.sort(truth.legal_actions()),
                                  batch["action_id"][j][: batch["legal_action_count"][j]])
            changes.append(actor_changes)
    assert len(changes) > 100 and max(changes) >= 2  # back in an earlier actor's world: its replay
    assert stats(pool)["fallbacks"] == 0


@pytest.mark.parametrize("players", [TWO, FOUR])
def test_redeterminization_does_not_depend_on_the_thread_count(players):
    runs = []
    for threads in (1, 2):
        pool = SelfPlayPool(4, seed=12, map_size=11, players=players, num_threads=threads, max_actions=512,
                            max_pending_leaves_per_tree=3)
        req = pool.reset(seed=12)
        envs = mirror(12, 4, map_size=11, players=players)
        rng = np.random.default_rng(4)
        out, rebuilt = [], 0
        for _ in range(4):
            allp = pool.all_player_belief_requests()
            pool.submit_beliefs(req["state_id"], actor_blind_beliefs(pool, envs, req, allp, particles=3))
            for batch in search_ending_turns(pool, 6):
                out += [batch[k] for k in ("map_tokens", "state", "action_id", "to_play")]
            root = pool.root_policy()
            out.append(root["visit_count"])
            counters = stats(pool)
            out.append(np.array(list(counters.values())))
            rebuilt += counters["rebuilt"]
            actions = []
            for env in envs:
                legal = env.legal_actions()
                actions.append(int(legal[rng.integers(len(legal))]))
                env.step(actions[-1])
            pool.abort_search()
            req = pool.step_checked(np.array(actions, np.int32), req["state_id"])
            assert not any(env.game_over for env in envs)
        assert rebuilt > 0
        runs.append(out)
    assert len(runs[0]) == len(runs[1])
    for x, y in zip(*runs):
        assert np.array_equal(x, y)


@pytest.mark.parametrize("players,moves", [(TWO, 20), (FOUR, 20)])
def test_twins_identical_and_other_players_particles_matter(players, moves):
    """Fog twins (authoritative worlds differing only in content hidden from every player and in
    their random stream) give bit-identical searches for identical beliefs, re-determinizing at
    actor changes. Power check: changing only the hidden rows of the particles of the players
    who are NOT to move (which a search without re-determinization never reads) changes the
    leaves and the root visit counts."""
    env, twin, (a, b) = twin_pools(players, moves, seed=33)
    assert not np.array_equal(env.full_map_numpy(), twin.full_map_numpy())
    ra, rb = a.belief_requests(), b.belief_requests()
    truth = truth_beliefs([env], a.all_player_belief_requests(), particles=2)
    a.submit_beliefs(ra["state_id"], truth)
    b.submit_beliefs(rb["state_id"], truth)
    la, lb = search_ending_turns(a, 12, bonus=2.0), search_ending_turns(b, 12, bonus=2.0)
    assert len(la) == len(lb) and la
    for x, y in zip(la, lb):
        assert x["paths"] == y["paths"]
        for key in x:
            if key not in ("leaf_id", "state_id", "episode_id", "paths"):
                assert np.array_equal(x[key], y[key]), key
    root_a = a.root_policy()
    for key, value in b.root_policy().items():
        if key not in ("state_id", "episode_id"):
            assert np.array_equal(value, root_a[key]), key
    assert stats(a) == stats(b) and stats(a)["rebuilt"] > 0

    # The same pool position, other players' hidden rows guessed as an empty world instead.
    pa = a.all_player_belief_requests()
    empty = empty_world_completion(np.repeat(pa["map_tokens"][:, :, None], 2, axis=2), request=ra, pool=a)
    actor = int(ra["to_play"][0])
    other = truth.copy()
    for p in range(len(players)):
        if p != actor:
            other[0, p] = empty[0, p]
    assert not np.array_equal(other, truth)
    b.submit_beliefs(rb["state_id"], other)
    lb = search_ending_turns(b, 12, bonus=2.0)
    assert stats(b)["rebuilt"] > 0
    assert not np.array_equal(b.root_policy()["visit_count"], root_a["visit_count"])
    differs = [not np.array_equal(x["map_tokens"], y["map_tokens"]) or not np.array_equal(x["action_id"], y["action_id"])
               for x, y in zip(la, lb) if len(x["leaf_id"]) == len(y["leaf_id"])]
    assert any(differs)


def test_rejected_submission_keeps_the_worlds_of_the_accepted_one():
    """A malformed particle leaves the submitted particle worlds (used at actor changes) as they
    were: the search after a rejected submission equals the search without it."""
    results = []
    for reject in (False, True):
        pool = SelfPlayPool(2, seed=5, map_size=11, players=FOUR, num_threads=2, max_actions=512,
                            max_pending_leaves_per_tree=3)
        req = pool.reset(seed=5)
        envs = mirror(5, 2, map_size=11, players=FOUR)
        allp = pool.all_player_belief_requests()
        good = actor_blind_beliefs(pool, envs, req, allp)
        pool.submit_beliefs(req["state_id"], good)
        if reject:
            bad = truth_beliefs(envs, allp, particles=2)  # different worlds for every player ...
            t = int(np.flatnonzero(bad[1, 3, 1, :, 0])[0])
            bad[1, 3, 1, t, 1] = (bad[1, 3, 1, t, 1] + 1) % 7  # ... and one changed visible row
            with pytest.raises(ValueError, match="visible row"):
                pool.submit_beliefs(req["state_id"], bad)
        batches = search_ending_turns(pool, 8)
        results.append(([b["map_tokens"] for b in batches] + [pool.root_policy()["visit_count"]], stats(pool)))
    assert results[0][1] == results[1][1] and results[0][1]["rebuilt"] > 0
    assert len(results[0][0]) == len(results[1][0])
    for x, y in zip(results[0][0], results[1][0]):
        assert np.array_equal(x, y)
