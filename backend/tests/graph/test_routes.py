"""Every route of the main graph, offline, compiled afresh per test."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.errors import NodeTimeoutError
from langgraph.types import Overwrite

from codeweaver.workflows.orchestration.graph import _kind_of
from codeweaver.workflows.orchestration.state import MainState
from codeweaver_cache import CacheUnavailableError
from codeweaver_runtime import EmbeddingError, StaticChatModels

from .conftest import DOCS, KeywordSource, MakeHarness

QUESTION = "How do I reverse a list in Python?"


def search_ran(nodes: list[str]) -> bool:
    return any(n == "search" or n.startswith("search/") or "/search" in n for n in nodes)


async def test_single_question_is_answered_with_citations_from_evidence(
    make_harness: MakeHarness,
) -> None:
    h = make_harness(models=StaticChatModels(None))
    values, nodes, calls = await h.ask(QUESTION)
    answer = values["answer"]
    assert values["routing"].route == "single"
    assert answer.citations
    assert answer.grounded
    assert answer.offline
    evidence_ids = {e.id for e in values["evidence"]}
    assert {c.evidence_id for c in answer.citations} <= evidence_ids
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", answer.text)}
    assert cited == {c.n for c in answer.citations}
    assert values["messages"][-1].content.startswith(answer.text[:40])
    assert search_ran(nodes)
    assert "grade" in nodes
    assert "cache_store" in nodes
    assert calls == 0
    assert [s.node for s in values["flow"]][:2] == ["plan", "route"]


async def test_follow_up_is_answered_from_history_without_search(make_harness: MakeHarness) -> None:
    h = make_harness()
    await h.ask("How do I sort a dictionary by value?")
    searched = len(h.source.queries)
    values, nodes, _ = await h.ask("Can you show an example of that?")
    assert values["analysis"].question_type == "clarification"
    assert "answer_with_history" in nodes
    assert not search_ran(nodes)
    assert len(h.source.queries) == searched
    answer = values["answer"]
    assert answer.citations, answer.text
    assert "```python\n>>> d = {'a': 2, 'b': 1}" in answer.text
    assert not re.search(r"^\s*\[\d+\]\s*$", answer.text, re.MULTILINE), "no bare markers"
    assert len(values["messages"]) == 4


async def test_an_example_the_sources_do_not_hold_is_searched_for(
    make_harness: MakeHarness,
) -> None:
    h = make_harness(
        source=KeywordSource(docs={"slice": DOCS["slice"], "reverse": DOCS["reverse"]})
    )
    first, _, _ = await h.ask("What does slicing do to a list?")
    assert "```" not in first["answer"].text
    values, nodes, _ = await h.ask("Can you show an example of that?")
    assert values["analysis"].question_type == "new_topic"
    assert values["analysis"].standalone_question == "What does slicing do to a list? example"
    assert search_ran(nodes)


async def test_two_questions_get_two_sections(make_harness: MakeHarness) -> None:
    h = make_harness()
    values, nodes, _ = await h.ask(
        "How do I reverse a list in Python? How do I sort a dictionary by value?"
    )
    assert values["routing"].route == "multi"
    text = values["answer"].text
    assert "## 1. How do I reverse a list in Python?" in text
    assert "## 2. How do I sort a dictionary by value?" in text
    numbers = [c.n for c in values["answer"].citations]
    assert numbers == list(range(1, len(numbers) + 1))
    assert "combine" in nodes
    assert any(n.startswith("multi_question/") for n in nodes)


async def test_the_second_of_two_questions_keeps_the_first_s_subject(
    make_harness: MakeHarness,
) -> None:
    # Issue 29: "how do I close it?" alone is about nothing; it was declined, and cached under
    # its bare words. It is answered, and cached, about the file.
    h = make_harness()
    values, _, _ = await h.ask("How do I open a file, and how do I close it?", thread="a")
    assert values["routing"].route == "multi"
    assert values["plan"].questions == ["How do I open a file", "how do I close a file?"]
    assert "## 2. how do I close a file?" in values["answer"].text
    assert not values["answer"].declined
    again, nodes, _ = await h.ask("How do I close a file?", thread="b")
    assert again["cache_decision"].hit, again["cache_decision"].reason
    assert not search_ran(nodes)
    bare, _, _ = await h.ask("How do I close it?", thread="c")
    assert not bare["cache_decision"].hit
    assert not bare["cache_stored"]


async def test_two_questions_both_declined_are_a_decline(make_harness: MakeHarness) -> None:
    h = make_harness()
    values, _, _ = await h.ask(
        "How do I rename a git branch? And how do I delete a remote branch in git?"
    )
    assert values["routing"].route == "multi"
    assert values["answer"].declined
    assert values["answer"].decline_reason == "out_of_scope"
    assert not values["cache_stored"]


async def test_two_questions_one_answered_are_an_answer(make_harness: MakeHarness) -> None:
    h = make_harness()
    values, _, _ = await h.ask("How do I reverse a list in Python? And how do I rebase in git?")
    assert values["routing"].route == "multi"
    assert not values["answer"].declined
    assert values["answer"].decline_reason is None
    assert "git" in values["answer"].text.lower()


async def test_three_questions_are_declined_without_search(make_harness: MakeHarness) -> None:
    h = make_harness()
    values, nodes, _ = await h.ask("What is a list? What is a tuple? What is a set?")
    assert values["routing"].route == "too_many"
    assert "at most two" in values["answer"].text
    assert "3. What is a set?" in values["answer"].text
    assert not search_ran(nodes)
    assert h.source.queries == []


async def test_repeat_question_in_a_new_thread_is_a_cache_hit_with_no_model_calls(
    make_harness: MakeHarness,
) -> None:
    h = make_harness()
    first, _, _ = await h.ask(QUESTION, thread="a")
    assert first["cache_stored"], first.get("cache_store_reason")
    values, nodes, calls = await h.ask(QUESTION, thread="b")
    assert values["cache_decision"].hit
    assert values["answer"].from_cache
    assert not search_ran(nodes)
    assert calls == 0
    assert values["answer"].text == first["answer"].text


async def test_turn_fields_do_not_leak_into_the_next_turn(make_harness: MakeHarness) -> None:
    h = make_harness()
    await h.ask(QUESTION)
    values, _, _ = await h.ask("What is a list? What is a tuple? What is a set?")
    assert values["evidence"] == []
    assert values["analysis"] is None
    assert values["cache_decision"] is None


@pytest.mark.parametrize(
    ("earlier", "filled"),
    [
        (QUESTION, {"search_iteration", "search_queries", "cache_stored", "evidence"}),
        ("How do I reverse a list? How do I open a file?", {"multi_answers", "answer"}),
    ],
)
async def test_plan_resets_every_per_turn_key(
    make_harness: MakeHarness, earlier: str, filled: set[str]
) -> None:
    h = make_harness()
    before, _, _ = await h.ask(earlier)
    assert all(before[key] for key in filled), "the earlier turn must leave these set"
    config: Any = {"configurable": {"thread_id": "t1"}}
    updates: dict[str, dict[str, Any]] = {}
    async for chunk in h.graph.astream(
        {"messages": [HumanMessage("What is a list? What is a tuple? What is a set?")]},
        config,
        context=h.context,
        stream_mode="updates",
    ):
        updates.update(chunk)
    reset = updates["plan"]
    per_turn = set(MainState.__annotations__) - {"messages"}
    assert per_turn <= set(reset), f"plan does not reset {sorted(per_turn - set(reset))}"
    written_after_plan = {
        key for node, update in updates.items() if node != "plan" for key in update
    }
    values = (await h.graph.aget_state(config)).values
    for key in per_turn - written_after_plan:
        fresh = reset[key].value if isinstance(reset[key], Overwrite) else reset[key]
        assert values[key] == fresh, key


async def test_a_decline_is_never_cached(make_harness: MakeHarness) -> None:
    h = make_harness()
    question = "How do I undo the last commit in git but keep my changes?"
    first, _, _ = await h.ask(question, thread="t1")
    assert first["answer"].declined
    assert first["answer"].decline_reason == "out_of_scope"
    assert not first["cache_stored"]
    again, nodes, _ = await h.ask(question, thread="t2")
    assert not again["cache_decision"].hit
    assert search_ran(nodes)


async def test_skipped_sources_are_named_in_the_answer(make_harness: MakeHarness) -> None:
    h = make_harness(search_sources=["local", "github"])
    values, _, _ = await h.ask(QUESTION)
    answer = values["answer"]
    assert not answer.declined
    last = answer.text.rstrip().splitlines()[-1]
    assert last.startswith("_Not searched: GitHub code (skipped: no github source is configured")
    assert answer.warning is None, "a skipped source is not a failure"


def test_a_failed_subgraph_is_classified_by_its_exception_type() -> None:
    assert _kind_of(CacheUnavailableError("qdrant down")) == "store"
    assert _kind_of(TimeoutError()) == "timeout"
    assert _kind_of(NodeTimeoutError("search", 1.0, kind="run", run_timeout=1.0)) == "timeout"
    assert _kind_of(EmbeddingError("model crashed")) == "embedding"
    assert _kind_of(RuntimeError("provider 503")) == "model"
