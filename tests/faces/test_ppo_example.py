"""Smoke run of examples/ppo_selfplay.py: a few hundred learner steps against every pool opponent."""
import csv
import importlib.util
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("openskill")
pytest.importorskip("matplotlib")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ppo_selfplay.py"


def test_ppo_selfplay_smoke(tmp_path):
    spec = importlib.util.spec_from_file_location("ppo_selfplay", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    threads = torch.get_num_threads()
    try:
        code = module.main(["--out", str(tmp_path), "--updates", "3", "--envs", "4", "--steps", "12", "--map-size", "8",
                            "--max-actions", "48", "--bc-samples", "60", "--bc-epochs", "1", "--eval-games", "2",
                            "--eval-every", "3", "--snapshot-every", "1", "--pool", "greedy:1,random:1,self:1",
                            "--minibatch", "64", "--seed", "3"])
    finally:
        torch.set_num_threads(threads)
    assert code == 0
    rows = list(csv.DictReader(open(tmp_path / "log.csv")))
    assert [int(r["updates"]) for r in rows] == [0, 3]
    assert int(rows[-1]["env_steps"]) == 3 * 4 * 12             # 3 updates x 4 envs x 12 steps
    assert all(0.0 <= float(r["win_greedy"]) <= 1.0 for r in rows)
    assert (tmp_path / "learning_curve.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "best.pt").exists() and (tmp_path / "ckpt_00003.pt").exists()
    assert len(list(tmp_path.glob("pool_*.pt"))) == 3
