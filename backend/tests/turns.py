"""A turn the answer cache admits, for the backend's cache tests: analysis and grounded answer."""

from __future__ import annotations

from codeweaver_schema import Analysis, Answer, Citation

QUESTION = "How do I reverse a list in Python?"
URL = "https://docs.python.org/3/library/stdtypes.html"


def cacheable(question: str = QUESTION) -> Analysis:
    """The analysis of a new, cacheable how-to question in English."""
    return Analysis(
        question_type="new_topic",
        should_cache=True,
        standalone_question=question,
        intent="learning",
        language="en",
    )


def grounded(text: str) -> Answer:
    """A grounded answer citing the documentation page at `URL` as [1]."""
    citation = Citation(
        n=1, evidence_id="ev1", title="stdtypes", source="docs", url=URL, locator=URL
    )
    return Answer(text=text, citations=[citation], grounded=True)
