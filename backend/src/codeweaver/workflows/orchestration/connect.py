"""Edges of the main graph: each routing function reads what a node wrote into state."""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime

from codeweaver.context import Context, context_of
from codeweaver.workflows.orchestration.nodes.answering import wants_regeneration
from codeweaver.workflows.orchestration.state import MainState


def route_by_question_count(
    state: MainState,
) -> Literal["analyze", "multi_question", "too_many", "empty_input"]:
    """One question to the pipeline, two to the workers, none or too many to a reply.

    Follows the `RoutingDecision` the `route` node recorded from the plan.
    """
    decision = state.get("routing")
    route = decision.route if decision is not None else "empty"
    if route == "single":
        return "analyze"
    if route == "multi":
        return "multi_question"
    if route == "too_many":
        return "too_many"
    return "empty_input"


def route_after_analyze(state: MainState) -> Literal["answer_with_history", "cache_lookup"]:
    """Follow-ups are answered from the thread; everything else goes through the cache."""
    analysis = state.get("analysis")
    if analysis is not None and analysis.question_type == "clarification":
        return "answer_with_history"
    return "cache_lookup"


def route_after_cache(state: MainState) -> Literal["hit", "miss"]:
    """A verified cache hit ends the turn; a miss searches."""
    decision = state.get("cache_decision")
    return "hit" if decision is not None and decision.hit else "miss"


def route_after_grade(
    state: MainState, runtime: Runtime[Context]
) -> Literal["answer", "cache_store"]:
    """Rewrite an ungrounded answer while attempts remain; otherwise store and finish."""
    return "answer" if wants_regeneration(state, context_of(runtime)) else "cache_store"
