"""Routing: a node that records where the run goes and why, and the turns that end early."""

from __future__ import annotations

from codeweaver.workflows.orchestration.nodes.common import deliver_message
from codeweaver.workflows.orchestration.state import MainState, MainUpdate
from codeweaver_engine.language.script import detect_language
from codeweaver_engine.language.words import truncate
from codeweaver_engine.strings import texts
from codeweaver_schema import Answer, Plan, RoutingDecision


def routing_for(plan: Plan | None) -> RoutingDecision:
    """Where a turn with this plan goes, and why: by how many questions it holds."""
    if plan is None or not plan.questions:
        return RoutingDecision(route="empty", reason="no question in the message")
    if plan.kind == "too_many":
        return RoutingDecision(
            route="too_many", reason=f"{len(plan.questions)} questions; at most two: {plan.reason}"
        )
    if plan.kind == "multiple_questions":
        return RoutingDecision(route="multi", reason=f"{plan.reason}, answered in parallel")
    return RoutingDecision(route="single", reason=plan.reason)


async def route(state: MainState) -> MainUpdate:
    """The `route` node: writes the `RoutingDecision` that the conditional edge reads."""
    return {"routing": routing_for(state.get("plan"))}


async def too_many(state: MainState) -> MainUpdate:
    """Decline three or more questions, listing them so the user can resend them."""
    plan = state.get("plan")
    questions = plan.questions if plan else []
    language = detect_language(state.get("question", ""))
    template = texts(language, "turn")["too_many"]
    listing = "\n".join(f"{i}. {truncate(q, 200)}" for i, q in enumerate(questions, start=1))
    answer = Answer(text=template.format(n=len(questions), listing=listing), language=language)
    return {"answer": answer, "messages": [await deliver_message(answer, state)]}


async def empty_input(state: MainState) -> MainUpdate:
    """Answer a message with no question in it with a clear request for one."""
    language = detect_language(state.get("question", ""))
    answer = Answer(text=texts(language, "turn")["empty"], language=language)
    return {"answer": answer, "messages": [await deliver_message(answer, state)]}
