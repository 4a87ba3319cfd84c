"""State copy speed: ns per copy of a game state, next to the Java Tribes framework's ``GameState.copy``.

The timing loop is native (``polyenv._core.Game.clone_benchmark``, engine/playout.cpp): a copy
takes ~100 ns, far below what a Python loop can time. For each configuration (11x11 2p,
16x16 4p; full observability and fog) this prints, as medians over random positions of
different games (each the best of 5 timed batches: on a shared machine preemption only
ever adds time):

* **copy ns** — copy-assign into a reused state (what a search tree does);
* **new ns** — copy-construct a fresh state (like Java's ``GameState.copy``, which allocates);
* **x Java** — the Java copy time (recorded on this machine, ``engine.py``'s anchors) / new ns;
* **py clone us** — ``GameEnv.clone()`` from Python, overhead included.

Usage: ``python benchmarks/clone.py [--quick]`` (``--quick``: about 2 s). ``engine.py`` prints
the same figures in its table.
"""

from __future__ import annotations

import argparse

import polyenv
from polyenv._bench.clone import JAVA_COPY_US, SCENARIOS, measure_clone  # shipped with the package

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="about 2 s")
    args = parser.parse_args()
    positions, iterations = (4, 2000) if args.quick else (20, 20000)
    print(f"polyenv {polyenv.__version__} state copy: median over {positions} random positions, "
          f"best of 5 batches of {iterations // 5} copies each")
    header = f"{'config':<10} {'obs':<5} {'copy ns':>8} {'new ns':>7} {'x Java':>7} {'py clone us':>11}"
    print(header)
    print("-" * len(header))
    for name in SCENARIOS:
        for full_obs in (True, False):
            c = measure_clone(name, full_obs, positions, iterations)
            print(f"{name:<10} {'full' if full_obs else 'fog':<5} {c['assign_ns']:>8.0f} {c['construct_ns']:>7.0f} "
                  f"{JAVA_COPY_US[name] * 1000 / c['construct_ns']:>6.1f}x {c['py_clone_us']:>11.1f}")
        print(f"{'Java':<10} {'full':<5} {'':>8} {JAVA_COPY_US[name] * 1000:>7.0f} {'1.0x':>7} {'':>11}")


if __name__ == "__main__":
    main()
