"""The intent of a question (debugging, learning, code review): rules, then the nearest example."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from codeweaver_engine.language.cues import cue
from codeweaver_engine.language.korean import english_gloss
from codeweaver_engine.language.prose import prose_only
from codeweaver_engine.language.script import detect_language
from codeweaver_engine.language.words import content_words
from codeweaver_schema import Intent

if TYPE_CHECKING:
    from codeweaver_runtime import Embedder

_DEBUGGING = cue("debugging")
_CODE_REVIEW = cue("code_review")

_POINTS_AT_CODE = cue("points_at_code")

INTENT_PROTOTYPES: dict[Intent, tuple[str, ...]] = {
    "debugging": (
        "Why does my code raise this error and how do I fix it?",
        "My program crashes with an exception.",
        "This function returns the wrong result, what is the bug?",
        "How do I fix this error message?",
    ),
    "learning": (
        "How do I do this in Python?",
        "What is the difference between these two concepts?",
        "Explain how this language feature works.",
        "What is the best way to accomplish this task?",
    ),
    "code_review": (
        "Please review my code and suggest improvements.",
        "Is this implementation idiomatic and correct?",
        "How can I refactor this function to be cleaner?",
        "What problems do you see in this code?",
    ),
}


async def classify_intent(question: str, embedder: Embedder | None) -> tuple[Intent, str]:
    """Rules first, then the nearest intent description by embedding (when there is one)."""
    prose = prose_only(question)
    if _CODE_REVIEW.search(question):
        return "code_review", "asks for a review of code"
    if _DEBUGGING.search(question) or "Traceback (most recent call last)" in question:
        return "debugging", "mentions an error, exception or failure"
    basis = prose or question
    if detect_language(basis) != "en":
        # The embedder reads English: compare the question's English terms, if it has any.
        latin = " ".join(w for w in content_words(basis) if w.isascii())
        basis = f"{latin} {english_gloss(basis)}".strip()
        if not basis:
            return "learning", "no English terms to compare; learning is the common case"
    if embedder is None:
        return "learning", "no rule matched and no embedder; learning is the common case"
    # A review needs code to review, in the question or pointed at ("this function"): a
    # question without any ("How do I remove duplicates from a list?") is not one, however close
    # its wording comes to "refactor this function".
    has_code = prose.strip() != question.strip() or bool(_POINTS_AT_CODE.search(question))
    labels: list[Intent] = []
    texts: list[str] = []
    for intent, examples in INTENT_PROTOTYPES.items():
        if intent == "code_review" and not has_code:
            continue
        labels.extend([intent] * len(examples))
        texts.extend(examples)
    vectors = await embedder.embed([basis, *texts])
    sims = vectors[1:] @ vectors[0]
    best = int(np.argmax(sims))
    return labels[best], f"closest to '{texts[best]}' ({float(sims[best]):.2f})"
