"""The az network's two implementations agree (torch == native), the replay storage keeps what
the network reads, and the AlphaZero loop runs, checkpoints and resumes."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from polyenv import GameEnv, MctsPool, _core, az_network, bots  # noqa: E402
from polyenv.train.alphazero import AlphaZeroConfig, leaf_values, train  # noqa: E402
from polyenv.train.az_net import AzNet, load_weights, pack_rows, segment_log_softmax  # noqa: E402
from polyenv.train.replay import ChunkBuilder, ReplayBuffer, compact_tokens, relative_values  # noqa: E402

KEYS = ("map_tokens", "state", "action_features", "action_mask")


def random_net(seed=0, **widths):
    torch.manual_seed(seed)
    net = AzNet(**widths)
    with torch.no_grad():
        for p in net.parameters():
            p.add_(torch.randn_like(p) * 0.2)   # non-zero biases everywhere
    return net.eval()


def leaf_batches(players=(2, 1), map_size=11, rounds=3):
    pool = MctsPool(num_envs=6, seed=9, map_size=map_size, players=players, max_actions=256,
                    require_all_actions=False, max_pending_leaves_per_tree=2, num_threads=1)
    rng = np.random.default_rng(0)
    live = pool.reset()
    for move in range(25):
        for _ in range(rounds):
            leaves = pool.select_leaves()
            if move % 8 == 7 and len(leaves["leaf_id"]):
                yield leaves
            L = len(leaves["leaf_id"])
            pool.expand_and_backup(leaves["leaf_id"], np.zeros((L, 256), np.float32),
                                   np.zeros((L,) if len(players) == 2 else (L, len(players)), np.float32))
        root = pool.root_policy()
        rows = rng.integers(0, root["action_mask"].sum(1))
        live = pool.step_checked(root["action_id"][np.arange(6), rows], root["state_id"])
    pool.close()


@pytest.mark.parametrize("players,map_size", [((2, 1), 11), ((2, 1, 3), 14)])
def test_torch_forward_equals_native_forward_on_leaf_batches(tmp_path, players, map_size):
    net = random_net(1)
    net.export(tmp_path / "net.paz")
    index = az_network.load(tmp_path / "net.paz")
    seen = 0
    for leaves in leaf_batches(players, map_size):
        logits, values = net.dense_logits({k: leaves[k] for k in KEYS})
        native_logits, native_values = _core.az_forward(index, leaves["map_tokens"], leaves["state"],
                                                        leaves["action_features"], leaves["legal_action_count"])
        mask = leaves["action_mask"].astype(bool)
        assert np.allclose(logits[mask], native_logits[mask], atol=1e-4, rtol=1e-4)
        assert np.allclose(values, native_values, atol=1e-4)
        seen += mask.sum()
    assert seen > 100


@pytest.mark.parametrize("full_observability", [True, False])
def test_torch_forward_equals_the_native_player_view(tmp_path, full_observability):
    net = random_net(2, tile_dim=16, layers=2, global_dim=24, row_dim=20, value_hidden=12)
    net.export(tmp_path / "small.paz")
    index = az_network.load(tmp_path / "small.paz")
    game = GameEnv(seed=4, full_observability=full_observability)
    for k in range(120):
        if k % 30 == 0:
            ids, native_logits, native_values = _core.az_evaluate(game.native, index)
            obs = game.observe(include_combat_preview=True)   # the rows the player encodes
            logits, values = net.dense_logits({key: obs[key][None] for key in KEYS})
            assert np.array_equal(obs["action_id"], ids)
            assert np.allclose(logits[0], native_logits, atol=1e-4, rtol=1e-4)
            assert np.allclose(values[0], native_values, atol=1e-4)
        bots.play(game, "greedy")


def test_export_and_load_round_trip(tmp_path):
    net = random_net(3)
    net.export(tmp_path / "a.paz")
    again = load_weights(tmp_path / "a.paz")
    obs = GameEnv(seed=2).observe()
    batch = {k: obs[k][None] for k in KEYS}
    assert np.array_equal(net.dense_logits(batch)[0], again.dense_logits(batch)[0])


def test_compact_tokens_keep_what_the_network_reads():
    net = random_net(4)
    game = GameEnv(seed=6, full_observability=True)
    for _ in range(200):
        bots.play(game, "greedy")
    obs = game.observe()
    tokens = obs["map_tokens"].copy()
    tokens[:, 10] = np.where(tokens[:, 10] >= 0, 500, tokens[:, 10])   # populations far beyond int8
    feats, position = pack_rows(obs["action_features"][None], obs["action_mask"][None])
    a = net(tokens[None], obs["state"][None], feats, position)
    b = net(compact_tokens(tokens)[None], obs["state"][None], feats, position)
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])


def test_segment_log_softmax_matches_a_dense_softmax():
    logits = torch.tensor([1.0, 2.0, 3.0, -1.0, 0.5])
    position = torch.tensor([0, 0, 0, 1, 1])
    out = segment_log_softmax(logits, position, 2)
    assert torch.allclose(out[:3], torch.log_softmax(logits[:3], 0))
    assert torch.allclose(out[3:], torch.log_softmax(logits[3:], 0))


def test_value_conventions():
    tv = np.array([[1.0, -0.5, -0.5]], np.float32)
    assert relative_values(tv, np.array([1]))[0, :3].tolist() == [-0.5, -0.5, 1.0]
    rel = np.zeros((2, 16), np.float32)
    rel[:, :3] = [[0.9, 0.1, -0.2], [0.3, -0.4, 0.5]]
    glob = leaf_values(rel, np.array([0, 2]), 3)
    assert np.allclose(glob, [[0.9, 0.1, -0.2], [-0.4, 0.5, 0.3]])
    assert leaf_values(rel, np.array([0, 1]), 2).tolist() == pytest.approx([0.9, 0.3])


def test_replay_buffer_samples_whole_positions():
    builder = ChunkBuilder(2)
    obs = GameEnv(seed=1).observe()
    n = int(obs["legal_action_count"])
    for env in (0, 1):
        for _ in range(3):
            builder.add(env, obs["map_tokens"], obs["state"], obs["action_features"][:n], np.full(n, 1 / n), env)
    buffer = ReplayBuffer(4)
    buffer.add(builder.finish(0, np.array([1.0, -1.0], np.float32)))
    buffer.add(builder.finish(1, np.array([1.0, -1.0], np.float32)))
    assert len(buffer) == 6 and buffer.added == 6
    b = buffer.sample(5, np.random.default_rng(0))
    assert b["features"].shape == (5 * n, 17) and torch.allclose(b["policy"].sum(), torch.tensor(5.0))
    assert set(b["values"][:, 0].tolist()) <= {1.0, -1.0} and b["value_mask"].sum() == 10
    buffer.add(builder.finish(0, np.array([0.0, 0.0], np.float32)))       # an empty game adds nothing
    restored = ReplayBuffer(4)
    restored.load_state_dict(buffer.state_dict())
    assert len(restored) == len(buffer) and restored.added == buffer.added


def small_config(out, **kw):
    return AlphaZeroConfig(out_dir=str(out), minutes=kw.pop("minutes", 0.15), envs=4, simulations=3, max_actions=256,
                           batch=8, buffer=2000, checkpoint_minutes=0.05, progress=False, publish_every=2,
                           net=dict(tile_dim=8, layers=1, global_dim=8, row_dim=8, value_hidden=8), **kw)


def test_training_smoke_checkpoint_and_resume(tmp_path):
    cfg = small_config(tmp_path, expert_games=1, expert_simulations=20, expert_workers=1)
    paz = train(cfg)
    assert paz.is_file() and (tmp_path / "latest.pt").is_file() and (tmp_path / "replay.npz").is_file()
    first = torch.load(tmp_path / "latest.pt", weights_only=False)["counters"]
    assert first["expert_games"] == 1 and first["selfplay_positions"] > 0
    assert bots.choose(GameEnv(seed=3), f"az:2@{paz}") >= 0          # the native bot plays the checkpoint
    train(small_config(tmp_path, minutes=0.3, expert_games=1), resume=True)
    second = torch.load(tmp_path / "latest.pt", weights_only=False)["counters"]
    assert second["elapsed"] > first["elapsed"] and second["selfplay_positions"] > first["selfplay_positions"]
    assert second["expert_games"] == 1                                  # the expert phase is not repeated
    assert len((tmp_path / "log.csv").read_text().splitlines()) >= 3


def test_resume_needs_a_run(tmp_path):
    with pytest.raises(ValueError):
        train(small_config(tmp_path), resume=True)
    with pytest.raises(ValueError):
        AlphaZeroConfig(envs=0).check()


def test_the_pool_actor_trains_too(tmp_path):
    cfg = small_config(tmp_path, selfplay="pool")
    train(cfg)
    counters = torch.load(tmp_path / "latest.pt", weights_only=False)["counters"]
    assert counters["selfplay_positions"] > 0 and counters["leaves"] > 0


def test_bad_settings_are_refused():
    for bad in (dict(fog=1.5), dict(fog=-0.1), dict(leaf_value_mix=2.0), dict(selfplay="remote"),
                dict(selfplay="pool", fog=0.5), dict(selfplay_games=0), dict(gumbel_scale=-1.0)):
        with pytest.raises(ValueError):
            AlphaZeroConfig(**bad).check()


def test_teacher_games_give_targets_over_the_legal_rows(tmp_path):
    from polyenv.train.expert import expert_chunks, is_fog_game, play_expert_game, teacher_kind
    random_net(5).export(tmp_path / "t.paz", leaf_value_mix=1.0)
    for teacher in ("mcts:20", f"az:4@{tmp_path / 't.paz'}"):
        chunk = play_expert_game(3, teacher, map_size=8, full_observability=teacher.startswith("az"))
        sums = np.add.reduceat(chunk.policy, chunk.row_start[:-1])
        assert np.allclose(sums, 1.0, atol=1e-5) and (chunk.policy >= 0).all()
        assert set(np.abs(chunk.values[:, 0]).tolist()) <= {0.0, 1.0}
    assert [is_fog_game(g, 0.5) for g in range(4)] == [False, True, False, True]
    assert not any(is_fog_game(g, 0.0) for g in range(5)) and all(is_fog_game(g, 1.0) for g in range(5))
    assert len(list(expert_chunks(2, "mcts:5", seed=4, map_size=8, workers=1))) == 2
    for bad in ("mcts", "mcts:0", "az:4", "greedy:3", "az:x@f.paz"):
        with pytest.raises(ValueError):
            teacher_kind(bad)


def test_the_pools_give_the_combat_preview_rows_the_player_reads():
    level = str(az_network.SHIPPED_WEIGHTS.parent.parent / "levels" / "duel_11.csv")
    pool = MctsPool(num_envs=1, seed=3, level=level, max_actions=512, include_combat_preview=True, num_threads=1)
    game = GameEnv(seed=3, level=level, full_observability=True)
    DAMAGE_DEALT = _core.ACTION_FEATURE_NAMES.index("damage_dealt")
    live, attacks = pool.reset(seed=3), 0
    try:
        for _ in range(120):
            if game.game_over:
                break
            obs = game.observe(include_combat_preview=True)
            n = int(obs["legal_action_count"])
            assert np.array_equal(live["action_features"][0, :n], obs["action_features"][:n])
            attacks += int((obs["action_features"][:n, DAMAGE_DEALT] >= 0).sum())
            action = bots.choose(game, "greedy")
            game.step(action)
            live = pool.step(np.array([action], np.int32))
    finally:
        pool.close()
    assert attacks > 0
