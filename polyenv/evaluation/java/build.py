"""Compiles the Java Tribes framework and polyenv's driver into a cache outside the repository.

The cache is ``$POLYENV_JAVA_CACHE`` or ``~/.cache/polyenv-java``, one folder per Tribes commit (or source-tree
path). Two builds of Tribes live there:

* ``full``: Tribes as it is (``Constants.PLAY_WITH_FULL_OBS = true``, the framework's default: every tile is
  revealed, no meeting techs, no +5 per revealed tile).
* ``fog``: Tribes with its own partial-observability switch turned off (``PLAY_WITH_FULL_OBS = false``, a
  compile-time constant, hence a separate build) and two recording calls (``DiffHooks``) in
  ``Tribe.meetTribe`` and ``Board.launchExplorer``, so the driver can report the tech a meeting drew and the
  explorer's steps. The calls only record; the engine's behaviour is unchanged.

Tribes' sources are compiled once per build, the driver (``src/core/game/*.java`` next to this module)
whenever its sources change. Nothing of Tribes is ever written into this package.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

__all__ = ["build", "VARIANTS", "DRIVER_SOURCES"]

HERE = Path(__file__).resolve().parent
DRIVER_DIR = HERE / "src" / "core" / "game"
HOOKS = DRIVER_DIR / "DiffHooks.java"
#: The driver's Java sources compiled against Tribes (the test-only hooks apart).
DRIVER_SOURCES = sorted(p for p in DRIVER_DIR.glob("*.java") if p != HOOKS)
#: The Tribes builds: as it is (full observability) and its fog build (``PLAY_WITH_FULL_OBS = false``).
VARIANTS = ("full", "fog")

# The fog build's edits: (file, exact text, replacement). Each must match once, or the build stops.
_FOG_EDITS = (
    ("src/core/Constants.java", "public static final boolean PLAY_WITH_FULL_OBS = true;",
     "public static final boolean PLAY_WITH_FULL_OBS = false;"),
    ("src/core/actors/Tribe.java", "thisTribeTree.doResearch(techToGet);",
     "core.game.DiffHooks.meeting(this.tribeId, tribeID, techToGet); thisTribeTree.doResearch(techToGet);"),
    ("src/core/game/Board.java", "currentPos.y = next.y;",
     "currentPos.y = next.y; core.game.DiffHooks.explorerStep(tribeId, currentPos.x, currentPos.y);"),
)


def _is_git_dir(p: Path) -> bool:
    return (p / "HEAD").is_file() and (p / "objects").is_dir()


def _source_tree(tribes: Path, cache_root: Path) -> tuple[Path, str]:
    """The Tribes source tree (the folder holding src/ and levels/) and its cache key."""
    if _is_git_dir(tribes) or (tribes / ".git").exists():
        git_dir = tribes if _is_git_dir(tribes) else tribes / ".git"
        commit = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "HEAD"], check=True,
                                capture_output=True, text=True).stdout.strip()
        tree = cache_root / commit[:12] / "tribes-src"
        if not (tree / "src" / "core" / "game" / "GameState.java").is_file():
            tree.mkdir(parents=True, exist_ok=True)
            data = subprocess.run(["git", "--git-dir", str(git_dir), "archive", "HEAD"], check=True,
                                  capture_output=True).stdout
            tarfile.open(fileobj=io.BytesIO(data)).extractall(tree)
        return tree, commit[:12]
    if (tribes / "src" / "core" / "game" / "GameState.java").is_file():
        key = hashlib.sha1(str(tribes.resolve()).encode()).hexdigest()[:12]
        return tribes, "tree-" + key
    raise ValueError(f"--tribes {tribes}: neither a git directory of GAIGResearch/Tribes nor its source tree "
                     "(a folder holding src/core/game/GameState.java)")


def _fog_tree(tree: Path, cache: Path) -> Path:
    """A copy of the sources with the fog edits (made once)."""
    fog = cache / "tribes-src-fog"
    stamp = fog / "POLYENV_EDITS"
    digest = hashlib.sha1(repr(_FOG_EDITS).encode()).hexdigest()[:12]
    if stamp.is_file() and stamp.read_text() == digest:
        return fog
    shutil.rmtree(fog, ignore_errors=True)
    shutil.copytree(tree / "src", fog / "src")
    for rel, old, new in _FOG_EDITS:
        path = fog / rel
        text = path.read_text(encoding="utf-8")
        if text.count(old) != 1:
            raise ValueError(f"this Tribes checkout differs from the one polyenv was written against: {rel} "
                             f"does not contain {old!r} exactly once")
        path.write_text(text.replace(old, new), encoding="utf-8")
    shutil.copy(HOOKS, fog / "src" / "core" / "game" / HOOKS.name)
    stamp.write_text(digest)
    return fog


def _javac(classpath: str, out: Path, sources: list[str], listing: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    listing.write_text("\n".join(sources))
    done = subprocess.run(["javac", "-nowarn", "-encoding", "UTF-8", "-cp", classpath, "-d", str(out), f"@{listing}"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        shutil.rmtree(out, ignore_errors=True)
        raise RuntimeError(f"javac failed:\n{done.stdout}{done.stderr}")


def build(tribes: str | os.PathLike, variant: str = "full", log=print) -> dict:
    """Compiles Tribes (``variant`` "full" or "fog") and the driver when needed.

    Returns ``{"tree", "classpath", "cwd", "variant"}``: the Tribes source tree (its ``levels/``), the Java class
    path of the driver and the working directory to run it in. Raises ValueError when ``tribes`` is not a
    Tribes checkout or no JDK is found, RuntimeError when compiling fails.
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    for tool in ("javac", "java"):
        if shutil.which(tool) is None:
            raise ValueError(f"{tool} not found: Java Tribes needs a JDK (17 or later) on the PATH")
    cache_root = Path(os.environ.get("POLYENV_JAVA_CACHE", Path.home() / ".cache" / "polyenv-java"))
    tree, key = _source_tree(Path(tribes), cache_root)
    cache = cache_root / key
    jar = tree / "lib" / "json.jar"
    src = tree if variant == "full" else _fog_tree(tree, cache)
    classes = cache / f"tribes-classes-{variant}"
    if not (classes / "core" / "game" / "GameState.class").is_file():
        sources = sorted(str(p) for p in (src / "src").rglob("*.java"))
        log(f"polyenv.evaluation.java: compiling Tribes ({variant}, {len(sources)} files) into {classes}")
        _javac(str(jar), classes, sources, cache / f"sources-{variant}.txt")
    driver_sources = DRIVER_SOURCES + ([HOOKS] if variant == "full" else [])
    digest = hashlib.sha1(b"".join(p.read_bytes() for p in driver_sources)).hexdigest()[:12]
    driver = cache / f"driver-classes-{variant}"
    stamp = driver / "SOURCE_SHA1"
    if not stamp.is_file() or stamp.read_text() != digest:
        shutil.rmtree(driver, ignore_errors=True)
        _javac(f"{classes}:{jar}", driver, [str(p) for p in driver_sources], cache / f"driver-{variant}.txt")
        stamp.write_text(digest)
    return {"tree": tree, "classpath": f"{driver}:{classes}:{jar}", "cwd": tree, "variant": variant}
