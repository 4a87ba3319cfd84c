"""``import polyenv`` from a source tree without its compiled core (a clone's polyenv/ folder first on
sys.path, as in ``python -m ...``, ``python -c`` or Ray workers started from the checkout root)."""
import importlib.machinery
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import polyenv

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def unbuilt_clone(tmp_path_factory):
    """A copy of the source tree (pyproject.toml, CMakeLists.txt, polyenv/) without the compiled core."""
    clone = tmp_path_factory.mktemp("clone")
    for name in ("pyproject.toml", "CMakeLists.txt"):
        shutil.copy(ROOT / name, clone / name)
    shutil.copytree(Path(polyenv.__file__).parent, clone / "polyenv",
                    ignore=shutil.ignore_patterns("__pycache__", "_core.*.so", "_core.*.pyd"))
    assert not list((clone / "polyenv").glob("_core.*.so"))
    return clone


def _python(args, cwd, pythonpath, no_site=False):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(map(str, pythonpath))
    return subprocess.run([sys.executable, *(["-S"] if no_site else []), *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def test_unbuilt_source_tree_says_what_is_wrong(unbuilt_clone):
    # No installed polyenv either (-S: no site-packages): one clear ImportError, not a "circular import".
    r = _python(["-c", "import polyenv"], cwd=unbuilt_clone, pythonpath=None, no_site=True)
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: polyenv's compiled core is missing: this is polyenv's source tree "
                           f"({unbuilt_clone})"), r.stderr
    assert "circular import" not in r.stderr
    assert f"pip install {unbuilt_clone}" in last and "cmake -S" in last


def test_core_for_another_python_is_named(unbuilt_clone, tmp_path):
    clone = tmp_path / "clone"
    shutil.copytree(unbuilt_clone, clone)
    (clone / "polyenv" / "_core.cpython-27-x86_64-linux-gnu.so").write_bytes(b"")
    r = _python(["-c", "import polyenv"], cwd=clone, pythonpath=None, no_site=True)
    assert "_core.cpython-27-x86_64-linux-gnu.so, built for another Python" in r.stderr, r.stderr


def test_installed_package_is_used_from_the_checkout_root(unbuilt_clone, installed_package):
    # `pip install .` then a command from the clone's root: the installed package is imported.
    site, _ = installed_package
    packages = sysconfig.get_paths()["purelib"]  # numpy, gymnasium, ... (and perhaps an older polyenv: after site)
    code = ("import polyenv, polyenv.game_env as g; print(polyenv.__file__); print(g.__file__); "
            "print(polyenv.GameEnv(seed=1).map_size)")
    r = _python(["-c", code], cwd=unbuilt_clone, pythonpath=[site, packages], no_site=True)
    assert r.returncode == 0, r.stderr
    init, module, size = r.stdout.split()
    assert init == str(site / "polyenv" / "__init__.py") and module == str(site / "polyenv" / "game_env.py")
    assert size == "11"
    r = _python(["-m", "polyenv", "play", "--map-size", "8", "--seed", "1", "--max-turns", "1", "--render", "none"],
                cwd=unbuilt_clone, pythonpath=[site, packages], no_site=True)
    assert r.returncode == 0 and "game over in turn 1 of 1" in r.stdout, r.stderr


def _built_in_place():
    """Whether the checkout's polyenv/ holds a core this Python loads (``_core.pyi``, the stub, is always there)."""
    return any((ROOT / "polyenv" / f"_core{s}").is_file() for s in importlib.machinery.EXTENSION_SUFFIXES)


@pytest.mark.skipif(not _built_in_place(), reason="the source tree is not built in place")
def test_a_built_tree_imports_itself():
    r = _python(["-c", "import polyenv; print(polyenv.__file__)"], cwd=ROOT, pythonpath=None)
    assert r.returncode == 0 and r.stdout.strip() == str(ROOT / "polyenv" / "__init__.py"), r.stderr
