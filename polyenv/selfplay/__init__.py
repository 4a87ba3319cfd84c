"""Batched search for self-play: :class:`MctsPool` (full-information PUCT over many live games)."""

from .mcts_pool import ActionOverflowError, MctsPool, PendingLeavesError, StaleLeafError

__all__ = ["MctsPool", "StaleLeafError", "PendingLeavesError", "ActionOverflowError"]
