"""The Java side of a lockstep game: one JVM running ``core.game.DiffDriver`` (src/core/game), spoken to over
stdin/stdout, one command per line and one JSON reply per line (the protocol is in DiffDriver.java).

A ``Driver`` serves many games in turn. Anything that speaks the same protocol can stand in for the JVM (the
test suite uses a small Python process): pass its command line as ``command``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Sequence

__all__ = ["Driver", "DriverError", "java_command"]


class DriverError(RuntimeError):
    """The driver refused a command (its message) or exited."""


def java_command(paths: dict, heap: str = "384m", cpu: int | None = None) -> list[str]:
    """The command line of the JVM for a build of :func:`polyenv.evaluation.java.build.build`.

    ``cpu``: pin the JVM (every thread of it: the agent's, the JIT's and the collector's) to that core with
    ``taskset`` when it is available, so a decision's CPU time is not shared out over several cores.
    """
    cmd = ["java", "-Djava.awt.headless=true", "-Xss16m", f"-Xmx{heap}", "-XX:+UseSerialGC",
           "-cp", paths["classpath"], "core.game.DiffDriver"]
    if cpu is not None:
        cmd[1:1] = ["-XX:ActiveProcessorCount=1"]
        if shutil.which("taskset"):
            cmd = ["taskset", "-c", str(int(cpu))] + cmd
    return cmd


class Driver:
    """One driver process: ``load`` a level, then ``step`` by index into the last reported action list."""

    def __init__(self, command: Sequence[str], cwd=None):
        self.command = list(command)
        self.proc = subprocess.Popen(self.command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def call(self, line: str) -> dict:
        """Sends one command line and returns its reply; DriverError when it is refused or the driver exits."""
        if self.proc.poll() is not None:
            raise DriverError(f"the Java driver exited (status {self.proc.returncode})")
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError as e:
            raise DriverError("the Java driver exited") from e
        out = self.proc.stdout.readline()
        if not out:
            raise DriverError(f"the Java driver exited (status {self.proc.wait()})")
        reply = json.loads(out)
        if "error" in reply:
            raise DriverError(reply["error"])
        return reply

    def load(self, path: str, mode: str, seed: int) -> dict:
        """Loads the level file ``path`` in the Java engine (mode ``capitals`` or ``score``); Java's state."""
        return self.call(f"load {path} {mode.upper()} {int(seed)}")

    def step(self, index: int) -> dict:
        """Plays Java's legal action number ``index``; Java's state after it."""
        return self.call(f"step {int(index)}")

    def replay(self, path: str, mode: str, seed: int, indices) -> dict:
        """Loads the level and plays those action indices in turn; the state after the last one."""
        return self.call(f"load {path} {mode.upper()} {int(seed)}" if not indices else
                         f"replay {path} {mode.upper()} {int(seed)} " + " ".join(str(int(i)) for i in indices))

    def true_moves(self) -> list:
        """[[source, destination], ...] of the active tribe by an exact shortest-path search (see DiffDriver)."""
        return [m[:2] for m in self.call("truemoves")["moves"]]

    def true_move_costs(self) -> dict:
        """{(source, destination): movement spent} of the exact search."""
        return {(m[0], m[1]): m[2] for m in self.call("truemoves")["moves"]}

    def agent(self, player: int, seed: int, name: str, settings: dict) -> dict:
        """Tribe ``player`` of the loaded game is played by Tribes agent ``name``; returns its settings in effect."""
        words = " ".join(f"{k}={v}" for k, v in settings.items())
        return self.call(f"agent {int(player)} {int(seed)} {name} {words}".rstrip())

    def act(self) -> dict:
        """The active tribe's agent decides: ``{"index": i, "cpu_ms": t}`` (i in the last reported list)."""
        return self.call("act")

    def warmup(self, path: str, decisions: int, name: str, settings: dict) -> float:
        """``decisions`` decisions of an agent on a throwaway game (JIT warm-up); their CPU ms."""
        words = " ".join(f"{k}={v}" for k, v in settings.items())
        return self.call(f"warmup {path} {int(decisions)} {name} {words}".rstrip())["cpu_ms"]

    def close(self) -> None:
        """Ends the driver process."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=10)
            except Exception:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
