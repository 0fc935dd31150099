"""The offline analysis of one question: type in the thread, intent, language, cache key.

The intent is `codeweaver_runtime.text.classify_intent`'s, the one the search subgraph uses
when it runs alone: rules where the text is explicit, else the nearest intent description.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from codeweaver_engine.language.cues import cue
from codeweaver_engine.language.intent import classify_intent
from codeweaver_engine.language.pointing import POINTS_AT_THREAD, WANTS_CODE
from codeweaver_engine.language.prose import is_code_line, prose_only
from codeweaver_engine.language.script import detect_language
from codeweaver_engine.language.subject import leans_on_pronoun
from codeweaver_engine.language.words import collapse_whitespace, content_words
from codeweaver_engine.packs import DOCS_URL
from codeweaver_runtime import Embedder
from codeweaver_runtime.chat import text_of
from codeweaver_schema import Analysis, QuestionType

_FOLLOW_UP = cue("follow_up")
"""A turn that refers back to the previous answer ("can you explain", "another example")."""
_FROM_SOURCES = cue("from_sources")
"""Follow-ups the earlier answer's sources can answer: an example, more explanation."""
_GREETING = re.compile(
    r"^(hi|hello|hey|dear \w+|please|pls|quick question|question)[,!:.]?\s+|"
    r"\s*(thanks|thank you|thx|cheers)[.!]*\s*$",
    re.IGNORECASE,
)
_TIME_SENSITIVE = re.compile(
    r"\b(latest|newest|today|this (week|month|year)|current(ly)? (version|release)|right now)\b",
    re.IGNORECASE,
)
HISTORY_MESSAGE_CHARS = 12_000
"""Characters of each earlier message read to tell a follow-up from a new topic."""
# An exception line, after the prefixes runtimes put before it: Java's `Exception in thread
# "main"` and `Caused by:`, the browser's `Uncaught`.
_EXCEPTION_LINE = re.compile(
    r"^\s*(?:Exception in thread \"[^\"]*\"\s+|Caused by:\s+|Uncaught\s+(?:\(in promise\)\s+)?)?"
    r"((?:[\w$]+\.)*\w*(?:Error|Exception|Warning)\b(?::.*)?)$",
    re.MULTILINE,
)
_TRACE_LANGUAGES = (
    ("Python", re.compile(r"Traceback \(most recent call last\)|^\s*File \".*\", line \d+", re.M)),
    ("Java", re.compile(r"^\s*at [\w.$]+\([\w$]+\.(?:java|kt):\d+\)|Exception in thread", re.M)),
    ("JavaScript", re.compile(r"^\s*at .*\.(?:m?js|jsx|tsx?):\d+:\d+\)?$", re.M)),
)
_FENCE_TAG = re.compile(r"```\s*([\w+#-]+)")
_FENCE_NAMES = {
    "py": "Python",
    "python3": "Python",
    "js": "JavaScript",
    "javascript": "JavaScript",
    "ts": "TypeScript",
    "typescript": "TypeScript",
    "c++": "C++",
    "cpp": "C++",
    "csharp": "C#",
    "c#": "C#",
    "sh": "Bash",
}
_CODE_LANGUAGES = (
    ("Python", re.compile(r"^\s*(def |import |from \S+ import |class \w+.*:$|print\()", re.M)),
    ("JavaScript", re.compile(r"\b(const|let|function)\b.*[=({]|=>|console\.log", re.M)),
    ("Java", re.compile(r"\bpublic (static )?(void|class)\b|System\.out\.", re.M)),
    ("C", re.compile(r"^\s*#include\b", re.M)),
)
_CALLED = re.compile(r"(?:(?<=\.)|\b)([A-Za-z_]\w*)\s*\(")
_IMPORTED = re.compile(r"^\s*(?:import|from)\s+([\w.]+)", re.M)
# Keywords and built-ins say nothing about what a snippet is for.
_NOT_CALLS = frozenset(
    {
        *("if", "for", "while", "switch", "catch", "return", "def", "function", "class"),
        *("print", "console", "log", "elif", "else", "and", "or", "not", "with", "in", "is"),
        *("lambda", "int", "str", "len", "self", "this", "new", "try", "except", "pass"),
        *("none", "null", "true", "false"),
    }
)
_PERSONAL_CODE = re.compile(r"```|Traceback \(most recent call last\)|^\s{4}\S", re.MULTILINE)


def _text(message: BaseMessage) -> str:
    """A message's text, its content blocks apart, so that their words do not run together."""
    return text_of(message, separator=" ")


def previous_question(history: Sequence[BaseMessage]) -> str | None:
    """The user's last question before this turn."""
    for message in reversed(history):
        if isinstance(message, HumanMessage):
            return _text(message)
    return None


def exception_line(text: str) -> str | None:
    """The exception a stack trace ends in, without runtime prefixes: the best search query.

    Python prints the final exception last, and Java the root cause in its last `Caused by:`
    line; either way the last exception line is the one to search for.
    """
    found = _EXCEPTION_LINE.findall(text)
    return collapse_whitespace(found[-1])[:200] if found else None


def trace_language(text: str) -> str | None:
    """The language whose stack-trace format the text shows, if any."""
    for language, pattern in _TRACE_LANGUAGES:
        if pattern.search(text):
            return language
    return None


def is_code_only(text: str) -> bool:
    """Whether the message is code (fenced, indented or plain) with no question around it."""
    if not text.strip() or exception_line(text):
        return False
    lines = [line for line in prose_only(text).splitlines() if line.strip()]
    return all(is_code_line(line) for line in lines)


def code_language(code: str) -> str | None:
    """The language of a snippet: its fence tag, else the first syntax that gives it away."""
    if tag := _FENCE_TAG.search(code):
        name = tag.group(1).lower()
        return _FENCE_NAMES.get(name, name.capitalize())
    for language, pattern in _CODE_LANGUAGES:
        if pattern.search(code):
            return language
    return None


def code_question(code: str) -> str:
    """A search question for a snippet sent without a question: its language and what it uses.

    The functions it calls and the modules it imports are what documentation and answers are
    about; the rest of a snippet (variable names, literals) only adds noise to a search.
    """
    language = code_language(code)
    body = _FENCE_TAG.sub("", code)
    used = [*_IMPORTED.findall(body), *_CALLED.findall(body)]
    names = [n for n in dict.fromkeys(used) if n.lower() not in _NOT_CALLS and len(n) > 1][:6]
    if not names:
        names = [
            w
            for w in dict.fromkeys(content_words(body))
            if w.isidentifier() and w.lower() not in _NOT_CALLS
        ][:6]
    subject = f"{language} code" if language else "Code"
    return f"{subject} using {', '.join(names)}" if names else subject


def canonical_question(question: str) -> str:
    """The question without greetings and thanks, on one line: the cache key and search base."""
    text = collapse_whitespace(question)
    previous = None
    while previous != text:
        previous = text
        text = _GREETING.sub("", text).strip()
    return text or collapse_whitespace(question)


EXAMPLE_SEARCH_REASON = "asks for an example that the previous answer's sources do not hold"


def _cited_code_available(history: Sequence[BaseMessage]) -> bool:
    """Whether the last answer shows code or cites documentation units (which carry examples)."""
    for message in reversed(history):
        if isinstance(message, AIMessage):
            citations = message.additional_kwargs.get("citations", [])
            documented = any(str(c.get("url") or "").startswith(DOCS_URL) for c in citations)
            return "```" in _text(message) or documented
    return False


def leans_on_thread(question: str) -> bool:
    """Whether a question refers back to the conversation ("show an example", "why is that")."""
    return bool(_FOLLOW_UP.search(question) or POINTS_AT_THREAD.search(question.strip()))


def classify_turn(
    question: str, history: Sequence[BaseMessage], *, offline: bool = False
) -> tuple[QuestionType, str]:
    """Clarification (answerable from the thread), new topic in a thread, or independent.

    Without a model (`offline`), the thread can answer only what its cited sources already hold:
    an example, more of the explanation, what a term meant. Any other follow-up ("why is that
    faster?"), or an example the sources do not hold, is a new search, made with the earlier
    question as its context (`analyze_offline`). A model can answer those from the thread.
    """
    if not any(isinstance(m, AIMessage) for m in history):
        return "independent", "no earlier answer in this thread"
    # Earlier messages were cut to the question limit when asked; their stored text was not.
    earlier = set(content_words(" ".join(_text(m)[:HISTORY_MESSAGE_CHARS] for m in history)))
    new_words = [w for w in content_words(question) if w not in earlier]
    if leans_on_thread(question) and len(new_words) <= 3:
        if not offline:
            return "clarification", "refers back to the previous answer and adds little that is new"
        if WANTS_CODE.search(question) and not _cited_code_available(history):
            return "new_topic", EXAMPLE_SEARCH_REASON
        if _FROM_SOURCES.search(question):
            return "clarification", "asks for more of what the previous answer's sources hold"
        return "new_topic", "refers back to the previous answer but asks something it did not say"
    return "new_topic", f"brings new terms to the thread: {', '.join(new_words[:5]) or 'none'}"


async def analyze_offline(
    question: str,
    history: Sequence[BaseMessage],
    embedder: Embedder | None,
    *,
    offline_answer: bool = True,
) -> Analysis:
    """The deterministic analysis of the offline engine; without an embedder, rules only.

    Args:
        question: This turn's question.
        history: The thread before it.
        embedder: Classifies the intent by meaning; None: by rules only.
        offline_answer: No answer model will write the answer, so a follow-up goes to the thread
            only when its sources can answer it (see `classify_turn`).
    """
    question_type, type_reason = classify_turn(question, history, offline=offline_answer)
    intent, intent_reason = await classify_intent(question, embedder)
    prose = prose_only(question).strip()
    raised = exception_line(question)
    if raised:
        # The search is for the exception, not the whole trace: frames and paths match nothing.
        language = trace_language(question)
        if prose:
            standalone = canonical_question(prose)
            if raised not in standalone:
                standalone = f"{standalone} {raised}"
        else:
            named = language is None or language.lower() in raised.lower()
            standalone = raised if named else f"{language} {raised}"
    elif is_code_only(question):
        standalone = code_question(question)
        intent, intent_reason = "code_review", "code without a question: reviewed"
    else:
        standalone = canonical_question(prose)
    depends_on_thread = question_type == "new_topic" and leans_on_thread(question)
    if depends_on_thread:
        before = previous_question(history)
        if before and type_reason == EXAMPLE_SEARCH_REASON:
            standalone = f"{canonical_question(before)} example"
        elif before:
            standalone = f"{standalone} (about: {canonical_question(before)})"
    should_cache = (
        question_type != "clarification"
        and not depends_on_thread
        and not leans_on_pronoun(standalone)
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
