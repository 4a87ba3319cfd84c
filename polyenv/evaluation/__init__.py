"""Evaluation: rated tournaments of bots, checkpoints and Java Tribes agents, and win rates of policies.

:mod:`polyenv.evaluation.tournament` holds the tournament runner (``polyenv tournament``), the player
specs it accepts and the OpenSkill ratings; Java agents are played through :mod:`polyenv.evaluation.java`.
"""

from .tournament import TRIBE_ORDER, TournamentResult, evaluate, parse_player, sb3_policy, tournament

__all__ = ["tournament", "TournamentResult", "parse_player", "evaluate", "sb3_policy", "TRIBE_ORDER"]
