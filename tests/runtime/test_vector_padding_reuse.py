"""VectorGameEnv *_into calls with ``buffers_untouched=True`` skip rewriting zeros still in place
in the same arrays — padding action rows, unexplored map tiles (csrc/vector/buffer_memo.hpp): every
batch they leave must be byte-identical to a fresh allocating call's, whatever else happens to the
buffers — one set, alternating sets, recycled memory, views of the same memory, resets, truncation,
failures — with 1 and 2 threads. (Without the promise every call writes every byte:
tests/runtime/test_buffer_scribbles.py.)
"""
import numpy as np
import pytest

from polyenv import Bardur, Imperius, VectorGameEnv
from polyenv.vector import allocate

from vector_reference import assert_batches_equal, random_actions

B = 6


def make(threads, max_actions, players=(Bardur, Imperius), **kwargs):
    return VectorGameEnv(B, seed=5, map_size=8, players=players, max_turns=3, num_threads=threads,
                         max_actions=max_actions, **kwargs)


def garbage(spec, byte=0x5A):
    """Buffers holding junk, like a recycled allocation at any address."""
    out = allocate(spec)
    for v in out.values():
        v.view(np.uint8)[...] = byte
    return out


def assert_identical(buffers, expected):
    assert_batches_equal(buffers, expected)
    for key in ("action_id", "action_features", "action_arg_mask", "action_mask"):
        assert buffers[key].tobytes() == expected[key].tobytes(), key


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("max_actions", [5, 64])  # 5 truncates most positions
@pytest.mark.parametrize("sets", [1, 2, 3])
@pytest.mark.parametrize("variant", ["fog", "full", "3p"])
def test_reused_buffers_match_fresh_batches_over_resets_and_auto_resets(threads, max_actions, sets, variant):
    kwargs = dict(keep_terminal_observation=True, full_observability=variant == "full",
                  players=(Bardur, Imperius, Bardur) if variant == "3p" else (Bardur, Imperius))
    with make(threads, max_actions, **kwargs) as env, make(threads, max_actions, **kwargs) as ref:
        slots = [garbage(env.batch_spec(), 0x11 * (i + 1)) for i in range(sets)]
        rng = np.random.default_rng(threads * 100 + max_actions + sets)
        env.reset_into(slots[0], seed=9, buffers_untouched=True)
        expected = ref.reset(seed=9)
        assert_identical(slots[0], expected)
        ended = 0
        for step in range(1, 151):
            bufs = slots[step % sets]
            if step % 50 == 0:  # a reset in the middle, seeded and not
                seed = None if step % 100 else 3
                env.reset_into(bufs, seed=seed, buffers_untouched=True)
                expected = ref.reset(seed=seed)
            else:
                actions = random_actions(expected, rng)
                env.step_into(actions, bufs, buffers_untouched=True)
                expected = ref.step(actions)
            assert_identical(bufs, expected)
            ended += int(expected["terminated"].sum())
        assert ended > 0  # auto-resets happened


@pytest.mark.parametrize("threads", [1, 2])
def test_recycled_memory_views_and_slots_are_never_trusted_blindly(threads):
    with make(threads, 40) as env, make(threads, 40) as ref:
        rng = np.random.default_rng(threads)
        known = allocate(env.batch_spec())
        env.reset_into(known, seed=1, buffers_untouched=True)
        expected = ref.reset(seed=1)
        half = np.arange(B // 2, dtype=np.int32)
        for step in range(60):
            actions = random_actions(expected, rng)
            expected = ref.step(actions)
            if step % 4 == 0:  # new objects holding junk (a recycled address)
                fresh = garbage(env.batch_spec(), step)
                env.step_into(actions, fresh, buffers_untouched=True)
                assert_identical(fresh, expected)
                # the known set was not written: it is now stale; bring it up to date
                env.observe_slots_into(np.arange(B, dtype=np.int32), known, buffers_untouched=True)
                assert_identical({k: v for k, v in known.items() if k not in
                                  ("reward", "terminated", "action_valid")},
                                 {k: v for k, v in expected.items() if k not in
                                  ("reward", "terminated", "action_valid")})
                continue
            env.step_into(actions, known, buffers_untouched=True)
            assert_identical(known, expected)
            if step % 4 == 1:
                # the same memory as new objects (views), written through another call
                views = {k: v[...] for k, v in known.items()}
                views["action_features"][...] = 7  # junk first: a fresh set must clear it
                views["map_tokens"][...] = 7
                env.observe_slots_into(np.arange(B, dtype=np.int32), views, buffers_untouched=True)
            elif step % 4 == 2:
                # a slot buffer set viewing the first rows of the known arrays: writing it
                # overlaps the known set's memo, which must then be dropped
                slot = {k: v[: B // 2] for k, v in known.items()}
                known["action_features"][: B // 2] = 9
                known["action_arg_mask"][: B // 2] = 9
                known["map_tokens"][: B // 2] = 9
                env.observe_slots_into(half, slot, buffers_untouched=True)


@pytest.mark.parametrize("threads", [1, 2])
def test_writing_into_the_arrays_withdraws_the_promise(threads):
    """After writing into the arrays, a caller that keeps passing buffers_untouched=True must call
    forget_buffers() (or pass the next call without the promise); both give exact batches."""
    with make(threads, 64) as env, make(threads, 64) as ref:
        rng = np.random.default_rng(7)
        bufs = allocate(env.batch_spec())
        env.reset_into(bufs, seed=2, buffers_untouched=True)
        expected = ref.reset(seed=2)
        for step in range(30):
            actions = random_actions(expected, rng)
            expected = ref.step(actions)
            for key in ("map_tokens", "action_features", "action_arg_mask", "action_id", "action_mask"):
                bufs[key][...] = 3
            if step % 3 == 0:
                env.forget_buffers()
                env.step_into(actions, bufs, buffers_untouched=True)
                assert_identical(bufs, expected)
            elif step % 3 == 1:
                env.step_into(actions, bufs)  # no promise: every byte is written
                assert_identical(bufs, expected)
            else:
                # A broken promise: the seed-000 padding fields (id -1, mask 0), every valid row
                # and every explored tile are still exact; only the features / arg mask of rows
                # that stayed padding and the tokens of tiles that stayed unexplored may keep what
                # the caller wrote (documented).
                env.step_into(actions, bufs, buffers_untouched=True)
                for key in ("action_id", "action_mask", "state", "legal_action_count"):
                    np.testing.assert_array_equal(bufs[key], expected[key], err_msg=key)
                explored = expected["map_tokens"][:, :, 0] == 1
                np.testing.assert_array_equal(bufs["map_tokens"][explored], expected["map_tokens"][explored])
                for r, n in enumerate(expected["legal_action_count"]):
                    np.testing.assert_array_equal(bufs["action_features"][r, :n], expected["action_features"][r, :n])
                    np.testing.assert_array_equal(bufs["action_arg_mask"][r, :n], expected["action_arg_mask"][r, :n])
                env.forget_buffers()


def test_a_failed_call_forgets_every_buffer():
    with make(2, 64) as env, make(2, 64) as ref:
        bufs = allocate(env.batch_spec())
        env.reset_into(bufs, seed=4, buffers_untouched=True)
        expected = ref.reset(seed=4)
        actions = random_actions(expected, np.random.default_rng(0))
        env.step_into(actions, bufs, buffers_untouched=True)
        ref.step(actions)
        bufs["action_features"][...] = 5  # junk that only a full write removes
        bufs["map_tokens"][...] = 5
        env._native._inject_fault(3, "boom")
        with pytest.raises(RuntimeError, match="boom"):
            env.step_into(actions, bufs, buffers_untouched=True)
        env.reset_into(bufs, seed=4, buffers_untouched=True)
        assert_identical(bufs, ref.reset(seed=4))


def test_two_environments_writing_the_same_arrays_never_trust_each_others_zeros():
    with make(1, 64) as a, make(1, 64) as ref_a, make(1, 64, players=(Imperius, Bardur)) as b, \
            make(1, 64, players=(Imperius, Bardur)) as ref_b:
        bufs = allocate(a.batch_spec())
        a.reset_into(bufs, seed=6, buffers_untouched=True)
        expected_a = ref_a.reset(seed=6)
        b.reset_into(bufs, seed=8, buffers_untouched=True)
        expected_b = ref_b.reset(seed=8)
        rng = np.random.default_rng(3)
        for step in range(40):
            if step % 2:
                actions = random_actions(expected_b, rng)
                b.step_into(actions, bufs, buffers_untouched=True)
                expected_b = ref_b.step(actions)
                assert_identical(bufs, expected_b)
            else:
                actions = random_actions(expected_a, rng)
                a.step_into(actions, bufs, buffers_untouched=True)
                expected_a = ref_a.step(actions)
                assert_identical(bufs, expected_a)
