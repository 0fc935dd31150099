"""What the nodes need from outside, injected by `build_search_graph` or taken from the context."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel
from langgraph.runtime import Runtime

from codeweaver_runtime import (
    ChatModels,
    Embedder,
    get_embedder,
    infrastructure,
    resolve_chat_models,
    scoped_to_caller,
)
from codeweaver_schema import SourceName
from codeweaver_search.context import SearchContext
from codeweaver_search.sources import Source, default_sources
from codeweaver_search.state import SearchState, SourceTaskState


class SearchNode(Protocol):
    """A node over the subgraph's state, typed as LangGraph's `add_node` expects."""

    def __call__(
        self, state: SearchState, *, runtime: Runtime[SearchContext]
    ) -> Awaitable[dict[str, Any]]:
        """Run the node and return its update."""
        ...


class SourceNode(Protocol):
    """A source node: it sees only its `Send` payload."""

    def __call__(
        self, state: SourceTaskState, *, runtime: Runtime[SearchContext]
    ) -> Awaitable[dict[str, Any]]:
        """Ask the source and return the update."""
        ...


@dataclass(frozen=True)
class SearchDeps:
    """Injected collaborators; None means "build the real one from the run context"."""

    models: ChatModels | None = None
    sources: Mapping[SourceName, Source] | None = None
    embedder: Embedder | None = None
    clock: Callable[[], float] = time.time
    """Epoch seconds, the scale of `search_deadline`; tests pass a fake to control the budget."""

    def sources_for(self, context: SearchContext) -> Mapping[SourceName, Source]:
        """The injected sources, else the real ones."""
        return self.sources if self.sources is not None else default_sources(context)

    def embedder_for(self, context: SearchContext) -> Embedder:
        """The injected embedder, else the operator's model."""
        if self.embedder is not None:
            return self.embedder
        return get_embedder(infrastructure().embedding_model)

    def judge_model(self, context: SearchContext) -> BaseChatModel | None:
        """The judge role's chat model, or None for the offline engine."""
        return resolve_chat_models(self.models, context).for_role("judge")


def search_context(runtime: Runtime[SearchContext]) -> SearchContext:
    """The run's context; defaults when the graph runs without one (Studio, a bare invoke).

    Under LangGraph Server with auth, the tenant (whose local documents are searched) is the
    authenticated caller, never what the client put in the context.
    """
    context = runtime.context
    return scoped_to_caller(context if isinstance(context, SearchContext) else SearchContext())
