"""Engine speed: native random play next to the Java Tribes framework's figures.

The benchmark ships with the package (``polyenv/_bench/engine.py``, so that ``polyenv bench`` runs it
from any install); this script runs it from the source tree. What it measures is described there.

Usage: ``python benchmarks/engine.py [--quick] [--seconds S]``.
"""

from polyenv._bench.engine import main

if __name__ == "__main__":
    main()
