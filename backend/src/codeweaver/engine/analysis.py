"""The offline analysis of one question: type in the thread, intent, language, cache key.

Rules decide where the text is explicit (a traceback is debugging; "review my code" is a code
review); otherwise the question's embedding is compared with short descriptions of each intent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from codeweaver.engine.questions import prose_only
from codeweaver_runtime import Embedder
from codeweaver_runtime.text import (
    collapse_whitespace,
    content_words,
    detect_language,
    english_gloss,
)
from codeweaver_schema import Analysis, Intent, QuestionType

_DEBUGGING = re.compile(
    r"traceback|stack ?trace|\b\w+(error|exception)\b|\berror\b|\bexception\b|\bfail(s|ed|ing)?\b"
    r"|\bcrash(es|ed)?\b|\bbug\b|\bbroken\b|doesn'?t work|not working|\braises?\b|segfault"
    r"|\bhangs?\b|unexpected(ly)?|wrong (output|result)|에러|오류|예외|작동하지|안 ?돼",
    re.IGNORECASE,
)
_CODE_REVIEW = re.compile(
    r"\breview\b|\brefactor|\bimprove (this|my)\b|is (this|my) (code )?(good|ok|okay|correct|"
    r"idiomatic|pythonic|clean)|code smell|\bcritique\b|feedback on (this|my)|리뷰|개선",
    re.IGNORECASE,
)
_FOLLOW_UP = re.compile(
    r"^(can|could) you (explain|elaborate|clarify|expand|show|give)|^(explain|elaborate|clarify)"
    r"|more detail|in more depth|\b(an|another) example\b|what do you mean|what does that mean"
    r"|you (said|mentioned|wrote)|your (answer|example|code)|the (above|previous|last) "
    r"(answer|example|code|one)|why (is|does|did|would) (that|it|this)|예시|예제|자세히|무슨 뜻"
    r"|그게|그건|왜 그런",
    re.IGNORECASE,
)
_ANAPHORA = re.compile(
    r"^(and |but |so )?(it|its|that|this|those|these|they|them|what about|how about)\b"
    r"|\b(it|that|this one|those|them)\b[?.!]?$",
    re.IGNORECASE,
)
_GREETING = re.compile(
    r"^(hi|hello|hey|dear \w+|please|pls|quick question|question)[,!:.]?\s+|"
    r"\s*(thanks|thank you|thx|cheers)[.!]*\s*$",
    re.IGNORECASE,
)
_TIME_SENSITIVE = re.compile(
    r"\b(latest|newest|today|this (week|month|year)|current(ly)? (version|release)|right now)\b",
    re.IGNORECASE,
)
_EXCEPTION_LINE = re.compile(r"^\s*([\w.]+(?:Error|Exception|Warning)\b(?::.*)?)$", re.MULTILINE)
_PERSONAL_CODE = re.compile(r"```|Traceback \(most recent call last\)|^\s{4}\S", re.MULTILINE)

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


def _text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(
        part.get("text", "") if isinstance(part, dict) else str(part) for part in content
    )


def previous_question(history: Sequence[BaseMessage]) -> str | None:
    """The user's last question before this turn."""
    for message in reversed(history):
        if isinstance(message, HumanMessage):
            return _text(message)
    return None


def exception_line(text: str) -> str | None:
    """The last `SomeError: message` line of a stack trace, the best search query it holds."""
    found = _EXCEPTION_LINE.findall(text)
    return collapse_whitespace(found[-1])[:200] if found else None


def canonical_question(question: str) -> str:
    """The question without greetings and thanks, on one line: the cache key and search base."""
    text = collapse_whitespace(question)
    previous = None
    while previous != text:
        previous = text
        text = _GREETING.sub("", text).strip()
    return text or collapse_whitespace(question)


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
    labels: list[Intent] = []
    texts: list[str] = []
    for intent, examples in INTENT_PROTOTYPES.items():
        labels.extend([intent] * len(examples))
        texts.extend(examples)
    vectors = await embedder.embed([basis, *texts])
    sims = vectors[1:] @ vectors[0]
    best = int(np.argmax(sims))
    return labels[best], f"closest to '{texts[best]}' ({float(sims[best]):.2f})"


def classify_turn(question: str, history: Sequence[BaseMessage]) -> tuple[QuestionType, str]:
    """Clarification (answerable from the thread), new topic in a thread, or independent."""
    if not any(isinstance(m, AIMessage) for m in history):
        return "independent", "no earlier answer in this thread"
    earlier = set(content_words(" ".join(_text(m) for m in history)))
    new_words = [w for w in content_words(question) if w not in earlier]
    follow_up = bool(_FOLLOW_UP.search(question))
    leans_back = bool(_ANAPHORA.search(question.strip()))
    if (follow_up or leans_back) and len(new_words) <= 3:
        return "clarification", "refers back to the previous answer and adds little that is new"
    return "new_topic", f"brings new terms to the thread: {', '.join(new_words[:5]) or 'none'}"


async def analyze_offline(
    question: str, history: Sequence[BaseMessage], embedder: Embedder | None
) -> Analysis:
    """The deterministic analysis of the offline engine; without an embedder, rules only."""
    question_type, type_reason = classify_turn(question, history)
    intent, intent_reason = await classify_intent(question, embedder)
    prose = prose_only(question).strip()
    raised = exception_line(question)
    standalone = canonical_question(prose) if prose else (raised or canonical_question(question))
    if raised and raised not in standalone:
        standalone = f"{standalone} {raised}"
    depends_on_thread = question_type == "new_topic" and bool(_ANAPHORA.search(question.strip()))
    if depends_on_thread:
        before = previous_question(history)
        if before:
            standalone = f"{standalone} (about: {canonical_question(before)})"
    should_cache = (
        question_type != "clarification"
        and not depends_on_thread
        and not _TIME_SENSITIVE.search(question)
        and not _PERSONAL_CODE.search(question)
        and len(standalone) <= 500
    )
    return Analysis(
        question_type=question_type,
        should_cache=should_cache,
        standalone_question=standalone,
        intent=intent,
        language=detect_language(prose_only(question) or question),
        reason=f"{type_reason}; intent {intent}: {intent_reason}",
    )
