"""Which way a question goes: conversions between phrases, sides of opposite pairs, and APIs."""

from __future__ import annotations

import pytest

from codeweaver_engine.language.direction import (
    DIRECTION_FILE,
    DirectionDataError,
    api_conversion,
    asked_sides,
    conversion,
    converts_the_other_way,
    opposed_api,
    parse_direction_data,
    reverses,
)


def test_the_direction_file_parses() -> None:
    data = parse_direction_data(DIRECTION_FILE.read_text(encoding="utf-8"))
    assert {side.name for side in data.sides} >= {"start", "end", "encode", "decode"}
    assert data.api_conversions["fromtimestamp"] == (
        frozenset({"timestamp"}),
        frozenset({"datetime"}),
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not toml [", "direction.toml"),
        ("[pivots]\nwords = 'to'\n", "tables missing"),
    ],
)
def test_a_malformed_direction_file_is_refused(text: str, message: str) -> None:
    with pytest.raises(DirectionDataError, match=message):
        parse_direction_data(text)


def test_a_side_must_name_an_existing_opposite() -> None:
    text = DIRECTION_FILE.read_text(encoding="utf-8").replace(
        'opposite = "end"', 'opposite = "nowhere"', 1
    )
    with pytest.raises(DirectionDataError, match="nowhere"):
        parse_direction_data(text)


def kinds(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    found = conversion(text)
    return (found.source_kinds, found.target_kinds) if found else None


@pytest.mark.parametrize(
    ("text", "source", "target"),
    [
        # Several words either side, and "How to" is no pivot.
        ("How to convert a Unix timestamp to a datetime in Python?", {"timestamp"}, {"datetime"}),
        ("Convert a list of characters into a string", {"list", "char"}, {"str"}),
        ("How can I convert a Python dictionary to a list of tuples?", {"dict"}, {"list", "tuple"}),
        # "Y from X" and "from X to Y".
        ("get the datetime from a unix timestamp", {"timestamp"}, {"datetime"}),
        ("Convert DataFrame column type from string to datetime", {"str"}, {"datetime"}),
        # What the verb takes, though a preposition is inside it.
        ("converting epoch time with milliseconds to datetime", {"timestamp"}, {"datetime"}),
        # "as" with both kinds named.
        ("Get yesterday's date as a string in YYYY-MM-DD format", {"datetime"}, {"str"}),
        # Korean: X를 Y로, X에서 Y로, X로부터 Y를 얻는.
        ("유닉스 타임스탬프를 datetime으로 변환하는 방법", {"timestamp"}, {"datetime"}),
        ("datetime을 유닉스 타임스탬프로 변환하는 방법", {"datetime"}, {"timestamp"}),
        ("16진수 문자열을 정수로 바꾸는 방법", {"hex", "str"}, {"int"}),
        ("튜플 리스트에서 딕셔너리로 변환", {"tuple", "list"}, {"dict"}),
        ("타임스탬프로부터 datetime 객체를 얻는 방법", {"timestamp"}, {"datetime"}),
        # The 로 nearest the verb is the target; an earlier 으로 says how, not into what.
        ("공백으로 구분된 정수 문자열을 int 리스트로 바꾸기", {"str", "int"}, {"list", "int"}),
    ],
)
def test_a_conversion_is_read_between_phrases(
    text: str, source: set[str], target: set[str]
) -> None:
    assert kinds(text) == (frozenset(source), frozenset(target))


@pytest.mark.parametrize(
    "text",
    [
        "How to add a key to a dictionary",  # no conversion verb, one side names no kind
        "remove whitespace from a string",  # removing from is not making from
        "Convert int to ASCII and back in Python",  # both ways
        "add up numbers stored as strings",  # what they are, not what they become
        "How do I reverse a list?",
        "리스트에서 중복을 제거하는 방법",  # 에서 without a target, and no conversion verb
    ],
)
def test_what_is_no_conversion(text: str) -> None:
    assert conversion(text) is None


def test_words_without_a_kind_still_give_a_direction() -> None:
    found = conversion("Convert Celsius to Fahrenheit in Python")
    assert found is not None
    assert (found.source, found.target) == (frozenset({"celsius"}), frozenset({"fahrenheit"}))


@pytest.mark.parametrize(
    ("question", "other", "reversed_"),
    [
        (
            "How to convert a Unix timestamp to a datetime in Python?",
            "How to convert a datetime to a Unix timestamp in Python?",
            True,
        ),
        (
            "How to convert a Unix timestamp to a datetime in Python?",
            "How to get a Unix timestamp from a datetime in Python?",
            True,
        ),
        (
            "How to convert a Unix timestamp to a datetime in Python?",
            "get the datetime from a unix timestamp",
            False,
        ),
        ("Convert a list of strings to a string", "Convert a string to a list of strings", True),
        ("string into a list", "convert a string to a list of characters", False),
        ("list of ints to a list of strings", "list of strings to integers", True),
        (
            "Convert unicode string to byte string",
            "convert a byte string to a unicode string",
            True,
        ),
        ("Convert unicode string to byte string", "convert a unicode string to bytes", False),
        ("How do I reverse a list?", "convert a list to a string", False),
        (
            "유닉스 타임스탬프를 datetime으로 변환하는 방법",
            "datetime을 유닉스 타임스탬프로 변환",
            True,
        ),
        (
            "튜플 리스트에서 딕셔너리로 변환하는 방법",
            "딕셔너리에서 튜플 리스트로 변환하는 방법",
            True,
        ),
        # Korean against English: the kinds are the same.
        ("16진수 문자열을 정수로 바꾸는 방법", "convert an int to a hex string", True),
    ],
)
def test_a_conversion_the_other_way_is_told_apart(
    question: str, other: str, reversed_: bool
) -> None:
    assert converts_the_other_way(question, other) is reversed_
    assert converts_the_other_way(other, question) is reversed_


def test_a_question_asks_for_one_side_only_when_it_names_one() -> None:
    assert asked_sides("remove a substring from the end of a string") >= {"end"}
    assert "end" not in asked_sides("strip whitespace from the start and end of a string")
    assert "start" not in asked_sides("strip whitespace from the start and end of a string")
    assert asked_sides("문자열 끝의 공백을 제거하는 방법") >= {"end"}


@pytest.mark.parametrize(
    ("question", "api", "opposed"),
    [
        ("remove a substring from the end of a string", "str.removeprefix", True),
        ("remove a substring from the end of a string", "str.removesuffix", False),
        ("remove a substring from the end of a string", "str.lstrip", True),
        ("How to convert a datetime to a Unix timestamp?", "datetime.datetime.fromtimestamp", True),
        ("How to convert a datetime to a Unix timestamp?", "datetime.datetime.timestamp", False),
        ("How to convert a Unix timestamp to a datetime?", "datetime.datetime.timestamp", True),
        ("convert a string to lowercase", "str.upper", True),
        ("base64 decode a string", "base64.b64encode", True),
        ("parse a JSON string into a dict", "json.dumps", True),
        ("convert a dict to a JSON string", "json.loads", True),
        ("split a string into a list of words", "str.join", True),
        ("join a list of words into a string", "str.split", True),
        ("remove an element from a list by index", "list.insert", True),
        ("add an element to a set", "set.discard", True),
        ("문자열을 소문자로 바꾸는 방법", "str.upper", True),
        ("check that all elements of a list are true", "any", True),
        ("check that all elements of a list are true", "all", False),
        ("check if any element of a list is in a string", "all", True),
        ("리스트에 하나라도 참인 원소가 있는지 확인", "all", True),
        ("check whether all or any of the values are 0", "any", False),
        # Nothing opposed: no side asked, or both sides asked.
        ("How do I sort a list?", "list.pop", False),
        ("strip whitespace from both the start and the end", "str.lstrip", False),
    ],
)
def test_an_api_that_does_the_opposite_is_named(question: str, api: str, opposed: bool) -> None:
    assert (opposed_api(question, api) is not None) is opposed


def test_api_conversions_read_the_api_s_last_name() -> None:
    found = api_conversion("datetime.date.fromtimestamp")
    assert found is not None
    assert (found.source_kinds, found.target_kinds) == (
        frozenset({"timestamp"}),
        frozenset({"datetime"}),
    )
    assert api_conversion("os.remove") is None
    assert reverses(conversion("convert a datetime to epoch time"), found)
