"""tribes_aec_v0: PettingZoo validators, turn order, rewards, elimination, fog, native extras."""
import pickle

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import polyenv  # noqa: E402
from polyenv import Bardur, GameEnv, Imperius, Oumaji  # noqa: E402
from polyenv.envs import tribes_aec_v0
from polyenv.viz.render import render_frame  # noqa: E402

SMALL = {2: 8, 3: 10, 4: 10, 8: 14}


def small_env(players, wrapped=True, **kw):
    kw.setdefault("map_size", SMALL.get(players))
    kw.setdefault("max_turns", 10)
    return (tribes_aec_v0.env if wrapped else tribes_aec_v0.raw_env)(players=players, **kw)


def random_action(env, agent, rng):
    legal = env.unwrapped.legal_actions()
    return int(legal[rng.integers(len(legal))])


# ---------------------------------------------------------------------------- PettingZoo validators
@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_api_test(players):
    api_test(small_env(players), num_cycles=150)


def test_api_test_default_board():
    api_test(tribes_aec_v0.env(players=2), num_cycles=100)


def test_seed_test():
    seed_test(lambda: small_env(2), num_cycles=200)
    seed_test(lambda: small_env(4), num_cycles=100)


def test_render_test():
    render_test(lambda render_mode=None: small_env(2, render_mode=render_mode))


def test_spaces_and_names():
    env = small_env(3, wrapped=False)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    A, T = env.game.action_space_size, env.game.num_tiles
    for agent in env.possible_agents:
        assert env.action_space(agent).n == A
        space = env.observation_space(agent)
        assert space["action_mask"].shape == (A,) and space["action_mask"].dtype == np.int8
        assert space["observation"]["map_tokens"].shape == (T, 23)
        assert space["observation"]["state"].shape == (11,)
        assert space.contains(env.observe(agent))
    assert env.observation_space("player_0") is not env.observation_space("player_1")


@pytest.mark.parametrize("players", [2, 4])
def test_observations_and_state_stay_in_the_engine_bounds(players):
    # The spaces carry the engine's real value ranges (envs/spaces.py), tighter than int32: random play
    # must stay inside them, for every agent's observation and for the full-map state.
    env = tribes_aec_v0.raw_env(players=players)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter(1500):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert env.observation_space(agent).contains(obs), agent
        assert env.state_space.contains(env.state())
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# ---------------------------------------------------------------------------- turn order and masks
def test_selection_follows_turn_order_and_masks():
    env = small_env(3, wrapped=False, max_turns=6)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    game = env.game
    for _ in range(400):
        if not env.agents:
            break
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        assert agent == f"player_{game.current_player}"
        legal = env.legal_actions()
        np.testing.assert_array_equal(legal, game.legal_actions())
        assert env.infos[agent] == {}, "infos are fixed-shape: legal ids only with info_legal_actions=True"
        for other in env.agents:
            mask = env.observe(other)["action_mask"]
            if other == agent:
                np.testing.assert_array_equal(np.flatnonzero(mask), legal)
            else:
                assert not mask.any(), "off-turn action mask must be all zeros"
        action = random_action(env, agent, rng)
        player_before = game.current_player
        env.step(action)
        if env.agents and not game.game_over and env.agent_selection != agent:
            # the selection moved on: the turn ended (End Turn played, or automatically) or the agent died
            assert action == 0 or game.current_player != player_before or env.terminations.get(env.agent_selection)
        someone_died = any(env.terminations[a] for a in env.agents)
        if action != 0 and not game.game_over and game.current_player == player_before and not someone_died:
            assert env.agent_selection == agent, "an agent keeps the selection for its whole turn"


def test_end_turn_passes_selection():
    env = small_env(2, wrapped=False)
    env.reset(seed=3)
    assert env.agent_selection == "player_0"
    env.step(0)
    assert env.agent_selection == "player_1" and env.game.current_player == 1


def test_illegal_action():
    raw = small_env(2, wrapped=False)
    raw.reset(seed=0)
    illegal = next(a for a in range(1, raw.game.action_space_size) if not raw.game.is_legal(a))
    before = raw.clone_state()
    with pytest.raises(ValueError):
        raw.step(illegal)
    assert raw.clone_state() == before
    with pytest.raises(ValueError):
        raw.step(None)
    wrapped = small_env(2)
    wrapped.reset(seed=0)
    wrapped.last()
    wrapped.step(illegal)  # TerminateIllegalWrapper: the game ends, -1 for the player who played it
    assert all(wrapped.terminations.values())
    assert wrapped.rewards["player_0"] == -1


# ---------------------------------------------------------------------------- whole games and rewards
def play_to_end(env, seed, check=None):
    """Random legal play until every agent is removed; returns (final cumulative rewards, eliminated order)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    eliminated = []
    while env.agents:
        agent = env.agent_selection
        _, reward, term, trunc, _ = env.last(observe=False)
        if term or trunc:
            total[agent] = reward
            if not env.game.game_over:
                eliminated.append(agent)
            env.step(None)
            assert agent not in env.agents
            continue
        if check is not None:
            check(env, agent)
        env.step(random_action(env, agent, rng))
    return total, eliminated


@pytest.mark.parametrize("players,map_size,max_turns", [
    (2, 8, 30), (3, 10, 20), (4, 10, 20), (5, 14, 8), (8, 14, 6), (12, 18, 4), (16, 20, 3)])
def test_random_games_to_the_end(players, map_size, max_turns):
    env = tribes_aec_v0.raw_env(players=players, map_size=map_size, max_turns=max_turns)
    for seed in range(3 if players <= 4 else 1):
        total, eliminated = play_to_end(env, seed)
        game = env.game
        assert game.game_over
        winner = f"player_{game.winner}"
        assert total[winner] == 1.0
        for agent, reward in total.items():
            if agent != winner:
                assert reward == pytest.approx(-1.0 / (players - 1))
        assert sum(total.values()) == pytest.approx(0.0, abs=1e-9)
        for agent in eliminated:
            assert not game.player(int(agent.split("_")[1]))["alive"]


def test_eliminations_in_random_games():
    """Over a few small 3-player games, eliminated players are removed mid-game with -1/(P-1)."""
    env = tribes_aec_v0.raw_env(players=3, map_size=8, max_turns=40)
    seen = 0
    for seed in range(12):
        total, eliminated = play_to_end(env, seed)
        seen += len(eliminated)
        assert sum(total.values()) == pytest.approx(0.0, abs=1e-9)
        for agent in eliminated:
            assert total[agent] == pytest.approx(-0.5)
    assert seen > 0, "no elimination happened in 12 random 3-player games on 8x8"


def capture_scenario():
    """3 players on a blank 8x8 board; p0's warrior stands on p2's only city, ready to capture it."""
    g = GameEnv.blank(8, (Bardur, Imperius, Oumaji))
    g.place_city(0, (0, 0), capital=True)
    g.place_city(1, (7, 7), capital=True)
    g.place_city(2, (0, 7), capital=True)
    g.place_unit(0, "warrior", (0, 7))
    return g


def test_elimination_the_pettingzoo_way():
    scenario = capture_scenario()
    env = tribes_aec_v0.raw_env(players=3, map_size=8)
    env.reset(seed=0)
    env.restore_state(scenario.to_bytes())
    assert env.agent_selection == "player_0"
    capture = env.game.action_id("capture", source=(0, 7))
    assert capture in env.legal_actions()
    env.step(capture)
    assert not env.game.player(2)["alive"] and not env.game.game_over
    assert env.agent_selection == "player_2"
    assert env.terminations["player_2"] and env.rewards["player_2"] == pytest.approx(-0.5)
    obs, reward, term, trunc, info = env.last()
    assert term and not trunc and reward == pytest.approx(-0.5) and not obs["action_mask"].any()
    with pytest.raises(ValueError):
        env.step(0)
    env.step(None)
    assert env.agents == ["player_0", "player_1"]
    assert "player_2" not in env.rewards and "player_2" not in env.infos
    assert env.agent_selection == "player_0"  # back to the capturer, whose turn goes on
    env.step(0)
    assert env.agent_selection == "player_1"
    env.step(0)
    assert env.agent_selection == "player_0"  # the eliminated player is skipped


def test_max_cycles_truncates_after_rounds():
    env = tribes_aec_v0.raw_env(players=3, map_size=10, max_cycles=2)
    env.reset(seed=4)
    start = env.game.turn
    rng = np.random.default_rng(1)
    selections = []
    while env.agents:
        agent = env.agent_selection
        _, reward, term, trunc, _ = env.last(observe=False)
        if term or trunc:
            if trunc:
                assert reward == 0.0
            env.step(None)
            continue
        selections.append((env.game.turn, agent))
        env.step(random_action(env, agent, rng))
    assert env.game.turn - start == 2 and not env.game.game_over
    assert {t for t, _ in selections} == {start, start + 1}
    for turn in (start, start + 1):  # every player had its turn in both rounds, then all were truncated
        assert {a for t, a in selections if t == turn} == set(env.possible_agents)


def test_max_cycles_argument():
    with pytest.raises(ValueError):
        tribes_aec_v0.raw_env(players=2, max_cycles=0)


def test_max_turns_ends_by_score():
    env = tribes_aec_v0.raw_env(players=2, map_size=8, max_turns=2)
    total, _ = play_to_end(env, 0)
    game = env.game
    assert game.game_over and game.turn == game.turn_limit + 1
    assert all(game.player(p)["alive"] for p in range(2)), "2 turns are too short to eliminate anyone"
    assert game.ranking()[0] == game.winner
    assert total[f"player_{game.winner}"] == 1.0


# ---------------------------------------------------------------------------- fog of war
def test_observe_never_leaks_hidden_tiles():
    env = tribes_aec_v0.raw_env(players=3, map_size=10, max_turns=15)
    env.reset(seed=11)
    rng = np.random.default_rng(2)
    game, P, checks = env.game, 3, 0
    for step in range(600):
        if not env.agents or game.game_over:
            break
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        if step % 40 == 0:
            full = game.full_map_numpy()  # owners relative to the current player
            cur = game.current_player
            for other in env.agents:
                p = int(other.split("_")[1])
                tokens = env.observe(other)["observation"]["map_tokens"]
                explored = np.array([game.tile(t)["explored"][p] for t in range(game.num_tiles)])
                np.testing.assert_array_equal(tokens[:, 0] == 1, explored)
                assert not tokens[~explored].any(), "an unexplored tile leaks information"
                seen = explored
                for col in (1, 3, 5, 9, 14, 15):  # terrain, building, road, city level, unit type, hp
                    np.testing.assert_array_equal(tokens[seen, col], full[seen, col])
                for col in (6, 8, 13):  # owners: relative to p vs relative to the current player
                    rel = tokens[seen, col]
                    absolute = np.where(rel > 0, (p + rel - 1) % P, -1)
                    rel_full = full[seen, col]
                    np.testing.assert_array_equal(absolute, np.where(rel_full > 0, (cur + rel_full - 1) % P, -1))
                assert not explored.all() or game.turn > 0
                checks += 1
        env.step(random_action(env, agent, rng))
    assert checks >= 10


def test_full_observability_shows_everything():
    env = tribes_aec_v0.raw_env(players=2, map_size=8, full_observability=True)
    env.reset(seed=0)
    tokens = env.observe("player_1")["observation"]["map_tokens"]
    assert (tokens[:, 0] == 1).all()


# ---------------------------------------------------------------------------- native extras
def test_clone_restore_state_round_trip():
    env = tribes_aec_v0.raw_env(players=2, map_size=8)
    env.reset(seed=9)
    rng = np.random.default_rng(0)
    for _ in range(15):
        env.step(random_action(env, env.agent_selection, rng))
    saved, agent = env.clone_state(), env.agent_selection
    obs_before = env.observe(agent)
    actions = []
    for _ in range(25):
        if env.game.game_over:
            break
        a = random_action(env, env.agent_selection, rng)
        actions.append(a)
        env.step(a)
    after = env.clone_state()
    env.restore_state(saved)
    assert env.agent_selection == agent
    obs = env.observe(agent)
    np.testing.assert_array_equal(obs["action_mask"], obs_before["action_mask"])
    np.testing.assert_array_equal(obs["observation"]["map_tokens"], obs_before["observation"]["map_tokens"])
    for a in actions:
        env.step(a)
    assert env.clone_state() == after
    with pytest.raises(ValueError):
        env.restore_state(GameEnv(seed=0, map_size=11).to_bytes())
    env.reset(seed=9)  # a reset after restore starts a fresh game of the env's config
    assert env.game.map_size == 8 and env.game.turn == 0


def test_extras_describe_dense_game():
    env = tribes_aec_v0.env(players=2, map_size=8)
    env.reset(seed=2)
    raw = env.unwrapped
    assert isinstance(raw.game, GameEnv)
    assert raw.describe_action(0) == raw.game.describe_action(0)
    dense = raw.dense_observation("player_0")
    ref = raw.game.observe(0)
    assert set(dense) == set(ref)
    np.testing.assert_array_equal(dense["action_id"], raw.legal_actions())
    np.testing.assert_array_equal(dense["map_tokens"], raw.observe("player_0")["observation"]["map_tokens"])
    assert raw.dense_observation("player_1")["action_id"].shape == (0,)
    assert raw.state().shape == (64, 23)


def test_seeded_reset_and_unseeded_sequence():
    a, b = tribes_aec_v0.raw_env(players=2, map_size=8), tribes_aec_v0.raw_env(players=2, map_size=8)
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.clone_state() == b.clone_state()
    a.reset()
    b.reset(seed=8)
    assert a.clone_state() == b.clone_state()


def test_players_as_tribes_and_levels():
    env = tribes_aec_v0.raw_env(players=[polyenv.Oumaji, "Vengir"], map_size=8)
    env.reset(seed=0)
    assert [env.game.player(p)["tribe"] for p in range(2)] == ["Oumaji", "Vengir"]
    level = str(pytest.importorskip("pathlib").Path(polyenv.__file__).parent / "levels" / "duel_11.csv")
    lv = tribes_aec_v0.raw_env(levels=[level])
    lv.reset(seed=0)
    assert lv.game.map_size == 11 and lv.num_agents == lv.game.num_players
    with pytest.raises(ValueError):
        tribes_aec_v0.raw_env(players=1)
    with pytest.raises(ValueError):
        tribes_aec_v0.raw_env(players=2, render_mode="video")


def test_default_map_sizes():
    env = tribes_aec_v0.raw_env()
    assert env.num_agents == 0 and len(env.possible_agents) == 4
    env.reset(seed=0)
    assert env.game.map_size == 14 and env.num_agents == 4


def test_ezpickle_round_trip():
    env = tribes_aec_v0.raw_env(players=3, map_size=10, max_turns=5)
    clone = pickle.loads(pickle.dumps(env))
    clone.reset(seed=1)
    env.reset(seed=1)
    assert clone.clone_state() == env.clone_state()


def test_render_modes():
    for mode, kind in (("ansi", str), ("rgb_array", np.ndarray)):
        env = tribes_aec_v0.raw_env(players=2, map_size=8, render_mode=mode)
        env.reset(seed=0)
        out = env.render()
        assert isinstance(out, kind)
        if mode == "rgb_array":
            assert out.shape[1:] == (8 * 32, 3) and out.shape[0] > 8 * 32 and out.dtype == np.uint8
            np.testing.assert_array_equal(out, render_frame(env.game, None, 32))  # header over the map
        else:
            assert out == env.game.render("ansi")
