"""Builds and talks to the Java driver (java/core/game/DiffDriver.java) over stdin/stdout.

The build goes to a cache outside the repository (``$POLYENV_DIFF_CACHE`` or
``~/.cache/polyenv-differential/<tribes commit or tree hash>``): Tribes' sources are compiled once, the
driver whenever its source changes. Tribes' files never enter the repository.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import io
from pathlib import Path

HERE = Path(__file__).resolve().parent
DRIVER_SRC = HERE / "java" / "core" / "game" / "DiffDriver.java"


def _is_git_dir(p: Path) -> bool:
    return (p / "HEAD").is_file() and (p / "objects").is_dir()


def _source_tree(tribes: Path, cache_root: Path) -> tuple[Path, str]:
    """The Tribes source tree (folder holding src/ and levels/) and a cache key."""
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
    raise SystemExit(f"--tribes {tribes}: neither a git dir of GAIGResearch/Tribes nor its source tree")


def build(tribes: str) -> dict:
    """Compiles Tribes and the driver if needed; returns paths {tree, classpath, cwd}."""
    for tool in ("javac", "java"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} not found: the differential test needs a JDK (17+)")
    cache_root = Path(os.environ.get("POLYENV_DIFF_CACHE", Path.home() / ".cache" / "polyenv-differential"))
    tree, key = _source_tree(Path(tribes), cache_root)
    cache = cache_root / key
    classes, driver = cache / "tribes-classes", cache / "driver-classes"
    jar = tree / "lib" / "json.jar"
    if not (classes / "core" / "game" / "GameState.class").is_file():
        classes.mkdir(parents=True, exist_ok=True)
        sources = sorted(str(p) for p in (tree / "src").rglob("*.java"))
        listing = cache / "sources.txt"
        listing.write_text("\n".join(sources))
        print(f"differential: compiling Tribes ({len(sources)} files) into {classes}", flush=True)
        subprocess.run(["javac", "-nowarn", "-encoding", "UTF-8", "-cp", str(jar), "-d", str(classes), f"@{listing}"],
                       check=True, capture_output=True)
    digest = hashlib.sha1(DRIVER_SRC.read_bytes()).hexdigest()[:12]
    stamp = driver / "SOURCE_SHA1"
    if not stamp.is_file() or stamp.read_text() != digest:
        shutil.rmtree(driver, ignore_errors=True)
        driver.mkdir(parents=True)
        subprocess.run(["javac", "-nowarn", "-encoding", "UTF-8", "-cp", f"{classes}:{jar}", "-d", str(driver),
                        str(DRIVER_SRC)], check=True)
        stamp.write_text(digest)
    return {"tree": tree, "classpath": f"{driver}:{classes}:{jar}", "cwd": tree}


class Driver:
    """One JVM serving many games: ``load`` a level file, then ``step`` by index into the last action list."""

    def __init__(self, paths: dict, heap: str = "384m"):
        self.proc = subprocess.Popen(
            ["java", "-Djava.awt.headless=true", "-Xss16m", f"-Xmx{heap}", "-XX:+UseSerialGC", "-cp", paths["classpath"],
             "core.game.DiffDriver"],
            cwd=paths["cwd"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def _call(self, line: str) -> dict:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.readline()
        if not out:
            raise RuntimeError("the Java driver exited")
        reply = json.loads(out)
        if "error" in reply:
            raise RuntimeError("Java driver error: " + reply["error"])
        return reply

    def load(self, path: str, mode: str, seed: int) -> dict:
        return self._call(f"load {path} {mode.upper()} {seed}")

    def step(self, index: int) -> dict:
        return self._call(f"step {index}")

    def true_moves(self) -> list:
        """[[source, destination], ...] of the active tribe by an exact shortest-path search (see DiffDriver)."""
        return [m[:2] for m in self._call("truemoves")["moves"]]

    def true_move_costs(self) -> dict:
        """{(source, destination): movement spent} of the exact search."""
        return {(m[0], m[1]): m[2] for m in self._call("truemoves")["moves"]}

    def close(self) -> None:
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
