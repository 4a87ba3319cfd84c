"""Runs the command line in a child process on the package under test."""
import os
import subprocess
import sys
from pathlib import Path


def _env(path_first=None) -> dict:
    """os.environ with PYTHONPATH made absolute, ``path_first`` (a folder) before it."""
    env = dict(os.environ)
    paths = [str(Path(p).resolve()) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if path_first is not None:
        paths.insert(0, str(path_first))
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def run_cli(*args, timeout=240, cwd=None, path_first=None):
    """Runs `python -m polyenv.cli ...` on the package under test: the installed one, or the one on
    the developer's PYTHONPATH (made absolute). The working directory is never the source root,
    whose `polyenv/` folder would shadow an installed package. ``path_first``: a folder put before
    everything on PYTHONPATH (modules there hide the real ones)."""
    env = _env(path_first)
    return subprocess.run([sys.executable, "-m", "polyenv.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=cwd or Path(__file__).resolve().parent)


def run_cli_into_closed_pipe(*args, timeout=240, cwd=None):
    """Runs the command line with its stdout a pipe whose reading end is already closed (what
    ``polyenv play | head`` becomes once head has read its lines): every write to stdout fails."""
    env = _env()
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "polyenv.cli", *map(str, args)], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=timeout, env=env,
                              cwd=cwd or Path(__file__).resolve().parent)
    finally:
        os.close(write_end)
