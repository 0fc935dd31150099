"""State of the multi-question subgraph: the shared state plus `multi_`-prefixed fields."""

from __future__ import annotations

from typing import Annotated

from langgraph.types import Overwrite
from typing_extensions import TypedDict

from codeweaver_schema import (
    OrchestrationState,
    OrchestrationUpdate,
    Plan,
    QuestionAnswer,
    merge_by_id,
)


class MultiState(OrchestrationState, total=False):
    """The parent's state as the subgraph sees it, plus the answers its workers write back."""

    multi_answers: Annotated[list[QuestionAnswer], merge_by_id]
    """One answer per question; the only channel parallel workers write to."""


class MultiOutput(TypedDict, total=False):
    """What the subgraph hands back to its parent: the workers' answers, nothing else."""

    multi_answers: Annotated[list[QuestionAnswer], merge_by_id]


class WorkerInput(TypedDict, total=False):
    """What each `Send` carries to a worker: one question, its position, the turn's plan."""

    multi_question: str
    multi_index: int
    plan: Plan | None


class MultiUpdate(OrchestrationUpdate, total=False):
    """What may be written to the multi-question state (`MultiState`)."""

    multi_answers: list[QuestionAnswer] | Overwrite


def fresh_multi_fields() -> MultiUpdate:
    """The per-turn reset of this package's fields."""
    return {"multi_answers": Overwrite([])}
