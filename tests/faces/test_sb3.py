"""SB3 on the native vector env: the to_sb3 adapter, the pointer policies, a short MaskablePPO run."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.vec_env import VecMonitor  # noqa: E402

import polyenv  # noqa: E402,F401
from polyenv.evaluation import evaluate, sb3_policy  # noqa: E402
from polyenv.train import TribesPointerPolicy, TribesPointerPPOPolicy  # noqa: E402
from polyenv.vector import TribesSB3VecEnv, to_sb3  # noqa: E402

ENV_ID = "polyenv/Tribes-v0"


@pytest.fixture(autouse=True)
def one_torch_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def make_vec(n=4, **kwargs):
    return gym.make_vec(ENV_ID, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)


@pytest.mark.parametrize("copy", [True, False])
def test_adapter_follows_the_vecenv_protocol(copy):
    venv = to_sb3(make_vec(3, opponent=None, map_size=6, max_turns=3, action_mode="rows", max_actions=32,
                           copy=copy))
    previous = None
    assert isinstance(venv, TribesSB3VecEnv) and venv.num_envs == 3
    assert is_masking_supported(venv)
    venv.seed(7)
    obs = venv.reset()
    assert venv.observation_space.contains({k: v[0] for k, v in obs.items()})
    masks = get_action_masks(venv)
    assert masks.shape == (3, 32) and masks.dtype == bool and masks[:, 0].all()
    assert np.array_equal(venv.env_method("action_masks", indices=[2]), masks[[2]])
    finished = 0
    rng = np.random.default_rng(0)
    for _ in range(400):
        masks = get_action_masks(venv)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        if previous is not None:  # what SB3 keeps: the previous observation, intact after the next step
            kept = {k: v.copy() for k, v in previous.items()}
        obs, rewards, dones, infos = venv.step(actions)
        if previous is not None:
            assert all(np.array_equal(previous[k], kept[k]) for k in kept)
        previous = obs
        assert len(infos) == 3 and rewards.dtype == np.float32
        for i in np.flatnonzero(dones):
            final = infos[i]["terminal_observation"]
            assert final["map_tokens"].shape == obs["map_tokens"].shape[1:] and rewards[i] in (-1.0, 1.0)
            assert infos[i]["TimeLimit.truncated"] is False
            assert infos[i]["is_success"] == (rewards[i] > 0)  # terminal reward: +1 win, -1 loss
            finished += 1
        assert all(not info for i, info in enumerate(infos) if not dones[i])
    assert finished > 0
    assert venv.get_attr("num_players") == [2, 2, 2] and venv.env_is_wrapped(object) == [False] * 3
    with pytest.raises(AttributeError):
        venv.env_method("describe_action", 0)
    venv.close()


def test_seeded_resets_are_reproducible():
    a, b = to_sb3(make_vec(2)), to_sb3(make_vec(2))
    a.seed(3)
    b.seed(3)
    assert np.array_equal(a.reset()["map_tokens"], b.reset()["map_tokens"])
    single, _ = gym.make(ENV_ID).reset(seed=4)
    a.seed(3)
    assert np.array_equal(a.reset()["map_tokens"][1], single["map_tokens"])


def test_adapter_rejects_other_envs():
    with pytest.raises(ValueError, match="TribesVectorEnv"):
        to_sb3(gym.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync"))


def test_short_maskable_ppo_run_end_to_end():
    """A few thousand steps of MaskablePPO with the pointer policy; then the model plays and evaluates."""
    kw = dict(map_size=8, action_mode="rows", max_actions=48)
    venv = VecMonitor(to_sb3(make_vec(8, opponent="random", reward="score_delta", **kw)))
    model = MaskablePPO(TribesPointerPolicy, venv, n_steps=128, batch_size=512, n_epochs=2, seed=0,
                        policy_kwargs=dict(features_extractor_kwargs=dict(tile_dim=16, row_dim=16, context_dim=32)))
    model.learn(2048)
    assert model.num_timesteps >= 2048
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=get_action_masks(venv), deterministic=True)
    assert get_action_masks(venv)[np.arange(8), actions].all()
    result = evaluate(sb3_policy(model), "random", games=4, **kw)
    assert result["games"] == 4 and set(result["per_seat"]) == {0, 1}
    assert result["per_seat"] == {0: (result["per_seat"][0][0], 2), 1: (result["per_seat"][1][0], 2)}
    assert result["wins"] == result["per_seat"][0][0] + result["per_seat"][1][0] and result["mean_length"] > 0
    assert evaluate(sb3_policy(model), "random", games=4, **kw) == result  # same seeds, deterministic policy
    venv.close()


@pytest.mark.parametrize("mask_logits", [True, False])
def test_plain_ppo_trains_on_the_native_batch(mask_logits):
    kw = dict(map_size=6, action_mode="rows", max_actions=32, invalid_action="end_turn", max_turns=4)
    venv = to_sb3(make_vec(4, opponent="random", **kw))
    model = PPO(TribesPointerPPOPolicy, venv, n_steps=64, batch_size=128, n_epochs=1, seed=0,
                policy_kwargs=dict(mask_logits=mask_logits))
    model.learn(256)
    obs = venv.reset()
    actions, _ = model.predict(obs, deterministic=True)
    masks = get_action_masks(venv)
    assert model.num_timesteps >= 256 and ((0 <= actions) & (actions < 32)).all()
    obs_tensor, _ = model.policy.obs_to_tensor(obs)
    with torch.no_grad():
        logits = model.policy.mlp_extractor.forward_actor(model.policy.extract_features(obs_tensor)).numpy()
    assert logits.shape == (4, 32) and (~masks).any()
    if mask_logits:  # logits of padding rows are -1e8: only legal rows are chosen
        assert (logits[~masks] == -1e8).all() and masks[np.arange(4), actions].all()
    else:  # the policy leaves padding rows to the environment (invalid_action="end_turn")
        assert (logits[~masks] > -1e6).all() and np.isfinite(logits).all()
    venv.step(actions)  # any row is accepted: padding ends the turn
    venv.close()


def test_plain_ppo_with_the_default_policy_in_global_mode():
    venv = to_sb3(make_vec(2, opponent="random", map_size=6, max_turns=2, invalid_action="end_turn"))
    model = PPO("MultiInputPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(64)
    assert model.num_timesteps >= 64


def test_pointer_policy_needs_rows_observations():
    venv = to_sb3(make_vec(2, map_size=6))
    with pytest.raises(ValueError, match="rows"):
        MaskablePPO(TribesPointerPolicy, venv)


def test_category_embedding_is_a_sum_of_per_column_embeddings():
    """The pointer policies' multi-hot linear layer equals one embedding lookup per column, summed."""
    import torch

    from polyenv.train.policies import _Categories

    categories = ((0, 3, 0), (2, 5, 1), (3, 4, 0))  # (column, values, shift): column 2 holds -1 for "none"
    layer = _Categories(categories, dim=6)
    x = torch.tensor([[2.0, 9.0, -1.0, 1.0], [0.0, 9.0, 3.0, 7.0]])  # 7 is clamped to the last value, 3
    table = layer.table.weight.T                                     # [3 + 5 + 4, 6]
    expected = torch.stack([table[2] + table[3 + 0] + table[8 + 1],
                            table[0] + table[3 + 4] + table[8 + 3]])
    torch.testing.assert_close(layer(x), expected)
