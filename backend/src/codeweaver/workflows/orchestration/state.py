"""State of the main graph: the shared state, what each subgraph reads and returns, and its own.

A subgraph added as a node shares with its parent only the keys both states declare. The
subgraphs' working fields (the search pool, the judge model's verdict, a pending cache hit) live
in their own state for one call and never reach the main graph's checkpoints; the main graph
holds each subgraph's public interface, which Studio and the API show.
"""

from __future__ import annotations

from typing import Annotated

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from codeweaver_cache import CacheUpdate, LookupOutput, StoreOutput
from codeweaver_multi_question import MultiOutput, MultiUpdate, WorkerInput
from codeweaver_schema import (
    Analysis,
    Answer,
    CacheDecision,
    ErrorRecord,
    FlowStep,
    OrchestrationState,
    Plan,
    RoutingDecision,
    merge_by_id,
)
from codeweaver_search import SearchInput, SearchInterfaceUpdate, SearchOutput


class MainState(
    OrchestrationState,
    SearchInput,
    SearchOutput,
    LookupOutput,
    StoreOutput,
    MultiOutput,
    total=False,
):
    """Everything a turn of the main graph reads and writes.

    Every key but `messages` belongs to one turn, and `plan` resets each of them.
    """

    answer_attempts: int
    """How many answers this turn has drafted; bounds regeneration."""
    run_deadline: float | None
    """Wall-clock time (epoch seconds) after which optional work is skipped; None: no budget."""


class MainOutput(TypedDict, total=False):
    """What a run returns: the answer message, its citations, the route and the errors."""

    messages: Annotated[list[AnyMessage], add_messages]
    answer: Answer | None
    plan: Plan | None
    routing: RoutingDecision | None
    analysis: Analysis | None
    cache_decision: CacheDecision | None
    errors: Annotated[list[ErrorRecord], merge_by_id]
    flow: Annotated[list[FlowStep], merge_by_id]


class WorkerState(MainState, WorkerInput, total=False):
    """A multi-question worker: the single-question pipeline's state for one question."""


class MainUpdate(SearchInterfaceUpdate, CacheUpdate, MultiUpdate, total=False):
    """What a node of the main graph (or of a multi-question worker) may write (`MainState`)."""

    answer_attempts: int
    run_deadline: float | None


def fresh_main_fields() -> MainUpdate:
    """The per-turn reset of the fields the main graph owns."""
    return {"answer_attempts": 0, "run_deadline": None}


__all__ = [
    "MainOutput",
    "MainState",
    "MainUpdate",
    "MultiOutput",
    "WorkerInput",
    "WorkerState",
]
