"""The build's layering check (cmake/check_layers.cmake, docs/architecture.md) accepts csrc/ as it is
and refuses each kind of wrong include: to a higher layer (by relative or csrc/-rooted path), between
the two sibling layers vector and search, to the engine's private headers, and to no file at all."""
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CMAKE = shutil.which("cmake")
pytestmark = pytest.mark.skipif(CMAKE is None, reason="needs cmake")


def check(src: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([CMAKE, f"-DSRC={src}", f"-DSTAMP={tmp_path / 'ok'}", "-P",
                           str(ROOT / "cmake" / "check_layers.cmake")], capture_output=True, text=True)


def test_the_sources_pass(tmp_path):
    result = check(ROOT / "csrc", tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "ok").read_text() == "ok\n"


@pytest.mark.parametrize("file, include, message", [
    ("engine/turn.cpp", "../search/mcts_pool.hpp", "engine/turn.cpp (engine) includes search/mcts_pool.hpp (search)"),
    ("engine/turn.cpp", "search/mcts_pool.hpp", "engine/turn.cpp (engine) includes search/mcts_pool.hpp (search)"),
    ("encode/flat.cpp", "../players/tree.hpp", "encode/flat.cpp (encode) includes players/tree.hpp (players)"),
    ("vector/id_mask.cpp", "../search/mcts_pool.hpp", "vector/id_mask.cpp (vector) includes search/mcts_pool.hpp"),
    ("search/gumbel_root.cpp", "../vector/vector_env.hpp", "(search) includes vector/vector_env.hpp (vector)"),
    ("encode/flat.cpp", "../engine/world.hpp", "engine/world.hpp, which is private to the engine"),
    ("search/tree_extra.cpp", "../engine/mechanics.hpp", "engine/mechanics.hpp, which is private to the engine"),
    ("players/tree.cpp", "no_such_header.hpp", "\"no_such_header.hpp\", which is no file of csrc/"),
])
def test_each_wrong_include_is_refused(tmp_path, file, include, message):
    src = tmp_path / "csrc"
    shutil.copytree(ROOT / "csrc", src)
    path = src / file
    path.write_text((path.read_text() if path.exists() else "") + f'\n#include "{include}"\n')
    result = check(src, tmp_path)
    assert result.returncode != 0
    assert message in result.stderr.replace("\n  ", " ") or message in result.stderr, result.stderr
    assert not (tmp_path / "ok").exists()
