"""Follow-ups answered offline from the earlier answer's sources: an example, more explanation.

The earlier answer cited documentation units; a follow-up such as "show an example" or "explain
that in more detail" is answered from those units (their code, the sentences the earlier answer
did not quote), and for a unit with no example of its own, from another unit whose code uses the
API, which is then cited too. Nothing here repeats bare citation markers: every line quotes what
it cites. What the sources cannot answer went to a new search before reaching here
(`analysis.classify_turn`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from codeweaver_engine.compose import code_blocks, offline_note, sentences_of
from codeweaver_engine.language.pointing import WANTS_CODE
from codeweaver_engine.packs.index import DocHit, call_keys, use_key
from codeweaver_engine.packs.retrieval import evidence_in_context, evidence_of
from codeweaver_engine.packs.shelf import Shelf
from codeweaver_engine.strings import texts
from codeweaver_schema import Citation

MAX_SENTENCES = 3
_ANSWER_CODE = re.compile(
    r"(?:\[(\d{1,3})\][^\n]*\n)?```[^\n]*\n(.*?)```[ \t]*(?:\n?\[(\d{1,3})\])?", re.DOTALL
)
"""A code block of an earlier answer, with the citation marker that heads or follows it."""


def _cited_units(shelf: Shelf, citations: list[Citation]) -> list[tuple[Citation, DocHit]]:
    found = []
    for citation in citations:
        hit = shelf.by_url(citation.url) if citation.url else None
        if hit is not None:
            found.append((citation, hit))
    return found


def follow_up_answer(
    question: str,
    previous_text: str | None,
    citations: list[Citation],
    language: str,
    shelf: Callable[[], Shelf],
) -> tuple[str, list[Citation]]:
    """The follow-up's text and what it cites (earlier citations, and any new one).

    Args:
        question: The follow-up.
        previous_text: The earlier answer's text, if there is one.
        citations: The earlier answer's citations.
        language: The user's language.
        shelf: The documentation packs in use, to read the cited units again.
    """
    t = texts(language, "follow_up")
    note = offline_note(language)
    if previous_text is None:
        return f"{note}\n\n{t['none']}", []
    units = _cited_units(shelf(), citations)
    shown = previous_text
    lines: list[str] = []
    cited: list[Citation] = []
    if WANTS_CODE.search(question):
        example = _example(shelf(), units, shown, citations)
        if example is not None:
            citation, block = example
            lines += [f"**{t['example']}** [{citation.n}]", "```python", block, "```"]
            cited.append(citation)
    if not lines and WANTS_CODE.search(question):
        # No other example shows it (or the sources are not the bundled documentation, whose
        # code is only in the answer): the earlier answer's example is the one to show.
        known = {c.n: c for c in citations}
        for match in _ANSWER_CODE.finditer(previous_text):
            number = int(match.group(1) or match.group(3) or 0)
            if number in known:
                lines += [
                    f"**{t['example']}** [{number}]",
                    "```python",
                    match.group(2).strip(),
                    "```",
                ]
                cited.append(known[number])
                break
    if not lines:
        for citation, hit in units:
            unit_evidence = evidence_in_context(shelf(), hit)
            fresh = [s for s in sentences_of(unit_evidence) if s not in shown][:MAX_SENTENCES]
            if fresh:
                mark = f"[{citation.n}]"
                lines += [f"**{t['more']}** {mark}", *(f"> {s} {mark}" for s in fresh)]
                cited.append(citation)
                break
    if not lines:
        return f"{note}\n\n{t['nothing']}", []
    return "\n".join([note, "", t["intro"], "", *lines]), cited


def _example(
    shelf: Shelf,
    units: list[tuple[Citation, DocHit]],
    shown: str,
    citations: list[Citation],
) -> tuple[Citation, str] | None:
    """A code example not shown yet that uses the answer's API; else any cited example.

    From a cited unit first, then from a unit whose code calls the API (an entry such as
    `os.remove` has no example of its own). An example of something else (the `os.walk` session
    a cited page also holds) comes only when nothing shows the API itself.
    """
    api = next((hit for _, hit in units if hit.unit.kind == "api"), None)
    key = use_key(api.unit) if api is not None else None
    cited = [
        (citation, block)
        for citation, hit in units
        for block in code_blocks(evidence_in_context(shelf, hit).content)
        if block not in shown and block not in hit.unit.signatures
    ]
    if key is None:
        return cited[0] if cited else None
    using = [(c, b) for c, b in cited if key in call_keys(b)]
    if using:
        return using[0]
    for _, hit in units:
        other = shelf.example_for(hit, hit.score)
        if other is None:
            continue
        evidence = evidence_of(other)
        blocks = [b for b in code_blocks(evidence.content) if b not in shown]
        if blocks and key in call_keys(_closest(blocks, hit)):
            number = max((c.n for c in citations), default=0) + 1
            return Citation.of(number, evidence), _closest(blocks, hit)
    # The earlier answer already showed the API in use: that beats code about something else.
    return cited[0] if cited and key not in call_keys(shown) else None


def _closest(blocks: list[str], hit: DocHit) -> str:
    """The block that uses the API as it is called (`os.remove(...)`, `.strip()`), shortest."""
    key = use_key(hit.unit)
    return min(blocks, key=lambda b: (key not in call_keys(b), len(b)))
