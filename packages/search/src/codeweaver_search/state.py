"""State of the search subgraph: the shared state plus its own `search_` fields.

The pool of evidence accumulates across rounds through `merge_best_found`, so the same answer
found by two sources or two queries is kept once, with its best score; `evidence` is written
once, by `summarise`, with the final ranked and filtered list.
"""

from __future__ import annotations

from typing import Annotated

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from langgraph.types import Overwrite
from pydantic import BaseModel, ConfigDict
from typing_extensions import TypedDict

from codeweaver_schema import (
    Analysis,
    ErrorRecord,
    Evidence,
    FlowStep,
    Intent,
    OrchestrationState,
    OrchestrationUpdate,
    SourceName,
    Sufficiency,
    merge_by_id,
)


def merge_unique(left: list[str] | None, right: list[str] | str | None) -> list[str]:
    """Union of two lists of strings in order of first appearance.

    A subgraph hands its whole list back to the parent; a plain append would double it.
    """
    incoming = [right] if isinstance(right, str) else (right or [])
    return list(dict.fromkeys([*(left or []), *incoming]))


def merge_best_found(
    left: list[Evidence] | None, right: list[Evidence] | Evidence | None
) -> list[Evidence]:
    """`merge_by_id`, except that finding an item again never lowers its score.

    A later round asks a different query ("bash" after "bash command result python"): what it
    finds again it scores against that query, often far lower. The item is as relevant to the
    question as its best finding says, so a fresh finding (no rerank score yet) that scores
    lower than the copy already pooled is dropped. A rescored copy (rerank) always replaces.
    """
    incoming = [right] if isinstance(right, Evidence) else list(right or [])
    pooled = {e.id: e for e in left or []}
    kept = [
        e
        for e in incoming
        if e.rerank_score is not None or e.id not in pooled or e.score >= pooled[e.id].score
    ]
    return merge_by_id(left, kept)


class SourceTask(BaseModel):
    """What one source node is asked in one round (the payload of its `Send`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: SourceName
    scope: str
    """What besides the query decides the source's results (`result_scope`): whose documents in
    which store for the local corpus, the API's address and key for a web source. A digest, so
    a checkpoint never shows where the store is."""
    query: str
    intent: Intent
    language: str
    limit: int
    iteration: int


class SourceTaskState(TypedDict):
    """Input of a source node: only its task, so parallel sources share nothing."""

    search_task: SourceTask


class SearchState(OrchestrationState, total=False):
    """The search subgraph's working state."""

    search_question: str
    """The question the evidence must answer (standalone, as analysed): rerank and judge use it."""
    search_query: str
    """The query of the current round, as sent to the sources."""
    search_intent: Intent
    search_language: str
    """ISO 639-1 code of the question's language."""
    search_iteration: int
    """Retrieval rounds done so far."""
    search_queries: Annotated[list[str], merge_unique]
    """Every query tried this turn, in order."""
    search_refinements: Annotated[list[str], merge_unique]
    """Why each refinement was made and how (more specific, more general, English, aspects)."""
    search_active_sources: list[SourceName]
    """Sources asked in the current round (enabled and available)."""
    search_pool: Annotated[list[Evidence], merge_best_found]
    """Every item retrieved this turn, de-duplicated by stable id, with its best finding's score
    and its latest rerank score."""
    search_model_verdict: Sufficiency | None
    """The judge model's verdict of this round, when a model ran; the judge node adopts it."""
    search_suggested_query: str | None
    """The judge model's suggested next query (English, aimed at the missing aspects)."""
    search_sufficiency: Sufficiency | None
    """The latest sufficiency verdict: score, whether enough, missing aspects."""
    search_deadline: float | None
    """Wall-clock time (epoch seconds) after which no further round starts; None: no budget.
    The parent graph sets it from its run budget."""
    search_out_of_time: bool
    """Whether further rounds were skipped because the run's time budget was spent."""


class SearchInput(TypedDict, total=False):
    """What the subgraph reads: the analysed question, else the raw question or last message."""

    messages: Annotated[list[AnyMessage], add_messages]
    question: str
    analysis: Analysis | None
    search_deadline: float | None


class SearchOutput(TypedDict, total=False):
    """What the subgraph hands back: only what it owns or produces."""

    evidence: Annotated[list[Evidence], merge_by_id]
    errors: Annotated[list[ErrorRecord], merge_by_id]
    flow: Annotated[list[FlowStep], merge_by_id]
    search_queries: Annotated[list[str], merge_unique]
    search_refinements: Annotated[list[str], merge_unique]
    search_iteration: int
    search_sufficiency: Sufficiency | None
    search_out_of_time: bool


class SearchInterfaceUpdate(TypedDict, total=False):
    """What may be written to the search fields a parent holds (`SearchInput`, `SearchOutput`)."""

    search_deadline: float | None
    search_iteration: int
    search_queries: list[str] | Overwrite
    search_refinements: list[str] | Overwrite
    search_sufficiency: Sufficiency | None
    search_out_of_time: bool


class SearchUpdate(OrchestrationUpdate, SearchInterfaceUpdate, total=False):
    """What a node of the search subgraph may write (`SearchState`)."""

    search_question: str
    search_query: str
    search_intent: Intent
    search_language: str
    search_active_sources: list[SourceName]
    search_pool: list[Evidence]
    search_model_verdict: Sufficiency | None
    search_suggested_query: str | None


def fresh_search_fields() -> SearchInterfaceUpdate:
    """The update that clears, at the start of a parent's turn, the search fields it holds.

    A parent holds only the subgraph's interface (`SearchInput`, `SearchOutput`); the working
    fields start empty in each call of the subgraph. Reducers are bypassed.
    """
    return {
        "search_deadline": None,
        "search_iteration": 0,
        "search_queries": Overwrite([]),
        "search_refinements": Overwrite([]),
        "search_sufficiency": None,
        "search_out_of_time": False,
    }
