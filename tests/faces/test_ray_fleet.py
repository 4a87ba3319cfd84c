"""polyenv.distributed.RolloutFleet on a local Ray instance of 2 CPUs (one per module): batches equal to the
same seeds run locally, weights reach the actors, and a killed actor is restarted with nothing lost."""
import sys
import time

import numpy as np

import pytest

ray = pytest.importorskip("ray", reason="needs the [ray] extra: pip install torch==2.13.0 '.[ray]'")

from polyenv import VectorGameEnv  # noqa: E402
from polyenv.distributed import RolloutFleet, actor_seed, random_policy  # noqa: E402

KW = dict(map_size=8, max_actions=32)
OPAQUE = {"state_id", "episode_id"}  # process-local identifiers: equal positions, different ids


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the actors cannot import this test module
    yield
    ray.shutdown()


def local_batches(seed, envs, steps, count, policy=random_policy, weights=None):
    """The batches one actor seeded ``seed`` produces, computed here with a plain VectorGameEnv."""
    env, rng = VectorGameEnv(envs, seed=seed, num_threads=1, **KW), np.random.default_rng(seed)
    obs, out = env.reset(seed=seed), []
    for _ in range(count):
        rows, actions = [obs], []
        for _ in range(steps):
            actions.append(np.asarray(policy(weights, rows[-1], rng), np.int32))
            rows.append(env.step(actions[-1]))
        out.append(({k: np.stack([r[k] for r in rows]) for k in obs}, np.stack(actions)))
        obs = rows[-1]
    env.close()
    return out


def assert_same(batch, reference):
    data, actions = reference
    np.testing.assert_array_equal(batch.data["action"], actions)
    for key, value in data.items():
        if key not in OPAQUE:
            np.testing.assert_array_equal(batch.data[key], value, err_msg=key)


def by_actor(batches):
    out = {}
    for b in batches:
        out.setdefault(b.actor, []).append(b)
    return out


def test_fleet_batches_equal_the_same_seeds_run_locally():
    with RolloutFleet(2, 3, KW, seed=5) as fleet:
        batches = list(fleet.sample(steps=6, num_batches=6))
    groups = by_actor(batches)
    assert sorted(groups) == [0, 1]
    for actor, got in groups.items():
        assert [b.seq for b in got] == list(range(len(got)))
        assert all(b.generation == 0 and b.seed == actor_seed(5, actor, 0) for b in got)
        for b, ref in zip(got, local_batches(actor_seed(5, actor, 0), 3, 6, len(got))):
            assert b.steps == 6 and b.num_envs == 3
            assert not b.data["map_tokens"].flags.writeable  # a view of the object store, not a copy
            assert_same(b, ref)
    assert actor_seed(5, 0, 0) != actor_seed(5, 1, 0) != actor_seed(5, 0, 1)


def first_row(weights, obs, rng):
    """Row 0 (End Turn, or the first level-up choice) when weights == "first", else a random legal row."""
    return obs["action_id"][:, 0] if weights == "first" else random_policy(weights, obs, rng)


def test_set_weights_reaches_the_actors_policy():
    with RolloutFleet(2, 2, KW, policy_fn=first_row, weights="random") as fleet:
        assert all(b.weights_version == 0 for b in fleet.sample(steps=3, num_batches=2))
        fleet.set_weights("first")
        batches = list(fleet.sample(steps=3, num_batches=4))
    late = [b for b in batches if b.weights_version == 1]
    assert late and fleet.weights_version == 1
    for b in late:
        np.testing.assert_array_equal(b.data["action"], b.data["action_id"][:-1, :, 0])


def kill(handle):
    """Kills an actor and waits until Ray reports it dead (so no later request can still reach it)."""
    ray.kill(handle)
    # ray.kill is asynchronous: a ping sent at once may still be served before the actor dies.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            ray.get(handle.ping.remote(), timeout=60)
        except ray.exceptions.RayActorError:
            return
        time.sleep(0.05)
    pytest.fail("the killed actor still answers after 60 s")


def test_killed_actor_is_restarted_reseeded_and_no_batch_is_lost_or_duplicated():
    fleet = RolloutFleet(2, 2, KW, seed=9, max_restarts=1)
    try:
        batches = list(fleet.sample(steps=4, num_batches=2))
        kill(fleet.actor_handles[0])
        batches += list(fleet.sample(steps=4, num_batches=6))
        assert fleet.restarts == 1
        groups = by_actor(batches)
        for got in groups.values():
            assert [b.seq for b in got] == list(range(len(got)))  # gap-free and no repeats
        assert sum(len(g) for g in groups.values()) == 8
        restarted = [b for b in groups[0] if b.generation == 1]
        assert restarted and all(b.seed == actor_seed(9, 0, 1) for b in restarted)
        for b, ref in zip(restarted, local_batches(actor_seed(9, 0, 1), 2, 4, len(restarted))):
            assert_same(b, ref)  # the new actor starts fresh games from its new seed
        kill(fleet.actor_handles[0])
        with pytest.raises(RuntimeError, match="failed after 1 restarts"):
            list(fleet.sample(steps=4, num_batches=4))
    finally:
        fleet.close()


def test_bad_arguments_raise_before_any_actor_starts():
    with pytest.raises(ValueError, match="num_actors"):
        RolloutFleet(0, 2, KW)
    with pytest.raises(ValueError, match="envs_per_actor"):
        RolloutFleet(1, 0, KW)
    with pytest.raises(ValueError, match="seed"):
        RolloutFleet(1, 2, dict(KW, seed=1))
    with pytest.raises(ValueError, match="map_size"):
        RolloutFleet(1, 2, dict(map_size=0))
    with pytest.raises(ValueError, match="policy_fn"):
        RolloutFleet(1, 2, KW, policy_fn="random")
    fleet = RolloutFleet(1, 2, KW)
    with pytest.raises(ValueError, match="steps"):
        fleet.sample(steps=0)
    fleet.close()
    fleet.close()
    with pytest.raises(RuntimeError, match="closed"):
        fleet.sample(steps=1)


def test_a_policy_returning_bad_actions_fails_with_its_message():
    with RolloutFleet(1, 2, KW, policy_fn=lambda w, obs, rng: np.zeros(5, np.int32)) as fleet:
        with pytest.raises(ValueError, match="policy_fn must return 2 integer action ids"):
            list(fleet.sample(steps=2, num_batches=1))
