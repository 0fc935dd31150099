r"""The main graph: plan, route, then answer one question, two in parallel, or decline.

```
START -> plan -> route -single-> analyze -clarification-> answer_with_history -> END
                   |                  \\-otherwise-> cache_lookup -hit-> END
                   |                                   \\-miss-> search -> answer -> grade
                   |                                                 (regenerate) <-/  |
                   |                                                        cache_store -> END
                   |-multi-> multi_question -> combine -> END
                   |-too_many-> too_many -> END
                   \\-empty-> empty_input -> END
```
Search, cache and multi_question are compiled subgraphs added as nodes (native subgraphs), so
Studio and `get_graph(xray=True)` show their inner nodes. Collaborators are injected for tests
and benchmarks; by default everything comes from the run context.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from langgraph.errors import NodeError, NodeTimeoutError
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Checkpointer, Command, RetryPolicy

from codeweaver.context import MAX_REGENERATIONS, Context
from codeweaver.libraries import LibrariesFor, operator_libraries
from codeweaver.workflows.orchestration.connect import (
    route_after_analyze,
    route_after_cache,
    route_after_grade,
    route_by_question_count,
)
from codeweaver.workflows.orchestration.nodes.answering import (
    combine,
    emit,
    make_answer_node,
    make_answer_with_history_node,
    make_grade_node,
    prepare_question,
)
from codeweaver.workflows.orchestration.nodes.planning import (
    make_analyze_node,
    make_plan_node,
)
from codeweaver.workflows.orchestration.nodes.routing import empty_input, route, too_many
from codeweaver.workflows.orchestration.state import MainOutput, MainState, WorkerState
from codeweaver_cache import (
    CacheUnavailableError,
    SemanticCache,
    build_cache_lookup_graph,
    build_cache_store_graph,
)
from codeweaver_multi_question import MultiOutput, WorkerInput, build_multi_question_graph
from codeweaver_runtime import (
    ChatModels,
    Collaborators,
    Embedder,
    EmbeddingError,
    add_node_with_fallback,
    flow_step,
    hide_error_handlers,
)
from codeweaver_schema import ErrorKind, ErrorRecord, InputState, SourceName
from codeweaver_search import MAX_ROUNDS, Source, build_search_graph

MODEL_NODE_TIMEOUT_S = 180.0
"""Backstop per node; each model call has its own, shorter timeout from the context."""

_SEARCH_STEPS = 1 + 4 * MAX_ROUNDS + 1
"""prepare; per round: sources, rerank, judge, refine; summarise."""
_PIPELINE_STEPS = 2 + 3 + 2 * (1 + MAX_REGENERATIONS) + 1
"""plan and route (or a worker's prepare and emit); analyze, cache_lookup, search; answer and
grade per draft; cache_store."""
RECURSION_LIMIT = 2 * max(_SEARCH_STEPS, _PIPELINE_STEPS)
"""Supersteps any one graph level may take: its longest path under the loop ceilings
(`MAX_ROUNDS`, `MAX_REGENERATIONS`), doubled for error handlers. Every loop also stops on its
own, so reaching this limit is a bug; LangGraph's default (10,007) would let a loop run long."""


def _kind_of(failure: BaseException) -> ErrorKind:
    if isinstance(failure, NodeTimeoutError | TimeoutError):
        return "timeout"
    if isinstance(failure, EmbeddingError):
        return "embedding"
    return "store" if isinstance(failure, CacheUnavailableError) else "model"


def _continue_without(node: str, goto: str) -> Callable[[MainState, NodeError], Command[str]]:
    """An error handler: record the failure and carry on at `goto`."""

    def handle(state: MainState, error: NodeError) -> Command[str]:
        failure = error.error
        record = ErrorRecord(
            node=node, kind=_kind_of(failure), message=f"{type(failure).__name__}: {failure}"
        )
        return Command(update={"errors": [record]}, goto=goto)

    return handle


class _Pipeline:
    """The single-question pipeline's pieces, shared by the main graph and the worker."""

    def __init__(
        self,
        *,
        models: ChatModels | None,
        embedder: Embedder | None,
        sources: Mapping[SourceName, Source] | None,
        cache: SemanticCache | None,
        libraries: LibrariesFor | None = None,
    ) -> None:
        self.collaborators = Collaborators(models=models, embedder=embedder)
        self.analyze = flow_step("analyze")(make_analyze_node(self.collaborators))
        self.answer = flow_step("answer")(
            make_answer_node(self.collaborators, libraries or operator_libraries)
        )
        self.grade = flow_step("grade")(make_grade_node(self.collaborators))
        self.answer_with_history = flow_step("answer_with_history")(
            make_answer_with_history_node(self.collaborators)
        )
        self.search = build_search_graph(models=models, sources=sources, embedder=embedder)
        self.cache_lookup = build_cache_lookup_graph(cache=cache, models=models)
        self.cache_store = build_cache_store_graph(cache=cache)

    def add_to(self, builder: StateGraph[Any, Any, Any, Any], *, done: str) -> None:
        """Add analyze -> cache_lookup -> search -> answer -> grade -> cache_store -> `done`."""
        retry = RetryPolicy(max_attempts=2)
        builder.add_node("analyze", self.analyze, timeout=MODEL_NODE_TIMEOUT_S)
        add_node_with_fallback(
            builder,
            "cache_lookup",
            self.cache_lookup,
            error_handler=_continue_without("cache_lookup", "search"),
            fallback_to="search",
        )
        add_node_with_fallback(
            builder,
            "search",
            self.search,
            error_handler=_continue_without("search", "answer"),
            fallback_to="answer",
        )
        builder.add_node("answer", self.answer, timeout=MODEL_NODE_TIMEOUT_S, retry_policy=retry)
        builder.add_node("grade", self.grade, timeout=MODEL_NODE_TIMEOUT_S, retry_policy=retry)
        add_node_with_fallback(
            builder,
            "cache_store",
            self.cache_store,
            error_handler=_continue_without("cache_store", done),
            fallback_to=done,
        )
        builder.add_conditional_edges(
            "cache_lookup", route_after_cache, {"hit": done, "miss": "search"}
        )
        builder.add_edge("search", "answer")
        builder.add_edge("answer", "grade")
        builder.add_conditional_edges("grade", route_after_grade, ["answer", "cache_store"])
        builder.add_edge("cache_store", done)


def build_worker_graph(pipeline: _Pipeline) -> CompiledStateGraph[Any, Any, Any, Any]:
    """One question of a multi-question turn, in its own state; writes back `multi_answers`."""
    builder = StateGraph(
        WorkerState, input_schema=WorkerInput, output_schema=MultiOutput, context_schema=Context
    )
    builder.add_node("prepare_question", flow_step("prepare_question")(prepare_question))
    builder.add_node("emit", flow_step("emit")(emit))
    pipeline.add_to(builder, done="emit")
    builder.add_edge(START, "prepare_question")
    builder.add_edge("prepare_question", "analyze")
    builder.add_edge("analyze", "cache_lookup")
    builder.add_edge("emit", END)
    return hide_error_handlers(builder.compile(name="answer_question"))


def build_multi_question_app(
    *,
    models: ChatModels | None = None,
    embedder: Embedder | None = None,
    sources: Mapping[SourceName, Source] | None = None,
    cache: SemanticCache | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The multi-question subgraph with the single-question pipeline as its worker."""
    pipeline = _Pipeline(models=models, embedder=embedder, sources=sources, cache=cache)
    return build_multi_question_graph(worker=build_worker_graph(pipeline), context_schema=Context)


def build_main_graph(
    *,
    models: ChatModels | None = None,
    embedder: Embedder | None = None,
    sources: Mapping[SourceName, Source] | None = None,
    cache: SemanticCache | None = None,
    checkpointer: Checkpointer = None,
    libraries: LibrariesFor | None = None,
) -> CompiledStateGraph[MainState, Context, InputState, MainOutput]:
    """Compile CodeWeaver's main graph.

    Args:
        models: chat models for every role; default: those the run context names (offline
            engine when none).
        embedder: sentence embedder; default: the context's embedding model.
        sources: search sources by name; default: built from the context and environment.
        cache: the semantic cache; default: built from the context.
        checkpointer: persistence for threads; None when LangGraph Server provides its own.
        libraries: the installed packs and the user's environment, for questions that name a
            library; default: the operator's data directory and the active environment.
    """
    pipeline = _Pipeline(
        models=models, embedder=embedder, sources=sources, cache=cache, libraries=libraries
    )
    builder = StateGraph(
        MainState, input_schema=InputState, output_schema=MainOutput, context_schema=Context
    )
    builder.add_node(
        "plan",
        flow_step("plan")(make_plan_node(pipeline.collaborators)),
        timeout=MODEL_NODE_TIMEOUT_S,
    )
    builder.add_node("route", flow_step("route")(route))
    builder.add_node("too_many", flow_step("too_many")(too_many))
    builder.add_node("empty_input", flow_step("empty_input")(empty_input))
    builder.add_node(
        "answer_with_history", pipeline.answer_with_history, timeout=MODEL_NODE_TIMEOUT_S
    )
    builder.add_node(
        "multi_question",
        build_multi_question_graph(worker=build_worker_graph(pipeline), context_schema=Context),
    )
    builder.add_node("combine", flow_step("combine")(combine))
    pipeline.add_to(builder, done=END)

    builder.add_edge(START, "plan")
    builder.add_edge("plan", "route")
    builder.add_conditional_edges("route", route_by_question_count)
    builder.add_conditional_edges("analyze", route_after_analyze)
    builder.add_edge("answer_with_history", END)
    builder.add_edge("multi_question", "combine")
    builder.add_edge("combine", END)
    builder.add_edge("too_many", END)
    builder.add_edge("empty_input", END)
    graph = hide_error_handlers(builder.compile(checkpointer=checkpointer, name="codeweaver"))
    return graph.with_config(recursion_limit=RECURSION_LIMIT)
