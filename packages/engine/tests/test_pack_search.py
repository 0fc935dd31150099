"""Searching the packaged documentation: what a question names, examples, addresses, models."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest

from codeweaver_engine.language.direction import conversion, reverses
from codeweaver_engine.packs import DOCS_URL
from codeweaver_engine.packs.index import (
    PASSAGE_CONTEXT_CHARS,
    DocsIndex,
    call_keys,
    stemmed_words,
    word_overlap,
)
from codeweaver_engine.packs.retrieval import PackSearch, evidence_of, is_reference
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder
from codeweaver_schema import LocalMeta
from codeweaver_testing import HashEmbedder


def top(index: DocsIndex, question: str, k: int = 3) -> list[str]:
    vector = get_embedder(DEFAULT_EMBEDDING_MODEL).embed_sync([question])[0]
    return [h.unit.name or h.unit.anchor for h in index.search(vector, question, k=k)]


@pytest.mark.parametrize(
    ("question", "api"),
    [
        ("make a time delay", "time.sleep"),
        ("How do I delete a file in Python?", "os.remove"),
        ("Base64 encoding in Python 3", "base64.b64encode"),
        ("How can I tell what re.sub returns?", "re.sub"),
        ("regex lookahead: match a word only if it is followed by another", "(?=...)"),
        ("non-greedy regex match in python", "*?"),
        ("How to get the day of the year?", "%j"),  # a row of the strftime table
        ("How to format a number as a percentage?", "'%'"),  # a row of the format spec's
        ("How do I un-escape a backslash-escaped string?", "unicode_escape"),  # the codecs'
    ],
)
def test_everyday_questions_find_their_api(index: DocsIndex, question: str, api: str) -> None:
    assert api in top(index, question), top(index, question)


def test_one_answer_stands_once_in_the_results(index: DocsIndex) -> None:
    # "limit a float to two decimal places" lifts every unit of the long format-spec section
    # alike; one of them is enough, and the other places go to other answers.
    vector = get_embedder(DEFAULT_EMBEDDING_MODEL).embed_sync(["Limiting floats to two decimals"])
    hits = index.search(vector[0], "Limiting floats to two decimals", k=8)
    keys = [h.unit.name if h.unit.kind == "api" else h.url for h in hits]
    assert len(keys) == len(set(keys)) == 8, keys
    sections = [u for u in index.units if u.anchor == "format-specification-mini-language"]
    assert len(sections) > 1, "the section is split into several units"


def test_a_question_that_names_an_api_in_code_lifts_it(index: DocsIndex) -> None:
    assert set(index.named_units("what does `os.path.join` do with getsize()?")) >= {
        i for name in ("os.path.join", "os.path.getsize") for i in index.positions(name)
    }
    assert index.named_units("how do I join two paths") == set()
    assert set(index.positions("KeyError")) <= index.named_units("Python KeyError: 'x'")
    assert index.named_units("an error occurred") == set()


def test_a_piece_of_syntax_is_found_through_its_tasks_never_named_by_a_question(
    index: DocsIndex,
) -> None:
    dollar = set(index.positions("$"))
    assert dollar, "the end-of-string anchor is a unit"
    assert not dollar & index.named_units("How do I split a string on '$'?")
    assert "$" not in top(index, "How do I split a string on '$'?", k=5)


def test_a_table_row_named_like_an_api_leaves_the_name_to_the_api(index: DocsIndex) -> None:
    # Type-mapping tables have rows named ``int``; `int` is still the built-in alone.
    assert {index.unit(i).directive for i in index.positions("int")} == {"class"}
    assert any(u.directive == "syntax" and u.name == "int" for u in index.units)
    assert [index.unit(i).doc for i in index.positions("library/string:'<'")] == ["library/string"]


def test_a_module_named_in_words_counts_unless_it_is_an_english_word(index: DocsIndex) -> None:
    assert index.module_units("argparse positional arguments")
    assert not index.module_units("what time is it")


def test_an_entry_without_an_example_borrows_a_session_that_calls_it(index: DocsIndex) -> None:
    [remove] = [i for i in index.positions("os.remove")]
    companion = index.example_for(index.hit(remove, 0.9))
    assert companion is not None
    assert any("os.remove" in call_keys(b) for b in index.unit(companion).examples)
    [strip] = [i for i in index.positions("str.strip")][:1]
    assert index.unit(strip).examples, "str.strip has its own example"
    assert index.example_for(index.hit(strip, 0.9)) is None


def test_a_generic_phrase_shares_less_with_a_question_than_one_that_says_what_it_asks() -> None:
    def overlap(question: str, phrase: str) -> float:
        return word_overlap(frozenset(stemmed_words(question)), frozenset(stemmed_words(phrase)))

    question = "Python date string to date object"
    # Every word of "date object" is in the question, but the question asks more than that.
    assert overlap(question, "convert a date string to a date object") > overlap(
        question, "date object in python"
    )
    assert overlap(question, "date object in python") < 1.0
    # How a question is asked ("python", "best way") is not what it asks.
    assert overlap("best way to reverse a list in python", "reverse a list") == 1.0
    assert overlap("python", "python") == 0.0


def kinds(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    found = conversion(text)
    return (found.source_kinds, found.target_kinds) if found else None


def test_a_conversion_reads_its_kinds_from_either_side_of_to() -> None:
    assert kinds("Converting a string into a list in Python") == (
        frozenset({"str"}),
        frozenset({"list"}),
    )
    assert kinds("How to convert a list of ints to a list of strings") == (
        frozenset({"list", "int"}),
        frozenset({"list", "str"}),
    )
    # The noun phrase ends at "using": the list comprehension is how, not what.
    assert kinds("convert string to dict using list comprehension") == (
        frozenset({"str"}),
        frozenset({"dict"}),
    )
    assert kinds("parse int from a string") == (frozenset({"str"}), frozenset({"int"}))
    assert kinds("How to add to a list") is None  # nothing on the left of "to"
    assert kinds("Save line in file to list") == (frozenset({"file"}), frozenset({"list"}))
    assert kinds("go to the end of a line") is None
    assert kinds("read a string like a file") == (frozenset({"str"}), frozenset({"file"}))
    assert kinds("add up numbers stored as strings") is None
    assert kinds("copy a list to a list") is None  # nothing changes kind


def test_the_phrases_either_side_tell_a_conversion_s_direction() -> None:
    def reversed_(asked: str, phrase: str) -> bool:
        return reverses(conversion(asked), conversion(phrase))

    assert reversed_("string into a list", "convert a list of characters to a string")
    assert reversed_("list of ints to a list of strings", "list of strings to integers")
    assert not reversed_("string into a list", "convert a string to a list of characters")
    assert not reversed_("string into a list", "how to sort a list")
    assert reversed_("Python ASCII to binary", "binary to ascii text")
    assert reversed_("How to convert an int to a string?", "parse int from a string")
    assert reversed_("read lines of a file into a list", "write a list to a file")


def test_a_task_phrased_the_other_way_round_does_not_decide_a_score(index: DocsIndex) -> None:
    # "list to string" (`str.join`) and "string to list" read alike to a small model.
    assert top(index, "How to convert a list to a string?", k=1) == ["str.join"]
    assert "str.join" not in top(index, "Converting a string into a list in Python")


def test_call_keys_tell_module_functions_from_methods() -> None:
    assert call_keys("os.remove(p)") == {"os.remove", ".remove"}
    assert call_keys("dirs.remove('CVS')") == {"dirs.remove", ".remove"}
    assert call_keys("sorted(x, key=len)") == {"sorted"}


def test_evidence_cites_docs_python_org_and_leads_with_the_signature(index: DocsIndex) -> None:
    [i] = index.positions("time.sleep")
    evidence = evidence_of(index.hit(i, 0.88, via_task="make a time delay"))
    assert evidence.url == f"{DOCS_URL}library/time.html#time.sleep"
    assert evidence.content.startswith("```\ntime.sleep(secs)\n```")
    assert isinstance(evidence.meta, LocalMeta)
    assert evidence.meta.api == "time.sleep"
    assert evidence.meta.task == "make a time delay"
    assert is_reference(evidence)
    by_url = index.by_url(evidence.url)
    assert by_url is not None
    assert by_url.index == i


def test_an_entry_reached_through_one_of_its_names_answers_as_that_name(index: DocsIndex) -> None:
    # One entry documents sys.stdin, sys.stdout and sys.stderr; "write to standard error" asks
    # for sys.stderr, and the answer must not read "Use sys.stdin".
    vector = get_embedder(DEFAULT_EMBEDDING_MODEL).embed_sync(["write to standard error"])[0]
    [hit] = [
        h
        for h in index.search(vector, "write to standard error", k=3)
        if h.unit.name == "sys.stdin"
    ]
    assert hit.asked_as == "sys.stderr"
    evidence = evidence_of(hit)
    assert evidence.title.startswith("Python 3.11 docs: sys.stderr — ")
    assert isinstance(evidence.meta, LocalMeta)
    assert evidence.meta.api == "sys.stderr"
    assert evidence.content.startswith("```\nsys.stderr\n")
    # Reached by its own name, an entry answers as itself.
    vector = get_embedder(DEFAULT_EMBEDDING_MODEL).embed_sync(["make a time delay"])[0]
    [sleep] = [
        h for h in index.search(vector, "make a time delay", k=3) if h.unit.name == "time.sleep"
    ]
    assert sleep.asked_as is None
    assert evidence_of(sleep).meta.api == "time.sleep"  # type: ignore[union-attr]


def test_a_passage_is_read_with_its_neighbours_in_its_section(index: DocsIndex) -> None:
    # The tutorial's list comprehensions are cut into passages; the one holding the nested-loop
    # session starts with it, and the sentence that says what it shows ends the passage before.
    parts = index.positions("tutorial/datastructures#list-comprehensions")
    assert len(parts) > 2
    [middle] = [i for i in parts if index.unit(i).text.startswith("```\n>>> combs = []")]
    read = index.in_context(middle)
    assert index.unit(middle).text in read
    assert "and it's equivalent to:" in read.split(">>> combs = []")[0]
    assert len(read) <= PASSAGE_CONTEXT_CHARS
    [nested] = index.positions("tutorial/datastructures#nested-list-comprehensions")[:1]
    assert index.unit(nested).text not in read, "only its own section"
    # The Unicode HOWTO has three "References" sections under one anchor: each reads alone.
    references = index.positions("howto/unicode#references")
    assert len(references) == 3
    assert all(index.in_context(i) == index.unit(i).text for i in references)
    api = index.positions("str.split")[0]
    assert index.in_context(api) == index.unit(api).text, "an API entry is read alone"


async def test_a_search_s_passages_carry_their_neighbours(index: DocsIndex) -> None:
    reference = PackSearch(lambda: get_embedder(DEFAULT_EMBEDDING_MODEL), packs=[lambda: index])
    found = await reference.search("list comprehension with if condition", k=3)
    [passage] = [e for e in found if e.url and e.url.endswith("#list-comprehensions")]
    assert isinstance(passage.meta, LocalMeta)
    own = index.unit(passage.meta.chunk_index).text
    assert own in passage.content
    assert len(passage.content) > len(own), "read with its section's neighbours"


async def test_another_embedding_model_gets_the_units_embedded_once(
    index: DocsIndex, tmp_path: Path
) -> None:
    small = DocsIndex(
        index.units[:50],
        index.vectors[:50],
        [],
        np.zeros((0, index.vectors.shape[1]), dtype=np.float32),
        pack=index.pack,
    )
    embedder = HashEmbedder()
    reference = PackSearch(lambda: embedder, cache_dir=tmp_path, packs=[lambda: small])
    found = await reference.search("reverse a list", k=3)
    assert len(found) == 3
    [cached] = await asyncio.to_thread(lambda: list(tmp_path.iterdir()))
    assert "hash-256" in cached.name
    again = PackSearch(lambda: embedder, cache_dir=tmp_path, packs=[lambda: small])
    assert (await again.warm_up()).indexes[0].vectors.shape == (50, embedder.dimension)


@pytest.mark.parametrize(
    ("question", "idiom"),
    [
        # "One key, many values" reads to a small model like "many keys" (`dict.update`).
        ("How to add multiple values to a dictionary key", "dict.setdefault"),
        ("Python dict: how to append a value to a key's list", "dict.setdefault"),
        # The answer is an operation, not the passage that lists them.
        ("remove an element from a list by index", "list.pop"),
        ("Split a string on several delimiters", "re.split"),
        ("딕셔너리 키에 여러 값을 추가하는 방법", "dict.setdefault"),
    ],
)
def test_a_kind_of_question_whose_answer_is_an_idiom_gets_it_first(
    index: DocsIndex, question: str, idiom: str
) -> None:
    assert top(index, question, k=1) == [idiom]


def test_no_idiom_is_lifted_for_a_question_not_of_its_kind(index: DocsIndex) -> None:
    assert "dict.setdefault" not in top(index, "How to return multiple values from a function")
    assert "re.split" not in top(index, "Split a string by spaces")


def test_the_engine_keeps_a_phrase_whose_kinds_do_not_swap() -> None:
    # zip pairs lists into tuples and unzips them: the phrases trade places, the kinds do not.
    asked = conversion("how to get tuples from lists")
    phrase = conversion("convert a list of tuples into separate lists")
    assert reverses(asked, phrase)
    assert not reverses(asked, phrase, kinds_swap=True)
    unix = conversion("How to convert a Unix timestamp to a datetime?")
    back = conversion("convert a datetime to a unix timestamp")
    assert reverses(unix, back, kinds_swap=True)
