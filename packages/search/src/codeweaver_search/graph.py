"""The search subgraph: fan out to the sources, merge, rerank, judge, refine, summarise.

```
START -> prepare -> search_<source> (one Send per active source) -> rerank -> judge
judge --enough or out of rounds--> summarise -> END
judge --not enough--> refine -> search_<source> ... (at most search_max_iterations rounds)
```
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from langgraph.cache.memory import InMemoryCache
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import CachePolicy, RetryPolicy, TimeoutPolicy

from codeweaver_runtime import ChatModels, Embedder, add_node_with_fallback, hide_error_handlers
from codeweaver_schema import SourceName
from codeweaver_schema.serde import schema_serializer
from codeweaver_search.connect import (
    make_route_refined,
    make_route_sources,
    route_after_judge,
)
from codeweaver_search.context import ALL_SOURCES, MAX_ROUNDS, SearchContext
from codeweaver_search.nodes import (
    SearchDeps,
    make_judge,
    make_prepare,
    make_refine,
    make_rerank,
    make_source_node,
    make_summarise,
    node_name,
    raw_response_key,
    record_source_failure,
)
from codeweaver_search.sources import Source, is_retryable
from codeweaver_search.state import SearchInput, SearchOutput, SearchState, SourceTaskState

NODE_TIMEOUT_S = 30.0
"""Hard ceiling of one source attempt; the run context's `search_source_timeout_s` is the
budget a source normally gets, this only catches a source that ignores cancellation of it."""
WARM_UP_TIMEOUT_S = 600.0
"""Ceiling of the local node, whose first run loads the bundled documentation (and, with
another embedding model than the one it was built with, embeds it once)."""
RAW_RESPONSE_TTL_S = 3600
"""How long a source's results for a normalised query are reused (not the answer cache)."""

RECURSION_LIMIT = 2 * (1 + 4 * MAX_ROUNDS + 1)
"""Supersteps of the subgraph run alone: prepare, four per round at most `MAX_ROUNDS` rounds,
summarise; doubled for the sources' error handlers. The loop stops on its own well before."""

SOURCE_RETRY = RetryPolicy(
    max_attempts=2, initial_interval=0.5, backoff_factor=2.0, jitter=False, retry_on=is_retryable
)

SearchGraph = CompiledStateGraph[SearchState, SearchContext, SearchInput, SearchOutput]


def build_search_graph(
    *,
    models: ChatModels | None = None,
    sources: Mapping[SourceName, Source] | None = None,
    embedder: Embedder | None = None,
    node_timeout_s: float = NODE_TIMEOUT_S,
    clock: Callable[[], float] = time.time,
) -> SearchGraph:
    """Compile the search subgraph; collaborators left None come from the run context.

    Args:
        models: chat models by role; the judge role runs rerank, judge and summaries in one
            call per round. None: the models the context names (offline when none).
        sources: the sources by name. None: the real Stack Overflow, GitHub, Tavily docs and
            local-corpus sources, with keys from the environment.
        embedder: the embedder for offline reranking. None: the context's embedding model.
        node_timeout_s: hard per-attempt ceiling of a source node.
        clock: the time `search_deadline` is checked against (epoch seconds).

    Returns:
        The compiled graph, without a checkpointer (a parent graph's one propagates).
    """
    deps = SearchDeps(models=models, sources=sources, embedder=embedder, clock=clock)
    builder = StateGraph(
        SearchState,
        input_schema=SearchInput,
        output_schema=SearchOutput,
        context_schema=SearchContext,
    )
    builder.add_node("prepare", make_prepare(deps))
    source_nodes = [node_name(source) for source in ALL_SOURCES]
    for source in ALL_SOURCES:
        add_node_with_fallback(
            builder,
            node_name(source),
            make_source_node(source, deps),
            input_schema=SourceTaskState,
            retry_policy=SOURCE_RETRY,
            timeout=TimeoutPolicy(
                run_timeout=max(node_timeout_s, WARM_UP_TIMEOUT_S)
                if source == "local"
                else node_timeout_s
            ),
            cache_policy=CachePolicy(key_func=raw_response_key, ttl=RAW_RESPONSE_TTL_S),
            error_handler=record_source_failure,
            fallback_to="rerank",
        )
    builder.add_node("rerank", make_rerank(deps))
    builder.add_node("judge", make_judge(deps))
    builder.add_node("refine", make_refine(deps))
    builder.add_node("summarise", make_summarise(deps))

    builder.add_edge(START, "prepare")
    builder.add_conditional_edges("prepare", make_route_sources(deps), [*source_nodes, "rerank"])
    for name in source_nodes:
        builder.add_edge(name, "rerank")
    builder.add_edge("rerank", "judge")
    builder.add_conditional_edges("judge", route_after_judge, ["refine", "summarise"])
    builder.add_conditional_edges("refine", make_route_refined(deps), [*source_nodes, "summarise"])
    builder.add_edge("summarise", END)
    # The node cache serializes the sources' Evidence: with LangGraph's default serializer a
    # strict-msgpack server (LANGGRAPH_STRICT_MSGPACK=true) blocked it on a hit, and the
    # answer lost its citations. The schema's serializer registers the models.
    graph = hide_error_handlers(
        builder.compile(name="search", cache=InMemoryCache(serde=schema_serializer()))
    )
    return graph.with_config(recursion_limit=RECURSION_LIMIT)


graph = build_search_graph()
"""The search subgraph with the real sources and the context's models (`langgraph.json`)."""
