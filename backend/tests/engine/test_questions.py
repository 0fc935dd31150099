import pytest

from codeweaver.engine.questions import guard_too_many, prose_only, scan_questions


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("How do I reverse a list in Python?", 1),
        ("How do I reverse a list? How do I sort a dict by value?", 2),
        ("How do I reverse a list and also how do I sort a dict?", 2),
        ("How do I reverse a list? And why is it in place?", 1),
        ("파이썬에서 리스트를 뒤집는 방법은?", 1),
    ],
)
def test_candidates(text: str, count: int) -> None:
    assert len(scan_questions(text).candidates) == count


@pytest.mark.parametrize(
    "text",
    [
        "What is a list? What is a tuple? What is a set?",
        "1. reverse a list\n2. sort a dict\n3. merge two dicts",
        "- how to read a file\n- how to write a file\n- how to delete a file",
        "How do I reverse a list; also how do I sort a dict; and also how to read a file",
        "Q1: what is asyncio\nQ2: what is threading\nQ3: what is multiprocessing",
        "a? b? c?",
        "리스트는 뭔가요? 튜플은 뭔가요? 집합은 뭔가요?",
    ],
)
def test_three_or_more_shapes_trip_the_guard(text: str) -> None:
    assert guard_too_many(scan_questions(text))


def test_question_marks_inside_code_are_not_questions() -> None:
    text = "Why does this fail?\n```js\nconst x = a ? b : c ? d : e;\nconst y = p ? q : r;\n```"
    scan = scan_questions(text)
    assert scan.question_marks == 1
    assert not guard_too_many(scan)


def test_stack_trace_lines_are_not_prose() -> None:
    trace = (
        "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\nKeyError: 'a'"
    )
    assert prose_only(trace).strip() == ""
