"""The task index: everyday programming tasks, as developers phrase them, and their APIs.

The documentation says what an API does in its own words ("Suspend execution of the calling
thread"); a developer asks for the task ("make a time delay"). A small embedding model bridges
that gap poorly, so the index lists, for the APIs people ask about most, the ways the task is
asked. It is a retrieval aid, not an answer: a matched task points at documentation units, and
the answer quotes those units. The file format (`data/python_tasks.txt`) is described in its
header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Task:
    """One task of the index.

    Attributes:
        targets: API names (`os.remove`) or sections (`page#anchor`); the first is the main one.
        phrases: How the task is asked.
    """

    targets: tuple[str, ...]
    phrases: tuple[str, ...]


class TaskFileError(ValueError):
    """The task file is malformed; the message names the line."""


def parse_tasks(text: str, *, origin: str = "tasks") -> list[Task]:
    """The tasks of a task file.

    Raises:
        TaskFileError: a phrase before any entry, or an entry without targets or phrases.
    """
    tasks: list[Task] = []
    targets: tuple[str, ...] | None = None
    phrases: list[str] = []
    start = 0

    def close() -> None:
        if targets is not None:
            if not phrases:
                raise TaskFileError(f"{origin}:{start}: entry {', '.join(targets)} has no phrases")
            tasks.append(Task(targets, tuple(phrases)))

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("=") else raw.strip()
        if not line:
            continue
        if line.startswith("="):
            close()
            start = number
            # ", " separates targets, so a target may itself be a comma (`library/string:','`).
            targets = tuple(t.strip() for t in re.split(r",\s+", line[1:]) if t.strip())
            phrases = []
            if not targets:
                raise TaskFileError(f"{origin}:{number}: an entry needs at least one target")
        elif targets is None:
            raise TaskFileError(f"{origin}:{number}: phrase before the first '= targets' line")
        else:
            phrases.append(line)
    close()
    return tasks


def load_tasks(path: Path) -> list[Task]:
    """The tasks of a task file on disk."""
    return parse_tasks(path.read_text(encoding="utf-8"), origin=str(path))
