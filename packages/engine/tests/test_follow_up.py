"""Offline follow-ups from the earlier answer's sources: examples and more explanation."""

from __future__ import annotations

from codeweaver_engine.compose import sentences_of
from codeweaver_engine.follow_up import follow_up_answer
from codeweaver_engine.packs.index import DocsIndex
from codeweaver_engine.packs.retrieval import evidence_of
from codeweaver_engine.packs.shelf import Shelf
from codeweaver_schema import Citation


def cited(index: DocsIndex, name: str, n: int = 1) -> Citation:
    i = index.positions(name)[0]
    return Citation.of(n, evidence_of(index.hit(i, 0.9)))


def test_an_example_comes_from_the_cited_entry(index: DocsIndex) -> None:
    citation = cited(index, "str.strip")
    text, used = follow_up_answer(
        "Can you show an example?",
        "**Use `str.strip`** [1]",
        [citation],
        "en",
        lambda: Shelf([index]),
    )
    assert "```python\n>>> '   spacious   '.strip()" in text
    assert used == [citation]


def test_an_entry_without_an_example_borrows_one_and_cites_it(index: DocsIndex) -> None:
    citation = cited(index, "os.remove")
    text, used = follow_up_answer(
        "show me some code", "**Use `os.remove`** [1]", [citation], "en", lambda: Shelf([index])
    )
    assert [c.n for c in used] == [2], "the borrowed example is a new, resolvable citation"
    assert "os.remove(" in text.split("```python\n", 1)[1]
    assert text.count("[2]") == 1


def test_more_explanation_quotes_what_was_not_shown(index: DocsIndex) -> None:
    citation = cited(index, "time.sleep")
    shown = "Suspend execution of the calling thread for the given number of seconds. [1]"
    text, used = follow_up_answer(
        "Can you explain that in more detail?", shown, [citation], "en", lambda: Shelf([index])
    )
    assert used == [citation]
    quotes = [line for line in text.splitlines() if line.startswith("> ")]
    assert quotes
    assert all(line.endswith("[1]") for line in quotes)
    assert "Suspend execution of the calling thread" not in text


def test_nothing_more_is_said_plainly_never_as_bare_markers(index: DocsIndex) -> None:
    text, used = follow_up_answer("explain more", "Something [1]", [], "en", lambda: Shelf([index]))
    assert used == []
    assert "hold nothing more on this" in text
    text, used = follow_up_answer("explain", None, [], "ko", lambda: Shelf([index]))
    assert "이전 답변이 없습니다" in text


def test_an_example_shows_the_answers_api_not_other_code_from_its_sources(
    index: DocsIndex,
) -> None:
    """The answer on os.remove cited an os.walk page for its example; "show an example" must
    not answer with that page's other session (which never calls os.remove)."""
    remove = cited(index, "os.remove")
    walk = cited(index, "os.walk", 2)
    block = (
        "import os\nfor root, dirs, files in os.walk(top, topdown=False):\n"
        "    for name in files:\n        os.remove(os.path.join(root, name))"
    )
    earlier = f"**Use `os.remove`** [1]\n\n**Example** [2]\n```python\n{block}\n```"
    text, used = follow_up_answer(
        "Can you show an example of that?", earlier, [remove, walk], "en", lambda: Shelf([index])
    )
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    assert "os.remove(" in code
    assert "getsize" not in text
    assert [c.n for c in used] == [2]


def test_more_on_a_passage_reads_on_into_its_section(index: DocsIndex) -> None:
    # A section's address names its first passage; when the answer quoted all of it, the
    # section's next passages (the tutorial's list comprehensions run to three) have more.
    first = index.positions("tutorial/datastructures#list-comprehensions")[0]
    evidence = evidence_of(index.hit(first, 0.9))
    citation = Citation.of(1, evidence)
    shown = "\n".join(f"> {sentence} [1]" for sentence in sentences_of(evidence))
    text, used = follow_up_answer("tell me more", shown, [citation], "en", lambda: Shelf([index]))
    assert used == [citation]
    quotes = [line for line in text.splitlines() if line.startswith("> ")]
    assert quotes, text
    assert all(line.removeprefix("> ").removesuffix(" [1]") not in shown for line in quotes)
