"""``import polyenv`` from a folder without the compiled core: the source tree, unbuilt.

Python looks for ``polyenv`` first in the current folder (``python -m ...``, ``python -c``, a shell,
Ray workers, which put the driver's folder first) or in a folder a script adds, so in a clone of
the repository the source folder ``polyenv/`` hides the package ``pip install .`` installed. That
folder has no ``_core`` extension unless it was built in place; importing it used to end in
"cannot import name '_core' from partially initialized module 'polyenv' (most likely due to a
circular import)".

:func:`use_installed_if_unbuilt` runs first in ``polyenv/__init__.py``: when the core imports, it
does nothing; when this folder has no core for this Python but another ``polyenv`` on ``sys.path``
has one (the installed package), that package is imported in its place (``sys.modules["polyenv"]``
becomes it), so the commands of the README work from the checkout root; otherwise it raises an
ImportError that says what is wrong and what to do.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path


def _core_files(folder: Path) -> tuple[list[str], list[str]]:
    """(cores this Python can load, other ``_core.*`` extension files) in a package folder."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    loadable = [s for s in suffixes if (folder / f"_core{s}").is_file()]
    others = sorted(p.name for p in folder.glob("_core.*") if p.suffix in (".so", ".pyd")
                    and p.name not in {f"_core{s}" for s in suffixes})
    return [f"_core{s}" for s in loadable], others


def _installed_elsewhere(name: str, own_folder: Path):
    """The spec of the first other ``name`` package on sys.path whose folder has a loadable core, or None."""
    for entry in sys.path:
        spec = importlib.machinery.PathFinder.find_spec(name, [entry or os.getcwd()])
        if spec is None or not spec.submodule_search_locations:
            continue
        folder = Path(next(iter(spec.submodule_search_locations))).resolve()
        if folder != own_folder and _core_files(folder)[0]:
            return spec
    return None


def _missing_core_error(folder: Path, others: list[str]) -> ImportError:
    root = folder.parent
    source_tree = (root / "pyproject.toml").is_file() and (root / "CMakeLists.txt").is_file()
    what = (f"this is polyenv's source tree ({root}), not a built package"
            if source_tree else f"{folder} has no compiled core")
    wrong = (f" (found {', '.join(others)}, built for another Python; this one needs "
             f"_core{importlib.machinery.EXTENSION_SUFFIXES[0]})") if others else ""
    build = (f"cmake -S {root} -B {root / 'build'} -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build "
             f"{root / 'build'}" if source_tree else "pip install --force-reinstall polyenv")
    return ImportError(f"polyenv's compiled core is missing: {what}{wrong}, and no installed polyenv was found on "
                       f"sys.path. Install it (pip install {root if source_tree else 'polyenv'}), after which any "
                       f"folder works, or build it in place: {build}", name="polyenv._core", path=str(folder))


def use_installed_if_unbuilt(name: str, folder: str) -> None:
    """Makes ``import polyenv`` work from the package folder ``folder`` or raises ImportError (see the module).

    Returns normally in both good cases: the core of ``folder`` imports (nothing done), or another
    installed ``name`` package was imported and now stands in ``sys.modules[name]`` (the rest of the
    calling ``__init__`` then only re-binds that package's names).
    """
    own = Path(folder).resolve()
    loadable, others = _core_files(own)
    if loadable or importlib.util.find_spec(f"{name}._core") is not None:
        return  # a core to import (or a finder that provides one, as editable installs do): import errors are real
    spec = _installed_elsewhere(name, own)
    if spec is None:
        raise _missing_core_error(own, others)
    for module in [m for m in sys.modules if m.startswith(name + ".")]:  # this module: the installed copy has one
        del sys.modules[module]
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    try:
        spec.loader.exec_module(package)
    except BaseException:
        del sys.modules[name]
        raise
