"""State of the cache subgraphs: the shared state plus the `cache_` fields they own."""

from __future__ import annotations

from typing import Annotated

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from codeweaver_cache.verifier import PendingHit
from codeweaver_schema import (
    Answer,
    CacheDecision,
    ErrorRecord,
    FlowStep,
    OrchestrationState,
    OrchestrationUpdate,
    merge_by_id,
)


class CacheState(OrchestrationState, total=False):
    """The shared state with the cache's per-turn outcome."""

    cache_decision: CacheDecision | None
    """Why this turn's lookup hit or missed."""
    cache_stored: bool
    """Whether this turn's answer was admitted to the cache."""
    cache_store_reason: str
    """Why it was stored or refused (e.g. 'ungrounded', 'clarification')."""


class LookupState(CacheState, total=False):
    """Inside the lookup graph: a candidate that passed the guards, awaiting the verifier."""

    cache_pending: PendingHit | None


class LookupOutput(TypedDict, total=False):
    """What the lookup graph hands back: only what it owns or produces."""

    answer: Answer | None
    messages: Annotated[list[AnyMessage], add_messages]
    cache_decision: CacheDecision | None
    errors: Annotated[list[ErrorRecord], merge_by_id]
    flow: Annotated[list[FlowStep], merge_by_id]


class StoreOutput(TypedDict, total=False):
    """What the store graph hands back."""

    cache_stored: bool
    cache_store_reason: str
    errors: Annotated[list[ErrorRecord], merge_by_id]
    flow: Annotated[list[FlowStep], merge_by_id]


class CacheUpdate(OrchestrationUpdate, total=False):
    """What a node may write to the cache's state (`CacheState`)."""

    cache_decision: CacheDecision | None
    cache_stored: bool
    cache_store_reason: str


class LookupUpdate(CacheUpdate, total=False):
    """What a node of the lookup graph may write (`LookupState`)."""

    cache_pending: PendingHit | None


def fresh_cache_fields() -> CacheUpdate:
    """The per-turn reset of the cache fields, for the backend's plan node."""
    return {"cache_decision": None, "cache_stored": False, "cache_store_reason": ""}


def key_question(state: CacheState) -> str:
    """The cache key: analyze's standalone question, else the turn's question; never history."""
    analysis = state.get("analysis")
    if analysis is not None and analysis.standalone_question.strip():
        return analysis.standalone_question.strip()
    return state.get("question", "").strip()
