"""A griffe extension for the API reference (mkdocs.yml loads it): it reads polyenv's sources the way
a reader of ``help()`` sees them, statically, so the site builds without compiling the package.

* ``name = property(lambda self: ..., doc="...")`` becomes a property with that docstring (the
  compact form the classes use for read-only attributes); ``alias = other`` inside a class takes
  the docstring of the property it names.
* ``Name = _core.Name`` (a class or function of the compiled module, documented by its stub
  ``polyenv/_core.pyi``) becomes an alias of ``polyenv._core.Name``.
* A ``#:`` comment on the lines above an assignment is its docstring (Sphinx's form; griffe reads only a
  string after the assignment).
* Sphinx roles in docstrings (``:class:`polyenv.GameEnv```) become inline code: Markdown has no roles.
"""

from __future__ import annotations

import ast
import re

import griffe

_ROLE = re.compile(r":(?:class|func|mod|attr|meth|data|exc|obj):`~?([^`]+)`")


def _property_doc(node) -> str | None:
    """The ``doc=`` of ``property(...)`` assigned by ``node``, or None."""
    value = getattr(node, "value", None)
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "property"):
        return None
    for keyword in value.keywords:
        if keyword.arg == "doc":
            try:
                return ast.literal_eval(keyword.value)
            except ValueError:
                return None
    return ""


def _comment_doc(lines: list[str], lineno: int) -> str:
    """The ``#:`` comment lines right above line ``lineno`` (1-based), joined."""
    found = []
    k = lineno - 2
    while k >= 0 and lines[k].strip().startswith("#:"):
        found.append(lines[k].strip()[2:].strip())
        k -= 1
    return " ".join(reversed(found))


class PolyenvDocs(griffe.Extension):
    """See the module docstring."""

    def on_attribute_instance(self, *, node, attr, agent, **kwargs) -> None:
        if attr.docstring is None and isinstance(node, ast.AST) and hasattr(agent, "code"):
            comment = _comment_doc(agent.code.splitlines(), node.lineno)
            if comment:
                attr.docstring = griffe.Docstring(comment, parent=attr)
        doc = _property_doc(node) if isinstance(node, ast.AST) else None
        if doc is not None:
            attr.docstring = griffe.Docstring(doc, parent=attr) if doc else None
            attr.labels.difference_update({"class-attribute", "instance-attribute"})
            attr.labels.add("property")
            attr.value = None

    def on_class_members(self, *, node, cls, agent, **kwargs) -> None:
        for member in cls.members.values():
            if not member.is_alias and "property" in member.labels:
                member.labels.difference_update({"class-attribute", "instance-attribute"})
        for name, member in list(cls.members.items()):
            if member.is_alias or not member.is_attribute or member.docstring is not None:
                continue
            target = cls.members.get(str(member.value)) if member.value is not None else None
            if target is not None and not target.is_alias and "property" in target.labels:
                member.docstring = griffe.Docstring(target.docstring.value, parent=member) if target.docstring else None
                member.labels = set(target.labels)
                member.value = None

    def on_module_members(self, *, node, mod, agent, **kwargs) -> None:
        for name, member in list(mod.members.items()):
            if member.is_alias or not member.is_attribute or member.value is None:
                continue
            value = str(member.value)
            if value.startswith("_core.") and value[len("_core."):][:1].isupper():
                target = value[len("_core."):]
                if target.upper() != target:  # a class or function, not a constant table
                    mod.set_member(name, griffe.Alias(name, f"polyenv._core.{target}", lineno=member.lineno,
                                                      endlineno=member.endlineno, parent=mod))

    def on_package(self, *, pkg, loader, **kwargs) -> None:
        stack = [pkg]
        while stack:
            obj = stack.pop()
            if obj.docstring is not None and ":" in obj.docstring.value:
                obj.docstring.value = _ROLE.sub(lambda m: f"`{m.group(1)}`", obj.docstring.value)
            stack.extend(m for m in obj.members.values() if not m.is_alias)
