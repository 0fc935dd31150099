"""What the nodes need from outside, injected by `build_search_graph` or taken from the context."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from langgraph.runtime import Runtime

from codeweaver_runtime import Collaborators, Node, run_context, scoped_to_caller
from codeweaver_schema import SourceName
from codeweaver_search.context import SearchContext
from codeweaver_search.sources import Source, default_sources
from codeweaver_search.state import SearchState, SearchUpdate, SourceTaskState

SearchNode = Node[SearchState, SearchContext, SearchUpdate]
"""A node over the subgraph's state."""
SourceNode = Node[SourceTaskState, SearchContext, SearchUpdate]
"""A source node: it sees only its `Send` payload."""


@dataclass(frozen=True)
class SearchDeps(Collaborators):
    """The shared collaborators (models, embedder) plus the sources and the deadline's clock."""

    sources: Mapping[SourceName, Source] | None = None
    """The sources by name; None: the real ones, with keys from the environment."""
    clock: Callable[[], float] = time.time
    """Epoch seconds, the scale of `search_deadline`; tests pass a fake to control the budget."""

    def sources_for(self, context: SearchContext) -> Mapping[SourceName, Source]:
        """The injected sources, else the real ones."""
        return self.sources if self.sources is not None else default_sources(context)

    def judge_model(self, context: SearchContext) -> BaseChatModel | None:
        """The judge role's chat model, or None for the offline engine."""
        return self.chat_model("judge", context)


def search_context(runtime: Runtime[SearchContext]) -> SearchContext:
    """The run's context; defaults when the graph runs without one (Studio, a bare invoke).

    Under LangGraph Server with auth, the tenant (whose local documents are searched) is the
    authenticated caller, never what the client put in the context.
    """
    return scoped_to_caller(run_context(runtime, SearchContext))
