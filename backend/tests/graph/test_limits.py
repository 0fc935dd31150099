"""Every loop ends and every run is bounded: loop ceilings, recursion limit, time budget."""

from __future__ import annotations

import itertools
import re
from typing import Any

from langchain_core.messages import BaseMessage

from codeweaver.context import MAX_REGENERATIONS
from codeweaver.workflows.orchestration.graph import RECURSION_LIMIT
from codeweaver.workflows.orchestration.prompts import GradeVerdict
from codeweaver_runtime import StaticChatModels
from codeweaver_search import MAX_ROUNDS
from codeweaver_testing import ScriptedChatModel

from .conftest import KeywordSource, MakeHarness

QUESTION = "How do I reverse a list in Python?"


def never_satisfied(*, latency_s: float = 0.0) -> ScriptedChatModel:
    """A judge that always wants another round, a grader that always fails the answer."""
    rounds = itertools.count(1)

    def respond(messages: list[BaseMessage], schema: str | None) -> Any:
        if schema == "Assessment":
            labels = sorted(set(re.findall(r"\bE\d+\b", str(messages[-1].content))))
            return {
                "items": [{"item": x, "relevance": 0.3, "summary": ""} for x in labels],
                "sufficiency_score": 0.1,
                "sufficient": False,
                "missing_aspects": ["everything"],
                "refined_query": f"python reverse list attempt {next(rounds)}",
            }
        if schema == "GradeVerdict":
            return GradeVerdict(grounded=False, reason="nothing is supported")
        return "Lists are reversed by the garbage collector [1]."

    return ScriptedChatModel(responder=respond, latency_s=latency_s)


async def test_a_pathological_configuration_still_ends_with_an_answer(
    make_harness: MakeHarness,
) -> None:
    model = never_satisfied()
    h = make_harness(
        models=StaticChatModels(model),
        search_max_iterations=1_000,
        answer_max_regenerations=1_000,
        search_sufficiency_threshold=1.01,
    )
    assert h.graph.config["recursion_limit"] == RECURSION_LIMIT
    values, nodes, _ = await h.ask(QUESTION)
    # The loops stop at their ceilings, far below the recursion limit, and the user gets an
    # answer with a warning instead of a GraphRecursionError.
    assert values["search_iteration"] == MAX_ROUNDS
    assert len(h.source.queries) == MAX_ROUNDS
    assert values["answer_attempts"] == MAX_REGENERATIONS + 1
    assert nodes.count("answer") == MAX_REGENERATIONS + 1
    answer = values["answer"]
    assert not answer.grounded
    assert answer.warning
    assert "could not be fully checked" in answer.warning


async def test_slow_sources_use_up_the_run_budget(make_harness: MakeHarness) -> None:
    source = KeywordSource(latency_s=0.4)
    h = make_harness(
        source=source,
        run_budget_s=0.3,
        search_max_iterations=4,
        search_sufficiency_threshold=1.01,
    )
    values, _, _ = await h.ask(QUESTION)
    assert len(source.queries) == 1, "no further round once the budget is spent"
    assert values["search_out_of_time"]
    answer = values["answer"]
    assert answer.citations, "the answer is written from what the first round found"
    assert "time budget of 0.3 s" in answer.text
    assert "further search rounds were skipped" in answer.text


async def test_a_spent_budget_skips_answer_rewrites(make_harness: MakeHarness) -> None:
    model = never_satisfied(latency_s=0.2)
    h = make_harness(
        models=StaticChatModels(model),
        run_budget_s=0.1,
        answer_max_regenerations=3,
        search_max_iterations=3,
    )
    values, nodes, _ = await h.ask(QUESTION)
    assert nodes.count("answer") == 1
    assert values["search_iteration"] == 1
    answer = values["answer"]
    assert "further searching and answer rewrites were skipped" in answer.text
    assert answer.warning
    assert not values.get("cache_stored")


async def test_within_budget_nothing_is_skipped(make_harness: MakeHarness) -> None:
    h = make_harness(run_budget_s=120, search_max_iterations=2, search_sufficiency_threshold=1.01)
    values, _, _ = await h.ask(QUESTION)
    assert not values["search_out_of_time"]
    assert len(h.source.queries) == 2
    assert "time budget" not in values["answer"].text
