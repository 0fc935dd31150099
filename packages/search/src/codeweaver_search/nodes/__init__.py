"""Node factories of the search subgraph (internal: the graph module wires them)."""

from codeweaver_search.nodes.assess import make_judge, make_rerank, make_summarise
from codeweaver_search.nodes.deps import SearchDeps, search_context
from codeweaver_search.nodes.query import make_prepare, make_refine
from codeweaver_search.nodes.retrieve import (
    make_source_node,
    node_name,
    raw_response_key,
    record_source_failure,
)

__all__ = [
    "SearchDeps",
    "make_judge",
    "make_prepare",
    "make_refine",
    "make_rerank",
    "make_source_node",
    "make_summarise",
    "node_name",
    "raw_response_key",
    "record_source_failure",
    "search_context",
]
