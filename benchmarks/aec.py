"""AEC (PettingZoo) steps per second next to the same random loop on GameEnv.

The benchmark ships with the package (``polyenv/_bench/aec.py``, so that ``polyenv bench`` runs it
from any install); this script runs it from the source tree. What it measures is described there.

Usage: ``python benchmarks/aec.py [--quick] [--seconds S]``.
"""

from polyenv._bench.aec import main

if __name__ == "__main__":
    main()
