"""Bot names as every API accepts them: ``"random"``, ``"greedy"``, ``"mcts"`` or ``"mcts:<simulations>"``."""

from __future__ import annotations

from . import _core

#: The built-in bots.
BOT_NAMES: tuple[str, ...] = tuple(_core.BOT_NAMES)
#: Simulations per decision of a plain ``"mcts"``.
DEFAULT_MCTS_SIMULATIONS: int = int(_core.DEFAULT_MCTS_SIMULATIONS)


def parse_bot(spec) -> tuple[int, int]:
    """``(native bot code, simulations)`` of the bot name ``spec``; ValueError for anything else."""
    if isinstance(spec, str):
        name, sep, budget = spec.partition(":")
        if name in BOT_NAMES and not sep:
            return BOT_NAMES.index(name), DEFAULT_MCTS_SIMULATIONS
        if name == "mcts" and sep and budget.isdigit() and 1 <= int(budget) <= 10_000_000:
            return BOT_NAMES.index(name), int(budget)
    raise ValueError(f"unknown bot {spec!r}; expected one of: {', '.join(BOT_NAMES)} or 'mcts:<simulations>'")


def is_bot(spec) -> bool:
    """True when ``spec`` names a built-in bot."""
    try:
        parse_bot(spec)
        return True
    except ValueError:
        return False
