import pytest
from langchain_core.messages import AIMessage, HumanMessage

from codeweaver.engine.analysis import (
    analyze_offline,
    canonical_question,
    classify_turn,
    exception_line,
)
from codeweaver_runtime import Embedder

HISTORY = [
    HumanMessage("How do I reverse a list in Python?"),
    AIMessage("Use list.reverse() to reverse in place [1], or reversed() for an iterator [2]."),
]


def test_greetings_and_thanks_leave_the_cache_key() -> None:
    assert canonical_question("Hi, how do I reverse a list?  Thanks!") == "how do I reverse a list?"


def test_exception_line_is_the_last_error_of_a_trace() -> None:
    trace = "Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'name'"
    assert exception_line(trace) == "KeyError: 'name'"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Can you show an example of that?", "clarification"),
        ("Why does it return None?", "clarification"),
        ("그게 무슨 뜻이에요?", "clarification"),
        ("How do I read a CSV file with pandas?", "new_topic"),
    ],
)
def test_turn_type_in_a_thread(question: str, expected: str) -> None:
    assert classify_turn(question, HISTORY)[0] == expected


def test_no_history_is_independent() -> None:
    assert classify_turn("Can you show an example of that?", [])[0] == "independent"


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("I get TypeError: 'NoneType' object is not subscriptable, why?", "debugging"),
        ("Please review my code for a binary search and suggest improvements", "code_review"),
        ("What is the difference between a list and a tuple?", "learning"),
        ("How do I reverse a list in Python?", "learning"),
    ],
)
async def test_intent(question: str, intent: str, embedder: Embedder) -> None:
    analysis = await analyze_offline(question, [], embedder)
    assert analysis.intent == intent


async def test_korean_question(embedder: Embedder) -> None:
    analysis = await analyze_offline("파이썬에서 리스트를 뒤집는 방법은?", [], embedder)
    assert analysis.language == "ko"
    assert analysis.question_type == "independent"
    assert analysis.should_cache


async def test_stack_trace_only_searches_for_the_exception(embedder: Embedder) -> None:
    trace = (
        "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nKeyError: 'name'"
    )
    analysis = await analyze_offline(trace, [], embedder)
    assert analysis.intent == "debugging"
    assert analysis.standalone_question == "KeyError: 'name'"
    assert not analysis.should_cache


async def test_clarifications_are_never_cached(embedder: Embedder) -> None:
    analysis = await analyze_offline("Can you show an example of that?", HISTORY, embedder)
    assert analysis.question_type == "clarification"
    assert not analysis.should_cache
