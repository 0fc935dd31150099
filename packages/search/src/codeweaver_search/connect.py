"""Edges of the search subgraph: the fan-out to the sources and the loop's exit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from langgraph.runtime import Runtime
from langgraph.types import Send

from codeweaver_engine.policy import source_limit
from codeweaver_search.context import SearchContext, max_rounds
from codeweaver_search.nodes import SearchDeps, node_name, search_context
from codeweaver_search.sources import result_scope
from codeweaver_search.state import SearchState, SourceTask

SourcesRouter = Callable[[SearchState, Runtime[SearchContext]], list[Send] | str]


def _sends(state: SearchState, context: SearchContext, deps: SearchDeps) -> list[Send]:
    intent = state.get("search_intent", "learning")
    query = state.get("search_query", "")
    sources = deps.sources_for(context)
    return [
        Send(
            node_name(source),
            {
                "search_task": SourceTask(
                    source=source,
                    scope=result_scope(sources[source], context.tenant),
                    query=query,
                    intent=intent,
                    language=state.get("search_language", "en"),
                    limit=source_limit(
                        intent,
                        source,
                        context.search_results_per_source,
                        enabled=context.search_intent_policy,
                    ),
                    iteration=state.get("search_iteration", 1),
                )
            },
        )
        for source in state.get("search_active_sources", [])
        if source in sources
    ]


def make_route_sources(deps: SearchDeps) -> SourcesRouter:
    """The first round's fan-out: one `Send` per active source, each with its result scope."""

    def route_sources(
        state: SearchState, runtime: Runtime[SearchContext]
    ) -> list[Send] | Literal["rerank"]:
        """Fan out to every active source at once; with none, go straight to rerank and judge."""
        return _sends(state, search_context(runtime), deps) or "rerank"

    return route_sources


def make_route_refined(deps: SearchDeps) -> SourcesRouter:
    """A later round's fan-out, like `make_route_sources`."""

    def route_refined(
        state: SearchState, runtime: Runtime[SearchContext]
    ) -> list[Send] | Literal["summarise"]:
        """Fan out the refined query; when refinement found nothing new to ask, finish."""
        return _sends(state, search_context(runtime), deps) or "summarise"

    return route_refined


def route_after_judge(
    state: SearchState, runtime: Runtime[SearchContext]
) -> Literal["refine", "summarise"]:
    """Refine while the evidence is not enough and rounds remain; otherwise summarise."""
    context = search_context(runtime)
    verdict = state.get("search_sufficiency")
    if not state.get("search_question"):
        return "summarise"
    if verdict is not None and verdict.sufficient:
        return "summarise"
    if state.get("search_iteration", 1) >= max_rounds(context) or state.get("search_out_of_time"):
        return "summarise"
    return "refine"
