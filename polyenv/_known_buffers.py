"""The caller's output arrays that a VectorGameEnv wrote last, by object identity.

The native writer skips the zeros it knows to be in place already — features and
arg mask of padding action rows, map tokens of unexplored tiles
(csrc/vector/buffer_memo.hpp). It may only rely on that
for the very arrays it wrote: a new array at a recycled address (np.empty, a
pinned-memory cache) holds anything. Weak references tell "the same live object"
without keeping the caller's memory alive.
"""

from __future__ import annotations

import weakref

_KEYS = ("map_tokens", "action_features", "action_arg_mask")  # the arrays whose zeros may be kept
_CAPACITY = 4  # buffer sets remembered: double buffering, a few pipeline slots


class KnownBuffers:
    """Weak references to the action arrays of the last few buffer sets written successfully."""

    def __init__(self) -> None:
        self._sets: list[tuple[weakref.ref, ...]] = []

    def knows(self, buffers: dict) -> bool:
        """True when ``buffers`` holds the same live array objects as a remembered set."""
        arrays = tuple(buffers.get(k) for k in _KEYS)
        return any(all(ref() is a for ref, a in zip(refs, arrays)) for refs in self._sets)

    def remember(self, buffers: dict) -> None:
        """Records ``buffers`` (after a call that wrote them without error), most recent first."""
        arrays = tuple(buffers.get(k) for k in _KEYS)
        try:
            refs = tuple(weakref.ref(a) for a in arrays)
        except TypeError:  # not weak-referenceable: never known, always fully written
            return
        self._sets = [refs] + [r for r in self._sets
                               if not all(ref() is a for ref, a in zip(r, arrays)) and all(ref() is not None for ref in r)]
        del self._sets[_CAPACITY:]

    def clear(self) -> None:
        """Forgets every set: the next write of each is a full one."""
        self._sets.clear()
