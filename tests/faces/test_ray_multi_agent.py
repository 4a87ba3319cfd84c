"""polyenv.distributed.TribesMultiAgentEnv with RLlib 2.60 (the [ray] extra), one local Ray instance per module."""
import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="needs the [ray] extra: pip install torch==2.13.0 '.[ray]'")
pytest.importorskip("ray.rllib", reason="needs RLlib and torch: pip install torch==2.13.0 '.[ray]'")

from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from polyenv.distributed import (  # noqa: E402
    ENV_NAME, TribesMultiAgentEnv, ppo_config, register_env, win_rate_vs_random,
)
from polyenv.envs import tribes_aec_v0  # noqa: E402

SMALL = {"map_size": 8, "max_turns": 4}


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def play_random(env, seed, rng):
    """Plays one game with uniformly random legal actions; returns the list of step results."""
    obs, _ = env.reset(seed=seed)
    steps = []
    while True:
        (agent, o), = obs.items()
        assert agent == env.possible_agents[env.game.current_player]
        assert env.observation_spaces[agent].contains(o)
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        result = env.step({agent: action})
        steps.append((agent, action) + result)
        obs, _, terminateds, truncateds, _ = result
        if terminateds["__all__"] or truncateds["__all__"]:
            return steps


@pytest.mark.parametrize("action_mode", ["rows", "global"])
@pytest.mark.parametrize("players", [2, 4])
def test_rllib_env_checker(players, action_mode):
    # The checker steps an unmasked random action: "end_turn" plays End Turn for an illegal one.
    env = TribesMultiAgentEnv(dict(SMALL, players=players, action_mode=action_mode, invalid_action="end_turn"))
    check_multiagent_environments(env)
    assert env.possible_agents == [f"player_{i}" for i in range(players)]


@pytest.mark.parametrize("players", [2, 3])
def test_turn_based_play_only_acting_agent_observes_and_rewards_are_zero_sum(players):
    env = TribesMultiAgentEnv(dict(SMALL, players=players))
    steps = play_random(env, seed=3, rng=np.random.default_rng(0))
    agent, action, obs, rewards, terminateds, truncateds, infos = steps[-1]
    assert obs == {} and terminateds["__all__"] and not truncateds["__all__"]
    total = {}
    for _, _, _, r, _, _, _ in steps:
        for a, v in r.items():
            total[a] = total.get(a, 0.0) + v
    winner = env.game.winner
    if winner >= 0:
        assert total[f"player_{winner}"] == 1.0
        assert sum(total.values()) == pytest.approx(0.0)
    assert env.agents == []


def test_global_observations_match_the_pettingzoo_env():
    """Same seed and actions: the RLlib env shows what the AEC env shows the acting agent (fog of war included)."""
    env = TribesMultiAgentEnv(dict(SMALL, players=3, action_mode="global"))
    aec = tribes_aec_v0.raw_env(players=3, **SMALL)
    obs, _ = env.reset(seed=11)
    aec.reset(seed=11)
    rng = np.random.default_rng(1)
    for _ in range(60):
        (agent, o), = obs.items()
        assert agent == aec.agent_selection
        ref = aec.observe(agent)
        np.testing.assert_array_equal(o["observations"]["map_tokens"], ref["observation"]["map_tokens"])
        np.testing.assert_array_equal(o["observations"]["state"], ref["observation"]["state"])
        np.testing.assert_array_equal(o["action_mask"], ref["action_mask"])
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        obs, _, terminateds, _, _ = env.step({agent: action})
        aec.step(action)
        if terminateds["__all__"]:
            break


def test_rows_actions_decode_to_the_rows_global_ids():
    env = TribesMultiAgentEnv(dict(SMALL, action_mode="rows", max_actions=16))
    obs, _ = env.reset(seed=5)
    (agent, o), = obs.items()
    row = int(np.flatnonzero(o["action_mask"])[-1])
    expected = env.game.clone()
    expected.step(int(o["observations"]["action_id"][row]))
    env.step({agent: row})
    assert env.game.to_bytes() == expected.to_bytes()


def test_bad_input_raises_and_changes_nothing():
    with pytest.raises(ValueError, match="unknown env_config"):
        TribesMultiAgentEnv({"player": 2})
    with pytest.raises(ValueError, match="action_mode"):
        TribesMultiAgentEnv({"action_mode": "ids"})
    with pytest.raises(ValueError, match="max_actions"):
        TribesMultiAgentEnv({"max_actions": 0})
    env = TribesMultiAgentEnv(dict(SMALL))
    with pytest.raises(RuntimeError, match="reset"):
        env.step({"player_0": 0})
    obs, _ = env.reset(seed=2)
    (agent, o), = obs.items()
    other = "player_1" if agent == "player_0" else "player_0"
    before = env.game.to_bytes()
    illegal = int(np.flatnonzero(o["action_mask"] == 0)[0])
    for bad in ({other: 0}, {agent: 0, other: 0}, {}, {agent: illegal}, {agent: -1}, {agent: 10**6}, {agent: 1.5}):
        with pytest.raises(ValueError):
            env.step(bad)
        assert env.game.to_bytes() == before
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-1)


def test_max_cycles_truncates_every_agent_with_a_last_observation():
    env = TribesMultiAgentEnv(dict(map_size=8, players=3, max_cycles=1))
    obs, _ = env.reset(seed=4)
    while True:
        (agent, o), = obs.items()
        obs, rewards, terminateds, truncateds, _ = env.step({agent: 0})  # End Turn
        if truncateds["__all__"]:
            break
    assert set(obs) == {"player_0", "player_1", "player_2"} == set(truncateds) - {"__all__"}
    assert all(not o["action_mask"].any() for o in obs.values())
    with pytest.raises(RuntimeError, match="reset"):
        env.step({agent: 0})


def test_register_env_makes_the_env_by_name(local_ray):
    from ray.tune.registry import ENV_CREATOR, _global_registry

    assert register_env() == ENV_NAME
    env = _global_registry.get(ENV_CREATOR, ENV_NAME)({"players": 4, "map_size": 8})
    assert isinstance(env, TribesMultiAgentEnv) and env.num_players == 4


def test_one_ppo_iteration_with_a_shared_masked_policy(local_ray):
    """PPO (new API stack) trains one iteration on a remote env runner; masked logits never pick an illegal move."""
    config = (ppo_config(dict(SMALL, players=2))  # invalid_action="raise": an illegal sample would fail the run
              .env_runners(num_env_runners=1, rollout_fragment_length=128, num_cpus_per_env_runner=1)
              .training(train_batch_size_per_learner=128, minibatch_size=64, num_epochs=1))
    algo = config.build_algo()
    try:
        result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled"] >= 128
        learner = result["learners"]["shared"]
        assert np.isfinite(learner["total_loss"]) and learner["num_module_steps_trained"] > 0
        score = win_rate_vs_random(algo.get_module("shared"), dict(SMALL, players=2), games=2)
        assert score["games"] == 2 and 0 <= score["wins"] + score["draws"] <= 2
    finally:
        algo.stop()


def test_rllib_pettingzoo_wrapper_runs_the_aec_env_with_action_masks():
    """RLlib's own PettingZooEnv wrapper around tribes_aec_v0 (issue 18): turn-based dicts, masks honoured."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    env = PettingZooEnv(tribes_aec_v0.env(players=3, **SMALL))
    obs, _ = env.reset(seed=8)
    rng = np.random.default_rng(2)
    for _ in range(2000):
        assert len(obs) == 1
        (agent, o), = obs.items()
        assert env.observation_spaces[agent].contains(o)
        legal = np.flatnonzero(o["action_mask"])
        np.testing.assert_array_equal(legal, env.env.unwrapped.legal_actions())
        obs, rewards, terminateds, truncateds, _ = env.step({agent: int(rng.choice(legal))})
        if terminateds["__all__"]:
            break
    assert terminateds["__all__"] and sum(rewards.values()) == pytest.approx(0.0)


def test_an_eliminated_player_is_terminated_at_once_and_the_game_goes_on():
    from polyenv import GameEnv

    scenario = GameEnv.blank(8, (2, 1, 0), terrain="plain")  # player 2's only city is capturable by player 0
    for player, tile in ((0, 0), (1, 63), (2, 7)):
        scenario.place_city(player, tile, capital=True)
    scenario.place_unit(0, "warrior", 7)
    env = TribesMultiAgentEnv({"players": 3, "map_size": 8})
    env.reset(seed=0)
    env._game = scenario  # white-box: play the hand-made position through the env
    obs = env._observe_current()
    capture = scenario.action_id("capture", source=7)
    row = int(np.flatnonzero(obs["player_0"]["observations"]["action_id"] == capture)[0])
    obs, rewards, terminateds, truncateds, _ = env.step({"player_0": row})
    assert rewards == {"player_0": 0.0, "player_2": -0.5}
    assert terminateds == {"__all__": False, "player_2": True} and not truncateds["__all__"]
    assert list(obs) == ["player_0"] and env.agents == ["player_0", "player_1"]
