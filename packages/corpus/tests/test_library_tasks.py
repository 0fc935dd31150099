"""The curated library task files (`codeweaver_corpus/data/tasks/<distribution>.txt`) parse and
hold together: every entry has targets and phrasings, a phrasing is not listed twice in a file,
and every target is a dotted path under the one package the file is about."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import pytest

from codeweaver_corpus.pydocs.tasks import load_tasks

TASKS_DIR = Path(str(files("codeweaver_corpus") / "data" / "tasks"))
TASK_FILES = sorted(TASKS_DIR.glob("*.txt"))
DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")


def test_the_task_folder_holds_the_written_libraries() -> None:
    names = {path.name for path in TASK_FILES}
    assert {"numpy.txt", "matplotlib.txt", "scipy.txt"} <= names
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
    # A target works at run time after importing the file's one top-level package.
    assert len(tops) == 1, f"{path.name}: targets under several packages {sorted(tops)}"
