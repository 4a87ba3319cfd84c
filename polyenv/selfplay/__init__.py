"""Batched search for self-play: :class:`MctsPool` (full-information PUCT over many live games) and
:class:`SelfPlayPool` (belief-rooted MCTS for fog-of-war self-play)."""

from .mcts_pool import ActionOverflowError, MctsPool, PendingLeavesError, StaleLeafError
from .selfplay_pool import BeliefsMissingError, SelfPlayPool

__all__ = ["MctsPool", "SelfPlayPool", "StaleLeafError", "PendingLeavesError", "ActionOverflowError",
           "BeliefsMissingError"]
