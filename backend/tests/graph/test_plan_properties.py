"""Planning and routing never raise and always pick a route, whatever the text."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codeweaver.workflows.orchestration.nodes.planning import bounded_question, offline_plan
from codeweaver.workflows.orchestration.nodes.routing import routing_for

ROUTES = {"single", "multi", "too_many", "empty"}

texty = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=2_000
) | st.lists(
    st.sampled_from(["?", "\n", "1. ", "- ", ";", " and also ", "```", "How ", "리스트 ", "x"]),
    max_size=60,
).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texty)
def test_any_text_gets_a_plan_and_a_route(raw: str) -> None:
    question, _ = bounded_question(raw, 12_000)
    plan = offline_plan(question)
    decision = routing_for(plan)
    assert decision.route in ROUTES
    assert decision.reason
    if decision.route == "multi":
        assert len(plan.questions) == 2
    if decision.route == "single":
        assert plan.questions == [question]


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=3, max_value=12))
def test_three_or_more_question_marks_are_always_declined(n: int) -> None:
    text = " ".join(f"What is thing number {i}?" for i in range(n))
    assert routing_for(offline_plan(text)).route == "too_many"


def test_the_second_of_two_questions_is_planned_with_the_first_s_subject() -> None:
    plan = offline_plan("What is the current working directory, and how do I change it?")
    assert plan.kind == "multiple_questions"
    assert plan.questions == [
        "What is the current working directory",
        "how do I change the current working directory?",
    ]
