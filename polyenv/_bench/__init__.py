"""The quick benchmarks that ``polyenv bench`` runs, shipped with the package so that they run
from any install (``python -m polyenv._bench.<part> [--quick]``):

* ``engine`` — native random play: actions/s and games/s next to recorded Java Tribes figures,
  legal actions per decision, state copies, the event journal, the greedy bot;
* ``vector`` — ``VectorGameEnv.step_into`` env-steps/s on 1 and 2 threads and the allocating ``step``;
* ``gym``    — ``TribesVectorEnv.step`` next to the raw ``step_into`` it wraps (the Gymnasium layer's cost);
* ``aec``    — PettingZoo AEC steps/s next to the same random loop on ``GameEnv``.

``--quick`` (or ``POLYENV_BENCH_QUICK=1``) fits a part into ``POLYENV_BENCH_SECONDS`` seconds (set by
``polyenv bench``, its share of the budget). ``benchmarks/engine.py``, ``clone.py`` and ``aec.py`` of the
source tree run the same code; ``benchmarks/vector.py`` and ``gym.py`` are the longer forms of the
other two (more variants and ratios).
"""

import os

#: The parts ``polyenv bench`` runs, in order (modules of this package).
PARTS = ("engine", "vector", "gym", "aec")


def budget(default: float) -> tuple[bool, float]:
    """(quick, seconds): whether ``polyenv bench`` (or ``--quick``) asked for a short run, and its
    seconds (``POLYENV_BENCH_SECONDS``, else ``default``)."""
    quick = os.environ.get("POLYENV_BENCH_QUICK") == "1"
    return quick, float(os.environ.get("POLYENV_BENCH_SECONDS", default))
