"""Every ``*_into`` call writes its whole batch, whatever the caller left in the arrays.

Between calls the caller scribbles into every field of its buffers (7s, random
bytes, random finite floats); each batch must still be byte-identical to a
fresh allocating call's: 0 differing fields. VectorGameEnv's opt-in fast path
(``buffers_untouched=True``, for owners that never write into their arrays) is
exact when the arrays are left alone, and its argument is validated. The
search pools and the Gymnasium vector env (whose ``copy=False`` observations
are views of its buffers) are held to the same rule.
"""
import numpy as np
import pytest

from polyenv import Bardur, Imperius, MctsPool, SelfPlayPool, VectorGameEnv
from polyenv.vector import allocate

from selfplay_helpers import mirror, model, truth_beliefs
from vector_reference import ID_KEYS, random_actions

B = 5
SCRIBBLES = ("sevens", "random_bytes", "finite_floats")


def scribble(buffers, how, rng):
    """Writes junk into every field of ``buffers`` (as a caller reusing its arrays might)."""
    for a in buffers.values():
        if how == "sevens":
            a[...] = 7
        elif how == "random_bytes" and a.dtype.kind != "f":
            a.view(np.uint8)[...] = rng.integers(0, 256, a.nbytes, dtype=np.uint8).reshape(a.view(np.uint8).shape)
        else:  # finite garbage for floats (random bytes could be NaN), random integers otherwise
            a[...] = rng.uniform(-1e6, 1e6, a.shape) if a.dtype.kind == "f" else rng.integers(-99, 99, a.shape)


def differing_fields(buffers, expected, skip=ID_KEYS):
    """Names of the fields whose bytes differ from the allocating call's batch."""
    assert list(buffers) == list(expected)
    return [k for k in buffers if k not in skip and buffers[k].tobytes() != expected[k].tobytes()]


def make_vector(threads=1, **kwargs):
    kwargs = {"map_size": 8, "players": (Bardur, Imperius), "max_turns": 1, "max_actions": 48,
              "visible_event_history": 4, "keep_terminal_observation": True, **kwargs}
    return VectorGameEnv(B, seed=3, num_threads=threads, **kwargs)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("how", SCRIBBLES)
@pytest.mark.parametrize("variant", ["fog", "full", "3p_opponent"])
def test_every_into_call_is_exact_after_the_caller_scribbles(threads, how, variant):
    kwargs = {"full": {"full_observability": True},
              "3p_opponent": {"players": (Bardur, Imperius, Bardur), "opponent": "random"}}.get(variant, {})
    rng = np.random.default_rng([threads, SCRIBBLES.index(how), len(variant)])
    with make_vector(threads, **kwargs) as env, make_vector(threads, **kwargs) as ref:
        bufs = allocate(env.batch_spec())
        slot_ids = np.array([1, 3], dtype=np.int32)
        slot = allocate(env.slot_batch_spec(len(slot_ids)))
        scribble(bufs, how, rng)
        env.reset_into(bufs, seed=9)
        expected = ref.reset(seed=9)
        bad = differing_fields(bufs, expected)
        ended = 0
        for step in range(80):
            ids = bufs["state_id"].copy()  # this env's state ids (the twin's differ: they are process-unique)
            actions = random_actions(expected, rng)
            scribble(bufs, how, rng)
            call = step % 5
            if call == 0:
                env.step_into(actions, bufs)
                expected = ref.step(actions)
            elif call == 1:
                env.step_into_checked(actions, ids, bufs)
                expected = ref.step_checked(actions, expected["state_id"])
            elif call == 2:  # a slot, stepped and then observed into its own scribbled buffers
                scribble(slot, how, rng)
                env.step_slots_into_checked(slot_ids, actions[slot_ids], ids[slot_ids], slot)
                got = ref.step_slots_checked(slot_ids, actions[slot_ids], expected["state_id"][slot_ids])
                bad += differing_fields(slot, got)
                scribble(slot, how, rng)
                env.observe_slots_into(slot_ids, slot)
                bad += differing_fields(slot, ref.observe_slots(slot_ids))
                env.observe_slots_into(np.arange(B, dtype=np.int32), bufs)
                expected = ref.observe_slots(np.arange(B))
            elif call == 3:
                env.step_into(actions, bufs)
                expected = ref.step(actions)
            elif step == 49:  # an unseeded reset
                env.reset_into(bufs)
                expected = ref.reset()
            else:
                env.step_into(actions, bufs)
                expected = ref.step(actions)
            bad += differing_fields(bufs, expected)
            ended += int(expected["terminated"].sum())
        assert bad == []  # 0 differing fields
        assert ended > 0


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("sets", [1, 2])
def test_the_opt_in_fast_path_is_exact_when_buffers_are_left_alone(threads, sets):
    with make_vector(threads) as env, make_vector(threads) as ref:
        rng = np.random.default_rng(threads + 10 * sets)
        slots = [allocate(env.batch_spec()) for _ in range(sets)]
        for s in slots:
            s["map_tokens"][...] = 5  # junk from before: the first write of a set is a full one
        env.reset_into(slots[0], seed=2, buffers_untouched=True)
        expected = ref.reset(seed=2)
        bad = differing_fields(slots[0], expected)
        ended = 0
        for step in range(1, 80):
            bufs = slots[step % sets]
            actions = random_actions(expected, rng)
            if step % 7 == 0:
                ids = slots[(step - 1) % sets]["state_id"].copy()
                env.step_into_checked(actions, ids, bufs, buffers_untouched=True)
            else:
                env.step_into(actions, bufs, buffers_untouched=True)
            expected = ref.step(actions)
            bad += differing_fields(bufs, expected)
            ended += int(expected["terminated"].sum())
        ids = np.arange(B, dtype=np.int32)
        env.observe_slots_into(ids, slots[0], buffers_untouched=True)
        bad += differing_fields(slots[0], ref.observe_slots(ids))
        assert bad == [] and ended > 0


def test_the_fast_path_still_rewrites_after_an_exact_call_saw_a_scribble():
    """An exact call refreshes what the fast path knows: a scribble followed by an exact call,
    then fast calls, stays exact."""
    with make_vector() as env, make_vector() as ref:
        rng = np.random.default_rng(4)
        bufs = allocate(env.batch_spec())
        env.reset_into(bufs, seed=5, buffers_untouched=True)
        expected = ref.reset(seed=5)
        bad = []
        for step in range(40):
            actions = random_actions(expected, rng)
            if step % 4 == 0:
                scribble(bufs, "sevens", rng)
                env.step_into(actions, bufs)  # exact: the caller wrote into the arrays
            else:
                env.step_into(actions, bufs, buffers_untouched=True)
            expected = ref.step(actions)
            bad += differing_fields(bufs, expected)
        assert bad == []


@pytest.mark.parametrize("value", ["yes", 1, 0, None, np.array([True])])
def test_buffers_untouched_must_be_a_bool_and_a_rejection_changes_nothing(value):
    with make_vector() as env:
        bufs = allocate(env.batch_spec())
        env.reset_into(bufs, seed=1)
        before = env.observe_slots(np.arange(B))
        for a in bufs.values():
            a[...] = 7
        actions = random_actions(before, np.random.default_rng(0))
        calls = [
            lambda: env.step_into(actions, bufs, buffers_untouched=value),
            lambda: env.step_into_checked(actions, before["state_id"].copy(), bufs, buffers_untouched=value),
            lambda: env.reset_into(bufs, seed=1, buffers_untouched=value),
            lambda: env.observe_slots_into(np.arange(B), bufs, buffers_untouched=value),
            lambda: env.step_slots_into_checked(np.arange(B), actions, before["state_id"].copy(), bufs,
                                                buffers_untouched=value),
        ]
        for call in calls:
            with pytest.raises(ValueError, match="buffers_untouched"):
                call()
            assert all((a == 7).all() for a in bufs.values())
            after = env.observe_slots(np.arange(B))
            assert differing_fields(after, before, skip=()) == []


# ---------------------------------------------------------------------------- search pools

def twin_pool_run(a, b, rng, how, envs=None):
    """Drives pool ``a`` through every ``*_into`` call on scribbled buffers and its twin ``b``
    through the allocating calls, with the same actions (and, for SelfPlayPool, the same truth
    beliefs from the mirrored games ``envs``); returns the names of differing fields."""
    selfplay = envs is not None
    bad = []
    live, leaves, roots = allocate(a.batch_spec()), allocate(a.leaf_batch_spec(6)), allocate(a.root_policy_spec())
    scribble(live, how, rng)
    a.reset_into(live, seed=4)
    expected = b.reset(seed=4)
    bad += differing_fields(live, expected)
    for step in range(10):
        ids = live["state_id"].copy()  # a's own state ids (b's differ: they are process-unique)
        if selfplay:
            scribble(live, how, rng)
            a.belief_requests_into(live)
            bad += differing_fields(live, b.belief_requests())
            allp = allocate(a.all_player_belief_batch_spec())
            scribble(allp, how, rng)
            a.all_player_belief_requests_into(allp)
            got = b.all_player_belief_requests()
            bad += differing_fields(allp, got)
            beliefs = truth_beliefs(envs, got)
            a.submit_beliefs(ids, beliefs)
            b.submit_beliefs(expected["state_id"], beliefs)
        for _ in range(3):
            scribble(leaves, how, rng)
            count = a.select_leaves_into(leaves, max_leaves=6)
            fresh = b.select_leaves(max_leaves=6)
            assert len(fresh["leaf_id"]) == count
            # the valid prefix is the batch (the tail is documented as not cleared)
            bad += [k for k in fresh if k not in ("leaf_id",) + ID_KEYS
                    and leaves[k][:count].tobytes() != fresh[k].tobytes()]
            if count:
                logits, values = model(fresh, a.player_count, a.max_actions)
                a.expand_and_backup(leaves["leaf_id"][:count].copy(), logits, values)
                b.expand_and_backup(fresh["leaf_id"], logits, values)
        scribble(roots, how, rng)
        a.root_policy_into(roots, temperature=1.0)
        got = b.root_policy(temperature=1.0)
        bad += differing_fields(roots, got)
        actions = random_actions({"legal_action_count": got["action_mask"].sum(axis=1).astype(np.int32),
                                  "action_id": got["action_id"]}, rng)
        if selfplay:
            for e, act in zip(envs, actions):
                e.step(int(act))
        scribble(live, how, rng)
        a.step_into_checked(actions, ids, live)
        expected = b.step_checked(actions, expected["state_id"])
        bad += differing_fields(live, expected)
    return bad


@pytest.mark.parametrize("how", SCRIBBLES)
def test_mcts_pool_into_calls_are_exact_after_scribbles(how):
    kw = dict(num_envs=3, seed=2, map_size=8, max_actions=64, require_all_actions=False,
              max_pending_leaves_per_tree=2, num_threads=2)
    with MctsPool(**kw) as a, MctsPool(**kw) as b:
        assert twin_pool_run(a, b, np.random.default_rng(21), how) == []


@pytest.mark.parametrize("how", SCRIBBLES)
def test_selfplay_pool_into_calls_are_exact_after_scribbles(how):
    kw = dict(num_envs=3, seed=4, map_size=8, max_actions=256, max_pending_leaves_per_tree=2, num_threads=2,
              visible_action_history=4)
    with SelfPlayPool(**kw) as a, SelfPlayPool(**kw) as b:
        assert twin_pool_run(a, b, np.random.default_rng(22), how, envs=mirror(4, 3, map_size=8)) == []


# ---------------------------------------------------------------------------- the Gymnasium vector env

@pytest.mark.parametrize("observation_format", ["dict", "flat"])
@pytest.mark.parametrize("action_mode", ["global", "rows"])
def test_gymnasium_vector_env_views_written_by_the_user_do_not_corrupt_later_steps(action_mode, observation_format):
    """copy=False hands out views of its buffers: a user writing into the observation arrays
    (normalising in place, reusing them) must not change what later steps return (compared with
    a copy=True twin). (``action_id`` is left alone: the wrapper reads it to map the next actions.)"""
    from polyenv.vector.gym_vector import TribesVectorEnv

    kw = dict(num_envs=4, map_size=8, max_turns=1, max_actions=48, seed=7, action_mode=action_mode, num_threads=1,
              observation_format=observation_format)
    envs, twin = TribesVectorEnv(copy=False, **kw), TribesVectorEnv(copy=True, **kw)
    try:
        obs, _ = envs.reset(seed=7)
        ref, _ = twin.reset(seed=7)
        rng = np.random.default_rng(1)
        bad, ended = [], 0
        for step in range(40):
            bad += [k for k in ref if obs[k].tobytes() != ref[k].tobytes()]
            masks = twin.action_masks()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            for key in ("map_tokens", "action_features", "observation"):  # the user writes into what it got
                if key in obs:
                    obs[key][...] = 7
            obs, *_ = envs.step(actions)
            ref, _, done, *_ = twin.step(actions)
            ended += int(done.sum())
        assert bad == [] and ended > 0
    finally:
        envs.close()
        twin.close()
