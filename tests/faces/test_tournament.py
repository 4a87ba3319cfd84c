"""polyenv.evaluation.tournament and `polyenv tournament`: tiny tournaments on 8x8 maps."""
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("openskill")
torch = pytest.importorskip("torch")

from polyenv.evaluation import parse_player, tournament  # noqa: E402
from cli_run import run_cli


@pytest.fixture(scope="module", autouse=True)
def one_torch_thread():
    """Tiny batches: torch's thread pool only adds contention on a shared machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    from polyenv.train.pointer_net import PointerActorCritic, save_checkpoint
    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("ckpt") / "untrained.pt"
    save_checkpoint(path, PointerActorCritic(64, 64), env_steps=0)
    return str(path)


def test_round_robin_greedy_beats_random(tmp_path):
    r = tournament(["random", "greedy"], games=4, map_size=8, threads=1, out_dir=tmp_path)
    assert r.players == ["random", "greedy"]
    assert r.seatings.tolist() == [[0, 1], [1, 0], [0, 1], [1, 0]]     # seats alternate
    assert r.games.tolist() == [4, 4] and r.games_matrix[0, 1] == 4
    assert r.wins.sum() + (r.winners < 0).sum() == 4
    assert r.win_matrix[1, 0] == r.wins[1] >= 3                            # greedy is far stronger
    assert r.mu[1] > r.mu[0] and np.all(r.ci_low < r.mu) and np.all(r.sigma < 25 / 3)
    assert "greedy" in r.table().splitlines()[2]                           # ranked first
    assert Path(r.files["ratings"]).read_bytes()[:4] == b"\x89PNG"
    assert Path(r.files["win_matrix"]).read_text().splitlines()[0] == "player,random,greedy"


def test_deterministic(checkpoint):
    a = tournament(["random", checkpoint], games=2, map_size=8, threads=1, seed=5, max_turns=6)
    b = tournament(["random", checkpoint], games=2, map_size=8, threads=2, seed=5, max_turns=6)
    np.testing.assert_array_equal(a.winners, b.winners)
    np.testing.assert_allclose(a.mu, b.mu)


def test_free_for_all_and_checkpoint(checkpoint):
    r = tournament(["random", "greedy", checkpoint], games=3, players_per_game=3, map_size=8, threads=1, seed=1,
                   max_turns=6)
    assert r.seatings.shape == (3, 3) and sorted(r.seatings[0]) == [0, 1, 2]
    assert r.games.tolist() == [3, 3, 3]
    assert len(r.players) == 3 and np.isfinite(r.mu).all()


def test_swiss(checkpoint):
    r = tournament(["random", "greedy", checkpoint], games=4, map_size=8, threads=1, format="swiss",
                   max_turns=6)
    assert len(r.seatings) == 4 and r.games.sum() == 8


@pytest.mark.parametrize("kwargs, match", [
    (dict(players=["random"]), "at least two"),
    (dict(players="random,greedy"), "list"),
    (dict(players=["random", "random"]), "twice"),
    (dict(players=["random", "nope"]), "unknown player"),
    (dict(players=["random:3", "greedy"]), "no argument"),
    (dict(players=["random", "greedy"], games=0), "games"),
    (dict(players=["random", "greedy"], players_per_game=17), "players_per_game"),
    (dict(players=["random", "greedy"], format="league"), "format"),
    (dict(players=["random", "greedy"], players_per_game=3, format="swiss"), "swiss"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        tournament(**{"games": 2, "map_size": 8, **kwargs})


def test_checkpoint_shape_mismatch(checkpoint):
    with pytest.raises(ValueError, match="8x8"):
        tournament(["random", checkpoint], games=2, map_size=9)
    with pytest.raises(ValueError, match="action rows"):
        tournament(["random", checkpoint], games=2, map_size=8, max_actions=32)
    assert parse_player(checkpoint).kind == "checkpoint"


def _cli(*args):
    return run_cli("tournament", *args)


def test_cli(tmp_path):
    r = _cli("--players", "random,greedy", "--games", "2", "--map-size", "8", "--threads", "1", "--out", tmp_path)
    assert r.returncode == 0, r.stderr
    assert "greedy" in r.stdout and "wins/games" in r.stdout
    assert (tmp_path / "ratings.png").exists() and (tmp_path / "win_matrix.csv").exists()


@pytest.mark.parametrize("args", [("--players", "random,bogus"), ("--players", "random,greedy", "--games", "-1")])
def test_cli_errors_one_line_status_2(args, tmp_path):
    r = _cli(*args, "--out", tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and r.stderr.startswith("polyenv tournament: ")
