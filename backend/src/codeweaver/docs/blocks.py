"""The generated blocks of the docs: their markers, their makers, and filling them in."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

from codeweaver.docs import answers, bench
from codeweaver.docs.diagrams import diagrams

RESULTS = "results"
"""The folder, beside the documents, of the result files their figures are read from."""

Maker = Callable[[Path], str]
"""Makes a block's Markdown from the result files in the given folder."""

BLOCKS: Mapping[str, Maker] = {
    "DIAGRAMS": lambda _results: diagrams(),
    "ANSWER-COMMANDS": answers.commands,
    "ANSWER-SETS": answers.sets_table,
    "ANSWER-FLOORS": answers.floors_table,
    "LIBRARY-COMMANDS": answers.library_commands,
    "LIBRARY-SETS": answers.library_table,
    "LIBRARY-FLOORS": answers.library_floors,
    "BENCH-MACHINE": bench.machine,
    "BENCH-PATHS": bench.paths,
    "BENCH-TOKENS": bench.tokens,
    "BENCH-TARGETS": bench.targets,
}
"""Every block a document may hold, by the name its markers give."""

_BLOCK = re.compile(
    r"^(?P<begin><!-- BEGIN GENERATED (?P<name>[A-Z0-9-]+) \(python -m codeweaver\.docs\) -->)$"
    r".*?"
    r"^(?P<end><!-- END GENERATED (?P=name) -->)$",
    flags=re.DOTALL | re.MULTILINE,
)
"""A block: its markers each on a line of their own (so that prose can quote one)."""


class UnknownBlockError(ValueError):
    """A document names a generated block that no maker makes."""


def blocks_in(document: str) -> list[str]:
    """The names of the generated blocks in a document, in order."""
    return [match["name"] for match in _BLOCK.finditer(document)]


def render(document: str, results: Path = Path("docs") / RESULTS) -> str:
    """The document with every generated block made afresh from the code and `results`.

    Raises:
        UnknownBlockError: a block's name is not in `BLOCKS`.
    """

    def fill(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in BLOCKS:
            raise UnknownBlockError(f"no generated block is named {name!r}")
        # A blank line before the end marker ends a table or a code fence for every renderer.
        return f"{match['begin']}\n{BLOCKS[name](results).rstrip()}\n\n{match['end']}"

    return _BLOCK.sub(fill, document)
