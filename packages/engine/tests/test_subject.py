"""The subject two questions of one message share, and questions about nothing but a pronoun."""

from __future__ import annotations

import pytest

from codeweaver_engine.language.subject import (
    PRONOUNS_FILE,
    PronounDataError,
    leans_on_pronoun,
    parse_pronouns,
    subject_of,
    with_shared_subject,
)
from codeweaver_engine.questions import scan_questions


def test_the_pronoun_file_parses() -> None:
    data = parse_pronouns(PRONOUNS_FILE.read_text(encoding="utf-8"))
    assert "it" in data.pronouns
    assert "that" in data.demonstratives
    with pytest.raises(PronounDataError):
        parse_pronouns('pronouns = "it"\n')


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("What is the current working directory", "the current working directory"),
        ("How do I read a JSON file", "a JSON file"),
        ("How to parse a date string in Python?", "a date string"),
        ("Is there a way to flatten a nested list?", "a nested list"),
        ("JSON 파일을 읽는 방법은?", "JSON 파일"),
        ("How do I fix it?", None),
        ("Why is the sky blue", None),
    ],
)
def test_the_subject_of_a_question(question: str, subject: str | None) -> None:
    assert subject_of(question) == subject


@pytest.mark.parametrize(
    ("message", "parts"),
    [
        (
            "What is the current working directory, and how do I change it?",
            [
                "What is the current working directory",
                "how do I change the current working directory?",
            ],
        ),
        (
            "How do I read a JSON file, and how do I pretty-print it?",
            ["How do I read a JSON file", "how do I pretty-print a JSON file?"],
        ),
        (
            # Each names its own subject: nothing is carried.
            "How do I reverse a list and how do I sort a dict by value?",
            ["How do I reverse a list", "how do I sort a dict by value?"],
        ),
        (
            "JSON 파일을 읽는 방법은? 그리고 그것을 예쁘게 출력하려면?",
            ["JSON 파일을 읽는 방법은?", "JSON 파일을 예쁘게 출력하려면?"],
        ),
    ],
)
def test_the_second_question_keeps_the_first_s_subject(message: str, parts: list[str]) -> None:
    assert with_shared_subject(scan_questions(message).candidates) == parts


@pytest.mark.parametrize(
    ("question", "leans"),
    [
        ("How do I pretty-print it?", True),
        ("how do I change that?", True),
        ("What does it mean?", True),
        ("그것을 예쁘게 출력하려면?", True),
        ("Is it possible to sort a dict by value?", False),
        ("It is better to use a set?", False),
        ("how do I open that file?", False),
        ("How do I reverse a list?", False),
        ("how do I pretty-print a JSON file?", False),
    ],
)
def test_a_question_about_only_a_pronoun(question: str, leans: bool) -> None:
    assert leans_on_pronoun(question) is leans
