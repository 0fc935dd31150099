"""Architecture diagrams drawn from the compiled graphs (docs/ARCHITECTURE.md's `DIAGRAMS`)."""

from __future__ import annotations

from typing import Any

from langgraph.pregel import Pregel


def diagrams() -> str:
    """Mermaid for the main graph (with subgraphs expanded) and each subgraph on its own."""
    from codeweaver.workflows.orchestration.graph import (
        build_main_graph,
        build_multi_question_app,
    )
    from codeweaver_cache.graph import build_cache_lookup_graph, build_cache_store_graph
    from codeweaver_search.graph import build_search_graph

    sections: list[tuple[str, Pregel[Any, Any, Any, Any], int]] = [
        ("Main graph (`codeweaver`), subgraphs expanded", build_main_graph(), 1),
        ("Search subgraph (`search`)", build_search_graph(), 0),
        ("Cache lookup subgraph (`cache_lookup`)", build_cache_lookup_graph(), 0),
        ("Cache store subgraph (`cache_store`)", build_cache_store_graph(), 0),
        ("Multi-question subgraph (`multi_question`)", build_multi_question_app(), 1),
    ]
    parts: list[str] = []
    for title, graph, xray in sections:
        mermaid = graph.get_graph(xray=xray).draw_mermaid()
        parts += [f"### {title}", "", "```mermaid", mermaid.strip(), "```", ""]
    return "\n".join(parts)
