"""Bot names as every API accepts them.

``"random"``, ``"greedy"``, ``"mcts"`` / ``"mcts:<simulations>"``, and the trained player
``"az"`` / ``"az:<simulations>"`` (the network the package ships); ``"az@<weights.paz>"`` /
``"az:<simulations>@<weights.paz>"`` plays another network's weight file the same way.
"""

from __future__ import annotations

from typing import NamedTuple

from . import _core

#: The built-in bots.
BOT_NAMES: tuple[str, ...] = tuple(_core.BOT_NAMES)
#: Simulations per decision of a plain ``"mcts"``.
DEFAULT_MCTS_SIMULATIONS: int = int(_core.DEFAULT_MCTS_SIMULATIONS)
#: Network evaluations per decision of a plain ``"az"``.
DEFAULT_AZ_SIMULATIONS: int = int(_core.DEFAULT_AZ_SIMULATIONS)
#: How the names are spelled (for error messages).
BOT_SYNTAX = "'mcts:<simulations>', 'az:<simulations>' or 'az[:<simulations>]@<weights.paz>'"
_MAX_SIMULATIONS = 10_000_000


class BotSpec(NamedTuple):
    """A parsed bot name: the native bot code, its simulation budget (MCTS and az), and the
    native index of an az bot's network (-1 for the other bots)."""

    code: int
    simulations: int
    model: int = -1


def _budget(text: str) -> int | None:
    return int(text) if text.isdigit() and 1 <= int(text) <= _MAX_SIMULATIONS else None


def parse_bot(spec) -> BotSpec:
    """The :class:`BotSpec` of a bot name; ValueError for anything else (or an unreadable weight file)."""
    if isinstance(spec, str):
        head, at, weights = spec.partition("@")
        name, sep, budget = head.partition(":")
        if name == "az" and (not at or weights):
            simulations = _budget(budget) if sep else DEFAULT_AZ_SIMULATIONS
            if simulations is not None:
                from . import az_network
                model = az_network.load(weights) if at else az_network.shipped()
                return BotSpec(BOT_NAMES.index(name), simulations, model)
        elif not at and name in BOT_NAMES and name != "az":
            if not sep:
                return BotSpec(BOT_NAMES.index(name), DEFAULT_MCTS_SIMULATIONS)
            if name == "mcts" and _budget(budget) is not None:
                return BotSpec(BOT_NAMES.index(name), int(budget))
    raise ValueError(f"unknown bot {spec!r}; expected one of: {', '.join(BOT_NAMES)} or {BOT_SYNTAX}")


def is_bot(spec) -> bool:
    """True when ``spec`` names a built-in bot (an ``az@`` name only when its weight file loads)."""
    try:
        parse_bot(spec)
        return True
    except ValueError:
        return False
