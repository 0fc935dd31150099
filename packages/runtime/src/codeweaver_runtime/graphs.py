"""Graph-building helpers shared by the packages."""

from __future__ import annotations

from typing import Any, TypeVar

from langgraph.constants import TAG_HIDDEN
from langgraph.graph import StateGraph
from langgraph.pregel import Pregel

ERROR_HANDLER_PREFIX = "__error_handler__"
"""How LangGraph names the node it adds for a node's `error_handler`."""
G = TypeVar("G", bound=Pregel[Any, Any, Any, Any])


def add_node_with_fallback(
    builder: StateGraph[Any, Any, Any, Any],
    name: str,
    node: Any,
    *,
    error_handler: Any,
    fallback_to: str,
    **options: Any,
) -> None:
    """Add a node whose `error_handler` records the failure and continues at `fallback_to`.

    LangGraph 1.2 draws an error handler as an island, with no edge in or out. A graph with
    islands has no single first and last node, so `get_graph(xray=True)` (and with it Studio
    and the server's `/graph?xray=true`) will not expand it as a subgraph. The edges given
    here are drawing hints only (`destinations` and the handler's `ends`); the handler still
    routes itself with `Command(goto=fallback_to)`.
    """
    handler_name = f"{ERROR_HANDLER_PREFIX}{name}"
    builder.add_node(
        name, node, error_handler=error_handler, destinations=(handler_name,), **options
    )
    builder.nodes[handler_name].ends = (fallback_to,)


def hide_error_handlers(graph: G) -> G:
    """Keep LangGraph's error-handler nodes out of what clients stream (`updates`, `tasks`).

    A client reading `updates` would otherwise see `__error_handler__search_stackoverflow`, an
    internal name, next to the graph's own nodes. What a handler records still reaches the state
    (`errors`), so the failure stays visible in `values`, the thread and the answer's warning.
    """
    for name, node in graph.nodes.items():
        if name.startswith(ERROR_HANDLER_PREFIX):
            node.tags = [*(node.tags or []), TAG_HIDDEN]
    return graph
