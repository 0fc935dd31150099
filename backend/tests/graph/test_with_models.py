"""The main graph with scripted chat models: call counts, regeneration, failures."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import BaseMessage

from codeweaver.bench.fakes import approving_judge
from codeweaver.workflows.orchestration.prompts import (
    GradeVerdict,
    PlanAndAnalysis,
    PlannedQuestion,
)
from codeweaver_runtime import StaticChatModels
from codeweaver_testing import ScriptedChatModel

from .conftest import MakeHarness

QUESTION = "How do I reverse a list in Python?"
PLAN = PlanAndAnalysis(
    kind="single_topic",
    questions=[
        PlannedQuestion(
            question=QUESTION,
            question_type="independent",
            standalone_question=QUESTION,
            should_cache=True,
            intent="learning",
            language="en",
        )
    ],
    reason="one question",
)


def scripted(answer_text: str, grounded: bool = True) -> ScriptedChatModel:
    def respond(messages: list[BaseMessage], schema: str | None) -> Any:
        if schema == "PlanAndAnalysis":
            return PLAN
        if schema == "Assessment":
            return approving_judge(str(messages[-1].content))
        if schema == "GradeVerdict":
            return GradeVerdict(grounded=grounded, reason="checked")
        if schema is None:
            return answer_text
        raise LookupError(schema)

    return ScriptedChatModel(responder=respond)


async def test_first_question_costs_judge_answer_grade(make_harness: MakeHarness) -> None:
    model = scripted("Call `lst.reverse()`: it reverses the list in place [1].")
    h = make_harness(models=StaticChatModels(model), search_max_iterations=1)
    values, _, calls = await h.ask(QUESTION)
    assert not values["answer"].offline
    assert values["answer"].grounded, values["grade"]
    # A thread's first message is its own standalone question: no planner call is needed.
    assert [c.schema for c in model.calls] == ["Assessment", None, "GradeVerdict"]
    assert calls == 3


async def test_cache_hit_costs_no_model_call(make_harness: MakeHarness) -> None:
    model = scripted("Call `lst.reverse()`: it reverses the list in place [1].")
    h = make_harness(models=StaticChatModels(model), search_max_iterations=1)
    await h.ask(QUESTION, thread="a")
    values, _, calls = await h.ask(QUESTION, thread="b")
    assert values["cache_decision"].hit
    assert calls == 0


async def test_new_topic_in_a_thread_is_planned_by_the_model(make_harness: MakeHarness) -> None:
    model = scripted("Use `sorted(d.items(), key=lambda kv: kv[1])` [1].")
    h = make_harness(models=StaticChatModels(model), search_max_iterations=1)
    await h.ask(QUESTION)
    before = len(model.calls)
    await h.ask("How do I sort a dictionary by value?")
    assert next(c.schema for c in model.calls[before:]) == "PlanAndAnalysis"


async def test_clarification_costs_one_call(make_harness: MakeHarness) -> None:
    model = scripted("As said, `reverse()` works in place [1].")
    h = make_harness(models=StaticChatModels(model), search_max_iterations=1)
    await h.ask(QUESTION)
    before = len(model.calls)
    values, nodes, calls = await h.ask("Can you show an example of that?")
    assert "answer_with_history" in nodes
    assert [c.schema for c in model.calls[before:]] == [None]
    assert calls == 1
    assert values["answer"].citations


async def test_ungrounded_answer_is_regenerated_then_delivered_with_a_warning(
    make_harness: MakeHarness,
) -> None:
    model = scripted("Lists are stored as red-black trees with logarithmic indexing [1].")
    h = make_harness(models=StaticChatModels(model), answer_max_regenerations=1)
    values, nodes, _ = await h.ask(QUESTION)
    assert nodes.count("answer") == 2
    answer = values["answer"]
    assert not answer.grounded
    assert answer.warning
    assert "could not be fully checked" in answer.warning
    assert not values["cache_stored"]


async def test_failing_model_falls_back_to_the_offline_engine(make_harness: MakeHarness) -> None:
    def broken(messages: list[BaseMessage], schema: str | None) -> Any:
        raise ConnectionError("provider is down")

    h = make_harness(models=StaticChatModels(ScriptedChatModel(responder=broken)))
    values, _, _ = await h.ask(QUESTION)
    assert values["answer"].offline
    assert values["answer"].citations
    assert any(e.kind == "model" for e in values["errors"])
    assert values["answer"].degraded


async def test_guard_overrides_a_model_that_misses_the_third_question(
    make_harness: MakeHarness,
) -> None:
    model = scripted("unused")
    h = make_harness(models=StaticChatModels(model))
    values, _, _ = await h.ask("What is a list? What is a tuple? What is a set?")
    assert values["plan"].guard_applied
    assert values["routing"].route == "too_many"
