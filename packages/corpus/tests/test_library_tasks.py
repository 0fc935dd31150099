"""The curated library task files (`codeweaver_corpus/data/tasks/<distribution>.txt`) parse and
hold together: every entry has targets and phrasings, a phrasing is not listed twice in a file,
and every target is a dotted path under the one package the file is about (or one of those its
header names). A file whose header names the version its targets were checked against
("# Checked against: pandas 3.1.1") has every target resolve at run time whenever that version
is the one installed."""

from __future__ import annotations

import importlib
import re
from importlib import metadata
from importlib.resources import files
from pathlib import Path

import pytest

from codeweaver_corpus.pydocs.tasks import Task, load_tasks

TASKS_DIR = Path(str(files("codeweaver_corpus") / "data" / "tasks"))
TASK_FILES = sorted(TASKS_DIR.glob("*.txt"))
DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")
CHECKED_AGAINST = re.compile(r"^# Checked against: (\S+) (\S+)$", re.MULTILINE)
IMPORT_NAMES = re.compile(r"^# Import names: (.+)$", re.MULTILINE)


def test_the_task_folder_holds_the_written_libraries() -> None:
    names = {path.name for path in TASK_FILES}
    assert {"numpy.txt", "matplotlib.txt", "scipy.txt", "pandas.txt"} <= names
    web = {"django", "beautifulsoup4", "selenium", "requests", "flask", "sqlalchemy"}
    assert {f"{name}.txt" for name in web} <= names
    # File names are distribution names lower-cased with "-" for "-" and "_".
    assert all(re.fullmatch(r"[a-z0-9][a-z0-9.-]*\.txt", name) for name in names)


@pytest.mark.parametrize("path", TASK_FILES, ids=lambda path: path.name)
def test_every_entry_has_dotted_targets_and_distinct_phrasings(path: Path) -> None:
    tasks = load_tasks(path)
    assert tasks
    seen: dict[str, tuple[str, ...]] = {}
    tops: set[str] = set()
    for task in tasks:
        assert task.targets
        assert task.phrases
        for target in task.targets:
            assert DOTTED.fullmatch(target), f"{path.name}: {target!r} is not a dotted API path"
            tops.add(target.split(".", 1)[0])
        for phrase in task.phrases:
            key = " ".join(phrase.lower().split())
            assert key not in seen, f"{path.name}: {phrase!r} under {task.targets} and {seen[key]}"
            seen[key] = task.targets
    # A target works at run time after importing one of the distribution's top-level
    # packages: the file's one package, or those its header names ("# Import names: ...",
    # matplotlib's `mpl_toolkits`).
    declared = IMPORT_NAMES.search(path.read_text(encoding="utf-8"))
    allowed = set(declared.group(1).replace(" ", "").split(",")) if declared else None
    if allowed is None:
        assert len(tops) == 1, f"{path.name}: targets under several packages {sorted(tops)}"
    else:
        assert tops <= allowed, f"{path.name}: targets under {sorted(tops - allowed)}"


def resolve(target: str) -> object:
    """The object a dotted target names, reached the way a user's code reaches it.

    Attributes first (`pandas.Series.str.contains` after `import pandas`); a submodule the
    package does not import by itself (`matplotlib.pyplot`) is imported when the walk needs it.

    Raises:
        LookupError: the path names nothing at the installed version.
    """
    parts = target.split(".")
    found: object = importlib.import_module(parts[0])
    for depth, part in enumerate(parts[1:], start=2):
        try:
            found = getattr(found, part)
        except AttributeError:
            try:
                found = importlib.import_module(".".join(parts[:depth]))
            except ImportError:
                raise LookupError(f"{'.'.join(parts[: depth - 1])} has no {part!r}") from None
    return found


def checked_tasks(path: Path) -> list[Task]:
    """The tasks of a file whose checked version is the installed one (else the test skips)."""
    declared = CHECKED_AGAINST.search(path.read_text(encoding="utf-8"))
    if declared is None:
        pytest.skip(f"{path.name} names no checked version")
    distribution, version = declared.groups()
    try:
        installed = metadata.version(distribution)
    except metadata.PackageNotFoundError:
        pytest.skip(f"{distribution} is not installed")
    if installed != version:
        pytest.skip(f"{distribution} {installed} is installed; {path.name} names {version}")
    return load_tasks(path)


@pytest.mark.parametrize("path", TASK_FILES, ids=lambda path: path.name)
def test_every_target_resolves_in_the_checked_version(path: Path) -> None:
    unresolved = []
    for task in checked_tasks(path):
        for target in task.targets:
            try:
                resolve(target)
            except (LookupError, ImportError) as error:
                unresolved.append(str(error))
    assert not unresolved, unresolved


def test_resolution_names_what_is_missing_and_imports_submodules() -> None:
    with pytest.raises(LookupError, match="json has no 'no_such_function'"):
        resolve("json.no_such_function")
    assert (
        resolve("xml.etree.ElementTree.parse")
        is importlib.import_module("xml.etree.ElementTree").parse
    )
