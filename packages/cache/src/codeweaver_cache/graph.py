"""The cache subgraphs: lookup (before search) and store (after a grounded answer).

Both are compiled without a checkpointer (the parent's propagates) and read their settings
from the run context, which the backend's context inherits.
"""

from __future__ import annotations

from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from codeweaver_cache.connect import route_after_lookup
from codeweaver_cache.context import CacheContext
from codeweaver_cache.nodes.common import CacheDeps
from codeweaver_cache.nodes.lookup import LOOKUP, VERIFY, make_lookup, make_verify
from codeweaver_cache.nodes.store import STORE, make_store
from codeweaver_cache.state import CacheState, LookupOutput, LookupState, StoreOutput
from codeweaver_cache.store import SemanticCache
from codeweaver_runtime import ChatModels

LookupGraph = CompiledStateGraph[LookupState, CacheContext, CacheState, LookupOutput]
StoreGraph = CompiledStateGraph[CacheState, CacheContext, CacheState, StoreOutput]


def build_cache_lookup_graph(
    *, cache: SemanticCache | None = None, models: ChatModels | None = None
) -> LookupGraph:
    """The lookup subgraph: candidates and guards, then the verifier when one is configured.

    Args:
        cache: the cache to use; by default the one the run context names.
        models: chat models for the verifier; by default the ones the run context names.
    """
    deps = CacheDeps(models=models, cache=cache)
    builder = StateGraph(
        LookupState,
        input_schema=CacheState,
        output_schema=LookupOutput,
        context_schema=CacheContext,
    )
    builder.add_node(LOOKUP, make_lookup(deps))
    builder.add_node(VERIFY, make_verify(deps))
    builder.add_edge(START, LOOKUP)
    builder.add_conditional_edges(LOOKUP, route_after_lookup)
    return builder.compile(name="cache_lookup")


def build_cache_store_graph(*, cache: SemanticCache | None = None) -> StoreGraph:
    """The store subgraph: admission of grounded answers of cacheable questions.

    Args:
        cache: the cache to use; by default the one the run context names.
    """
    builder = StateGraph(
        CacheState,
        input_schema=CacheState,
        output_schema=StoreOutput,
        context_schema=CacheContext,
    )
    builder.add_node(STORE, make_store(CacheDeps(cache=cache)))
    builder.add_edge(START, STORE)
    return builder.compile(name="cache_store")


lookup_graph = build_cache_lookup_graph()
store_graph = build_cache_store_graph()
