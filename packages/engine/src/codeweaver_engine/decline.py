"""An honest "I could not find it": what was searched, what was not, and what to do next.

The offline engine declines when the best evidence is not relevant enough to answer, when there
is none, or when the question is about something its corpus does not cover. A decline is still
useful: it says which sources were searched and which were unavailable (and why), how to get a
better answer (a model, the web sources' keys, the user's own documents), and drafts a question
ready to post on Stack Overflow. A decline cites nothing and is never cached.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from codeweaver_engine.language.words import collapse_whitespace, truncate
from codeweaver_engine.libraries import ingest_command
from codeweaver_engine.packs import DOCS_VERSION
from codeweaver_engine.strings import texts
from codeweaver_schema import (
    DOCUMENTS_NOT_SEARCHED,
    SOURCE_LABELS,
    Analysis,
    Answer,
    DeclineReason,
    ErrorRecord,
    Evidence,
    SourceName,
)
from codeweaver_schema.render import escape_markdown

_ROUND = re.compile(r"^round \d+: ")
MAX_NEAREST = 3
"""How many of the closest pages a decline below the relevance floor names."""


def _reason(record: ErrorRecord, prefix: str = "") -> str:
    """The first clause of a record's message (after `prefix`, if there): why, in a few words."""
    message = _ROUND.sub("", record.message).removeprefix(prefix)
    return truncate(message.split(" (", 1)[0].split("; ", 1)[0].split(" [", 1)[0], 80)


def source_lines(
    errors: list[ErrorRecord],
    language: str,
    *,
    skipped_only: bool = False,
    local: str | None = None,
) -> tuple[str, str | None]:
    """What was searched and what was not (with why), from the run's error records.

    Args:
        errors: The run's error records.
        language: The user's language.
        skipped_only: Leave out sources that failed (a warning tells those), keep the skipped.
        local: What the local source searched, when not the Python docs and the documents (a
            question about a library searches that library's pack alone).
    """
    t = texts(language, "decline")
    missing: dict[SourceName, str] = {}
    documents_only = ""
    for record in errors:
        if record.source is None or record.source in missing or record.kind == "input":
            continue
        if skipped_only and record.kind != "skipped":
            continue
        state = t["skipped"] if record.kind == "skipped" else t["failed"]
        if record.source == "local" and DOCUMENTS_NOT_SEARCHED in record.message:
            # The reference packs answered; only the user's documents are missing.
            reason = _reason(record, prefix=f"{DOCUMENTS_NOT_SEARCHED}: ")
            documents_only = f"{t['documents']} ({state}: {reason})"
            continue
        missing[record.source] = f"{SOURCE_LABELS[record.source]} ({state}: {_reason(record)})"
    searched = [
        (local or _local_label(t, documents_only)) if name == "local" else label
        for name, label in SOURCE_LABELS.items()
        if name not in missing
    ]
    if documents_only:
        # Unless a later round lost the whole source: then that is what was not searched.
        missing.setdefault("local", documents_only)
    return ", ".join(searched) or "-", "; ".join(missing.values()) or None


def _local_label(t: Mapping[str, str], documents_failed: str) -> str:
    """The local source as searched: the Python docs, and the documents unless they failed."""
    return t["reference" if documents_failed else "local"].format(version=DOCS_VERSION)


def _nearest(evidence: list[Evidence]) -> str:
    """The closest pages as 'title <address>', each once: where to read, not what to believe."""
    shown: list[str] = []
    for item in evidence:
        # Titles and addresses come from retrieved pages: only text and a plain web address.
        plain_title = re.sub(r"^Python \d+\.\d+ docs: ", "", collapse_whitespace(item.title))
        title = escape_markdown(truncate(plain_title, 90))
        url = item.url if item.url and re.match(r"https?://[^\s<>]+$", item.url) else None
        entry = f"{title} <{url}>" if url else title
        if entry not in shown:
            shown.append(entry)
        if len(shown) == MAX_NEAREST:
            break
    return "; ".join(shown)


@dataclass(frozen=True)
class MissingLibrary:
    """A library a question names that no pack documents, and what the environment says of it.

    Attributes:
        name: How answers name it (`pandas`, `Beautiful Soup`).
        distribution: What `pip install` and `codeweaver ingest --packages` are given.
        python: The interpreter `codeweaver ingest --python` reads by default; None: none found.
        installed: Its version there; None when it is not installed (or nothing was found).
    """

    name: str
    distribution: str
    python: str | None = None
    installed: str | None = None

    def lead_and_step(self, t: Mapping[str, str]) -> tuple[str, str | None]:
        """The decline's first line, and the first thing to do (read it, or install it)."""
        command = ingest_command(self.python, self.distribution)
        if self.python is None:
            return t["library_unknown"].format(library=self.name, version=DOCS_VERSION), t[
                "ingest_library"
            ].format(command=command)
        if self.installed is not None:
            lead = t["library_not_indexed"].format(
                library=self.name, installed=self.installed, python=self.python
            )
            return lead, t["ingest_library"].format(command=command)
        lead = t["library_not_installed"].format(library=self.name, python=self.python)
        step = t["install_library"].format(distribution=self.distribution, command=command)
        return lead, step


def _draft(question: str, t: Mapping[str, str]) -> list[str]:
    # The question is shown back as text: markup or HTML in it must not render.
    title = escape_markdown(truncate(collapse_whitespace(question), 150))
    return [
        f"  > **{t['title']}:** {title}",
        f"  > **{t['tried']}:** {t['tried_text']}",
        f"  > **{t['example']}:**",
        "  > ```python",
        f"  > {t['example_text']}",
        "  > ```",
        f"  > **{t['expected']}:** {t['expected_text']}",
    ]


def decline(
    question: str,
    analysis: Analysis,
    reason: DeclineReason,
    errors: list[ErrorRecord],
    *,
    topic: str | None = None,
    third_party: bool = False,
    relevance: float | None = None,
    nearest: list[Evidence] | None = None,
    missing: MissingLibrary | None = None,
    packs: Sequence[str] = (),
) -> Answer:
    """The answer that declines, with what was searched and what the user can do next.

    Args:
        question: The question as asked (the Stack Overflow draft's title).
        analysis: Its analysis (language, intent).
        reason: Why the engine declines.
        errors: The run's failures and skipped sources.
        topic: What an out-of-scope question is about (`Git`, `pandas`).
        third_party: The topic is a Python library outside the standard library.
        relevance: The best evidence's relevance, when it was below the floor.
        nearest: The evidence that came closest, best first, when it was below the floor: named
            (title and address, not quoted) so the user knows where to read.
        missing: The library the question names that no pack documents (`library_not_indexed`):
            the decline says whether it is installed and the command that reads it.
        packs: The packs searched, named as answers name them ("pandas 3.1.1, installed"), when
            the question's library restricted the search to them.
    """
    t = texts(analysis.language, "decline")
    step: str | None = None
    if missing is not None:
        lead, step = missing.lead_and_step(t)
    elif reason == "out_of_scope":
        lead = t["third_party" if third_party else "out_of_scope"].format(
            topic=topic or "another technology", version=DOCS_VERSION
        )
    else:
        lead = t["not_found"]
    searched, not_searched = source_lines(errors, analysis.language, local=", ".join(packs) or None)
    lines = [lead, "", f"- **{t['searched']}:** {searched}."]
    if nearest:
        lines.append(f"- **{t['nearest']}:** {_nearest(nearest)}.")
    if not_searched:
        lines.append(f"- **{t['not_searched']}:** {not_searched}.")
    lines += [
        f"- **{t['next']}:**",
        *([f"  - {step}"] if step else []),
        f"  - {t['model']}",
        f"  - {t['keys']}",
        f"  - {t['ingest']}",
        f"  - {t['draft']}",
        "",
        *_draft(question, t),
    ]
    return Answer(
        text="\n".join(lines),
        intent=analysis.intent,
        language=analysis.language,
        grounded=False,
        offline=True,
        declined=True,
        decline_reason=reason,
        relevance=round(relevance, 4) if relevance is not None else None,
    )
