"""Lazy package attributes: names whose modules are imported on first use (torch, SB3 stay unimported)."""

from __future__ import annotations

import importlib


def lazy_attributes(package: str, table: dict[str, str], namespace: dict):
    """The module ``__getattr__`` of ``package`` for ``table`` (name -> module relative to ``package``).

    The first access of a name imports its module and caches the attribute in ``namespace`` (the
    package's ``globals()``), so later accesses are plain lookups.
    """
    def __getattr__(name: str):
        if name in table:
            value = getattr(importlib.import_module(table[name], package), name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return __getattr__
