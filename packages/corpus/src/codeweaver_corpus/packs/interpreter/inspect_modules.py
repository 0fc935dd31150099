"""Import a distribution's public modules and report what is reachable in them, as JSON lines.

    PYTHON inspect_modules.py REQUEST.json EVENTS.jsonl

Run by CodeWeaver (`codeweaver_corpus.packs.extract`) with the user's interpreter, in a process
of its own with a memory limit and a time limit, because importing runs the package's code.
Standard library only, Python 3.8 syntax. Static reading (griffe) cannot see what a module
only has once it runs: members of compiled modules (NumPy's ufuncs, `ndarray`'s methods),
names set with `setattr` or `globals()`, an `__all__` computed at import time, descriptors that
return a class (`pandas.Series.str`). This script walks the public names the way an attribute
lookup does and writes one event per line, flushed, so that whatever it saw before a crash or a
time-out is still read:

- `{"event": "import", "module": M}` before importing a root module;
- `{"event": "object", "path": P, "identity": I, "kind": K, ...}` for every public path;
  `identity` is the same for every path to one object (`module.qualname` where there is one),
  and `doc` and `signature` come with paths not in the request's `documented` list;
- `{"event": "failure", "module": M, "reason": R}` when a module cannot be imported or walked;
- `{"event": "done"}` at the end.

The request: `modules` (the roots, imported in order), `own` (the distribution's top-level
names: classes and functions defined elsewhere are not walked), `documented`, `skip_parts`
(module name parts never walked, e.g. `tests`), `suite_names` (`test`, `testing`: skipped when
they hold test files), `module_seconds` (time limit per root module), `memory_bytes`,
`max_paths`, `max_members` (per class) and `targets` (task targets to record even where the walk
does not reach them, after it). A class's members inherited from another
distribution's base are walked (`flask.Request.get_json` is Werkzeug's); from the standard
library's, not.
"""

# The package's code runs here: whatever it raises is recorded, never allowed to end the walk.
# ruff: noqa: BLE001

from __future__ import annotations

import os
import sys

# This file's folder is sys.path[0]; nothing of it may shadow an installed module.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]

import importlib
import inspect
import json
import re
import signal
import sysconfig
import types
import warnings
from typing import Any

_PLAIN_VALUES = (bool, int, float, complex, str, bytes, type(None), tuple, frozenset)
"""Values that equal objects share by identity (`True`, small ints): each path is its own."""
_ADDRESS = re.compile(r"(?: object)? at 0x[0-9a-fA-F]+>")
"""Where a default's repr gives its memory address (`<object object at 0x7f...>`, `<function
detrend_none at 0x7f...>`): read `<object>`, `<function detrend_none>`."""
_DOC_CHARS = 20000
"""Longest docstring reported; the pack keeps far less of it."""
_CLASS_DEPTH = 3
"""Classes nested deeper than this (or reached through that many accessors) are not walked."""


def _plain_signature(value: Any) -> str:
    """A callable's signature without annotations: `(a, b=1, *, c=None)`, as docs show it.

    A default whose repr is its memory address reads without it (`<object>`, not `<object object
    at 0x7f...>`): the address is no API, and differs from run to run.
    """
    signature = inspect.signature(value)
    bare = [p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()]
    text = str(signature.replace(parameters=bare, return_annotation=inspect.Signature.empty))
    return _ADDRESS.sub(">", text)


def _is_stdlib(module: object) -> bool:
    """Whether a module name is the standard library's (or builtins')."""
    if not isinstance(module, str):
        return True
    top = module.split(".", 1)[0]
    if top in sys.builtin_module_names:
        return True
    names = getattr(sys, "stdlib_module_names", None)
    if names is not None:
        return top in names
    # Python 3.8 and 3.9: a module loaded from the standard library's folder.
    loaded = sys.modules.get(top)
    origin = getattr(loaded, "__file__", None) or ""
    stdlib = sysconfig.get_paths()["stdlib"]
    return origin.startswith(stdlib) and "site-packages" not in origin


def _reach(dotted: str) -> tuple[object, object]:
    """The object a dotted path reaches after importing its top module, and its owner.

    Attributes first; a submodule not imported by its package is imported.

    Raises:
        LookupError: the path reaches nothing.
    """
    parts = dotted.split(".")
    found: object = importlib.import_module(parts[0])
    owner: object = None
    for depth, part in enumerate(parts[1:], start=2):
        owner = found
        try:
            found = getattr(found, part)
        except AttributeError:
            try:
                found = importlib.import_module(".".join(parts[:depth]))
            except ImportError:
                raise LookupError(dotted) from None
    return found, owner


class _TimedOut(BaseException):
    """Raised by the alarm: a BaseException, so a package's `except Exception` cannot swallow it."""


def _on_alarm(signum: int, frame: object) -> None:
    raise _TimedOut()


def _limit_memory(limit: int) -> None:
    try:
        import resource
    except ImportError:  # not a Unix: the caller's time limit still holds
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


class Walker:
    """Walks public names from root modules and writes the events."""

    def __init__(self, request: dict[str, Any], out: Any) -> None:
        self.out = out
        self.own = set(request["own"])
        self.documented = set(request.get("documented", ()))
        self.skip_parts = set(request.get("skip_parts", ()))
        self.suite_names = set(request.get("suite_names", ()))
        self.max_paths = int(request.get("max_paths", 60000))
        self.max_members = int(request.get("max_members", 400))
        self.paths = 0
        self.emitted: set[str] = set()
        self.walked: set[int] = set()
        self.first_path: dict[int, str] = {}
        self.keep: list[object] = []  # objects whose id() names them stay alive

    def emit(self, event: dict[str, Any]) -> None:
        """Write one event line, flushed: a crash right after must not lose it."""
        self.out.write(json.dumps(event) + "\n")
        self.out.flush()

    def is_own(self, module_name: object) -> bool:
        """Whether a module name is the distribution's (under one of its top-level names)."""
        return isinstance(module_name, str) and module_name.split(".", 1)[0] in self.own

    def public_module(self, path: str) -> bool:
        """Whether a module path is public (no private, test or unspellable part)."""
        return not any(
            p.startswith("_") or p in self.skip_parts or not p.isidentifier()
            for p in path.split(".")
        )

    def in_test_suite(self, module: types.ModuleType) -> bool:
        """Whether a module is (in) a test suite: a `test`/`testing` package of test files."""
        parts = module.__name__.split(".")
        for end in range(1, len(parts) + 1):
            if parts[end - 1] not in self.suite_names:
                continue
            package = sys.modules.get(".".join(parts[:end]))
            for folder in getattr(package, "__path__", None) or ():
                try:
                    names = os.listdir(folder)
                except OSError:
                    continue
                if any(
                    n == "conftest.py" or (n.startswith("test_") and n.endswith(".py"))
                    for n in names
                ):
                    return True
        return False

    def identity(self, value: object, path: str) -> str:
        """One string for every path to the same object."""
        if isinstance(value, types.ModuleType):
            return "module:" + value.__name__
        objclass = getattr(value, "__objclass__", None)
        name = getattr(value, "__name__", None)
        if inspect.isclass(objclass) and isinstance(name, str):
            return f"{objclass.__module__}.{objclass.__qualname__}.{name}"
        module = getattr(value, "__module__", None)
        qualname = getattr(value, "__qualname__", None)
        named = inspect.isclass(value) or inspect.isroutine(value)
        if named and isinstance(qualname, str) and isinstance(module, str):
            return f"{module}.{qualname}"
        if isinstance(value, _PLAIN_VALUES):
            return "path:" + path
        key = id(value)
        if key not in self.first_path:
            self.first_path[key] = path
            self.keep.append(value)
        return "value:" + self.first_path[key]

    def describe(self, value: object, kind: str) -> dict[str, Any]:
        """A value's docstring and signature, where it has them."""
        found: dict[str, Any] = {}
        doc = None
        if kind == "property":
            raw = getattr(value, "__doc__", None)
            doc = inspect.cleandoc(raw) if isinstance(raw, str) else None
        elif not (inspect.isclass(value) or inspect.isroutine(value)):
            # An instance: its own docstring (a ufunc's), never a str's or a dict's; its
            # type's when the type is the package's and it is a module's name (`pandas.NA`),
            # not a class attribute (every field of a model would read as its field type).
            own_doc = getattr(value, "__doc__", None)
            type_doc = getattr(type(value), "__doc__", None)
            if isinstance(value, _PLAIN_VALUES) or not isinstance(own_doc, str):
                doc = None
            elif own_doc != type_doc or (
                kind == "data" and self.is_own(getattr(type(value), "__module__", None))
            ):
                doc = inspect.cleandoc(own_doc)
        else:
            try:
                doc = inspect.getdoc(value)
            except Exception:
                doc = None
        if doc:
            found["doc"] = doc[:_DOC_CHARS]
        if kind not in ("module", "property", "attribute", "data") or callable(value):
            try:
                found["signature"] = _plain_signature(value)
            except Exception:
                text = getattr(value, "__text_signature__", None)
                if isinstance(text, str):
                    found["signature"] = text.replace("$self, ", "").replace("$self", "")
        return found

    def record(self, path: str, value: object, kind: str, module: str, identity: str) -> bool:
        """Write one path's event; False once `max_paths` paths are written."""
        if self.paths >= self.max_paths:
            return False
        self.paths += 1
        self.emitted.add(path)
        event: dict[str, Any] = {
            "event": "object",
            "path": path,
            "identity": identity,
            "kind": kind,
            "module": module,
        }
        try:
            if path not in self.documented:
                event.update(self.describe(value, kind))
            if inspect.isclass(value):
                event["bases"] = [
                    f"{base.__module__}.{base.__qualname__}"
                    for base in value.__mro__[1:]
                    if self.is_own(getattr(base, "__module__", None))
                ]
        except Exception:
            pass  # the path and identity are known; its docstring is not
        self.emit(event)
        return True

    def kind_of(self, value: object) -> str:
        """A module-level value's kind: class, exception, function or data."""
        if inspect.isclass(value):
            return "exception" if issubclass(value, BaseException) else "class"
        if inspect.isroutine(value) or (callable(value) and not isinstance(value, _PLAIN_VALUES)):
            return "function"
        return "data"

    def walk_module(self, path: str, module: types.ModuleType) -> list[tuple[str, object]]:
        """Record a module's public names; return the modules and classes to walk next."""
        if id(module) in self.walked:
            return []
        self.walked.add(id(module))
        self.record(path, module, "module", module.__name__, self.identity(module, path))
        exported = getattr(module, "__all__", None)
        if isinstance(exported, (list, tuple)) and all(isinstance(n, str) for n in exported):
            names = [n for n in exported if not n.startswith("_")]
        else:
            names = [n for n in dir(module) if not n.startswith("_")]
        later: list[tuple[str, object]] = []
        for name in names:
            try:
                found = self.module_member(path, module, name)
                if found is None:
                    continue
                child, value, is_module = found
                if is_module:
                    later.append((child, value))
                    continue
                defined_in = getattr(value, "__module__", None)
                if not isinstance(defined_in, str) or not self.is_own(defined_in):
                    defined_in = module.__name__
                identity = self.identity(value, child)
                kind = self.kind_of(value)
            except Exception:
                continue  # a proxy that cannot be looked at (flask.request outside a request)
            if not self.record(child, value, kind, defined_in, identity):
                break
            if inspect.isclass(value):
                later.append((child, value))
        return later

    def module_member(
        self, path: str, module: types.ModuleType, name: str
    ) -> tuple[str, object, bool] | None:
        """A module's public name as (path, value, is a module), or None if it is not ours."""
        value = getattr(module, name)
        child = f"{path}.{name}"
        if isinstance(value, types.ModuleType):
            if (
                self.is_own(value.__name__)
                and self.public_module(child)
                and not self.in_test_suite(value)
            ):
                # A module is walked once, under its own name when that is public:
                # `matplotlib.cm`, not `matplotlib.pyplot.cm` where pyplot imports it.
                own = value.__name__
                return (own if self.public_module(own) else child), value, True
            return None
        named = inspect.isclass(value) or inspect.isroutine(value)
        if named and not self.is_own(getattr(value, "__module__", None)):
            return None  # re-exported from elsewhere (typing.Any, os.path.join): not ours
        return child, value, False

    def walk_class(self, path: str, cls: type) -> list[tuple[str, object]]:
        """Record a class's public members; return the classes among them to walk next."""
        if id(cls) in self.walked:
            return []
        self.walked.add(id(cls))
        later: list[tuple[str, object]] = []
        try:
            names = sorted(n for n in dir(cls) if not n.startswith("_"))
        except Exception:
            return []
        members = 0
        for name in names:
            try:
                found = self.class_member(path, cls, name)
            except Exception:
                continue
            if found is None:
                continue
            child, value, kind, module, identity = found
            if not self.record(child, value, kind, module, identity):
                break
            if inspect.isclass(value) and self.is_own(value.__module__):
                later.append((child, value))
            members += 1
            if members >= self.max_members:
                break
        return later

    def class_member(
        self, path: str, cls: type, name: str
    ) -> tuple[str, object, str, str, str] | None:
        """A class's public member as (path, value, kind, module, identity), or None."""
        defining = next((k for k in cls.__mro__ if name in vars(k)), None)
        if defining is None or _is_stdlib(defining.__module__):
            # From the metaclass, or object, dict, Exception, threading.Thread: what the
            # Python documentation documents. A third-party base's members are this class's
            # API (`flask.Request.get_json` is Werkzeug's).
            return None
        raw = vars(defining)[name]
        try:
            value = getattr(cls, name)
        except Exception:
            value = raw
        where = f"{defining.__module__}.{defining.__qualname__}.{name}"
        identity = None
        if isinstance(raw, staticmethod):
            kind = "staticmethod"
        elif isinstance(raw, classmethod):
            kind = "classmethod"
        elif isinstance(raw, property):
            kind, value, identity = "property", raw, where
        elif inspect.isclass(value):
            kind = self.kind_of(value)
        elif inspect.isroutine(value):
            kind = "method"
        else:
            kind, identity = "attribute", where
        child = f"{path}.{name}"
        if identity is None:
            identity = self.identity(value, child)
        return child, value, kind, defining.__module__, identity

    def walk_target(self, target: str) -> None:
        """Record a task target the walk did not reach, whoever defines it.

        A curated target may be a name a package re-exports from elsewhere
        (`requests.utils.quote` is `urllib.parse.quote`): it is what the user reaches.
        """
        try:
            value, owner = _reach(target)
            if isinstance(value, types.ModuleType):
                return
            if inspect.isclass(owner):
                name = target.rsplit(".", 1)[1]
                found = self.class_member(target.rsplit(".", 1)[0], owner, name)
                if found is None:
                    return
                _, value, kind, module, identity = found
            else:
                kind = self.kind_of(value)
                module = str(getattr(value, "__module__", None) or getattr(owner, "__name__", ""))
                identity = self.identity(value, target)
        except Exception:
            return
        self.record(target, value, kind, module, identity)

    def walk(self, root: str, seconds: int) -> None:
        """Import a root module and walk what it reaches, within `seconds`."""
        self.emit({"event": "import", "module": root})
        alarm = hasattr(signal, "SIGALRM") and seconds > 0
        if alarm:
            signal.alarm(seconds)
        try:
            module = importlib.import_module(root)
            # (path, object, how many classes deep): nested classes stop at three.
            queue: list[tuple[str, object, int]] = [(root, module, 0)]
            while queue and self.paths < self.max_paths:
                path, value, depth = queue.pop(0)
                if isinstance(value, types.ModuleType):
                    queue += [(p, v, 1) for p, v in self.walk_module(path, value)]
                elif inspect.isclass(value) and depth <= _CLASS_DEPTH:
                    queue += [(p, v, depth + 1) for p, v in self.walk_class(path, value)]
        except _TimedOut:
            self.emit({"event": "failure", "module": root, "reason": f"timed out ({seconds} s)"})
        except (Exception, SystemExit) as exc:
            reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
            self.emit({"event": "failure", "module": root, "reason": reason})
        finally:
            if alarm:
                signal.alarm(0)


def main() -> None:
    """Walk the request's modules and write the events."""
    with open(sys.argv[1], encoding="utf-8") as handle:
        request = json.load(handle)
    if request.get("memory_bytes"):
        _limit_memory(int(request["memory_bytes"]))
    if hasattr(signal, "SIGALRM"):
        signal.signal(signal.SIGALRM, _on_alarm)
    warnings.simplefilter("ignore")
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        walker = Walker(request, out)
        for root in request["modules"]:
            if walker.paths >= walker.max_paths:
                break
            walker.walk(root, int(request.get("module_seconds", 20)))
        targets = [t for t in request.get("targets", ()) if t not in walker.emitted]
        if targets:
            seconds = int(request.get("module_seconds", 20))
            if hasattr(signal, "SIGALRM") and seconds > 0:
                signal.alarm(seconds)
            try:
                for target in targets:
                    walker.walk_target(target)
            except _TimedOut:
                walker.emit({"event": "failure", "module": "targets", "reason": "timed out"})
            finally:
                if hasattr(signal, "SIGALRM"):
                    signal.alarm(0)
        walker.emit({"event": "done", "paths": walker.paths})
    sys.stdout.flush()
    # Threads a package started must not keep this process alive after the report is written.
    os._exit(0)


if __name__ == "__main__":
    main()
