"""Which VectorGameEnv wrote a caller's output arrays last, by object identity.

With ``buffers_untouched=True`` (the caller's promise that nothing else wrote
into its arrays since the environment's previous call on them) the native
writer skips the zeros it knows to be in place already — features and arg mask
of padding action rows, map tokens of unexplored tiles
(csrc/vector/buffer_memo.hpp). It may only rely on that for the very arrays it
wrote last: a new array at a recycled address (np.empty, a pinned-memory cache)
holds anything, and so does an array another environment wrote since. One
registry for the whole process records the last writer of every array handed
to a ``*_into`` call; weak references tell "the same live object" without
keeping the caller's memory alive.
"""

from __future__ import annotations

import weakref

_KEYS = ("map_tokens", "action_features", "action_arg_mask")  # the arrays whose zeros may be kept

# id(array) -> (weak reference to it, the KnownBuffers of the environment that wrote it last)
_last_writer: dict[int, tuple[weakref.ref, "KnownBuffers"]] = {}


def _forget(key: int, ref: weakref.ref) -> None:
    entry = _last_writer.get(key)
    if entry is not None and entry[0] is ref:
        del _last_writer[key]


class KnownBuffers:
    """One environment's view of the registry."""

    def knows(self, buffers: dict) -> bool:
        """True when this environment wrote every array of ``buffers`` whose zeros it may keep last."""
        for key in _KEYS:
            array = buffers.get(key)
            entry = _last_writer.get(id(array))
            if entry is None or entry[0]() is not array or entry[1] is not self:
                return False
        return True

    def remember(self, buffers: dict) -> None:
        """Records this environment as the last writer of ``buffers`` (after a call that wrote them)."""
        for key in _KEYS:
            array = buffers.get(key)
            entry = _last_writer.get(id(array))
            if entry is not None and entry[1] is self and entry[0]() is array:
                continue  # already recorded (the usual case: the same arrays every call)
            try:
                ref = weakref.ref(array, lambda r, k=id(array): _forget(k, r))
            except TypeError:  # not weak-referenceable: never known, always fully written
                continue
            _last_writer[id(array)] = (ref, self)

    def clear(self) -> None:
        """Forgets every array this environment wrote: the next write of each is a full one."""
        for key in [k for k, (_, writer) in _last_writer.items() if writer is self]:
            del _last_writer[key]
