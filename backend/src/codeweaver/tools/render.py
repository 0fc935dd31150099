"""The Markdown an agent reads from `search_docs` and `list_libraries`.

Documentation is quoted, never passed on as if it were CodeWeaver's own words: each entry's
text sits in a fenced block under a line that says where it comes from (pack, version, link
or file). The fence is longer than any run of backticks inside, so nothing in the quoted text
can close it and speak outside it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from codeweaver.packs import DocResult, PackInfo

_BACKTICKS = re.compile(r"`+")
_ONE_LINE = re.compile(r"\s+")


def fence(text: str, info: str = "") -> str:
    """`text` as a fenced code block no line of it can close."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{info}\n{text.rstrip()}\n{marks}"


def _plain(text: str) -> str:
    """One line of text for a heading: no line breaks, no backticks to open code with."""
    return _ONE_LINE.sub(" ", text).replace("`", "'").strip()


def pack_label(pack: str, version: str | None) -> str:
    """'python 3.11', or the pack alone when it has no version."""
    return f"{pack} {version}" if version else pack


def where(result: DocResult) -> str:
    """A result's address as an autolink, or its file."""
    if result.url:
        return f"<{result.url}>"
    if result.file:
        place = f"{result.file} § {result.section}" if result.section else result.file
        return f"file: {_plain(place)}"
    return "no address"


def render_search(
    query: str, library: str | None, results: Sequence[DocResult], note: str | None
) -> str:
    """The entries found for a query, each quoted with its source."""
    scope = f" in {_plain(library)}" if library else ""
    lines = [f"Documentation for “{_plain(query)}”{scope}: {len(results)} entries."]
    if note:
        lines.append(f"_{note}_")
    if not results:
        lines.append(
            "Nothing matched. Try the API's name or other words, or `list_libraries` to see "
            "what CodeWeaver can search."
        )
    for n, result in enumerate(results, start=1):
        heading = f"`{_plain(result.name)}`" if result.name else _plain(result.title)
        lines.append(f"## {n}. {heading}")
        lines.append(
            f"Quoted from {_plain(result.title)} ({pack_label(result.pack, result.version)}), "
            f"{where(result)}:"
        )
        body = result.text
        if result.signatures and not result.text.lstrip().startswith("```"):
            body = fence("\n".join(result.signatures)) + "\n\n" + body
        lines.append(fence(body, "markdown"))
    return "\n\n".join(lines)


def search_structured(
    query: str, library: str | None, results: Sequence[DocResult], note: str | None
) -> dict[str, Any]:
    """`search_docs`' structured content."""
    return {
        "query": query,
        "library": library,
        "note": note,
        "results": [asdict(result) for result in results],
    }


def render_libraries(packs: Sequence[PackInfo]) -> str:
    """The packs as a list: name and version first, as `library` takes them."""
    lines = ["CodeWeaver can search these packs (use the name as `library`):", ""]
    for pack in packs:
        version = f" {pack.version}" if pack.version else ""
        where_from = {
            "bundled": "shipped with CodeWeaver",
            "installed": "read from an installed package",
            "ingested": "ingested by the user",
        }[pack.source]
        line = (
            f"- `{pack.name}`{version}: {_plain(pack.title)} ({where_from}, {pack.units:,} units)"
        )
        if pack.note:
            line += f". Note: {_plain(pack.note)}"
        lines.append(line)
    return "\n".join(lines)


def libraries_structured(packs: Sequence[PackInfo]) -> dict[str, Any]:
    """`list_libraries`' structured content."""
    return {"libraries": [asdict(pack) for pack in packs]}
