"""Edges of the multi-question subgraph."""

from __future__ import annotations

from langgraph.types import Send

from codeweaver_multi_question.state import MultiState, WorkerInput

WORKER = "answer_question"
MAX_QUESTIONS = 2


def route_questions(state: MultiState) -> list[Send]:
    """One `Send` per planned question (at most two), each to its own worker."""
    plan = state.get("plan")
    questions = plan.questions[:MAX_QUESTIONS] if plan else []
    return [
        Send(WORKER, WorkerInput(multi_question=q, multi_index=i, plan=plan))
        for i, q in enumerate(questions)
    ]
