from __future__ import annotations

import pytest

from codeweaver_cache.guards import compare, details


@pytest.mark.parametrize(
    ("query", "cached", "conflict"),
    [
        ("How do I reverse a list in Python 2?", "How do I reverse a list in Python?", "versions"),
        ("Install Django 4.2 on Ubuntu", "Install Django 5.0 on Ubuntu", "versions"),
        ("Round a float to 2 decimal places", "Round a float to 3 decimal places", "numbers"),
        ("Round a float to two decimal places", "Round a float to 3 decimal places", "numbers"),
        ("How to use os.path.join", "How to use os.path.split", "identifiers"),
        ("Fix ValueError when parsing a date", "Fix TypeError when parsing a date", "error"),
        ("Fix HTTP 404 from requests", "Fix HTTP 500 from requests", "error"),
        ("Reverse a list in Java", "Reverse a list in Python", "languages"),
        ("Read a CSV file with numpy", "Read a CSV file with pandas", "libraries"),
        ("Clear the terminal on Windows", "Clear the terminal on Linux", "operating systems"),
        ("Sort a list without sorted()", "Sort a list with sorted()", "polarity"),
        ("Disable SSL verification in requests", "Enable SSL verification in requests", "polarity"),
        (
            "Sort a dictionary by value in descending order",
            "Sort a dictionary by value in ascending order",
            "opposite",
        ),
        ("Convert hex string to int", "convert an int to a hex string", "direction"),
        ("Convert a list to a dictionary", "Convert a dictionary to a list", "direction"),
        (
            "Filter rows where 'status' is 'active'",
            "Filter rows where 'status' is 'closed'",
            "quoted",
        ),
        ("파이썬 3.12에서 리스트를 뒤집는 방법", "파이썬 3.8에서 리스트를 뒤집는 방법", "versions"),
    ],
)
def test_answer_determining_details_must_agree(query: str, cached: str, conflict: str) -> None:
    result = compare(query, cached)
    assert not result.agree
    assert any(conflict in c for c in result.conflicts), result.conflicts


@pytest.mark.parametrize(
    ("query", "cached"),
    [
        ("Convert hex string `s` to integer", "Convert hex string to int"),
        ("check if list `li` is empty", "check if a list is empty"),
        ("How do I reverse a list in Python?", "how do i reverse a list in python"),
        (
            "Get index values of pandas dataframe `df` as list",
            "Get index values of Pandas DataFrame as list?",
        ),
        (
            "Sub matrix of a list of lists (without numpy)",
            "Create sub matrix of a list of lists without numpy",
        ),
        ("파이썬에서 리스트를 뒤집는 방법", "파이썬에서 리스트를 뒤집는 방법은?"),
    ],
)
def test_same_question_written_differently_agrees(query: str, cached: str) -> None:
    assert compare(query, cached).agree


def test_details_read_versions_numbers_and_polarity() -> None:
    d = details("Why doesn't pip install numpy 1.26 work on Python 3.12 with 4 cores?")
    assert d.versions == {"python 3.12", "numpy 1.26"}
    assert d.numbers == {"4"}
    assert d.negated
    assert "numpy" in d.libraries


def test_coverage_measures_added_constraints() -> None:
    result = compare("read a single character from stdin", "read from stdin")
    assert result.query_coverage < 0.7
    assert result.cached_coverage == 1.0


def test_a_different_operation_on_the_same_object_is_a_conflict() -> None:
    # Seen in the server benchmark: cosine 0.64-0.84, 80% shared vocabulary, opposite answers.
    result = compare(
        "How do I sort a SQL query result lazily?", "How do I parse a SQL query result lazily?"
    )
    assert any(c.startswith("operations differ") for c in result.conflicts)


def test_synonymous_operations_still_agree() -> None:
    assert not compare(
        "remove duplicates from a list", "delete duplicate items of a list"
    ).conflicts
    assert not compare("sort a dict by value", "sorting dictionary by values").conflicts
