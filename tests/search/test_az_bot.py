"""The trained ``az`` player: the shipped weights, the native network, the bot in every API
(without torch), determinism and fog fairness."""
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from polyenv import GameEnv, VectorGameEnv, _core, az_network, bots
from polyenv._botspec import parse_bot

ROOT = Path(__file__).resolve().parents[2]


def test_the_package_ships_small_weights():
    path = az_network.SHIPPED_WEIGHTS
    assert path.is_file()
    assert path.stat().st_size <= 2 * 1024 * 1024
    info = _core.az_info(az_network.shipped())
    assert info["value_size"] == az_network.VALUE_SIZE and info["parameters"] > 1000
    # The file carries the feature spec this package reads (one definition for both implementations).
    tensors = az_network.read_weights(path)
    for name, value in az_network.feature_tensors().items():
        assert np.array_equal(tensors[name], value), name


def test_bot_names_parse():
    shipped = az_network.shipped()
    assert parse_bot("az") == (3, bots.DEFAULT_AZ_SIMULATIONS, shipped)
    assert parse_bot("az:1") == (3, 1, shipped)
    assert parse_bot(f"az:7@{az_network.SHIPPED_WEIGHTS}") == (3, 7, shipped)  # the same file is loaded once
    assert parse_bot("mcts:5") == (2, 5, -1)
    for bad in ("az:0", "az:x", "az@", "greedy@x", "az:3@/no/such/file.paz", "azz"):
        with pytest.raises(ValueError):
            parse_bot(bad)


def test_malformed_weight_files_are_rejected(tmp_path):
    good = az_network.SHIPPED_WEIGHTS.read_bytes()
    for name, data in (("truncated", good[:-7]), ("magic", b"X" + good[1:]), ("empty", b"")):
        with pytest.raises(ValueError):
            _core.az_register(data)
    tensors = az_network.read_weights(az_network.SHIPPED_WEIGHTS)
    broken = dict(tensors, row2_w=tensors["row2_w"][:-1])            # a wrong shape
    az_network.write_weights(tmp_path / "shape.paz", broken)
    missing = {k: v for k, v in tensors.items() if k != "value2_b"}
    az_network.write_weights(tmp_path / "missing.paz", missing)
    nan = dict(tensors, tile_b=np.full_like(tensors["tile_b"], np.nan))
    az_network.write_weights(tmp_path / "nan.paz", nan)
    for f in ("shape", "missing", "nan"):
        with pytest.raises(ValueError):
            az_network.load(tmp_path / f"{f}.paz")


def test_weight_file_round_trip(tmp_path):
    tensors = az_network.read_weights(az_network.SHIPPED_WEIGHTS)
    az_network.write_weights(tmp_path / "copy.paz", tensors)
    assert (tmp_path / "copy.paz").read_bytes() == az_network.SHIPPED_WEIGHTS.read_bytes()


def positions(full_observability, moves=(0, 9, 40, 77)):
    game = GameEnv(seed=11, map_size=11, full_observability=full_observability)
    for k in range(max(moves) + 1):
        if k in moves:
            yield game
        if game.game_over:
            return
        bots.play(game, "greedy")


@pytest.mark.parametrize("full_observability", [True, False])
def test_native_forward_on_a_game_equals_the_batch_forward(full_observability):
    index = az_network.shipped()
    for game in positions(full_observability):
        ids, logits, values = _core.az_evaluate(game.native, index)
        obs = game.observe(include_combat_preview=True)   # the rows the player encodes
        assert np.array_equal(ids, obs["action_id"])
        batch_logits, batch_values = _core.az_forward(index, obs["map_tokens"][None], obs["state"][None],
                                                      obs["action_features"][None],
                                                      np.array([len(ids)], np.int32))
        assert np.array_equal(batch_logits[0], logits) and np.array_equal(batch_values[0], values)
        assert np.all(np.abs(values) <= 1)


def test_az_forward_validates_its_arguments():
    index = az_network.shipped()
    obs = GameEnv(seed=1).observe()
    args = [obs["map_tokens"][None], obs["state"][None], obs["action_features"][None],
            np.array([obs["legal_action_count"]], np.int32)]
    for k, bad in ((0, obs["map_tokens"][None].astype(np.int64)), (1, obs["state"]), (3, np.array([10**6], np.int32)),
                   (0, obs["map_tokens"][None, :-1])):
        wrong = list(args)
        wrong[k] = bad
        with pytest.raises(ValueError):
            _core.az_forward(index, *wrong)
    with pytest.raises(ValueError):
        _core.az_forward(10**6, *args)


def play_game(bot_a, bot_b, seed, full_observability=True):
    game = GameEnv(seed=seed, map_size=11, full_observability=full_observability)
    actions = []
    while not game.game_over and len(actions) < 400:
        actions.append(bots.play(game, bot_a if game.current_player == 0 else bot_b))
    return actions, game.winner


@pytest.mark.parametrize("bot", ["az:1", "az:6"])
def test_az_is_deterministic(bot):
    a = play_game(bot, "greedy", 5)
    assert a == play_game(bot, "greedy", 5)
    game = GameEnv(seed=8, full_observability=True)
    for _ in range(30):
        bots.play(game, "greedy")
    assert len({bots.choose(game, bot, seed=s) for s in (None, 1, 2)}) >= 1  # any seed: a legal choice
    assert bots.choose(game, bot) == bots.choose(game.clone(), bot)


def test_az_policy_plays_its_best_logit():
    index = az_network.shipped()
    for game in positions(True):
        ids, logits, _ = _core.az_evaluate(game.native, index)
        assert bots.choose(game, "az:1") == ids[int(np.argmax(logits))]


def test_under_fog_az_searches_its_own_belief_world():
    # Under fog "az:N" roots its tree in the baseline-belief world of its own view: that world shows
    # the player exactly its live observation, and searching it changes some choices from "az:1".
    built = differ = 0
    for game in positions(False, moves=tuple(range(0, 120, 6))):
        ok, tokens, seen = _core._testing.observer_world(game.native)
        obs = game.observe()["map_tokens"]
        visible = obs[:, 0] == 1
        assert np.array_equal(tokens[visible], obs[visible])          # visible rows are never changed
        assert (tokens[~visible, 0] == 0).all()
        if ok:
            built += 1
            assert np.array_equal(seen, obs)                            # the world shows what the player sees
        differ += bots.choose(game, "az:16") != bots.choose(game, "az:1")
    assert built >= 15 and differ > 0


def test_the_native_baseline_belief_is_the_python_one():
    # players/observer_world.cpp and polyenv.selfplay.beliefs.empty_world_completion (+ fit_beliefs)
    # build the same completed view, position by position, while a pool game and a GameEnv game of the
    # same level and seed play the same actions.
    from polyenv import SelfPlayPool
    from polyenv.selfplay.beliefs import empty_world_completion
    level = str(ROOT / "polyenv" / "levels" / "duel_11.csv")
    compared = 0
    for seed in range(17, 40):
        pool = SelfPlayPool(num_envs=1, seed=seed, level=level, max_actions=512, num_threads=1)
        game = GameEnv(seed=seed, level=level)
        live = pool.reset(seed=seed)
        try:
            while not game.game_over:
                assert np.array_equal(live["map_tokens"][0], game.observe()["map_tokens"])   # the same game
                python = empty_world_completion(live["map_tokens"], request=live, pool=pool)[0]
                _, native, _ = _core._testing.observer_world(game.native)
                assert np.array_equal(native, python)
                compared += 1
                action = bots.choose(game, "greedy")
                game.step(action)
                live = pool.step(np.array([action], np.int32))
        finally:
            pool.close()
        if compared >= 300:
            break
    assert compared >= 300


def test_fog_twins_get_the_same_decision():
    from fog_pairs import hidden_edit_pairs
    index, compared = az_network.shipped(), 0
    for seed in (3, 4, 5):
        for a, b, edited in hidden_edit_pairs(seed):
            if edited == 0 or a.current_player != 0:
                continue
            ea, eb = _core.az_evaluate(a.native, index), _core.az_evaluate(b.native, index)
            assert all(np.array_equal(x, y) for x, y in zip(ea, eb))
            assert bots.choose(a, "az:8") == bots.choose(b, "az:8")
            compared += 1
    assert compared > 0


def test_vector_opponent_az_is_the_same_for_any_thread_count():
    runs = []
    for threads in (1, 2):
        env = VectorGameEnv(4, seed=21, opponent="az:4", num_threads=threads, full_observability=True,
                            max_actions=64)
        batch = env.reset(seed=21)
        trace = []
        for _ in range(40):
            rows = np.zeros(4, np.int64)                  # the learner ends its turn at once
            batch = env.step(batch["action_id"][np.arange(4), rows])
            trace.append(batch["map_tokens"].copy())
        env.close()
        runs.append(np.stack(trace))
    assert np.array_equal(runs[0], runs[1])


def test_az_beats_random():
    # A cheap sanity check of the shipped network (not a strength measurement).
    wins = sum(play_game("az:1", "random", seed)[1] == 0 for seed in (1, 2))
    wins += sum(play_game("random", "az:1", seed)[1] == 1 for seed in (3, 4))
    assert wins >= 3


NO_TORCH = textwrap.dedent("""
    import sys
    sys.modules["torch"] = None          # any import of torch now fails
    import numpy as np
    import gymnasium as gym
    import polyenv
    from polyenv import GameEnv, VectorGameEnv, bots
    from polyenv.evaluation import tournament
    game = GameEnv(seed=1, map_size=11)
    for _ in range(20):
        bots.play(game, "az")
    bots.play_turn(game, "az:4")
    env = VectorGameEnv(2, seed=3, opponent="az", max_actions=64)
    batch = env.reset()
    for _ in range(5):
        batch = env.step(batch["action_id"][:, 0])
    g = gym.make("polyenv/Tribes-v0", map_size=11, opponent="az:2")
    obs, info = g.reset(seed=4)
    obs, reward, term, trunc, info = g.step(int(np.flatnonzero(obs["action_mask"])[0]))
    result = tournament(["az:1", "random"], games=2, seed=5)
    assert result.games.sum() == 4
    try:
        import torch  # noqa: F401
        raise SystemExit("torch was importable")
    except ImportError:
        pass
    print("ok")
""")


def test_az_plays_in_every_api_without_torch():
    out = subprocess.run([sys.executable, "-c", NO_TORCH], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().endswith("ok")


def test_pettingzoo_example_takes_az_without_torch():
    code = ("import runpy, sys; sys.modules['torch'] = None; sys.argv = ['pettingzoo_selfplay.py', '--players', '2', "
            "'--games', '1', '--policy', 'az:2']; runpy.run_path('examples/pettingzoo_selfplay.py', run_name='__main__')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "policy az:2" in out.stdout


def test_cli_play_and_tournament_take_az(tmp_path):
    common = dict(capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                  timeout=300)
    play = subprocess.run([sys.executable, "-c", "import sys; sys.modules['torch'] = None; from polyenv.cli import main;"
                           " raise SystemExit(main(['play', '--bots', 'az:2,greedy', '--seed', '3', '--render', 'none', '--final-only']))"],
                          **common)
    assert play.returncode == 0, play.stderr[-2000:]
    tour = subprocess.run([sys.executable, "-m", "polyenv", "tournament", "--players", "az:1,random", "--games", "2",
                           "--full-observability", "--out", str(tmp_path)], **common)
    assert tour.returncode == 0, tour.stderr[-2000:]
    assert "az:1" in tour.stdout


def test_the_root_policy_is_the_players_search(tmp_path):
    # _az_root_policy (the training target) runs the search the bot plays: the same choice without
    # noise, a distribution over the legal rows, and the policy's softmax when nothing is searched.
    index = az_network.shipped()
    for game in positions(True, moves=(3, 30, 60)):
        n = int(game.observe()["legal_action_count"])
        chosen, policy = _core._az_root_policy(game.native, index, 16, 0.0)
        assert chosen == bots.choose(game, "az:16")
        assert policy.shape == (n,) and abs(policy.sum() - 1) < 1e-5 and (policy >= 0).all()
        _, alone = _core._az_root_policy(game.native, index, 1, 0.0)
        _, logits, _ = _core.az_evaluate(game.native, index)
        soft = np.exp(logits - logits.max())
        assert np.allclose(alone, soft / soft.sum(), atol=1e-6)
    with pytest.raises(ValueError):
        _core._az_root_policy(GameEnv(seed=1).native, index, 4, -1.0)


def test_leaf_value_mix_weighs_the_value_head_against_the_heuristic(tmp_path):
    tensors = az_network.read_weights(az_network.SHIPPED_WEIGHTS)
    rng = np.random.default_rng(0)
    other_value = dict(tensors, value1_w=(tensors["value1_w"] + rng.normal(0, 0.5, tensors["value1_w"].shape)
                                          ).astype(np.float32))
    for name, mix, t in (("a", 1.0, tensors), ("b", 1.0, other_value), ("c", 0.0, tensors), ("d", 0.0, other_value)):
        az_network.write_weights(tmp_path / f"{name}.paz", dict(t, leaf_value_mix=np.array([mix], np.float32)))
    games = [g.clone() for g in positions(True, moves=tuple(range(0, 90, 9)))]
    choose = {k: [bots.choose(g, f"az:16@{tmp_path / k}.paz") for g in games] for k in "abcd"}
    assert choose["a"] == choose["b"]            # the heuristic alone: the value head is not read
    assert choose["c"] != choose["d"]            # the value head alone: it decides
    for bad in (np.array([1.5], np.float32), np.array([0.5, 0.5], np.float32), np.array([1], np.int32)):
        az_network.write_weights(tmp_path / "bad.paz", dict(tensors, leaf_value_mix=bad))
        with pytest.raises(ValueError):
            az_network.load(tmp_path / "bad.paz")
