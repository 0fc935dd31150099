"""Scope words and constraints: what a question limits its answer to, and what an API says."""

from __future__ import annotations

import pytest

from codeweaver_engine.language.scope_words import (
    SCOPE_FILE,
    ScopeDataError,
    fit,
    idioms,
    parse_scope_data,
    scope_conflicts,
    scopes,
)

MKDTEMP = (
    "Creates a temporary directory in the most secure manner possible. The user of mkdtemp() is "
    "responsible for deleting the temporary directory and its contents when done with it."
)
TEMPORARY_DIRECTORY = (
    "This class securely creates a temporary directory using the same rules as mkdtemp(). The "
    "resulting object can be used as a context manager (see Examples). On completion of the "
    "context or destruction of the temporary directory object, the newly created temporary "
    "directory and all its contents are removed from the filesystem."
)


def test_the_scope_file_parses() -> None:
    names = {scope.name for scope in parse_scope_data(SCOPE_FILE.read_text(encoding="utf-8"))}
    assert names >= {"all", "leading", "trailing", "preserving order", "automatically"}


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (('required = "query"', 'required = "sometimes"'), "required is one of"),
        (('conflicts = ["all", "trailing"]', 'conflicts = ["all", "nowhere"]'), "nowhere"),
        (("meets = ['\\bleading\\b'", "meets = ['(unclosed'"), "leading"),
    ],
)
def test_a_malformed_scope_file_is_refused(edit: tuple[str, str], message: str) -> None:
    text = SCOPE_FILE.read_text(encoding="utf-8")
    assert edit[0] in text
    with pytest.raises(ScopeDataError, match=message):
        parse_scope_data(text.replace(edit[0], edit[1], 1))


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How to remove all whitespace from a string in Python?", {"all", "every occurrence"}),
        # "all" lines are where, not what: no occurrence of anything is asked for.
        ("remove the white space from all lines", {"all"}),
        ("How to remove leading whitespace from a string in Python?", {"leading"}),
        ("Remove duplicates from a list while preserving the original order", {"preserving order"}),
        ("I want to do this in order to learn", set()),
        ("Is there any way to merge two dicts in one expression?", {"in one expression"}),
        ("How do I create a temporary directory that is deleted automatically?", {"automatically"}),
        ("case insensitive string comparison", {"case-insensitive"}),
        ("Get a value from a dict without raising KeyError", {"without an exception"}),
        ("Count the occurrences of each item in a list", {"each"}),
        ("find all substrings beginning and ending with square brackets", {"all"}),
        ("read a file line by line", set()),
        # Korean: words, phrases (with endings after them) and the particle 만 ("only").
        ("문자열에서 앞쪽 공백만 제거하는 방법", {"leading", "only"}),
        ("순서를 유지하면서 리스트에서 중복을 제거하는 방법", {"preserving order"}),
        ("대소문자 구분 없이 문자열을 비교하는 방법", {"case-insensitive"}),
        ("대소문자를 구분해서 문자열을 비교하는 방법", {"case-sensitive"}),
        ("자동으로 삭제되는 임시 디렉터리를 만드는 방법", {"automatically"}),
        ("문자열의 모든 공백을 제거하는 방법", {"all", "every occurrence"}),
    ],
)
def test_scopes_are_read_in_english_and_korean(question: str, expected: set[str]) -> None:
    assert scopes(question) == frozenset(expected)


@pytest.mark.parametrize(
    ("query", "cached"),
    [
        ("How to remove leading whitespace from a string?", "How to remove all whitespace?"),
        ("How to remove all whitespace from a string?", "How to remove trailing whitespace?"),
        ("Remove duplicates from a list while preserving order", "Remove duplicates from a list"),
        ("Check if any value of a dict is 0", "Check if all values of a dict are 0"),
        ("Check if a string contains any digits", "Check if a string contains only digits"),
        ("Get duplicate values from a list", "Get unique values from a list"),
        ("case sensitive string comparison", "case insensitive string comparison"),
        ("Count the occurrences of an item in a list", "Count the occurrences of each item"),
        ("두 딕셔너리를 한 줄의 표현식으로 병합하는 방법", "두 딕셔너리를 병합하는 방법"),
        ("리스트에 0인 요소가 하나라도 있는지 확인", "리스트의 모든 요소가 0인지 확인"),
    ],
)
def test_different_scopes_conflict(query: str, cached: str) -> None:
    assert scope_conflicts(query, cached)


@pytest.mark.parametrize(
    ("query", "cached"),
    [
        ("How to remove all whitespace from a string?", "How to remove whitespace from a string?"),
        # A cached answer to the narrower question may serve the broader one.
        ("sum of squares in a list", "sum of squares in a list in one line?"),
        ("remove duplicates from a list", "Get unique values from a list"),
        ("how do I remove all the whitespace in a string", "remove all whitespace from a string"),
        ("문자열의 공백을 모두 제거하려면?", "문자열에서 모든 공백을 제거하는 방법"),
    ],
)
def test_agreeing_scopes_do_not_conflict(query: str, cached: str) -> None:
    assert scope_conflicts(query, cached) == []


def test_documentation_meets_or_contradicts_a_constraint() -> None:
    question = "How do I create a temporary directory that is deleted automatically?"
    assert fit(question, MKDTEMP).contradicts
    assert not fit(question, MKDTEMP).meets
    assert fit(question, TEMPORARY_DIRECTORY).meets
    # Documentation that says both is neither.
    both = fit(question, f"{MKDTEMP} {TEMPORARY_DIRECTORY}")
    assert not both.meets
    assert not both.contradicts
    # A question without the constraint reads no fit either way.
    plain = fit("How do I create a temporary directory?", MKDTEMP)
    assert not plain.meets
    assert not plain.contradicts


def test_order_and_one_expression_read_the_documentation() -> None:
    unordered = "A set object is an unordered collection of distinct hashable objects."
    assert fit("remove duplicates from a list preserving order", unordered).contradicts
    update = "Update the dictionary with the key/value pairs from other. Return None."
    merged = "Create a new dictionary with the merged keys and values of d and other."
    assert fit("merge two dicts in one expression", update).contradicts
    assert fit("merge two dicts in one expression", merged).meets


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "How to add multiple values to a dictionary key",
            ("dict.setdefault", "collections.defaultdict"),
        ),
        ("remove an element from a list by index", ("list.pop", "library/stdtypes:del s[i:j]")),
        ("remove an item from a list by value", ("list.remove",)),
        ("Python: Split string with several separators", ("re.split",)),
        # The words alone are not the kind: "multiple values" of a function, sorting by value.
        ("How to return multiple values from a function", ()),
        ("sort a dictionary by value", ()),
        ("리스트에서 인덱스로 요소를 제거하는 방법", ("list.pop", "library/stdtypes:del s[i:j]")),
    ],
)
def test_a_kind_of_question_names_its_idiom(question: str, expected: tuple[str, ...]) -> None:
    assert idioms(question) == expected


def test_every_occurrence_reads_the_documentation_and_all_alone_does_not() -> None:
    strip = "Return a copy of the string with the leading and trailing characters removed."
    assert fit("remove all whitespace from a string", strip).contradicts
    assert not fit("remove the whitespace from all lines", strip).contradicts
    replace = (
        "Return a copy of the string with all occurrences of substring old replaced by new. If "
        "the optional argument count is given, only the first count occurrences are replaced."
    )
    assert fit("replace all occurrences of a word in a string", replace).meets
