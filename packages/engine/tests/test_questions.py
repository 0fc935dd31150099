import pytest

from codeweaver_engine.language.prose import prose_only
from codeweaver_engine.questions import guard_too_many, scan_questions


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("How do I reverse a list in Python?", 1),
        ("How do I reverse a list? How do I sort a dict by value?", 2),
        ("How do I reverse a list and also how do I sort a dict?", 2),
        ("How do I reverse a list? And why is it in place?", 1),
        ("파이썬에서 리스트를 뒤집는 방법은?", 1),
        # Semicolons in code and "and" in prose do not split a question.
        ("Why does for (i = 0; i < n; i++) print twice?", 1),
        ("Why is x = 1; y = 2; wrong?", 1),
        ("How do I read and write a file in Python?", 1),
        ("How do I read a file, which is large?", 1),
        ("How do I open a file and read it and close it?", 1),
        ("What is the difference between a list and a tuple, and when should I use each?", 1),
        ("How do I 1. open a file and 2. read it?", 1),
        ("How do I reverse a list and how do I sort a dict by value?", 2),
        ("What is a generator, and what is an iterator?", 2),
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


@pytest.mark.parametrize(
    "text",
    [
        "1) reverse a list 2) sort a dict 3) read a file",
        "Three things: 1. reverse a list 2. sort a dict 3. read a file",
        "How do I reverse a list, how do I sort a dict, and how do I read a file?",
        "리스트를 뒤집는 방법; 딕셔너리를 정렬하는 방법; 파일을 읽는 방법",
        "리스트 뒤집는 방법 그리고 딕셔너리 정렬 방법 그리고 파일 읽는 방법 알려줘",
        "1. 리스트 뒤집기\n2. 딕셔너리 정렬\n3. 파일 읽기",
    ],
)
def test_more_shapes_of_three_questions(text: str) -> None:
    scan = scan_questions(text)
    assert guard_too_many(scan)
    assert len(scan.candidates) == 3
