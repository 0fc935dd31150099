"""The deterministic grounding check: citations resolve, cited claims are in the evidence."""

from __future__ import annotations

import re

from codeweaver_engine.language.words import content_words, stem, words
from codeweaver_schema import Answer, Evidence, Grade

_MARKER = re.compile(r"\[(\d{1,3})\]")
_CODE = re.compile(r"```.*?```|``[^\n]*?``|`[^`\n]*`", re.DOTALL)
"""Fenced blocks and inline code spans: `s[0]` or `<Response [200]>` there cites nothing."""
_FENCED = re.compile(r"```[^\n]*\n(.*?)```\s*((?:\[\d{1,3}\]\s*)*)", re.DOTALL)
_LABEL = re.compile(r"\*\*[^*]+\*\*:?")
SUPPORT_THRESHOLD = 0.6
"""Share of a cited claim's words its sources must contain. Offline answers quote, so they pass;
a model paraphrases, so its answers are checked with `MODEL_SUPPORT_THRESHOLD` and by the judge."""
MODEL_SUPPORT_THRESHOLD = 0.4


def cited_numbers(text: str) -> list[int]:
    """Every `[n]` in the text outside its code, in order of appearance."""
    return [int(n) for n in _MARKER.findall(_CODE.sub(" ", text))]


def _claims(text: str) -> list[tuple[str, list[int]]]:
    """(claim, cited numbers) for every line or code block that cites something."""
    claims: list[tuple[str, list[int]]] = []
    for code, markers in _FENCED.findall(text):
        claims.append((code, cited_numbers(markers)))
    prose = _FENCED.sub("\n", text)
    for line in prose.splitlines():
        numbers = cited_numbers(line)
        claim = _MARKER.sub("", line)
        # A bold label ("**Example** [2]") points at what follows; it claims nothing itself.
        if numbers and not _LABEL.fullmatch(claim.strip()):
            claims.append((claim, numbers))
    return claims


def stems(tokens: list[str]) -> set[str]:
    """Stems of the tokens' identifier parts: reverses, reversed and reversing all agree."""
    # Identifiers count by their parts (lst.reverse -> lst, reverse).
    return {stem(p) for t in tokens for p in re.split(r"[._]", t) if p}


def _support(claim: str, sources: list[str]) -> float:
    claimed = stems(content_words(claim) or words(claim))
    if not claimed:
        return 1.0
    available = stems(words(" ".join(sources)))
    return len(claimed & available) / len(claimed)


def check_grounding(
    answer: Answer, evidence: list[Evidence], *, min_support: float = SUPPORT_THRESHOLD
) -> Grade:
    """Every `[n]` maps to a citation of retrieved evidence, and what it cites says the claim."""
    by_id = {e.id: e for e in evidence}
    by_number = {c.n: c for c in answer.citations}
    used = cited_numbers(answer.text)
    unresolved = sorted(
        {n for n in used if n not in by_number or by_number[n].evidence_id not in by_id}
    )
    unsupported: list[str] = []
    for claim, numbers in _claims(answer.text):
        # What an item says includes its title: "From: *How do I copy a file?*" cites it.
        sources = [
            f"{by_id[by_number[n].evidence_id].title}\n{by_id[by_number[n].evidence_id].content}"
            for n in numbers
            if n in by_number and by_number[n].evidence_id in by_id
        ]
        if sources and _support(claim, sources) < min_support:
            unsupported.append(claim.strip()[:200])
    if not used:
        return Grade(grounded=False, reason="the answer cites no evidence")
    grounded = not unresolved and not unsupported
    reason = (
        "every citation resolves and every cited claim is in its source"
        if grounded
        else f"{len(unresolved)} unresolved citation(s), {len(unsupported)} unsupported claim(s)"
    )
    return Grade(
        grounded=grounded,
        unresolved_citations=unresolved,
        unsupported_claims=unsupported,
        reason=reason,
    )
