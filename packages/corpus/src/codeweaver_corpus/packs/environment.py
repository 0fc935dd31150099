"""The target interpreter and what it has installed.

CodeWeaver usually runs from its own virtualenv (a `uv tool` install) while the user's project
has another; the packs document the project's libraries, so everything here asks *that*
interpreter, never CodeWeaver's own: `probe` runs a small standard-library script with it
(`interpreter/probe.py`) that lists its distributions, their versions and top-level import
names, and its `sys.path`. Nothing installed is imported.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from codeweaver_corpus.packs.interpreter import PROBE_SCRIPT
from codeweaver_engine.libraries import Environment

PROBE_SECONDS = 60
ACTIVE_SECONDS = 60.0
"""How long what the active environment has installed is taken as known (`active_environment`)."""
TOOLING = frozenset({"pip", "setuptools", "wheel", "distribute", "uv", "pip-tools", "virtualenv"})
"""Distributions every environment has for installing the others: not what a user asks about."""
OWN_PREFIX = "codeweaver"
"""CodeWeaver's own distributions (`codeweaver`, `codeweaver-engine`, ...) are never packed."""


class EnvironmentError_(ValueError):
    """The interpreter or the packages asked for cannot be used; the message says why."""


@dataclass(frozen=True)
class Distribution:
    """One installed distribution.

    Attributes:
        name: Its name as pip shows it (`beautifulsoup4`).
        version: The installed version.
        import_names: Its public top-level import names (`bs4`).
        location: The folder it is installed in (site-packages).
        summary: Its one-line description.
    """

    name: str
    version: str
    import_names: tuple[str, ...]
    location: str = ""
    summary: str = ""

    @property
    def key(self) -> str:
        """The name normalised as packaging does (`Flask-SQLAlchemy` -> `flask-sqlalchemy`)."""
        return normalized(self.name)


@dataclass(frozen=True)
class TargetEnvironment:
    """A Python interpreter and its distributions.

    Attributes:
        python: The interpreter's executable, as given.
        executable: `sys.executable` as the interpreter reports it.
        prefix: Its `sys.prefix` (the virtualenv's folder).
        version: Its Python version (`3.11.7`).
        path: Its `sys.path` (existing folders): where static reading looks for packages.
        distributions: What is installed, by normalised name.
    """

    python: Path
    executable: str
    prefix: str
    version: str
    path: tuple[str, ...]
    distributions: Mapping[str, Distribution]


def normalized(name: str) -> str:
    """A distribution name as packaging compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def probe(python: Path, *, seconds: int = PROBE_SECONDS) -> TargetEnvironment:
    """Ask an interpreter what it has installed.

    Raises:
        EnvironmentError_: `python` is missing, not executable, or not a Python interpreter.
    """
    if not python.exists():
        raise EnvironmentError_(f"{python} does not exist")
    if python.is_dir():
        raise EnvironmentError_(
            f"{python} is a folder, not a Python interpreter (give its bin/python)"
        )
    if not os.access(python, os.X_OK):
        raise EnvironmentError_(f"{python} is not executable, so not a Python interpreter")
    try:
        completed = subprocess.run(
            [str(python), str(PROBE_SCRIPT)],
            capture_output=True,
            timeout=seconds,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except OSError as exc:
        raise EnvironmentError_(f"{python} is not a Python interpreter: {exc.strerror}") from exc
    except subprocess.TimeoutExpired as exc:
        raise EnvironmentError_(f"{python} did not answer within {seconds} s") from exc
    try:
        data = json.loads(completed.stdout)
    except ValueError:
        data = None
    if completed.returncode != 0 or not isinstance(data, dict):
        last = completed.stderr.decode(errors="replace").strip().splitlines()
        detail = f": {last[-1]}" if last else ""
        raise EnvironmentError_(
            f"{python} is not a Python interpreter CodeWeaver can read (3.8 or newer){detail}"
        )
    distributions: dict[str, Distribution] = {}
    for entry in data["distributions"]:
        dist = Distribution(
            name=entry["name"],
            version=entry["version"],
            import_names=tuple(entry["import_names"]),
            location=entry.get("location", ""),
            summary=entry.get("summary", ""),
        )
        distributions.setdefault(dist.key, dist)
    return TargetEnvironment(
        python=python,
        executable=str(data["executable"]),
        prefix=str(data["prefix"]),
        version=str(data["version"]),
        path=tuple(data["path"]),
        distributions=distributions,
    )


def is_own_environment(python: Path) -> bool:
    """Whether `python` is CodeWeaver's own interpreter (its virtualenv's or its executable)."""
    own_prefix = Path(sys.prefix).resolve()
    candidate = python.absolute()
    in_bin = candidate.parent.name in ("bin", "Scripts")
    if in_bin and candidate.parent.parent.resolve() == own_prefix:
        return True
    return candidate.resolve() == Path(sys.executable).resolve() and sys.prefix == sys.base_prefix


def default_python(environ: Mapping[str, str] | None = None) -> Path | None:
    """The interpreter `codeweaver ingest --python` reads when none is given.

    The active virtualenv (`VIRTUAL_ENV`) unless it is CodeWeaver's own, else the first
    `python3` on `PATH` that is not CodeWeaver's own; None when there is neither.
    """
    env = os.environ if environ is None else environ
    active = env.get("VIRTUAL_ENV")
    if active:
        for name in ("bin/python", "bin/python3", "Scripts/python.exe"):
            candidate = Path(active) / name
            if candidate.exists() and not is_own_environment(candidate):
                return candidate
    for folder in env.get("PATH", "").split(os.pathsep):
        found = shutil.which("python3", path=folder) if folder else None
        if found and not is_own_environment(Path(found)):
            return Path(found)
    return None


def is_tooling(dist: Distribution) -> bool:
    """Packaging tools and CodeWeaver itself: left out when no packages are named."""
    return dist.key in TOOLING or dist.key.startswith(OWN_PREFIX)


def choose(environment: TargetEnvironment, packages: Sequence[str] | None) -> list[Distribution]:
    """The distributions to pack: those named (by distribution or import name), else all.

    Without names: every distribution except `TOOLING` and CodeWeaver's own, and those with no
    importable top-level name (data-only distributions such as `tzdata` have one; they are
    kept and simply give few units).

    Raises:
        EnvironmentError_: a name matches no installed distribution; the message names what
            is installed that looks close.
    """
    installed = environment.distributions
    if not packages:
        return [d for key, d in sorted(installed.items()) if not is_tooling(d) and d.import_names]
    by_import: dict[str, Distribution] = {}
    for dist in installed.values():
        for name in dist.import_names:
            by_import.setdefault(name.lower(), dist)
    chosen: dict[str, Distribution] = {}
    missing: list[str] = []
    for given in packages:
        wanted = given.strip()
        if not wanted:
            continue
        found = installed.get(normalized(wanted)) or by_import.get(wanted.lower())
        if found is None:
            missing.append(wanted)
        else:
            chosen.setdefault(found.key, found)
    if missing:
        raise EnvironmentError_(_not_installed(missing, installed.values(), environment))
    return list(chosen.values())


def _not_installed(
    missing: Iterable[str], installed: Iterable[Distribution], environment: TargetEnvironment
) -> str:
    names = sorted({d.name for d in installed} | {n for d in installed for n in d.import_names})
    parts = []
    for wanted in missing:
        close = difflib.get_close_matches(wanted, names, n=3, cutoff=0.6)
        close += [n for n in names if wanted.lower() in n.lower() and n not in close][:3]
        hint = f" (installed and close: {', '.join(close)})" if close else ""
        parts.append(f"{wanted}{hint}")
    return f"not installed in {environment.python} (Python {environment.version}): " + "; ".join(
        parts
    )


_ACTIVE: dict[str, tuple[float, Environment | None]] = {}
_ACTIVE_LOCK = threading.Lock()


def active_environment(
    environ: Mapping[str, str] | None = None, *, seconds: float = ACTIVE_SECONDS
) -> Environment | None:
    """What the user's active environment has installed, as the offline engine reads it.

    The interpreter `codeweaver ingest --python` reads by default (`default_python`), asked by
    `probe` in a process of its own (nothing of the user's is imported here); its answer is kept
    for `seconds`. None when there is no such interpreter or it cannot be read. Blocking: call
    it off the event loop.
    """
    python = default_python(environ)
    if python is None:
        return None
    key = str(python)
    with _ACTIVE_LOCK:
        kept = _ACTIVE.get(key)
    if kept is not None and time.monotonic() - kept[0] < seconds:
        return kept[1]
    try:
        environment = probe(python, seconds=PROBE_SECONDS)
    except EnvironmentError_:
        found: Environment | None = None
    else:
        found = Environment(
            python=key,
            versions={d.key: d.version for d in environment.distributions.values()},
            import_names={
                normalized(name): d.key
                for d in environment.distributions.values()
                for name in d.import_names
            },
        )
    with _ACTIVE_LOCK:
        _ACTIVE[key] = (time.monotonic(), found)
    return found
