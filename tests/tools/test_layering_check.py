"""The build's layering check (cmake/check_layers.cmake, docs/architecture.md) accepts csrc/ and tests/cpp/
as they are and refuses each kind of wrong include, quoted or angle-bracket: to a higher layer (by relative
or csrc/-rooted path), between the two sibling layers vector and search, to a layer not linked (runtime
does not link players), to the engine's private headers, to the engine's test oracles (engine/check/) from
outside engine/check/, python/ and tests/cpp/, and to no file at all. The layers' include roots back it:
a configured build exposes to the other layers only the public headers (the faces), so the compiler
refuses <engine/world.hpp> too."""
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CMAKE = shutil.which("cmake")
pytestmark = pytest.mark.skipif(CMAKE is None, reason="needs cmake")


def check(src: Path, tmp_path: Path, tests: Path | None = None) -> subprocess.CompletedProcess:
    extra = [f"-DTESTS={tests}"] if tests is not None else []
    return subprocess.run([CMAKE, f"-DSRC={src}", *extra, f"-DSTAMP={tmp_path / 'ok'}", "-P",
                           str(ROOT / "cmake" / "check_layers.cmake")], capture_output=True, text=True)


def test_the_sources_pass(tmp_path):
    result = check(ROOT / "csrc", tmp_path, ROOT / "tests" / "cpp")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "ok").read_text() == "ok\n"


def planted(tmp_path: Path, file: str, include: str, root: str = "csrc") -> Path:
    """A copy of csrc/ and tests/cpp/ with `#include <include>` (spelled as given) added to `file` of `root`."""
    for name, source in (("csrc", ROOT / "csrc"), ("cpp", ROOT / "tests" / "cpp")):
        shutil.copytree(source, tmp_path / name)
    path = tmp_path / ("csrc" if root == "csrc" else "cpp") / file
    spelled = include if include.startswith("<") else f'"{include}"'
    path.write_text((path.read_text() if path.exists() else "") + f"\n#include {spelled}\n")
    return tmp_path


@pytest.mark.parametrize("file, include, message", [
    ("engine/turn.cpp", "../search/mcts_pool.hpp", "engine/turn.cpp (engine) includes search/mcts_pool.hpp (search)"),
    ("engine/turn.cpp", "search/mcts_pool.hpp", "engine/turn.cpp (engine) includes search/mcts_pool.hpp (search)"),
    ("engine/turn.cpp", "<search/mcts_pool.hpp>", "engine/turn.cpp (engine) includes search/mcts_pool.hpp (search)"),
    ("encode/flat.cpp", "../players/tree.hpp", "encode/flat.cpp (encode) includes players/tree.hpp (players)"),
    ("encode/map_tokens.cpp", "<players/tree.hpp>", "encode/map_tokens.cpp (encode) includes players/tree.hpp (players)"),
    ("vector/id_mask.cpp", "../search/mcts_pool.hpp", "vector/id_mask.cpp (vector) includes search/mcts_pool.hpp"),
    ("vector/id_mask.cpp", "<search/mcts_pool.hpp>", "vector/id_mask.cpp (vector) includes search/mcts_pool.hpp"),
    ("search/gumbel_root.cpp", "../vector/vector_env.hpp", "(search) includes vector/vector_env.hpp (vector)"),
    ("runtime/episodes.cpp", "../players/tree.hpp", "runtime/episodes.cpp (runtime) includes players/tree.hpp (players)"),
    ("encode/flat.cpp", "../engine/world.hpp", "engine/world.hpp, which is private to the engine"),
    ("encode/map_tokens.cpp", "<engine/world.hpp>", "engine/world.hpp, which is private to the engine"),
    ("search/tree_extra.cpp", "../engine/mechanics.hpp", "engine/mechanics.hpp, which is private to the engine"),
    ("python/game.cpp", "<engine/mechanics.hpp>", "engine/mechanics.hpp, which is private to the engine"),
    ("encode/token_reader.cpp", "../engine/check/oracles.hpp",
     "encode/token_reader.cpp includes engine/check/oracles.hpp, one of the engine's test oracles"),
    ("engine/step.cpp", "check/oracles.hpp", "engine/step.cpp includes engine/check/oracles.hpp, one of the engine's test oracles"),
    ("runtime/episodes.cpp", "<engine/check/oracles.hpp>", "one of the engine's test oracles"),
    ("players/tree.cpp", "no_such_header.hpp", "\"no_such_header.hpp\", which is no file of csrc/"),
    ("players/tree.cpp", "<engine/no_such_header.hpp>", "<engine/no_such_header.hpp>, which is no file of csrc/"),
    ("engine/turn.cpp", "../../cpp/check.hpp", "engine/turn.cpp includes ../cpp/check.hpp, which is in no layer folder"),
])
def test_each_wrong_include_is_refused(tmp_path, file, include, message):
    root = planted(tmp_path, file, include)
    result = check(root / "csrc", tmp_path, root / "cpp")
    assert result.returncode != 0
    assert message in result.stderr.replace("\n  ", " ") or message in result.stderr, result.stderr
    assert not (tmp_path / "ok").exists()


@pytest.mark.parametrize("file, include, message", [
    ("test_encode.cpp", "engine/world.hpp", "tests/cpp/test_encode.cpp includes engine/world.hpp, which is private to the engine"),
    ("test_encode.cpp", "<engine/mechanics.hpp>", "tests/cpp/test_encode.cpp includes engine/mechanics.hpp, which is private"),
    ("test_levels.cpp", "engine/no_such_header.hpp", "tests/cpp/test_levels.cpp includes \"engine/no_such_header.hpp\", which"),
])
def test_a_self_test_includes_only_public_headers(tmp_path, file, include, message):
    root = planted(tmp_path, file, include, root="tests")
    result = check(root / "csrc", tmp_path, root / "cpp")
    assert result.returncode != 0
    assert message in result.stderr.replace("\n  ", " ") or message in result.stderr, result.stderr


@pytest.mark.parametrize("root, file, include", [
    ("csrc", "engine/turn.cpp", "<vector>"),                      # the library's, not the layer vector/
    ("csrc", "python/game.cpp", "<pybind11/stl.h>"),
    ("csrc", "engine/check/legal_reference.cpp", "world.hpp"),    # the engine's private root
    ("csrc", "engine/check/legal_reference.cpp", "<mechanics.hpp>"),
    ("csrc", "python/game.cpp", "../engine/check/oracles.hpp"),   # the bindings' _core._testing
    ("csrc", "players/tree.cpp", "<engine/game.hpp>"),
    ("tests", "test_gumbel.cpp", "engine/check/oracles.hpp"),     # the self-tests
    ("tests", "test_gumbel.cpp", "<encode/encode.hpp>"),
])
def test_allowed_includes_pass(tmp_path, root, file, include):
    base = planted(tmp_path, file, include, root=root)
    result = check(base / "csrc", tmp_path, base / "cpp")
    assert result.returncode == 0, result.stderr


CXX = shutil.which("c++") or shutil.which("g++")


@pytest.mark.skipif(CXX is None, reason="needs a C++ compiler")
def test_the_include_roots_expose_only_public_headers(tmp_path):
    # Configure a build (no compiling) and compile probes with the include roots the encode layer gets:
    # its private root and the faces of what it links.
    build = tmp_path / "build"
    configured = subprocess.run([CMAKE, "-S", str(ROOT), "-B", str(build), "-DPOLYENV_LTO=OFF"],
                                capture_output=True, text=True)
    assert configured.returncode == 0, configured.stderr
    faces = build / "faces"
    public = {p.relative_to(faces).as_posix() for p in faces.rglob("*.hpp")}
    assert "engine/engine/game.hpp" in public and "encode/encode/layout.hpp" in public
    assert "engine_oracles/engine/check/oracles.hpp" in public
    assert not {"engine/engine/world.hpp", "engine/engine/mechanics.hpp"} & public
    assert not any(p.startswith("engine/engine/check/") for p in public)
    roots = [f"-I{ROOT / 'csrc' / 'encode'}", f"-I{faces / 'encode'}", f"-I{faces / 'engine'}"]

    def compiles(include: str) -> bool:
        probe = tmp_path / "probe.cpp"
        probe.write_text(f"#include {include}\nint main() {{ return 0; }}\n")
        return subprocess.run([CXX, "-std=c++20", "-fsyntax-only", *roots, str(probe)],
                              capture_output=True, text=True).returncode == 0

    assert compiles("<engine/game.hpp>") and compiles('"engine/game.hpp"') and compiles("<layout.hpp>")
    assert not compiles("<engine/world.hpp>") and not compiles('"engine/mechanics.hpp"')
    assert not compiles("<engine/check/oracles.hpp>") and not compiles("<players/tree.hpp>")
