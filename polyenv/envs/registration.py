"""Registers ``polyenv/Tribes-v0`` with Gymnasium, without importing Gymnasium early.

``import polyenv`` imports this module. If Gymnasium is already imported the
environment is registered at once; otherwise a one-shot import hook registers
it right after Gymnasium's own import finishes, so ``import polyenv`` stays as
fast as before and ``gym.make("polyenv/Tribes-v0")`` works whichever of the
two packages is imported first. :func:`register` can also be called directly.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys

__all__ = ["ENV_ID", "register"]

#: The Gymnasium id polyenv registers.
ENV_ID = "polyenv/Tribes-v0"


def register() -> None:
    """Registers ``polyenv/Tribes-v0`` (single env and native vector entry points); idempotent."""
    import gymnasium

    if ENV_ID in gymnasium.registry:
        return
    gymnasium.register(
        id=ENV_ID,
        entry_point="polyenv.envs.gym_env:TribesEnv",
        vector_entry_point="polyenv.vector:TribesVectorEnv",
    )


class _RegisteringLoader(importlib.abc.Loader):
    """Runs Gymnasium's own loader, then :func:`register`; everything else is delegated."""

    def __init__(self, inner):
        self._inner = inner

    def create_module(self, spec):
        return self._inner.create_module(spec)

    def exec_module(self, module):
        self._inner.exec_module(module)
        register()

    def __getattr__(self, name):
        return getattr(self._inner, name)


class _GymnasiumImportHook(importlib.abc.MetaPathFinder):
    """Finds ``gymnasium`` with the regular finders and wraps its loader (once)."""

    def find_spec(self, fullname, path, target=None):
        if fullname != "gymnasium":
            return None
        _remove_hook()  # one shot; the lookup below then uses the remaining finders
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _RegisteringLoader(spec.loader)
        return spec


def _remove_hook() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _GymnasiumImportHook)]


def _install() -> None:
    if "gymnasium" in sys.modules and hasattr(sys.modules["gymnasium"], "registry"):
        register()
    elif not any(isinstance(f, _GymnasiumImportHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _GymnasiumImportHook())


_install()
