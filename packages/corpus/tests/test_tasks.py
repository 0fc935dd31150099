from __future__ import annotations

import pytest

from codeweaver_corpus.pydocs.tasks import Task, TaskFileError, parse_tasks


def test_entries_with_targets_and_phrases() -> None:
    text = (
        "# a comment\n= os.remove, pathlib.Path.unlink\ndelete a file  # trailing note\n\n"
        "= page#anchor\nx\n= library/string:',', format\nthousands separator\n"
    )
    assert parse_tasks(text) == [
        Task(("os.remove", "pathlib.Path.unlink"), ("delete a file",)),
        Task(("page#anchor",), ("x",)),
        # ", " separates targets; a comma alone is a target (the format spec's thousands option).
        Task(("library/string:','", "format"), ("thousands separator",)),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("delete a file\n", "phrase before the first"),
        ("= os.remove\n= os.rename\nrename\n", "has no phrases"),
        ("=  \nx\n", "at least one target"),
    ],
)
def test_malformed_files_are_refused_with_the_line(text: str, message: str) -> None:
    with pytest.raises(TaskFileError, match=message):
        parse_tasks(text, origin="tasks.txt")
