"""CodeWeaver's search subgraph: sources fanned out, merged, reranked, judged and refined."""

from codeweaver_search.context import ALL_SOURCES, MAX_ROUNDS, SearchContext
from codeweaver_search.graph import build_search_graph
from codeweaver_search.sources import (
    GitHubCodeSource,
    LocalCorpusSource,
    Source,
    SourceError,
    StackOverflowSource,
    TavilyDocsSource,
)
from codeweaver_search.state import (
    SearchInput,
    SearchInterfaceUpdate,
    SearchOutput,
    SearchState,
    SearchUpdate,
    fresh_search_fields,
)

__all__ = [
    "ALL_SOURCES",
    "MAX_ROUNDS",
    "GitHubCodeSource",
    "LocalCorpusSource",
    "SearchContext",
    "SearchInput",
    "SearchInterfaceUpdate",
    "SearchOutput",
    "SearchState",
    "SearchUpdate",
    "Source",
    "SourceError",
    "StackOverflowSource",
    "TavilyDocsSource",
    "build_search_graph",
    "fresh_search_fields",
]
