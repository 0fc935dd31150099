"""Finding the questions in a message: the deterministic part of planning.

Counting is done on prose only: code blocks, inline code and stack traces are set aside first,
because `?` is an operator in many languages and a traceback is one long question, not many.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codeweaver_runtime.text import collapse_whitespace, content_words

_FENCE = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_TRACE_LINE = re.compile(
    r"^\s*(Traceback \(most recent call last\)|File \".*\", line \d+|at [\w.$]+\(.*\)"
    r"|\w+(Error|Exception)\b.*:)"
)
_INDENTED_CODE = re.compile(r"^(?: {4}|\t)\S")
_NUMBERED = re.compile(r"^\s*(?:\(?\d{1,2}[.)]|[-*•]|Q\d{1,2}[:.)]|[a-z][.)])\s+", re.IGNORECASE)
_QUESTION_END = re.compile(r"[?？](?=\s|$|[\"')\]])")
_SEPARATORS = re.compile(
    r"\s*(?:;|\band also\b|\balso,|\badditionally,|\bsecondly,|\bthirdly,|\bplus,|"
    r"\bas well as that\b|그리고\s|또한\s|또\s)\s*",
    re.IGNORECASE,
)
_ANAPHORA = re.compile(
    r"^(and\s+)?(it|its|that|this|those|these|they|them|why|how come|what about|and why)\b",
    re.IGNORECASE,
)
_LEADING_FILLER = re.compile(r"^(?:(?:and|also|then|or|plus|but|so)\b[\s,]*)+", re.IGNORECASE)
_WH_START = re.compile(
    r"^(how|what|why|when|where|which|who|is|are|can|could|should|does|do|did|will|would|"
    r"explain|show|tell|give|write)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class QuestionScan:
    """What the deterministic scan found."""

    prose: str
    question_marks: int
    candidates: list[str]


def prose_only(text: str) -> str:
    """The text without code blocks, inline code, indented code and stack-trace lines."""
    without_fences = _FENCE.sub("\n", text)
    without_inline = _INLINE_CODE.sub("code", without_fences)
    kept = [
        line
        for line in without_inline.splitlines()
        if not _TRACE_LINE.match(line) and not _INDENTED_CODE.match(line)
    ]
    return "\n".join(kept)


def _split_line(line: str) -> list[str]:
    pieces: list[str] = []
    for part in _SEPARATORS.split(line):
        start = 0
        for match in _QUESTION_END.finditer(part):
            pieces.append(part[start : match.end()])
            start = match.end()
        pieces.append(part[start:])
    cleaned = (_LEADING_FILLER.sub("", collapse_whitespace(p)) for p in pieces)
    return [p for p in cleaned if p]


def _is_question_like(piece: str) -> bool:
    return bool(_QUESTION_END.search(piece) or _WH_START.match(piece)) and bool(
        content_words(piece) or re.search(r"[^\x00-\x7f]", piece)
    )


def scan_questions(text: str) -> QuestionScan:
    """Count question marks and question candidates (lines, numbering, separators)."""
    prose = prose_only(text)
    marks = len(_QUESTION_END.findall(prose))
    lines = [line for line in prose.splitlines() if line.strip()]
    numbered = [line for line in lines if _NUMBERED.match(line)]
    candidates: list[str] = []
    if len(numbered) >= 2:
        candidates = [collapse_whitespace(_NUMBERED.sub("", line)) for line in numbered]
    else:
        for line in lines:
            candidates.extend(p for p in _split_line(line) if _is_question_like(p))
    # A follow-on that leans on the previous sentence ("and why is it slow?") belongs to it.
    merged: list[str] = []
    for piece in candidates:
        if merged and _ANAPHORA.match(piece):
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
    return QuestionScan(prose=prose, question_marks=marks, candidates=merged)


def guard_too_many(scan: QuestionScan) -> bool:
    """Three or more question marks or candidates: too many, whatever a model says."""
    return scan.question_marks >= 3 or len(scan.candidates) >= 3
