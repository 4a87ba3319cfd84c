"""polyenv/_core.pyi (the editors' view of the native module) lists exactly what the module exports.

Regenerate after changing a binding (developer build, ``pip install pybind11-stubgen``): the command
in docs/development.md, which keeps the private ``_testing`` submodule (test oracles) out of the stub.
"""

import ast
from pathlib import Path

from polyenv import _core


def _stub_names() -> tuple[set[str], dict[str, set[str]]]:
    tree = ast.parse((Path(__file__).parents[2] / "polyenv" / "_core.pyi").read_text())
    exported, members = set(), {}
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "__all__":
            exported = set(ast.literal_eval(node.value))
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return exported, members


def test_stub_lists_every_native_name():
    exported, _ = _stub_names()
    assert exported == {name for name in dir(_core) if not name.startswith("_")}


def test_stub_lists_every_method_of_the_native_classes():
    _, members = _stub_names()
    for cls in (_core.Game, _core.VectorEnv):
        public = {name for name in dir(cls) if not name.startswith("_") or name == "__init__"}
        # Exact equality: a stale stub entry fails as a missing one does (__init__ may be implicit).
        stub = {n for n in members[cls.__name__] if not n.startswith("_")}
        public = public - {"__init__"}
        assert public == stub, (cls.__name__, "missing from the stub:", public - stub, "stale in the stub:", stub - public)
