"""polyenv.RolloutBuffer: arithmetic against plain reference loops, views, and every error path (atomic)."""

import numpy as np
import pytest

import polyenv
from polyenv import RolloutBuffer, RolloutBufferFullError

SPEC = {"state": {"shape": (3, 11), "dtype": np.int32}, "action_mask": {"shape": (3, 5), "dtype": np.uint8}}


def _step(rng, B=3, value=True):
    batch = {"state": rng.integers(-5, 5, (B, 11)).astype(np.int32),
             "action_mask": rng.integers(0, 2, (B, 5)).astype(np.uint8), "extra": np.zeros(2)}
    args = [batch, rng.integers(0, 5, B).astype(np.int64), rng.normal(size=B).astype(np.float32),
            rng.normal(size=B).astype(np.float32), (rng.random(B) < 0.3).astype(np.uint8)]
    if value:
        args.append(rng.normal(size=B).astype(np.float32))
    return args


def _filled(T=7, fill=None, seed=0, value=True):
    rng = np.random.default_rng(seed)
    buf = RolloutBuffer(T, 3, SPEC, value=value)
    steps = [_step(rng, value=value) for _ in range(T if fill is None else fill)]
    for s in steps:
        buf.add(*s)
    return buf, steps


def _ref_returns(rewards, dones, gamma):
    T, B = len(rewards), len(rewards[0])
    out = [[0.0] * B for _ in range(T)]
    for b in range(B):
        g = 0.0
        for t in reversed(range(T)):
            g = rewards[t][b] + (0.0 if dones[t][b] else gamma * g)
            out[t][b] = g
    return np.array(out)


def _ref_gae(rewards, values, dones, last_values, last_dones, gamma, lam):
    T, B = len(rewards), len(rewards[0])
    adv = [[0.0] * B for _ in range(T)]
    for b in range(B):
        a = 0.0
        for t in reversed(range(T)):
            cont = 0.0 if dones[t][b] or (t == T - 1 and last_dones[b]) else 1.0
            nv = last_values[b] if t == T - 1 else values[t + 1][b]
            delta = rewards[t][b] + gamma * nv * cont - values[t][b]
            a = delta + gamma * lam * cont * a
            adv[t][b] = a
    adv = np.array(adv)
    return adv, adv + np.array(values)


def test_storage_and_views():
    buf, steps = _filled(T=7, fill=4)
    assert buf.size == len(buf) == 4 and buf.max_length == 7 and buf.num_envs == 3
    np.testing.assert_array_equal(buf.observations["state"], np.stack([s[0]["state"] for s in steps]))
    np.testing.assert_array_equal(buf.actions(), np.stack([s[1] for s in steps]))
    np.testing.assert_array_equal(buf.rewards(), np.stack([s[2] for s in steps]))
    np.testing.assert_array_equal(buf.log_probs(), np.stack([s[3] for s in steps]))
    np.testing.assert_array_equal(buf.values(), np.stack([s[5] for s in steps]))
    assert buf.dones().dtype == np.float32 and set(np.unique(buf.dones())) <= {0.0, 1.0}
    np.testing.assert_array_equal(buf.dones(), np.stack([s[4] for s in steps]).astype(np.float32))
    assert "extra" not in buf.observations


def test_zero_filled_and_clear_keeps_storage():
    buf = RolloutBuffer(4, 3, SPEC)
    assert buf.size == 0 and buf.rewards().shape == (0, 3)
    assert not buf._obs["state"].any() and not buf._step["reward"].any()
    buf, _ = _filled(T=4)
    storage = buf._obs["state"]
    buf.clear()
    assert buf.size == 0 and buf.observations["state"].shape == (0, 3, 11) and buf._obs["state"] is storage
    buf.add(*_step(np.random.default_rng(1)))
    assert buf.size == 1


def test_zero_copy_into_torch():
    torch = pytest.importorskip("torch")
    buf, _ = _filled(T=5)
    t = torch.from_numpy(buf.observations["state"])
    buf._obs["state"][0, 0, 0] = 123
    assert t[0, 0, 0].item() == 123
    assert torch.from_numpy(buf.rewards()).data_ptr() == buf._step["reward"].ctypes.data


@pytest.mark.parametrize("gamma", [1.0, 0.99, 0.5])
def test_compute_returns_matches_reference(gamma):
    buf, steps = _filled(T=9, seed=3)
    rewards, dones = [s[2].tolist() for s in steps], [s[4].tolist() for s in steps]
    np.testing.assert_allclose(buf.compute_returns(gamma), _ref_returns(rewards, dones, gamma), rtol=1e-5,
                               atol=1e-5)
    assert buf.size == 9  # a pure reduction: nothing consumed


def test_done_step_return_is_its_own_reward():
    buf = RolloutBuffer(3, 1, {}, value=False)
    for r, d in [(1.0, 0), (2.0, 1), (4.0, 0)]:
        buf.add({}, np.zeros(1, np.int64), np.array([r], np.float32), np.zeros(1, np.float32),
                np.array([d], np.uint8))
    np.testing.assert_allclose(buf.compute_returns(0.5)[:, 0], [2.0, 2.0, 4.0])


@pytest.mark.parametrize("gamma,lam", [(0.99, 0.95), (1.0, 1.0), (0.9, 0.0)])
def test_compute_gae_matches_reference(gamma, lam):
    buf, steps = _filled(T=8, seed=5)
    rng = np.random.default_rng(9)
    last_values = rng.normal(size=3).astype(np.float32)
    last_dones = np.array([1, 0, 0], np.uint8)
    rewards, values, dones = ([s[i].tolist() for s in steps] for i in (2, 5, 4))
    adv, ret = buf.compute_gae(last_values, last_dones, gamma, lam)
    ref_adv, ref_ret = _ref_gae(rewards, values, dones, last_values.tolist(), last_dones.tolist(), gamma, lam)
    np.testing.assert_allclose(adv, ref_adv, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ret, ref_ret, rtol=1e-5, atol=1e-5)


def test_gae_matches_sb3():
    sb3 = pytest.importorskip("stable_baselines3.common.buffers")
    torch = pytest.importorskip("torch")
    from gymnasium import spaces
    buf, steps = _filled(T=8, seed=11)
    last_values = np.random.default_rng(2).normal(size=3).astype(np.float32)
    last_dones = steps[-1][4]
    ref = sb3.RolloutBuffer(8, spaces.Box(-1, 1, (1,)), spaces.Discrete(5), device="cpu", gae_lambda=0.9,
                            gamma=0.97, n_envs=3)
    ref.rewards[:] = buf.rewards()
    ref.values[:] = buf.values()
    ref.episode_starts[1:] = buf.dones()[:-1]
    ref.compute_returns_and_advantage(torch.from_numpy(last_values), last_dones)
    adv, ret = buf.compute_gae(last_values, last_dones, 0.97, 0.9)
    np.testing.assert_allclose(adv, ref.advantages, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ret, ref.returns, rtol=1e-5, atol=1e-5)


def test_names_from_env():
    with polyenv.VectorGameEnv(2, seed=1, map_size=8, max_actions=16, num_threads=1) as env:
        batch = env.reset(seed=1)
        buf = RolloutBuffer(2, 2, ["map_tokens", "action_features"], env=env)
        buf.add(batch, np.zeros(2, np.int64), batch["reward"], np.zeros(2, np.float32), batch["terminated"])
        np.testing.assert_array_equal(buf.observations["map_tokens"][0], batch["map_tokens"])
        with pytest.raises(ValueError, match="unknown batch fields"):
            RolloutBuffer(2, 2, ["nope"], env=env)
        with pytest.raises(ValueError, match="needs env"):
            RolloutBuffer(2, 2, ["state"])
        full = env.batch_spec()
        assert RolloutBuffer(2, 2, full).observations.keys() == full.keys()


@pytest.mark.parametrize("args", [(0, 3, SPEC), (2, 0, SPEC), (2, 3, "state"), (2, 4, SPEC), (1.5, 3, SPEC),
                                  (2, 3, {"state": {"shape": (3,)}})])
def test_constructor_errors(args):
    with pytest.raises(ValueError):
        RolloutBuffer(*args)


def _mutations():
    yield "missing field", lambda a: a[0].pop("state")
    yield "obs dtype", lambda a: a[0].__setitem__("state", a[0]["state"].astype(np.int64))
    yield "obs shape", lambda a: a[0].__setitem__("state", a[0]["state"][:2])
    yield "batch type", lambda a: a.__setitem__(0, [1, 2])
    yield "action dtype", lambda a: a.__setitem__(1, a[1].astype(np.int32))
    yield "reward list", lambda a: a.__setitem__(2, a[2].tolist())
    yield "reward float64", lambda a: a.__setitem__(2, a[2].astype(np.float64))
    yield "log_prob shape", lambda a: a.__setitem__(3, a[3][:, None])
    yield "done bool", lambda a: a.__setitem__(4, a[4].astype(bool))
    yield "value missing", lambda a: a.pop(5)
    yield "value shape", lambda a: a.__setitem__(5, np.zeros(4, np.float32))


@pytest.mark.parametrize("name,mutate", list(_mutations()), ids=[n for n, _ in _mutations()])
def test_add_errors_write_nothing(name, mutate):
    buf, _ = _filled(T=5, fill=2)
    snapshot = {k: v.copy() for k, v in {**buf._obs, **buf._step}.items()}
    args = _step(np.random.default_rng(8))
    args[0] = dict(args[0])
    mutate(args)
    with pytest.raises(ValueError):
        buf.add(*args)
    assert buf.size == 2
    for k, v in {**buf._obs, **buf._step}.items():
        np.testing.assert_array_equal(v, snapshot[k])


def test_value_given_without_value_field():
    buf = RolloutBuffer(2, 3, SPEC, value=False)
    with pytest.raises(ValueError):
        buf.add(*_step(np.random.default_rng(0), value=True))
    assert buf.size == 0
    with pytest.raises(ValueError, match="value=True"):
        buf.compute_gae(np.zeros(3, np.float32), np.zeros(3, np.uint8), 0.9, 0.9)
    with pytest.raises(ValueError):
        buf.values()


def test_full_is_a_protocol_error():
    buf, _ = _filled(T=3)
    assert issubclass(RolloutBufferFullError, RuntimeError) and not issubclass(RolloutBufferFullError, ValueError)
    assert polyenv.RolloutBufferFullError is RolloutBufferFullError
    before = buf.rewards().copy()
    with pytest.raises(RolloutBufferFullError):
        buf.add(*_step(np.random.default_rng(1)))
    assert buf.size == 3
    np.testing.assert_array_equal(buf.rewards(), before)
    # malformed arguments are still a ValueError on a full buffer
    with pytest.raises(ValueError):
        buf.add({}, None, None, None, None, None)


@pytest.mark.parametrize("gamma", [0.0, -0.5, 1.01, float("nan"), True, "0.9", None])
def test_gamma_errors(gamma):
    buf, _ = _filled(T=3)
    before = buf.compute_returns(0.9).copy()
    with pytest.raises(ValueError):
        buf.compute_returns(gamma)
    with pytest.raises(ValueError):
        buf.compute_gae(np.zeros(3, np.float32), np.zeros(3, np.uint8), gamma, 0.9)
    np.testing.assert_array_equal(buf.compute_returns(0.9), before)


@pytest.mark.parametrize("bad", [dict(lam=1.5), dict(lam=-0.1), dict(last_values=np.zeros(3)),
                                 dict(last_values=np.zeros(2, np.float32)), dict(last_dones=np.zeros(3, np.int64)),
                                 dict(last_dones=[0, 0, 0])])
def test_gae_argument_errors(bad):
    buf, _ = _filled(T=3)
    kwargs = dict(last_values=np.zeros(3, np.float32), last_dones=np.zeros(3, np.uint8), gamma=0.9, lam=0.9)
    kwargs.update(bad)
    with pytest.raises(ValueError):
        buf.compute_gae(**kwargs)


def test_set_outcome():
    buf, steps = _filled(T=4, fill=2)
    reward, done = np.array([1, 2, 3], np.float32), np.array([0, 1, 0], np.uint8)
    buf.set_outcome(reward, done)
    np.testing.assert_array_equal(buf.rewards()[-1], reward)
    np.testing.assert_array_equal(buf.dones()[-1], [0.0, 1.0, 0.0])
    np.testing.assert_array_equal(buf.rewards()[0], steps[0][2])
    before = buf.rewards().copy(), buf.dones().copy()
    for bad in [(reward.astype(np.float64), done), (reward, done.astype(bool)), (reward[:2], done)]:
        with pytest.raises(ValueError):
            buf.set_outcome(*bad)
    np.testing.assert_array_equal(buf.rewards(), before[0])
    np.testing.assert_array_equal(buf.dones(), before[1])
    empty = RolloutBuffer(2, 3, SPEC)
    with pytest.raises(polyenv.RolloutProtocolError):
        empty.set_outcome(reward, done)
    assert issubclass(RolloutBufferFullError, polyenv.RolloutProtocolError)
