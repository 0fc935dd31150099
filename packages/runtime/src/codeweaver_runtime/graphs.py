"""Graph-building helpers shared by the packages."""

from __future__ import annotations

from typing import Any

from langgraph.graph import StateGraph


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
    handler_name = f"__error_handler__{name}"
    builder.add_node(
        name, node, error_handler=error_handler, destinations=(handler_name,), **options
    )
    builder.nodes[handler_name].ends = (fallback_to,)
