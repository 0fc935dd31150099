"""Per-intent source policy: how much to ask each source and how much to trust it.

Debugging questions are best answered by people who hit the same error, learning questions by
the reference documentation, code reviews by how real projects write the code.
"""

from __future__ import annotations

from dataclasses import dataclass

from codeweaver_schema import Intent, SourceName


@dataclass(frozen=True)
class SourceWeight:
    """A source's share under one intent."""

    limit_factor: float = 1.0
    """Multiplies the results asked of the source."""
    prior: float = 0.0
    """Added to each of its items' rerank score (a small nudge, never a verdict)."""


INTENT_POLICY: dict[Intent, dict[SourceName, SourceWeight]] = {
    "debugging": {"stackoverflow": SourceWeight(1.6, 0.04), "github": SourceWeight(1.0, 0.01)},
    "learning": {"docs": SourceWeight(1.6, 0.04), "local": SourceWeight(1.2, 0.03)},
    "code_review": {"github": SourceWeight(1.6, 0.03), "docs": SourceWeight(1.0, 0.02)},
}


def source_limit(intent: Intent, source: SourceName, base: int, *, enabled: bool) -> int:
    """Results to ask of a source this round."""
    if not enabled:
        return base
    factor = INTENT_POLICY[intent].get(source, SourceWeight()).limit_factor
    return max(1, round(base * factor))


def source_prior(intent: Intent, source: SourceName, *, enabled: bool) -> float:
    """The intent's nudge to a source's items when ranking."""
    if not enabled:
        return 0.0
    return INTENT_POLICY[intent].get(source, SourceWeight()).prior
