"""A turn the answer cache admits, for any package's tests: its analysis and a grounded answer."""

from __future__ import annotations

from codeweaver_schema import Analysis, Answer, Citation, Intent, QuestionType

QUESTION = "How do I reverse a list in Python?"
URL = "https://docs.python.org/3/library/stdtypes.html"


def cacheable(
    question: str = QUESTION,
    *,
    question_type: QuestionType = "new_topic",
    intent: Intent = "learning",
    language: str = "en",
) -> Analysis:
    """The analysis of a cacheable question: by default a new, how-to question in English."""
    return Analysis(
        question_type=question_type,
        should_cache=True,
        standalone_question=question,
        intent=intent,
        language=language,
    )


def grounded(text: str, url: str = URL) -> Answer:
    """A grounded answer citing the documentation page at `url` as [1]."""
    citation = Citation(
        n=1, evidence_id="ev1", title="stdtypes", source="docs", url=url, locator=url
    )
    return Answer(text=text, citations=[citation], grounded=True)
