"""Finding the questions in a message: the deterministic part of planning.

Counting is done on prose only: code blocks, inline code and stack traces are set aside first,
because `?` is an operator in many languages and a traceback is one long question, not many.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codeweaver_engine.language.cues import alternatives
from codeweaver_engine.language.pointing import CONTINUES_QUESTION
from codeweaver_engine.language.prose import prose_only
from codeweaver_engine.language.words import collapse_whitespace, content_words

_NUMBERED = re.compile(r"^\s*(?:\(?\d{1,2}[.)]|[-*•]|Q\d{1,2}[:.)]|[a-z][.)])\s+", re.IGNORECASE)
_QUESTION_END = re.compile(r"[?？](?=\s|$|[\"')\]])")
_SEPARATORS = re.compile(rf"\s*(?:{alternatives('question_separators')})\s*", re.IGNORECASE)
# A new WH question after a comma or "and": "..., and how do I sort a dict?". Relative
# pronouns ("which", "where") are left out: "a file, which is large" is one question.
_CLAUSE_BREAK = re.compile(
    r"(?:,\s*(?:and\s+|or\s+)?|\s+and\s+)(?=(?:how|what|why)\s+(?:do|does|did|can|could|should"
    r"|would|is|are|was|to|i|you)\b)",
    re.IGNORECASE,
)
_INLINE_NUMBER = re.compile(r"(?:^|(?<=\s))\(?(\d{1,2})[.)](?=\s)")
_CODE_SYMBOLS = re.compile(r"[=<>{}]|\+\+|--|\b(?:var|let|int|const)\s+\w")
# Korean questions often end without "?": these endings and words ask something (the cue
# files' `question_words`).
_KOREAN_QUESTION = re.compile(f"({alternatives('question_words')})")
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


def _bracket_depths(text: str) -> list[int]:
    depth = 0
    depths = []
    for char in text:
        if char in "([{":
            depth += 1
        elif char in ")]}" and depth:
            depth -= 1
        depths.append(depth)
    return depths


def _split_semicolons(line: str) -> list[str]:
    """Clauses at top-level semicolons, unless the line reads as code (`for (i = 0; ...)`)."""
    depths = _bracket_depths(line)
    cuts = [i for i, char in enumerate(line) if char == ";" and depths[i] == 0]
    if not cuts:
        return [line]
    pieces = [line[a + 1 : b] for a, b in zip([-1, *cuts], [*cuts, len(line)], strict=True)]
    if any(_CODE_SYMBOLS.search(p) for p in pieces):
        return [line]
    return pieces


def _split_inline_numbering(line: str) -> list[str]:
    """'1) reverse a list 2) sort a dict 3) read a file': the items, numbered 1, 2, 3... in order.

    Three markers at least: two inline numbers are as often the steps of one question
    ("how do I 1. open a file and 2. read it?") as two questions. Text before the first
    marker is an introduction ("Three things: ...") and is dropped.
    """
    markers = list(_INLINE_NUMBER.finditer(line))
    if len(markers) < 3 or [int(m.group(1)) for m in markers] != list(range(1, len(markers) + 1)):
        return [line]
    ends = [m.start() for m in markers[1:]] + [len(line)]
    return [line[m.end() : end] for m, end in zip(markers, ends, strict=True)]


def _split_line(line: str) -> list[str]:
    pieces: list[str] = []
    for clause in _split_semicolons(line):
        for part in _SEPARATORS.split(clause):
            for sub in _CLAUSE_BREAK.split(part):
                start = 0
                for match in _QUESTION_END.finditer(sub):
                    pieces.append(sub[start : match.end()])
                    start = match.end()
                pieces.append(sub[start:])
    cleaned = (_LEADING_FILLER.sub("", collapse_whitespace(p)) for p in pieces)
    return [p for p in cleaned if p]


def _is_question_like(piece: str) -> bool:
    asks = bool(
        _QUESTION_END.search(piece) or _WH_START.match(piece) or _KOREAN_QUESTION.search(piece)
    )
    return asks and bool(content_words(piece) or re.search(r"[^\x00-\x7f]", piece))


def _is_item_like(piece: str) -> bool:
    """A numbered item need not be phrased as a question ("1) sort a dict"): any content."""
    return bool(content_words(piece) or re.search(r"[^\x00-\x7f]", piece))


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
            inline = _split_inline_numbering(line)
            if len(inline) > 1:
                candidates.extend(
                    collapse_whitespace(p) for p in inline if _is_item_like(p) and p.strip()
                )
            else:
                candidates.extend(p for p in _split_line(line) if _is_question_like(p))
    # A follow-on that leans on the previous sentence ("and why is it slow?") belongs to it.
    merged: list[str] = []
    for piece in candidates:
        if merged and CONTINUES_QUESTION.match(piece):
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
    return QuestionScan(prose=prose, question_marks=marks, candidates=merged)


def guard_too_many(scan: QuestionScan) -> bool:
    """Three or more question marks or candidates: too many, whatever a model says."""
    return scan.question_marks >= 3 or len(scan.candidates) >= 3
