"""The `cache_feedback` graph: a user's "wrong answer" report, served by LangGraph Server.

The chat UI talks to the server only, never to the cache's storage, so the report travels as a
run of this small graph: it evicts the cached answer (by entry id when the turn was a cache hit,
else by the question's cache key) and blocks that answer from being admitted again. It runs in
the server's process, so it reaches the same Qdrant store (embedded or server) as the main graph.
"""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from codeweaver.context import Context, context_of
from codeweaver_cache import CacheUnavailableError, SemanticCache
from codeweaver_runtime import run_tenant


class FeedbackInput(TypedDict, total=False):
    """Which cached answer the user reported wrong."""

    question: str
    """The cache key: the turn's standalone question (`analysis.standalone_question`)."""
    entry_id: str
    """The cache entry that served the answer (`cache_decision.entry_id` of a hit); wins."""


class FeedbackOutput(TypedDict, total=False):
    """What the report did."""

    feedback_evicted: int
    """How many cache entries were evicted (0: the answer was not cached)."""
    feedback_message: str
    """A sentence for the user."""


class FeedbackState(FeedbackInput, FeedbackOutput, total=False):
    """Input and outcome of one report."""


FeedbackGraph = CompiledStateGraph[FeedbackState, Context, FeedbackInput, FeedbackOutput]


def build_feedback_graph(*, cache: SemanticCache | None = None) -> FeedbackGraph:
    """The one-node graph that reports a cached answer wrong.

    Args:
        cache: the cache to use; by default the one the run context names.
    """

    async def report_wrong_answer(
        state: FeedbackState, runtime: Runtime[Context]
    ) -> dict[str, Any]:
        # The main graph's settings: its answers were cached under its corpus version.
        context = context_of(runtime)
        entry_id = (state.get("entry_id") or "").strip() or None
        question = (state.get("question") or "").strip() or None
        if entry_id is None and question is None:
            return {
                "feedback_evicted": 0,
                "feedback_message": "Nothing to report: give a question or a cache entry id.",
            }
        store = (
            cache if cache is not None else SemanticCache.shared(timeout_s=context.cache_timeout_s)
        )
        # The scope names the embedding model, whose first use imports sentence-transformers:
        # off the event loop, since this graph may be the first a fresh server runs.
        scope = await asyncio.to_thread(
            store.scope, run_tenant(context), context.cache_corpus_version
        )
        try:
            evicted = await store.feedback_wrong_answer(
                scope=scope, entry_id=entry_id, question=question
            )
        except CacheUnavailableError as exc:
            return {"feedback_evicted": 0, "feedback_message": f"The cache is unavailable: {exc}"}
        message = (
            "Thanks: the cached answer was removed and will not be served again."
            if evicted
            else "Thanks: this answer was not in the cache, so nothing will repeat it."
        )
        return {"feedback_evicted": evicted, "feedback_message": message}

    builder = StateGraph(
        FeedbackState,
        input_schema=FeedbackInput,
        output_schema=FeedbackOutput,
        context_schema=Context,
    )
    builder.add_node("report_wrong_answer", report_wrong_answer)
    builder.add_edge(START, "report_wrong_answer")
    return builder.compile(name="cache_feedback")


graph = build_feedback_graph()

__all__ = ["FeedbackInput", "FeedbackOutput", "build_feedback_graph", "graph"]
