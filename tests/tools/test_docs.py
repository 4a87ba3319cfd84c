"""The documentation is part of the product (docs/development.md, "The documentation"):

* every ```python block of README.md and docs/*.md runs, and every ```bash / ```sh block line by line;
* every inline ``name(...)`` span naming a polyenv callable fits its signature (and shows its defaults
  when written in signature form), and every dotted ``polyenv.x.y`` span exists;
* every public name (``polyenv.__all__``, the public modules' ``__all__``, the public methods and
  properties of their classes) has a docstring;
* README, docs and polyenv/ (sources, docstrings, the CLI's help) contain no internal jargon, machine
  paths, issue numbers or commit hashes.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import inspect
import io
import pkgutil
import re
import subprocess
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("**/*.md"))
#: Folders of the checkout a block may use by their relative path (linked into its working directory).
CHECKOUT_PATHS = ("examples", "benchmarks", "tools", "polyenv/levels")
RUN_LANGUAGES = {"python": "python", "bash": "shell", "sh": "shell"}
MARKER = re.compile(r"^<!--\s*(continue|no-run|requires|test)\s*(?::\s*(.*?))?\s*-->$")


# ---------------------------------------------------------------------------- blocks and markers
@dataclass
class Block:
    path: Path
    line: int
    language: str
    code: str
    markers: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def _blocks(path: Path) -> list[Block]:
    """The fenced blocks of a page with the markers on the lines just above each."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```(\w*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        markers, k = {"test": []}, i - 1
        while k >= 0 and MARKER.match(lines[k].strip()):
            kind, value = MARKER.match(lines[k].strip()).groups()
            if kind == "test":
                markers["test"].insert(0, value)
            else:
                markers[kind] = value if value is not None else True
            k -= 1
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith("```"):
            j += 1
        indent = len(fence.group(1))
        code = "\n".join(line[indent:] for line in lines[i + 1:j]) + "\n"
        blocks.append(Block(path, i + 1, fence.group(2), code, markers))
        i = j + 1
    return blocks


ALL_BLOCKS = [b for page in PAGES for b in _blocks(page)]
RUN_BLOCKS = [b for b in ALL_BLOCKS if b.language in RUN_LANGUAGES]


def _substituted(block: Block) -> str:
    code = block.code
    for rule in block.markers["test"]:
        m = re.fullmatch(r"s/(.*?)/(.*?)/", rule or "")
        assert m, f"{block.id}: a test marker is written <!-- test: s/OLD/NEW/ -->, got {rule!r}"
        assert m.group(1) in code, f"{block.id}: the test marker's text {m.group(1)!r} is not in the block"
        code = code.replace(m.group(1), m.group(2))
    return code


@pytest.fixture
def checkout_dir(tmp_path, monkeypatch):
    """A fresh working directory where the checkout's examples/, benchmarks/, tools/ and levels resolve."""
    for rel in CHECKOUT_PATHS:
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / rel).exists():
            target.symlink_to(ROOT / rel, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_markers_are_well_formed():
    for block in ALL_BLOCKS:
        if "no-run" in block.markers:
            assert isinstance(block.markers["no-run"], str) and block.markers["no-run"], \
                f"{block.id}: <!-- no-run: REASON --> needs its reason"
        if "continue" in block.markers:
            assert block.language == "python", f"{block.id}: only python blocks continue"
            assert [b for b in RUN_BLOCKS if b.path == block.path and b.line < block.line
                    and b.language == "python"], f"{block.id}: <!-- continue --> without a previous python block"
        if block.markers.get("requires") is not None:
            assert isinstance(block.markers["requires"], str), f"{block.id}: <!-- requires: MODULE -->"


#: The namespace of each page's last python block that ran (for <!-- continue -->).
_LAST_NAMESPACE: dict = {}


@pytest.mark.parametrize("block", RUN_BLOCKS, ids=lambda b: b.id)
def test_code_block_runs(block, checkout_dir):
    if "no-run" in block.markers:
        pytest.skip(f"not run: {block.markers['no-run']}")
    for module in (block.markers.get("requires") or "").replace(",", " ").split():
        pytest.importorskip(module)
    code = _substituted(block)
    if RUN_LANGUAGES[block.language] == "python":
        if "continue" in block.markers:
            previous = _LAST_NAMESPACE.get(block.path)
            if previous is None:
                pytest.skip("continues a block that did not run")  # its own failure is reported there
            namespace = previous
        else:
            namespace = {"__name__": "__docs__"}
        _LAST_NAMESPACE.pop(block.path, None)
        exec(compile(code, block.id, "exec"), namespace)  # noqa: S102  (the documentation's own code)
        _LAST_NAMESPACE[block.path] = namespace
    else:
        _run_shell(block, code)


def _shell_commands(code: str) -> list[str]:
    commands, current = [], ""
    for line in code.splitlines():
        stripped = line.split(" #")[0].rstrip() if not line.lstrip().startswith("#") else ""
        if not stripped.strip() and not current:
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        commands.append((current + stripped).strip())
        current = ""
    return [c for c in commands if c]


def _run_shell(block: Block, code: str) -> None:
    # `python` and `polyenv` are this interpreter, so the commands test what the suite tests.
    prelude = f'python() {{ "{sys.executable}" "$@"; }}; polyenv() {{ "{sys.executable}" -m polyenv "$@"; }}; '
    for command in _shell_commands(code):
        done = subprocess.run(["bash", "-c", prelude + command], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (f"{block.id}: `{command}` exited with {done.returncode}\n"
                                      f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}")


# ---------------------------------------------------------------------------- names and signatures
def _spans() -> list[tuple[str, str]]:
    """Every inline code span outside fenced blocks, as (page:line, text)."""
    out = []
    for page in PAGES:
        fenced = False
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip().startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            for m in re.finditer(r"(?<!`)`([^`]+)`(?!`)", line):
                out.append((f"{page.relative_to(ROOT)}:{n}", m.group(1).strip()))
    return out


def _public_module_names() -> list[str]:
    """polyenv and every module under it whose dotted name has no part starting with an underscore."""
    names = ["polyenv"]
    for info in pkgutil.walk_packages([str(ROOT / "polyenv")], "polyenv."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return names


PUBLIC_MODULES = _public_module_names()
#: Short names the pages use for modules.
MODULE_ALIASES = {"tribes_aec_v0": "polyenv.envs.tribes_aec", "bots": "polyenv.bots", "polyenv": "polyenv"}
#: Prefixes of calls that are not polyenv's (left alone).
FOREIGN = {"gym", "gymnasium", "np", "numpy", "torch", "ray", "ss", "supersuit", "pettingzoo", "wrappers",
           "math", "os", "sys", "json", "tune", "algo", "config", "model", "PPO", "MaskablePPO", "VecMonitor",
           "GymWrapper", "PettingZooWrapper", "PettingZooEnv", "DummyVectorEnv", "TransformedEnv"}


def _import(name: str):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _get(module, name: str):
    """``getattr`` that gives None for a name needing an optional dependency (polyenv.distributed without Ray)."""
    try:
        return getattr(module, name, None)
    except ImportError:
        return None


@lru_cache(maxsize=None)
def _modules() -> tuple:
    return tuple(m for m in (_import(name) for name in PUBLIC_MODULES) if m is not None)


def _resolve(path: str):
    """The object a dotted path from polyenv names, or None; ``KeyError`` when it names nothing."""
    parts = path.split(".")
    for k in range(len(parts), 0, -1):
        module = _import(".".join(parts[:k])) if parts[0] == "polyenv" else None
        if module is None:
            continue
        obj = module
        for part in parts[k:]:
            try:
                obj = getattr(obj, part)
            except ImportError:  # a name that needs an optional dependency: it must still be declared
                if part in getattr(obj, "__all__", ()):
                    return None
                raise KeyError(path) from None
            except AttributeError:
                raise KeyError(path) from None
        return obj
    raise KeyError(path)


@lru_cache(maxsize=None)
def _public_classes() -> tuple:
    classes = []
    for module in _modules():
        for name in getattr(module, "__all__", ()):
            obj = _get(module, name)
            if inspect.isclass(obj) and obj not in classes:
                classes.append(obj)
    return tuple(classes)


def _callables(name: str) -> list:
    """Candidate polyenv callables for a span's callee ``name``."""
    parts = name.split(".")
    if parts[0] in FOREIGN:
        return []
    if parts[0] in MODULE_ALIASES:
        try:
            obj = _resolve(".".join([MODULE_ALIASES[parts[0]]] + parts[1:]))
        except KeyError:
            if parts[0] == "polyenv":
                raise
            obj = None
        if obj is not None:
            return [obj]
    found = []
    classes = _public_classes()
    if len(parts) >= 2 and parts[-2][:1].isupper():   # Class.method
        found = [getattr(c, parts[-1]) for c in classes if c.__name__ == parts[-2] and hasattr(c, parts[-1])]
    elif len(parts) == 1 and parts[0][:1].isupper():  # Class(...)
        found = [c for c in classes if c.__name__ == parts[0]]
        found += [_get(m, parts[0]) for m in _modules() if parts[0] in getattr(m, "__all__", ())
                  and not inspect.isclass(_get(m, parts[0])) and callable(_get(m, parts[0]))]
    else:  # a method on an instance (env.step), or a function of a public module
        method = parts[-1]
        found = [getattr(c, method) for c in classes if method in vars(c) or
                 any(method in vars(b) for b in c.__mro__[1:] if b.__module__.startswith("polyenv"))]
        for module in _modules():
            obj = _get(module, method) if method in getattr(module, "__all__", ()) else None
            if callable(obj) and not inspect.isclass(obj):
                found.append(obj)
    return found


def _signature(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    params = list(sig.parameters.values())
    if inspect.isfunction(obj) and params and params[0].name in ("self", "cls") and "." in obj.__qualname__:
        sig = sig.replace(parameters=params[1:])
    return sig


_MISSING = object()


def _literal(node):
    """The value of a literal argument; ``...`` and expressions are not literals."""
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return _MISSING
    return _MISSING if value is Ellipsis else value


def _check_call(where: str, text: str) -> str | None:
    """None, or what is wrong with a span ``name(args)``."""
    m = re.fullmatch(r"([A-Za-z_][\w.]*)\((.*)\)", text)
    if not m:
        return None
    try:
        call = ast.parse(f"_f({m.group(2)})", mode="eval").body
    except SyntaxError:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    try:
        candidates = [c for c in _callables(m.group(1)) if _signature(c) is not None]
    except KeyError:
        return f"{where}: `{text}`: {m.group(1)} does not exist"
    if not candidates:
        return None
    args = [a for a in call.args if not (isinstance(a, ast.Constant) and a.value is Ellipsis)]
    keywords = {k.arg: k.value for k in call.keywords}
    problems = []
    for obj in candidates:
        sig = _signature(obj)
        try:
            sig.bind_partial(*range(len(args)), **dict.fromkeys(keywords))
        except TypeError as e:
            problems.append(f"{getattr(obj, '__qualname__', obj)}{sig}: {e}")
            continue
        names = list(sig.parameters)
        signature_form = all(isinstance(a, ast.Name) and i < len(names) and a.id == names[i]
                             for i, a in enumerate(args)) and \
            all(_literal(v) is not _MISSING for v in keywords.values()) and (args or len(keywords) >= 2)
        wrong = []
        if signature_form:
            for key, value in keywords.items():
                if key not in sig.parameters:
                    continue  # taken by **kwargs
                default = sig.parameters[key].default
                if default is inspect.Parameter.empty or default != _literal(value):
                    wrong.append(f"{key}={ast.unparse(value)} (the default is "
                                 f"{'none' if default is inspect.Parameter.empty else repr(default)})")
        if not wrong:
            return None
        problems.append(f"{getattr(obj, '__qualname__', obj)}{sig}: " + ", ".join(wrong))
    return f"{where}: `{text}` does not fit: " + "; ".join(problems)


def test_documented_calls_fit_their_signatures():
    problems = [p for where, text in _spans() if (p := _check_call(where, text))]
    assert not problems, "\n".join(problems)


def test_documented_dotted_names_exist():
    problems = []
    for where, text in _spans():
        name = re.sub(r"\[.*\]$|\(.*\)$", "", text)
        if not re.fullmatch(r"polyenv(\.[A-Za-z_]\w*)+", name) or name.startswith("polyenv.envs.tribes_aec_v0."):
            continue
        try:
            _resolve(name)
        except KeyError:
            problems.append(f"{where}: `{text}` does not exist")
    assert not problems, "\n".join(problems)


def test_the_signature_check_can_fail():
    assert _check_call("x", "GameEnv(seed=0, map_size=12)")            # a wrong default
    assert _check_call("x", "GameEnv.blank(map_size, players, colour=1)")  # no such keyword
    assert _check_call("x", "polyenv.bots.play(game, bot, seed, 4)")   # too many positional arguments
    assert _check_call("x", "polyenv.no_such_function(1)")
    assert _check_call("x", "GameEnv(seed=0, map_size=11)") is None
    assert _check_call("x", "reset(seed=1234)") is None                # a call, not a signature


# ---------------------------------------------------------------------------- docstrings
def _assigned_docstring(module_name: str, name: str, seen=()) -> bool | None:
    """Whether the module-level assignment of ``name`` has a docstring (a string after it or ``#:``
    comments above it), following ``from .x import name``; None when no assignment is found."""
    module = _import(module_name)
    path = getattr(module, "__file__", None)
    if not path or not path.endswith(".py") or module_name in seen:
        return None
    source = Path(path).read_text(encoding="utf-8")
    tree, lines = ast.parse(source), source.splitlines()
    for i, node in enumerate(tree.body):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        names = [t.id for t in targets if isinstance(t, ast.Name)] + [
            e.id for t in targets if isinstance(t, ast.Tuple) for e in t.elts if isinstance(e, ast.Name)]
        if name in names:
            after = tree.body[i + 1] if i + 1 < len(tree.body) else None
            if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) and isinstance(
                    after.value.value, str):
                return True
            return lines[node.lineno - 2].strip().startswith("#:") if node.lineno >= 2 else False
        if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), module.__package__) \
                if node.level else node.module
            original = next(a.name for a in node.names if (a.asname or a.name) == name)
            return _assigned_docstring(base, original, seen + (module_name,))
    return None


def _own_doc(obj) -> str | None:
    if inspect.isclass(obj):
        return obj.__dict__.get("__doc__")
    return getattr(obj, "__doc__", None)


#: Tribe constants, documented together in the package docstring and on the GameEnv page.
TRIBE_CONSTANTS = {"XinXi", "Imperius", "Bardur", "Oumaji", "Kickoo", "Hoodrick", "Luxidoor", "Vengir", "Zebasi",
                   "AiMo", "Quetzali", "Yadakk"}


def test_every_public_name_has_a_docstring():
    missing = []
    for module in _modules():
        if not (module.__doc__ or "").strip():
            missing.append(f"module {module.__name__}")
        for name in getattr(module, "__all__", ()):
            try:
                obj = getattr(module, name)
            except ImportError:
                continue
            where = f"{module.__name__}.{name}"
            if inspect.ismodule(obj):
                continue  # checked as a module
            if inspect.isclass(obj) or inspect.isroutine(obj):
                if not (_own_doc(obj) or "").strip():
                    missing.append(where)
                if inspect.isclass(obj):
                    missing += _undocumented_members(obj, where)
            elif name not in TRIBE_CONSTANTS and _assigned_docstring(module.__name__, name) is False:
                missing.append(where)
    assert not missing, "public names without a docstring:\n" + "\n".join(sorted(set(missing)))


def _undocumented_members(cls, where: str) -> list[str]:
    out = []
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if isinstance(member, property) or inspect.isroutine(member) or type(member).__name__ in (
                "instancemethod", "property"):
            if not (getattr(member, "__doc__", None) or "").strip():
                out.append(f"{where}.{name}")
    return out


# ---------------------------------------------------------------------------- jargon
JARGON = [
    (re.compile(r"\bseed[ -]?00\d", re.I), "an internal document name (seed 00x)"),
    (re.compile(r"\blanding\b", re.I), "'landing'"),
    (re.compile(r"(?<![\w.~-])/(?:work|root|home|tmp)/"), "an absolute machine path"),
    (re.compile(r"\bissue\s*#?\d", re.I), "an issue number"),
    (re.compile(r"(?<![\w#])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w])"), "a commit hash"),
    (re.compile(r"\bload average\b|\(load \d", re.I), "a note on machine load"),
]


def _jargon(text: str, where: str) -> list[str]:
    return [f"{where}:{text.count(chr(10), 0, m.start()) + 1}: {what}: {m.group(0)!r}"
            for pattern, what in JARGON for m in pattern.finditer(text)]


def test_no_jargon_in_readme_docs_and_sources():
    files = PAGES + sorted(p for p in (ROOT / "polyenv").rglob("*") if p.suffix in (".py", ".pyi", ".md"))
    hits = [h for f in files for h in _jargon(f.read_text(encoding="utf-8"), str(f.relative_to(ROOT)))]
    assert not hits, "\n".join(hits)


def test_no_jargon_in_docstrings_and_cli_help():
    texts = []
    for module in _modules():
        texts.append((module.__name__, module.__doc__ or ""))
        for name in getattr(module, "__all__", ()):
            try:
                obj = getattr(module, name)
            except ImportError:
                continue
            texts.append((f"{module.__name__}.{name}", _own_doc(obj) or ""))
            if inspect.isclass(obj):
                texts += [(f"{module.__name__}.{name}.{k}", getattr(v, "__doc__", None) or "")
                          for k, v in vars(obj).items() if not k.startswith("_")]
    import argparse
    from polyenv import cli
    subcommands = next(a.choices for a in cli._parser()._actions if isinstance(a, argparse._SubParsersAction))
    for command in [[]] + [[name] for name in subcommands]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert cli.main(command + ["--help"]) == 0
        texts.append((f"polyenv {' '.join(command)} --help", out.getvalue()))
    hits = [h for where, text in texts for h in _jargon(text, where)]
    assert not hits, "\n".join(hits)


def test_the_jargon_check_can_fail():
    for text in ("the seed 000 layout", "this landing", "--java /work/java/x", "see issue 13", "commit 8b46b84"):
        assert _jargon(text, "x"), text
    for text in ("seed 1000", "100000000", "#1f77b4", "~/x/tmp/", "0x9e3779b97f4a7c15"):
        assert not _jargon(text, "x"), text


def test_readme_is_a_landing_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    commands = [b.code.strip() for b in _blocks(ROOT / "README.md") if b.language == "bash"][:2]
    assert commands == ['pip install . && polyenv play', 'pip install torch==2.13.0 ".[test]" && pytest']
    assert "mkdocs serve" in readme


def test_every_page_is_in_the_navigation():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").glob("**/*.md")}
    listed = set(re.findall(r":\s*([\w/.-]+\.md)\s*$", nav, re.M))
    assert pages == listed, f"not in the nav: {sorted(pages - listed)}; missing files: {sorted(listed - pages)}"
