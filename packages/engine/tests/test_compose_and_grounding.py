import re

from codeweaver_engine.compose import code_blocks, extractive_answer, plain, sentences_of
from codeweaver_engine.grounding import check_grounding
from codeweaver_runtime import Embedder
from codeweaver_schema import Answer, Citation, Evidence, LocalMeta, stable_id
from tests.turns import cacheable

SEQ = Evidence(
    id=stable_id("local", "seq", "0"),
    source="local",
    title="Mutable Sequence Types",
    content=(
        "Mutable sequences support operations that change them in place.\n\n"
        "The reverse() method modifies the sequence in place for economy of space when "
        "reversing a large sequence. To remind users that it operates by side effect, it does "
        "not return the reversed sequence.\n\n"
        "   >>> s = [1, 2, 3]\n   >>> s.reverse()\n   >>> s\n   [3, 2, 1]\n"
    ),
    score=0.9,
    meta=LocalMeta(doc_id="seq", file="library/stdtypes.rst", section="Mutable Sequence Types"),
)
SLICE = Evidence(
    id=stable_id("local", "slice", "0"),
    source="local",
    title="Slicings",
    content="A slicing selects a range of items in a sequence object. The slice s[::-1] "
    "returns a new list with the items in reverse order, leaving the original unchanged.",
    score=0.7,
    meta=LocalMeta(doc_id="slice", file="reference/expressions.rst", section="Slicings"),
)
LEARNING = cacheable(question_type="independent")


def test_plain_strips_roles_and_tables() -> None:
    text = "+----+----+\n| a | b |\n+----+----+\nUse :func:`reversed` and ``list.reverse``."
    assert plain(text) == "a — b\nUse `reversed()` and `list.reverse`."


def test_a_simple_table_row_reads_cell_by_cell() -> None:
    assert plain("`'a'`   open for appending\nNext line.") == (
        "\n`'a'` — open for appending\n\nNext line."
    )
    assert plain("    x = f(a,   b)") == "    x = f(a,   b)", "code keeps its spaces"


def test_a_sentence_that_leans_on_the_one_before_is_quoted_with_it() -> None:
    item = SEQ.model_copy(
        update={"content": "*reverse* is a boolean value.  If set to True, the order flips."}
    )
    assert sentences_of(item) == ["*reverse* is a boolean value. If set to True, the order flips."]


def test_code_blocks_find_doctests() -> None:
    assert code_blocks(SEQ.content) == [">>> s = [1, 2, 3]\n>>> s.reverse()\n>>> s\n[3, 2, 1]"]


async def test_offline_answer_cites_only_retrieved_evidence(embedder: Embedder) -> None:
    answer = await extractive_answer(LEARNING.standalone_question, LEARNING, [SEQ, SLICE], embedder)
    assert answer.offline
    assert answer.grounded
    assert "without a language model" in answer.text
    used = {int(n) for n in re.findall(r"\[(\d+)\]", answer.text)}
    assert used == {c.n for c in answer.citations}
    assert {c.evidence_id for c in answer.citations} <= {SEQ.id, SLICE.id}
    assert "s.reverse()" in answer.text
    assert check_grounding(answer, [SEQ, SLICE]).grounded


async def test_no_evidence_is_a_decline_not_a_guess(embedder: Embedder) -> None:
    answer = await extractive_answer("q", LEARNING, [], embedder)
    assert answer.declined
    assert answer.decline_reason == "no_evidence"
    assert not answer.grounded
    assert not answer.citations
    assert "I could not find an answer" in answer.text


async def test_korean_headings(embedder: Embedder) -> None:
    korean = LEARNING.model_copy(update={"language": "ko"})
    answer = await extractive_answer("파이썬에서 리스트를 뒤집는 방법은?", korean, [SEQ], embedder)
    assert "**출처:**" in answer.text
    assert "언어 모델 없이" in answer.text
    assert "[3, 2, 1] [1]" not in answer.text, "doctest output is code, not a sentence"


def _answer(text: str, *citations: Citation) -> Answer:
    return Answer(text=text, citations=list(citations))


def _cite(n: int, ev: Evidence) -> Citation:
    return Citation(n=n, evidence_id=ev.id, title=ev.title, source=ev.source, locator=ev.locator)


def test_unresolved_citation_is_not_grounded() -> None:
    grade = check_grounding(_answer("Use reverse() in place [2].", _cite(1, SEQ)), [SEQ])
    assert not grade.grounded
    assert grade.unresolved_citations == [2]


def test_brackets_in_code_cite_nothing() -> None:
    text = (
        "The reverse() method modifies the sequence `s[0]` in place [1].\n\n"
        "```python\n>>> s = [1, 2, 3]\n>>> s.reverse()\n>>> s[0]\n3\n``` [1]\n"
    )
    grade = check_grounding(_answer(text, _cite(1, SEQ)), [SEQ])
    assert grade.unresolved_citations == []
    assert grade.grounded, grade.reason


def test_citation_to_evidence_not_retrieved_is_unresolved() -> None:
    grade = check_grounding(_answer("Slices copy [1].", _cite(1, SLICE)), [SEQ])
    assert grade.unresolved_citations == [1]


def test_unsupported_claim_is_caught() -> None:
    text = "Python lists are implemented as balanced red-black trees with logarithmic lookup [1]."
    grade = check_grounding(_answer(text, _cite(1, SEQ)), [SEQ])
    assert not grade.grounded
    assert grade.unsupported_claims


def test_answer_without_citations_is_not_grounded() -> None:
    assert not check_grounding(_answer("Just use reverse()."), [SEQ]).grounded
