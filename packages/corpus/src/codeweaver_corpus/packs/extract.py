"""An installed distribution's public API as documentation units.

Static reading comes first: griffe parses the package's source (and `.pyi` stubs) without
running any of it, follows its imports and `__all__`, and resolves aliases, so
`pandas.DataFrame` is known to be `pandas.core.frame.DataFrame`. What static reading cannot
see (members of compiled modules such as NumPy's ufuncs and `ndarray`'s methods, names set at
import time, an `__all__` computed at run time, descriptors that return a class such as
`pandas.Series.str`) is found by importing the package in a subprocess of the *target*
interpreter (`interpreter/inspect_modules.py`, with a time and a memory limit). Both walks give
public paths and, for each, an identity of the object it reaches; paths that reach the same
object are one object, whichever walk saw them.

Public paths: from each top-level import name, through modules (no part starting with `_`,
none of `SKIPPED_PARTS`), a module's names (its `__all__` when it has a usable one, otherwise
every name without a leading underscore), and classes' members (own and inherited, no leading
underscore). Objects defined outside the distribution (`typing.Any` imported into a module) are
not its API.

An object's unit is named by its canonical public name: the shortest path (PLAN.md's rule),
ties broken by the distribution's own top-level name (`matplotlib`, not `pylab`), fewer hidden
module steps, the module that defines it, then the richest class for a member several classes
share. Its other paths are its aliases (at most `MAX_ALIASES`, shortest first).

A hidden module step is a submodule its parent neither lists in `__all__` nor imports
(`pandas.core`, `matplotlib.pyplot`). How many there are on the way to an object orders what a
distribution keeps when it has more than `max_units` objects: everything reached without a
hidden step first (`pandas.DataFrame.dropna`, `numpy.linalg.norm`), then by depth. Objects
behind a hidden step are kept only with a docstring, attributes only with a docstring anywhere.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib.util
import json
import logging
import os
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import griffe
from griffe import (
    Alias,
    AliasResolutionError,
    Attribute,
    Class,
    CyclicAliasError,
    Docstring,
    Function,
    GriffeLoader,
    Kind,
    ModuleFinder,
    Object,
    ParameterKind,
    Parameters,
    Parser,
)

from codeweaver_corpus.packs.docstrings import (
    Rendered,
    module_summary,
    package_style,
    render_docstring,
)
from codeweaver_corpus.packs.interpreter import INSPECT_SCRIPT
from codeweaver_engine.packs.units import DocUnit

READER_PACKAGE = "codeweaver_corpus.packs"
"""The reader's own package: its modules are the reader's folder's files."""


def reader_imports(folder: Path, package: str = READER_PACKAGE) -> list[Path]:
    """The source files of the CodeWeaver modules outside `package` that `folder`'s modules import.

    Followed from module to module: the reader's docstrings go through `pydocs.rst`, which
    reads roles with `codeweaver_engine.markup`; an edit there reads packages differently as
    surely as an edit in `folder` does.
    """
    seen: set[Path] = set()
    found: list[Path] = []
    todo = sorted(folder.rglob("*.py"))
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if not path.is_relative_to(folder):
            found.append(path)  # the folder's own files are digested as the folder's
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            todo += [
                source
                for name in names
                if not (name == package or name.startswith(f"{package}."))
                and (source := _source_of(name)) is not None
            ]
    return sorted(found)


def _source_of(name: str) -> Path | None:
    """A CodeWeaver module's source file; None for anything else (a class, another package)."""
    if not name.startswith("codeweaver"):
        return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):  # a name imported from a module, not a module
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def reader_digest(folder: Path) -> str:
    """A digest of a pack reader's code: its folder's and the modules it imports' files.

    The folder is `codeweaver_corpus/packs/`; the modules are `reader_imports(folder)`.
    """
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    for path in reader_imports(folder):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return f"reader-{digest.hexdigest()[:16]}"


@functools.cache
def extractor_version() -> str:
    """The reader's version: changes whenever the code that reads a package changes.

    So packs rebuild: a number kept by hand was not raised by four changes that gave different
    units, and a digest of the reader's folder alone missed the modules it reads docstrings
    with. Computed once, when a pack's identity is first needed (it reads and parses about
    twenty files), not by every process that imports the reader: an extraction worker never
    needs it.
    """
    return reader_digest(Path(__file__).parent)


SKIPPED_PARTS = frozenset(
    {"tests", "conftest", "_vendor", "vendor", "vendored", "_vendored", "benchmarks"}
)
"""Module name parts that are never API: test suites, vendored copies of other packages."""
SUITE_NAMES = frozenset({"test", "testing"})
"""Names of packages that are test suites when they hold `test_*.py` or `conftest.py`, and
testing helpers that are API otherwise (`numpy.testing.assert_allclose`, `django.test.Client`)."""
DEFAULT_MAX_UNITS = 5000
"""Most units one distribution gives (pandas has about 9,000 public objects; see the module)."""
MAX_MEMBERS = 300
"""Most public members read of one class."""
MAX_ALIASES = 10
"""Most other names a unit lists."""
MAX_PATHS = 48
"""Most paths kept per object while walking (the shortest are what naming needs)."""
MAX_CLASS_DEPTH = 3
"""Classes nested in classes (or reached through accessors) deeper than this are not read."""
DEFAULT_INSPECT_SECONDS = 120
DEFAULT_MODULE_SECONDS = 20
DEFAULT_INSPECT_MEMORY = 4 << 30
"""Address space of the inspecting process: NumPy's and SciPy's libraries reserve a lot."""
MODULE_CHARS = 1500
"""Most characters of a module's docstring kept in its unit."""
DEFAULT_LENGTH = 40
"""Longest default value shown in a signature; longer ones read `...`."""

_CALLABLE_KINDS = frozenset(
    {"function", "method", "classmethod", "staticmethod", "class", "exception"}
)
_ATTRIBUTE_KINDS = frozenset({"attribute", "data", "property"})
_EXCEPTION_BASES = frozenset({"Exception", "BaseException", "Warning", "ValueError"})

logging.getLogger("griffe").setLevel(logging.CRITICAL)


@dataclass(frozen=True)
class Request:
    """What to extract.

    Attributes:
        name: The distribution (`pandas`).
        version: Its installed version.
        import_names: Its top-level import names (`["pandas"]`).
        search_paths: Where the target interpreter imports from (its `sys.path`).
        python: The target interpreter, for inspection; None reads statically only.
        max_units: Most units to keep.
        targets: Task targets to resolve to units (`pandas.Series.str.contains`).
        inspect_seconds: Time limit of the inspecting process.
        module_seconds: Time limit of one module's import and walk while inspecting.
        inspect_memory: Address-space limit of the inspecting process, in bytes.
    """

    name: str
    version: str
    import_names: tuple[str, ...]
    search_paths: tuple[str, ...]
    python: str | None = None
    max_units: int = DEFAULT_MAX_UNITS
    targets: tuple[str, ...] = ()
    inspect_seconds: int = DEFAULT_INSPECT_SECONDS
    module_seconds: int = DEFAULT_MODULE_SECONDS
    inspect_memory: int = DEFAULT_INSPECT_MEMORY

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Request:
        """A request from its JSON form (`as_json`)."""
        return cls(
            **{
                **data,
                "import_names": tuple(data["import_names"]),
                "search_paths": tuple(data["search_paths"]),
                "targets": tuple(data.get("targets", ())),
            }
        )

    def as_json(self) -> dict[str, Any]:
        """The request as JSON-ready data."""
        return {
            "name": self.name,
            "version": self.version,
            "import_names": list(self.import_names),
            "search_paths": list(self.search_paths),
            "python": self.python,
            "max_units": self.max_units,
            "targets": list(self.targets),
            "inspect_seconds": self.inspect_seconds,
            "module_seconds": self.module_seconds,
            "inspect_memory": self.inspect_memory,
        }


@dataclass
class Extraction:
    """The units of one distribution and what went wrong on the way.

    Attributes:
        units: The documentation units, in walk order.
        failures: What could not be read, one line each (`pandas.io.clipboards: ImportError:
            ...`); the units are what could.
        targets: Each requested task target and the unit name it resolves to (None: the
            installed version has no such object).
        style: The docstring style detected for the package.
        stats: Counts of the walk (`objects`, `kept`, `capped`, `runtime_paths`, seconds).
    """

    units: list[DocUnit]
    failures: list[str] = field(default_factory=list)
    targets: dict[str, str | None] = field(default_factory=dict)
    style: str = ""
    stats: dict[str, float] = field(default_factory=dict)


class _Finder(ModuleFinder):
    """griffe's module finder, without test suites and vendored packages; notes compiled modules."""

    def __init__(self, search_paths: Iterable[str]) -> None:
        super().__init__([Path(p) for p in search_paths])
        self.compiled: list[str] = []

    def submodules(self, module: griffe.Module) -> list[tuple[tuple[str, ...], Path]]:
        found = []
        for parts, path in super().submodules(module):
            if SKIPPED_PARTS.intersection(parts) or _in_test_suite(parts, path):
                continue
            if path.suffix not in (".py", ".pyi") and path.name != "__init__.py":
                dotted = ".".join((module.path, *parts))
                if not _hidden_name(dotted):
                    self.compiled.append(dotted)
            found.append((parts, path))
        return found


def holds_tests(folder: Path) -> bool:
    """Whether a package folder is a test suite: it holds `test_*.py` or `conftest.py`."""
    try:
        return any(
            entry.name == "conftest.py"
            or (entry.name.startswith("test_") and entry.suffix == ".py")
            for entry in folder.iterdir()
        )
    except OSError:
        return False


def _in_test_suite(parts: tuple[str, ...], path: Path) -> bool:
    """Whether a submodule (its name parts below the package, its file) is in a test suite."""
    # The folders of the name's packages: all of them for an `__init__.py`, but the module.
    depth = len(parts) if path.stem == "__init__" else len(parts) - 1
    return any(
        folder.name in SUITE_NAMES and holds_tests(folder) for folder in path.parents[:depth]
    )


def _hidden_name(dotted: str) -> bool:
    """Whether a dotted name is private, a test suite's, or no import can spell it (`0002_x`)."""
    return any(
        part.startswith("_") or part in SKIPPED_PARTS or not part.isidentifier()
        for part in dotted.split(".")
    )


class _Identities:
    """Union-find over object identities: two identities one path reaches are one object."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, item: str) -> str:
        parent = self.parent.setdefault(item, item)
        while parent != self.parent[parent]:
            self.parent[parent] = self.parent[self.parent[parent]]
            parent = self.parent[parent]
        self.parent[item] = parent
        return parent

    def union(self, a: str, b: str) -> None:
        root_a, root_b = self.find(a), self.find(b)
        if root_a != root_b:
            self.parent[max(root_a, root_b)] = min(root_a, root_b)


@dataclass
class _Seen:
    """What one walk says about one identity."""

    kind: str
    defined_in: str = ""
    """The module or class the object is defined in (its identity's container)."""
    static: Object | None = None
    doc: str | None = None
    signature: str | None = None
    members: dict[str, str] = field(default_factory=dict)
    """For a class: member name -> member identity."""
    bases: tuple[str, ...] = ()
    """For a class: the identities of the classes it inherits from (its MRO)."""


@dataclass
class _Object:
    """One object of the distribution, with every path to it."""

    root: str
    kind: str
    paths: set[str] = field(default_factory=set)
    static: Object | None = None
    doc: str | None = None
    signature: str | None = None
    defined_in: set[str] = field(default_factory=set)
    members: dict[str, str] = field(default_factory=dict)
    bases: set[str] = field(default_factory=set)


class _Walk:
    """Both walks' findings: paths, identities, and what each identity is."""

    def __init__(self, own: Iterable[str], primary: str | None) -> None:
        self.own = frozenset(own)
        self.primary = primary
        self.ids = _Identities()
        self.static_path: dict[str, str] = {}
        self.runtime_path: dict[str, str] = {}
        self.seen: dict[str, _Seen] = {}
        self.module_hidden: dict[str, int] = {}
        self.listing: set[str] = set()
        """Public module paths whose names come from a usable `__all__`."""
        self.exported: set[str] = set()
        """Paths a usable `__all__` lists (`django.urls.path`)."""
        self.public_modules: list[str] = []
        self.failures: list[str] = []

    def is_own(self, path: str) -> bool:
        return path.split(".", 1)[0] in self.own

    def note(self, identity: str, seen: _Seen) -> None:
        known = self.seen.get(identity)
        if known is None:
            self.seen[identity] = seen
            return
        known.static = known.static or seen.static
        known.doc = better_doc(known.doc, seen.doc)
        known.signature = known.signature or seen.signature
        known.defined_in = known.defined_in or seen.defined_in
        for name, member in seen.members.items():
            known.members.setdefault(name, member)
        known.bases = known.bases or seen.bases

    def add(self, path: str, identity: str, seen: _Seen, *, runtime: bool) -> None:
        self.ids.find(identity)
        self.note(identity, seen)
        paths = self.runtime_path if runtime else self.static_path
        paths.setdefault(path, identity)


def _resolved(obj: Object | Alias) -> Object | None:
    if isinstance(obj, Alias):
        try:
            return obj.final_target
        except (AliasResolutionError, CyclicAliasError, RecursionError):
            return None
    return obj


def _docstring_value(obj: Object) -> str | None:
    docstring = obj.docstring
    return docstring.value if docstring is not None and docstring.value.strip() else None


_TEMPLATE = re.compile(r"%\([A-Za-z_][\w:.]*\)s")
"""A placeholder a library fills into its docstrings when it is imported (matplotlib's
`%(_legend_kw_axes)s`, `%(Line2D:kwdoc)s`): the source holds the template, the running object
the text. Read statically, `Axes.legend` lists two of its parameters; inspected, all of them
(`frameon`, `fontsize`, `loc`, ...)."""


def templated(doc: str | None) -> bool:
    """Whether a docstring read from source still holds a placeholder filled at import time."""
    return doc is not None and _TEMPLATE.search(doc) is not None


def better_doc(first: str | None, second: str | None) -> str | None:
    """Of two docstrings of one object, the first, unless it is a template the second fills."""
    if first and second and templated(first) and not templated(second):
        return second
    return first or second


def _static_kind(obj: Object, in_class: bool) -> str:
    if obj.kind is Kind.MODULE:
        return "module"
    if obj.kind is Kind.CLASS:
        return "exception" if _is_exception(obj) else "class"
    labels = obj.labels
    if obj.kind is Kind.FUNCTION:
        if "property" in labels or "cached_property" in labels:
            return "property"
        if not in_class:
            return "function"
        if "classmethod" in labels:
            return "classmethod"
        if "staticmethod" in labels:
            return "staticmethod"
        return "method"
    if "property" in labels:
        return "property"
    return "attribute" if in_class else "data"


_MRO: dict[str, tuple[Class, ...]] = {}


def _mro(cls: Class) -> tuple[Class, ...]:
    """A class's bases in method resolution order (cached: griffe computes it afresh)."""
    if cls.path not in _MRO:
        try:
            _MRO[cls.path] = tuple(base for base in cls.mro() if isinstance(base, Class))
        except (ValueError, RecursionError, AliasResolutionError, CyclicAliasError):
            _MRO[cls.path] = ()
    return _MRO[cls.path]


def _class_parameters(cls: Class) -> Parameters:
    """The parameters of a class's nearest `__init__`, as griffe's `Class.parameters` gives them.

    griffe's own goes through `all_members`, which makes an alias of every inherited member on
    every call; this goes through the cached MRO (`_mro`). With the namer's kept keys, reading
    SQLAlchemy took 18.6 s of processor time against 24.0 s, the units the same.
    """
    init = cls.members.get("__init__")
    if init is None:
        init = next((b.members["__init__"] for b in _mro(cls) if "__init__" in b.members), None)
    if init is None:
        return Parameters()
    if isinstance(init, Function | Class | Alias):
        return init.parameters
    # An assigned `__init__` (an attribute): griffe's raises the same.
    raise AttributeError(f"{init.path} has no parameters")


def _is_exception(obj: Object) -> bool:
    if not isinstance(obj, Class):
        return False
    for cls in (obj, *_mro(obj)):
        for base in cls.bases:
            name = str(base).rsplit(".", 1)[-1]
            if name in _EXCEPTION_BASES or name.endswith(("Error", "Exception", "Warning")):
                return True
    return False


def _module_names(module: griffe.Module) -> tuple[list[str], bool]:
    """A module's public names, and whether they come from a usable `__all__`."""
    exports = module.exports
    usable = bool(exports)
    if exports is not None and not exports:
        # `__all__ = []` means nothing is public; a comprehension griffe cannot run reads as [].
        declared = module.members.get("__all__")
        value = getattr(declared, "value", None) if declared is not None else None
        usable = str(value) in ("[]", "()")
    if usable and exports is not None:
        return [e for e in exports if isinstance(e, str) and not e.startswith("_")], True
    return [n for n in module.members if not n.startswith("_")], False


def static_walk(walk: _Walk, loader: GriffeLoader, tops: Iterable[griffe.Module]) -> None:
    """Walk the public paths griffe sees, from each top-level module."""
    queue: list[tuple[str, Object, int]] = [(top.path, top, 0) for top in tops]
    walked: set[str] = set()
    for top in tops:
        walk.module_hidden[top.path] = 0
    while queue:
        path, obj, depth = queue.pop(0)
        if obj.path in walked:
            continue
        walked.add(obj.path)
        if isinstance(obj, griffe.Module):
            queue += _walk_module(walk, path, obj)
        elif isinstance(obj, Class) and depth <= MAX_CLASS_DEPTH:
            queue += [(p, o, depth + 1) for p, o in _walk_class(walk, path, obj)]


def _walk_module(walk: _Walk, path: str, module: griffe.Module) -> list[tuple[str, Object, int]]:
    if not _hidden_name(module.path):
        walk.public_modules.append(module.path)
    hidden = walk.module_hidden.setdefault(path, 0)
    walk.add(
        path,
        f"module:{module.path}",
        _Seen("module", defined_in=module.path, static=module, doc=_docstring_value(module)),
        runtime=False,
    )
    names, listed = _module_names(module)
    if listed:
        walk.listing.add(path)
        walk.exported.update(f"{path}.{name}" for name in names)
    later: list[tuple[str, Object, int]] = []
    submodules = {
        name: member
        for name, member in module.members.items()
        if isinstance(member, griffe.Module) and not _hidden_name(name)
    }
    for name in dict.fromkeys([*names, *submodules]):
        member = module.members.get(name)
        if member is None or _hidden_name(name):
            continue
        target = _resolved(member)
        if target is None or not walk.is_own(target.path):
            continue
        child = f"{path}.{name}"
        if isinstance(target, griffe.Module):
            # A submodule its parent lists or imports is part of the parent's API; one that
            # is only importable by its own path (`pandas.core`) is a hidden step.
            reached = (listed and name in names) or name in module.imports
            walk.module_hidden.setdefault(child, hidden + (0 if reached else 1))
            later.append((child, target, 0))
            continue
        kind = _static_kind(target, in_class=False)
        parent = target.parent.path if target.parent is not None else module.path
        seen = _Seen(kind, defined_in=parent, static=target, doc=_docstring_value(target))
        walk.add(child, target.path, seen, runtime=False)
        if isinstance(target, Class):
            later.append((child, target, 0))
    return later


def _class_members(cls: Class) -> dict[str, Object | Alias]:
    """A class's own and inherited members, the nearest definition first.

    griffe's `all_members` makes an alias of every inherited member of every class, which
    costs seconds in SQLAlchemy; the members of the classes of the MRO are the same objects.
    """
    members: dict[str, Object | Alias] = {}
    for klass in (cls, *_mro(cls)):
        for name, member in klass.members.items():
            members.setdefault(name, member)
    return members


def _walk_class(walk: _Walk, path: str, cls: Class) -> list[tuple[str, Object]]:
    members = _class_members(cls)
    later: list[tuple[str, Object]] = []
    own_members: dict[str, str] = {}
    for name in sorted(members):
        if name.startswith("_") or len(own_members) >= MAX_MEMBERS:
            continue
        target = _resolved(members[name])
        if target is None or not walk.is_own(target.path) or target.kind is Kind.MODULE:
            continue
        kind = _static_kind(target, in_class=True)
        parent = target.parent.path if target.parent is not None else cls.path
        seen = _Seen(kind, defined_in=parent, static=target, doc=_docstring_value(target))
        walk.add(f"{path}.{name}", target.path, seen, runtime=False)
        own_members[name] = target.path
        if isinstance(target, Class):
            later.append((f"{path}.{name}", target))
    bases = tuple(base.path for base in _mro(cls))
    walk.note(cls.path, _Seen("class", members=own_members, bases=bases))
    return later


def load_static(
    request: Request, walk: _Walk
) -> tuple[GriffeLoader, list[griffe.Module], list[str]]:
    """The distribution as griffe reads it, and its compiled public modules."""
    finder = _Finder(request.search_paths)
    loader = GriffeLoader(
        search_paths=[Path(p) for p in request.search_paths],
        allow_inspection=False,
        store_source=False,
    )
    loader.finder = finder
    tops: list[griffe.Module] = []
    for name in request.import_names:
        try:
            loaded = loader.load(name, try_relative_path=False)
        except (griffe.LoadingError, ImportError, OSError, SyntaxError, ValueError) as exc:
            walk.failures.append(f"{name}: static reading failed: {_reason(exc)}")
            continue
        if isinstance(loaded, griffe.Module):
            tops.append(loaded)
    try:
        loader.resolve_aliases(implicit=True, external=False)
    except (RecursionError, ValueError) as exc:
        walk.failures.append(f"{request.name}: alias resolution stopped: {_reason(exc)}")
    return loader, tops, finder.compiled


def _reason(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__


def inspect_runtime(request: Request, walk: _Walk, roots: list[str], documented: set[str]) -> int:
    """Walk the public paths at run time in the target interpreter; returns the paths read.

    The package's code runs here, so in a process of its own with `request.inspect_memory`
    of address space and `request.inspect_seconds` in all (`request.module_seconds` per
    root module). What it wrote before a crash or the time limit is still used; the failure
    is recorded.
    """
    if request.python is None or not roots:
        return 0
    with tempfile.TemporaryDirectory(prefix="codeweaver-inspect-") as folder:
        request_file = Path(folder, "request.json")
        events_file = Path(folder, "events.jsonl")
        request_file.write_text(
            json.dumps(
                {
                    "modules": roots,
                    "own": sorted(walk.own),
                    "documented": sorted(documented),
                    "skip_parts": sorted(SKIPPED_PARTS),
                    "suite_names": sorted(SUITE_NAMES),
                    "module_seconds": request.module_seconds,
                    "memory_bytes": request.inspect_memory,
                    "max_members": MAX_MEMBERS,
                    "targets": list(request.targets),
                }
            ),
            encoding="utf-8",
        )
        status = _run_limited(
            [request.python, str(INSPECT_SCRIPT), str(request_file), str(events_file)],
            seconds=request.inspect_seconds,
            cwd=folder,
        )
        count = 0
        current = ""
        done = False
        for event in _events(events_file):
            kind = event.get("event")
            if kind == "import":
                current = str(event["module"])
            elif kind == "failure":
                walk.failures.append(f"{event['module']}: inspection: {event['reason']}")
            elif kind == "done":
                done = True
            elif kind == "object":
                count += 1
                _add_runtime(walk, event)
        if not done:
            where = f" while importing {current}" if current else ""
            walk.failures.append(f"{request.name}: inspection {status}{where}; kept what it read")
    return count


def _events(path: Path) -> Iterator[dict[str, Any]]:
    if not path.exists():
        return
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                event = json.loads(line)
            except ValueError:
                return  # a line cut short by a crash ends the report
            if isinstance(event, dict):
                yield event


def _add_runtime(walk: _Walk, event: dict[str, Any]) -> None:
    path = str(event["path"])
    identity = str(event["identity"])
    kind = str(event["kind"])
    parent = path.rsplit(".", 1)[0]
    container = walk.runtime_path.get(parent)
    if kind in ("method", "classmethod", "staticmethod", "property", "attribute"):
        defined_in = identity.rsplit(".", 1)[0]
    else:
        defined_in = str(event.get("module") or "")
    seen = _Seen(
        kind,
        defined_in=defined_in,
        doc=event.get("doc"),
        signature=event.get("signature"),
        bases=tuple(event.get("bases", ())),
    )
    walk.add(path, identity, seen, runtime=True)
    if container is not None and walk.seen[container].kind in ("class", "exception"):
        walk.seen[container].members.setdefault(path.rsplit(".", 1)[1], identity)


def _run_limited(command: list[str], *, seconds: int, cwd: str) -> str:
    """Run a command in a session of its own; kill the whole session after `seconds`.

    Returns how it ended: `finished`, `timed out (N s)`, `crashed (signal N)`, `exited N`.
    """
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONHOME", "PYTHONSTARTUP", "PYTHONINSPECT", "DISPLAY")
    }
    env.update(
        # A library may list its names in a set's order (numpy's `__all__`): the first name of
        # an object found is the one its members are walked under (`numpy.single.bit_count` or
        # `numpy.float32.bit_count`), so the same install read twice gave two packs. One seed,
        # one order.
        PYTHONHASHSEED="0",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONWARNINGS="ignore",
        MPLBACKEND="Agg",
        OMP_NUM_THREADS="1",
        OPENBLAS_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
    )
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        code = process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        _kill_session(process)
        return f"timed out ({seconds} s)"
    finally:
        _kill_session(process)
    if code == 0:
        return "finished"
    if code < 0:
        return f"crashed (signal {-code})"
    return f"exited {code}"


def _kill_session(process: subprocess.Popen[bytes]) -> None:
    """End a process and whatever it started (its session)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


_ROUTINE_KINDS = frozenset({"function", "method", "classmethod", "staticmethod"})


def _compatible(static_kind: str, runtime_kind: str) -> bool:
    """Whether what static reading and inspection found at one path can be one object.

    Static reading guesses values (an attribute may be a ufunc or an accessor class at run
    time); it does not mistake a class for a function. A class it resolved through an import
    under `if TYPE_CHECKING:` may be something else, or nothing, at run time.
    """
    if static_kind in _ATTRIBUTE_KINDS:
        return True
    if static_kind in ("class", "exception"):
        return runtime_kind in ("class", "exception")
    if static_kind in _ROUTINE_KINDS:
        return runtime_kind in _ROUTINE_KINDS
    return static_kind == runtime_kind


def _objects(walk: _Walk) -> dict[str, _Object]:
    """Every object, its identities merged, with every path to it (derived member paths too)."""
    contradicted: set[str] = set()
    for path, identity in walk.static_path.items():
        other = walk.runtime_path.get(path)
        if other is None or other == identity:
            continue
        if _compatible(walk.seen[identity].kind, walk.seen[other].kind):
            walk.ids.union(identity, other)
        else:
            contradicted.add(path)  # what runs is what a user reaches
    objects: dict[str, _Object] = {}
    for identity, seen in walk.seen.items():
        root = walk.ids.find(identity)
        found = objects.get(root)
        if found is None:
            found = objects[root] = _Object(root, seen.kind)
        elif found.kind in _ATTRIBUTE_KINDS and seen.kind not in _ATTRIBUTE_KINDS:
            # A name static reading sees as a value may be a function or a class once it runs
            # (`numpy.add: ufunc` in a stub, `Series.str = Accessor(...)`).
            found.kind = seen.kind
        if found.static is None or (
            # `getText = get_text` in a class body is an attribute to static reading: the
            # function it names is the object, with its name, signature and docstring.
            found.static.kind is Kind.ATTRIBUTE
            and seen.static is not None
            and seen.static.kind is not Kind.ATTRIBUTE
        ):
            found.static = seen.static
        found.doc = better_doc(found.doc, seen.doc)
        found.signature = found.signature or seen.signature
        if seen.defined_in:
            found.defined_in.add(seen.defined_in)
        for name, member in seen.members.items():
            found.members.setdefault(name, walk.ids.find(member))
        found.bases.update(walk.ids.find(base) for base in seen.bases if base in walk.seen)
    for path, identity in walk.static_path.items():
        if path not in contradicted:
            objects[walk.ids.find(identity)].paths.add(path)
    for path, identity in walk.runtime_path.items():
        objects[walk.ids.find(identity)].paths.add(path)
    # A member is reached through every path of its class: `pandas.Series.str` is
    # `StringMethods`, so `pandas.Series.str.contains` is `StringMethods.contains`.
    pending = [root for root, obj in objects.items() if obj.members]
    rounds = 0
    while pending and rounds < MAX_CLASS_DEPTH + 1:
        rounds += 1
        grown: list[str] = []
        for root in pending:
            owner = objects[root]
            for name, member_root in owner.members.items():
                reached = objects.get(member_root)
                if reached is None:
                    continue
                before = len(reached.paths)
                reached.paths.update([f"{p}.{name}" for p in owner.paths])
                if len(reached.paths) > MAX_PATHS:
                    reached.paths = set(sorted(reached.paths, key=_depth_key)[:MAX_PATHS])
                if len(reached.paths) != before and reached.members:
                    grown.append(member_root)
        pending = grown
    return objects


def _depth_key(path: str) -> tuple[int, str]:
    return path.count("."), path


@dataclass(frozen=True)
class _Named:
    """An object's canonical name and what ranks it."""

    name: str
    aliases: list[str]
    hidden: int
    module: str
    owner: str | None
    exported: bool


class _Namer:
    """Chooses canonical names (see the module's docstring for the order)."""

    def __init__(self, walk: _Walk, objects: dict[str, _Object]) -> None:
        self.walk = walk
        self.objects = objects
        self.by_path: dict[str, str] = {}
        for root, obj in objects.items():
            for path in obj.paths:
                self.by_path[path] = root
        self._incidental: dict[str, int] = {}
        # Names are ranked many times over (each owner again for each of its members): the
        # keys and choices are kept.
        self._keys: dict[str, tuple[int, int, int, int, int, int]] = {}
        self._chosen: dict[int, list[str]] = {}

    def kind_at(self, path: str) -> str | None:
        root = self.by_path.get(path)
        return self.objects[root].kind if root is not None else None

    def hidden(self, path: str) -> int:
        """Hidden module steps on the way (see the module's docstring)."""
        parts = path.split(".")
        for end in range(len(parts), 0, -1):
            prefix = ".".join(parts[:end])
            if prefix in self.walk.module_hidden:
                return self.walk.module_hidden[prefix]
        return 1

    def module_of(self, path: str) -> str:
        parts = path.split(".")
        for end in range(len(parts), 0, -1):
            prefix = ".".join(parts[:end])
            if self.kind_at(prefix) == "module":
                return prefix
        return parts[0]

    def defined_here(self, path: str) -> bool:
        """Whether the object at `path` is defined in the module or class the path goes through."""
        root = self.by_path.get(path)
        if root is None or "." not in path:
            return False
        container = path.rsplit(".", 1)[0]
        container_root = self.by_path.get(container)
        defined_in = self.objects[root].defined_in
        return container in defined_in or any(
            container_root is not None and self.by_path.get(d) == container_root for d in defined_in
        )

    def incidental(self, path: str) -> int:
        """Steps where a module without `__all__` exposes a name it only imports for itself.

        `Response` in `requests.utils` is reachable but is not that module's API.
        """
        if path not in self._incidental:
            count = 0
            parts = path.split(".")
            for end in range(2, len(parts) + 1):
                container = ".".join(parts[: end - 1])
                if self.kind_at(container) != "module" or container in self.walk.listing:
                    continue
                prefix = ".".join(parts[:end])
                if self.kind_at(prefix) != "module" and not self.defined_here(prefix):
                    count += 1
            self._incidental[path] = count
        return self._incidental[path]

    def key(self, path: str) -> tuple[int, int, int, int, int, int]:
        if path not in self._keys:
            primary = self.walk.primary
            self._keys[path] = (
                int(primary is not None and path.split(".")[0] != primary),
                path.count("."),
                self.hidden(path),
                self.incidental(path),
                int(not self.defined_here(path)),
                int(not self.own_name(path)),
            )
        return self._keys[path]

    def own_name(self, path: str) -> bool:
        """Whether a path ends in the name the object was defined with.

        `get_text`, not `getText`, when a class says `getText = get_text`.
        """
        root = self.by_path.get(path)
        if root is None:
            return False
        obj = self.objects[root]
        name = obj.static.name if obj.static is not None else root.rsplit(".", 1)[-1]
        return path.rsplit(".", 1)[-1] == name

    def first_class(self, path: str) -> str | None:
        """The first class a path goes through (`pandas.Series` in `pandas.Series.str.x`)."""
        parts = path.split(".")
        for end in range(2, len(parts)):
            root = self.by_path.get(".".join(parts[:end]))
            if root is not None and self.objects[root].kind in ("class", "exception"):
                return root
        return None

    def choose(self, obj: _Object) -> list[str]:
        """The object's paths, its canonical name first.

        Among paths equal by `key`, a member several classes share goes by the most general
        of them (`bs4.Tag.decompose`, not `bs4.BeautifulSoup.decompose`: `Tag` is a base of
        `BeautifulSoup`), then by the one with most members (`pandas.Series.str.contains`,
        not `pandas.CategoricalIndex.str.contains`).
        """
        if id(obj) in self._chosen:
            return self._chosen[id(obj)]
        ranked = sorted(obj.paths, key=lambda p: (self.key(p), p))
        best = self.key(ranked[0])
        tied = [p for p in ranked if self.key(p) == best]
        if len(tied) > 1:
            firsts = {p: self.first_class(p) for p in tied}
            bases = {
                p: self.objects[f].bases if f is not None else set() for p, f in firsts.items()
            }
            general = [p for p in tied if not any(firsts[q] in bases[p] for q in tied)]

            def size(path: str) -> int:
                first = firsts[path]
                return len(self.objects[first].members) if first is not None else 0

            chosen = min(general or tied, key=lambda p: (-size(p), p))
            ranked.remove(chosen)
            ranked.insert(0, chosen)
        self._chosen[id(obj)] = ranked
        return ranked

    def name(self, obj: _Object) -> _Named:
        ranked = self.choose(obj)
        best = ranked[0]
        # Other names: where it is defined first; never a module's incidental import of it
        # (`pandas.io.stata.DataFrame`: stata.py imports DataFrame for its own use).
        others = sorted(
            (p for p in ranked[1:] if not self.incidental(p)),
            key=lambda p: (int(not self.defined_here(p)), self.hidden(p), p.count("."), p),
        )
        container = best.rsplit(".", 1)[0] if "." in best else ""
        container_root = self.by_path.get(container)
        owner = None
        if container_root is not None and self.objects[container_root].kind != "module":
            owner = self.name_of_root(container_root)
        module = best if obj.kind == "module" else self.module_of(container or best)
        return _Named(
            best,
            others[:MAX_ALIASES],
            self.hidden(best),
            module,
            owner,
            exported=best in self.walk.exported,
        )

    def name_of_root(self, root: str) -> str:
        return self.choose(self.objects[root])[0]


def _format_default(value: object) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= DEFAULT_LENGTH else "..."


def _static_signature(obj: Object, kind: str) -> str | None:
    """`(a, b=1, *, c=None)` from griffe's parameters; `self`/`cls` left out."""
    if isinstance(obj, Class):
        try:
            parameters = list(_class_parameters(obj))
        except (AliasResolutionError, CyclicAliasError, AttributeError, ValueError, RecursionError):
            return None  # an `__init__` griffe cannot read (assigned, not defined)
        if not parameters and "__init__" not in obj.members:
            return None
        drop_first = True
    elif isinstance(obj, Function):
        parameters = list(obj.parameters)
        drop_first = kind in ("method", "classmethod", "property")
    else:
        return None
    if drop_first and parameters and parameters[0].name in ("self", "cls", "mcs"):
        parameters = parameters[1:]
    parts: list[str] = []
    star_written = False
    for i, parameter in enumerate(parameters):
        pkind = parameter.kind
        if pkind is ParameterKind.keyword_only and not star_written:
            parts.append("*")
            star_written = True
        if pkind is ParameterKind.var_positional:
            parts.append(f"*{parameter.name}")
            star_written = True
        elif pkind is ParameterKind.var_keyword:
            parts.append(f"**{parameter.name}")
        elif parameter.default is not None:
            parts.append(f"{parameter.name}={_format_default(parameter.default)}")
        else:
            parts.append(parameter.name)
        following = parameters[i + 1].kind if i + 1 < len(parameters) else None
        if (
            pkind is ParameterKind.positional_only
            and following is not ParameterKind.positional_only
        ):
            parts.append("/")
    return f"({', '.join(parts)})"


def _runtime_signature(signature: str, kind: str) -> str:
    text = " ".join(signature.split())
    if kind in ("method", "classmethod") or kind in ("class", "exception"):
        for first in ("self", "cls"):
            if text.startswith(f"({first}, "):
                text = "(" + text[len(first) + 3 :]
            elif text == f"({first})":
                text = "()"
        # `(self, /, *shape)` without self leaves a marker with nothing before it.
        text = "(" + text[len("(/, ") :] if text.startswith("(/, ") else text
    return text


_DIRECTIVES = {
    "module": "module",
    "class": "class",
    "exception": "exception",
    "function": "function",
    "method": "method",
    "classmethod": "classmethod",
    "staticmethod": "staticmethod",
    "property": "property",
    "attribute": "attribute",
    "data": "data",
}


def _keep(obj: _Object, named: _Named) -> bool:
    """Whether an object becomes a unit (the module's docstring says which)."""
    if obj.doc:
        return True
    if obj.kind == "module" or obj.kind in _ATTRIBUTE_KINDS:
        return False
    return named.hidden == 0 or named.exported


_LOOKUP_NAME = re.compile(r"""(['"])(\w+)\1""")


def lookup_name(obj: Object | None) -> str | None:
    """The name a class sets for itself in a query (`lookup_name = "lte"`), read from its source.

    Django's field lookups and transforms are classes that users never name: they write the
    class's `lookup_name` after a field (`filter(price__lte=10)` is `LessThanOrEqual`). Such a
    class usually has no docstring of its own (the one it inherits, "Some lookups require
    Field.get_db_prep_value() ...", says nothing of it), so its unit quotes the assignment.
    Only a name the class assigns itself, a string literal, is read.
    """
    if not isinstance(obj, Class):
        return None
    member = obj.members.get("lookup_name")
    if not isinstance(member, Attribute) or not isinstance(member.value, str):
        return None
    found = _LOOKUP_NAME.fullmatch(member.value)
    return found[2] if found else None


def _unit(obj: _Object, named: _Named, style: Parser, module_titles: dict[str, str]) -> DocUnit:
    doc = obj.doc or ""
    rendered = render_docstring(doc, name=named.name, style=style) if doc else Rendered(text="")
    # Source first; then the forms a compiled function's docstring declares; then inspection.
    forms: list[str] = []
    if obj.kind in _CALLABLE_KINDS:
        static = _static_signature(obj.static, obj.kind) if obj.static is not None else None
        if static is not None:
            forms = [static]
        elif rendered.signatures:
            forms = rendered.signatures
        elif obj.signature:
            forms = [_runtime_signature(obj.signature, obj.kind)]
    text = rendered.text
    lookup = lookup_name(obj.static)
    if lookup is not None:
        text = f'{text}\n\n`lookup_name = "{lookup}"`'.strip()
    if obj.kind == "module" and len(text) > MODULE_CHARS:
        text = text[:MODULE_CHARS].rsplit("\n\n", 1)[0]
    signatures = [f"{named.name}{form}" for form in forms]
    if not signatures and obj.kind in _ATTRIBUTE_KINDS:
        signatures = [named.name]
    return DocUnit(
        kind="api",
        doc=named.module,
        doc_title=module_titles.get(named.module, named.module),
        section=named.owner or named.module,
        anchor=named.name,
        name=named.name,
        directive=_DIRECTIVES.get(obj.kind, "data"),
        signatures=signatures,
        text=text,
        examples=rendered.examples,
        module=named.module,
        aliases=named.aliases,
    )


def _documented(walk: _Walk) -> set[str]:
    """Paths static reading found documented (inspection needs not send their docstrings).

    A docstring that is a template (`templated`) is not: the running object's is the text.
    """
    return {
        path
        for path, identity in walk.static_path.items()
        if walk.seen[identity].doc
        and walk.seen[identity].kind != "module"
        and not templated(walk.seen[identity].doc)
    }


def _all_docstrings(walk: _Walk) -> Iterator[Docstring]:
    for seen in walk.seen.values():
        if seen.doc:
            yield Docstring(seen.doc)


def _primary(request: Request) -> str | None:
    wanted = request.name.lower().replace("-", "_").replace(".", "_")
    for name in request.import_names:
        if name.lower() == wanted:
            return name
    return request.import_names[0] if len(request.import_names) == 1 else None


def extract(request: Request) -> Extraction:
    """The distribution's units: read statically, completed by inspection, named and capped."""
    started = time.perf_counter()
    walk = _Walk(request.import_names, _primary(request))
    loader, tops, compiled = load_static(request, walk)
    static_walk(walk, loader, tops)
    static_seconds = time.perf_counter() - started
    # Every public module is imported and walked: names set at import time are in none of
    # them statically. Static tops that failed still get a runtime look.
    roots = list(
        dict.fromkeys(
            [
                *request.import_names,
                *walk.public_modules,
                *(m for m in compiled if walk.is_own(m)),
            ]
        )
    )
    runtime_paths = inspect_runtime(request, walk, roots, _documented(walk))
    inspect_seconds = time.perf_counter() - started - static_seconds
    walk_targets(walk, loader, request.targets)
    objects = _objects(walk)
    namer = _Namer(walk, objects)
    named = {root: namer.name(obj) for root, obj in objects.items() if obj.paths}
    # A curated task's target is kept whatever the limits: someone asks for it.
    wanted = resolve_targets(request.targets, walk, loader, namer, objects)
    forced = {root for root in wanted.values() if root is not None and root in named}
    candidates = [
        (root, named[root]) for root in named if root in forced or _keep(objects[root], named[root])
    ]
    candidates.sort(
        key=lambda item: (
            item[0] not in forced,
            item[1].hidden,
            item[1].name.count("."),
            item[1].name,
        )
    )
    kept = candidates[: max(request.max_units, len(forced))]
    style = package_style(_all_docstrings(walk))
    module_titles = _module_titles(objects, named)
    units = [_unit(objects[root], name, style, module_titles) for root, name in kept]
    units.sort(key=lambda u: _walk_order(u.name))
    targets = {
        target: named[root].name if root is not None and root in named else None
        for target, root in wanted.items()
    }
    _add_target_aliases(units, targets)
    forward_keywords(units)
    return Extraction(
        units=units,
        failures=_grouped(walk.failures),
        targets=targets,
        style=str(style.value),
        stats={
            "objects": float(len(named)),
            "candidates": float(len(candidates)),
            "kept": float(len(units)),
            "capped": float(len(candidates) - len(kept)),
            "runtime_paths": float(runtime_paths),
            "static_seconds": round(static_seconds, 2),
            "inspect_seconds": round(inspect_seconds, 2),
            "seconds": round(time.perf_counter() - started, 2),
        },
    )


def _grouped(failures: list[str], *, shown: int = 3) -> list[str]:
    """Failures with the same reason as one line naming a few of the modules.

    Django's modules fail alike without settings (`ImproperlyConfigured: Requested
    settings, ...`): one line with the count says it, 280 lines hide everything else.
    """
    by_reason: dict[str, list[str]] = {}
    for failure in failures:
        where, _, reason = failure.partition(": ")
        by_reason.setdefault(reason, []).append(where)
    lines = []
    for reason, places in by_reason.items():
        if len(places) == 1:
            lines.append(f"{places[0]}: {reason}")
        else:
            more = f" and {len(places) - shown} more" if len(places) > shown else ""
            lines.append(f"{len(places)} modules ({', '.join(places[:shown])}{more}): {reason}")
    return lines


def _walk_order(name: str) -> tuple[str, ...]:
    return tuple(name.split("."))


def _module_titles(objects: dict[str, _Object], named: dict[str, _Named]) -> dict[str, str]:
    """`pandas — pandas: powerful Python data analysis toolkit`: a module and its summary."""
    titles: dict[str, str] = {}
    for root, obj in objects.items():
        if obj.kind != "module" or root not in named:
            continue
        summary = module_summary(obj.doc or "")
        name = named[root].name
        titles[name] = f"{name} — {summary}" if summary and len(summary) <= 100 else name
    return titles


def resolve_targets(
    targets: Iterable[str],
    walk: _Walk,
    loader: GriffeLoader,
    namer: _Namer,
    objects: dict[str, _Object],
) -> dict[str, str | None]:
    """Each task target's object (its root identity), or None when the package has no such.

    A target is a path that works at run time (`pandas.Series.str.contains`): one either walk
    saw, a member of a class one of them names (`pandas.core.frame.DataFrame.dropna`), or any
    dotted path griffe resolves through the package's imports (`numpy._core.numeric.ones`).
    """
    resolved: dict[str, str | None] = {}
    for target in targets:
        root = namer.by_path.get(target)
        if root is None and "." in target:
            owner, member = target.rsplit(".", 1)
            owner_root = namer.by_path.get(owner)
            if owner_root is not None:
                root = objects[owner_root].members.get(member)
        if root is None:
            root = _through_griffe(target, walk, loader)
        resolved[target] = root if root is not None and root in objects else None
    return resolved


def _through_griffe(target: str, walk: _Walk, loader: GriffeLoader) -> str | None:
    obj = static_lookup(loader, target)
    if obj is None or obj.path not in walk.seen:
        return None
    return walk.ids.find(obj.path)


def static_lookup(loader: GriffeLoader, dotted: str) -> Object | None:
    """The object a dotted path reaches statically, through imports and inherited members."""
    parts = dotted.split(".")
    current: Object | Alias | None = loader.modules_collection.members.get(parts[0])
    for part in parts[1:]:
        owner = _resolved(current) if current is not None else None
        if owner is None:
            return None
        members = _class_members(owner) if isinstance(owner, Class) else owner.members
        current = members.get(part)
    return _resolved(current) if current is not None else None


def walk_targets(walk: _Walk, loader: GriffeLoader, targets: Iterable[str]) -> None:
    """Read the task targets no walk reached, through griffe.

    A curated target may name what the public walk leaves out: a member with a leading
    underscore that is documented API (`sqlalchemy.Row._asdict`, as namedtuples have).
    """
    for target in targets:
        if target in walk.static_path or target in walk.runtime_path:
            continue
        obj = static_lookup(loader, target)
        if obj is None or obj.kind is Kind.MODULE or not walk.is_own(obj.path):
            continue
        parent = obj.parent
        seen = _Seen(
            _static_kind(obj, in_class=isinstance(parent, Class)),
            defined_in=parent.path if parent is not None else "",
            static=obj,
            doc=_docstring_value(obj),
        )
        walk.add(target, obj.path, seen, runtime=False)


_KEYWORDS_ENTRY = re.compile(r"^- `\*\*\w+`[^:\n]*: (.*)$", re.MULTILINE)
"""A `**kwargs` entry of a unit's rendered Parameters list, and what it says."""
_REFERENCE = re.compile(r"`[~.]?([A-Za-z_][\w.]*?)(?:\(\))?`")
_LIST_ENTRY = re.compile(r"^- `(\w+)`", re.MULTILINE)
_SECTION = re.compile(r"\*\*(Parameters|Other parameters)\*\*\n\n(.*?)(?=\n\n\*\*|\Z)", re.DOTALL)
FORWARDED = "Other parameters"
"""The heading under which a unit lists the keywords its `**kwargs` passes on."""


def forward_keywords(units: list[DocUnit]) -> None:
    """Give a unit whose `**kwargs` are another API's keywords those keywords, in its text.

    `requests.post(url, data=None, json=None, **kwargs)` documents `**kwargs` as "Optional
    arguments that `request` takes": `cookies=`, `headers=`, `files=`, `timeout=`, `verify=`,
    what most questions about posting ask for, are documented on `requests.request` alone.
    matplotlib's `Axes.semilogx` takes "All parameters supported by `.plot`", pandas'
    `DataFrame.plot.bar` keywords "documented in `DataFrame.plot`". When the entry names one
    API of the same distribution, and that API lists parameters the unit does not, they are
    listed under "Other parameters" after the unit's own, each saying where it is documented.
    One step only: what is passed on is read from the other API's own list.
    """
    by_name: dict[str, DocUnit] = {}
    by_last: dict[str, list[DocUnit]] = {}
    for unit in units:
        if unit.kind == "api":
            for name in (unit.name, *unit.aliases):
                by_name.setdefault(name, unit)
            by_last.setdefault(unit.name.rsplit(".", 1)[-1], []).append(unit)
    own_lists = {unit.name: _listed(unit.text) for unit in units if unit.kind == "api"}
    for unit in units:
        entry = _KEYWORDS_ENTRY.search(unit.text) if unit.kind == "api" else None
        if entry is None:
            continue
        said = entry.group(1)
        found = {
            m.start(): target.name
            for m in _REFERENCE.finditer(said)
            if (target := _referenced(m.group(1), unit, by_name, by_last)) is not None
        }
        if len(set(found.values())) > 1:
            # "such as `ax`, `figsize` and `legend`, are documented in `DataFrame.plot`": the
            # API the sentence sends the reader to, not the keywords it names on the way.
            found = {at: name for at, name in found.items() if _SENDS_TO.search(said[:at])}
        if len(set(found.values())) != 1:
            continue  # none, or several the entry chooses between by argument
        target = by_name[next(iter(found.values()))]
        if target is unit:
            continue
        own = own_lists[unit.name]
        required = _required_positionals(target)
        passed = [
            f"{line} (passed on to `{target.name}`)"
            for name, line in own_lists[target.name].items()
            if name not in own and name not in required
        ]
        if passed:
            unit.text = _with_section(unit.text, passed)


_SENDS_TO = re.compile(
    r"(?:documented in|passed (?:on )?(?:in)?to|supported by|accepted by|forwarded to|that)\s*$"
)


def _required_positionals(unit: DocUnit) -> set[str]:
    """The parameters a call of the unit must give by position.

    `method` and `url` of `requests.request(method, url, **kwargs)`: whoever passes keywords on
    to it has set them.
    """
    if not unit.signatures:
        return set()
    inside = unit.signatures[0].partition("(")[2].rpartition(")")[0]
    required: set[str] = set()
    for part in inside.split(","):
        name = part.strip()
        if name.startswith("*") or "=" in name or name in ("/", ""):
            break
        required.add(name.split(":", 1)[0].strip())
    return required


def _listed(text: str) -> dict[str, str]:
    """A unit's listed parameters by name: each entry's first line."""
    found: dict[str, str] = {}
    for _, body in _SECTION.findall(text):
        for line in body.splitlines():
            match = _LIST_ENTRY.match(line)
            if match and not line.startswith("- `**"):
                found.setdefault(match.group(1), line)
    return found


def _referenced(
    reference: str,
    unit: DocUnit,
    by_name: dict[str, DocUnit],
    by_last: dict[str, list[DocUnit]],
) -> DocUnit | None:
    """The unit a reference in a docstring means, looked up from where the unit is."""
    scopes = [unit.name.rsplit(".", 1)[0]]
    while "." in scopes[-1]:
        scopes.append(scopes[-1].rsplit(".", 1)[0])
    for scope in scopes:
        if (found := by_name.get(f"{scope}.{reference}")) is not None:
            return found
    if (found := by_name.get(reference)) is not None:
        return found
    if "." not in reference:
        return None  # a bare word ends too many names (`title`: `pandas.Series.str.title`)
    # `DataFrame.plot`, `axes.Axes.plot`: a unique unit whose name ends so.
    tail = reference.rsplit(".", 1)[-1]
    matches = [u for u in by_last.get(tail, []) if u.name.endswith("." + reference)]
    return matches[0] if len(matches) == 1 else None


def _with_section(text: str, lines: list[str]) -> str:
    """The text with the lines added to its "Other parameters" list, made after the others."""
    block = "\n".join(lines)
    sections = list(_SECTION.finditer(text))
    other = next((m for m in sections if m.group(1) == FORWARDED), None)
    if other is not None:
        return text[: other.end()] + "\n" + block + text[other.end() :]
    if sections:
        at = sections[-1].end()
        return f"{text[:at]}\n\n**{FORWARDED}**\n\n{block}{text[at:]}"
    return f"{text}\n\n**{FORWARDED}**\n\n{block}"


def _add_target_aliases(units: list[DocUnit], targets: dict[str, str | None]) -> None:
    """A target that names a unit by another path becomes one of its aliases."""
    by_name = {unit.name: unit for unit in units}
    for target, name in targets.items():
        if name is None or target == name:
            continue
        unit = by_name[name]
        if target not in unit.aliases:
            unit.aliases.append(target)
