"""Architecture diagrams generated from the compiled graphs: `python -m codeweaver.docs`.

docs/ARCHITECTURE.md keeps its prose by hand; the block between the markers below is replaced
with Mermaid drawn from `get_graph(xray=True)`, and a test fails when the file drifts.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from langgraph.pregel import Pregel

BEGIN = "<!-- BEGIN GENERATED DIAGRAMS (python -m codeweaver.docs) -->"
END = "<!-- END GENERATED DIAGRAMS -->"


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
    parts = [BEGIN]
    for title, graph, xray in sections:
        mermaid = graph.get_graph(xray=xray).draw_mermaid()
        parts += [f"### {title}", "", "```mermaid", mermaid.strip(), "```", ""]
    parts.append(END)
    return "\n".join(parts)


def render(document: str) -> str:
    """The document with its generated block replaced by fresh diagrams."""
    head, _, rest = document.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return head + diagrams() + tail


def main() -> None:
    """Rewrite docs/ARCHITECTURE.md in place (the path may be given as the first argument)."""
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/ARCHITECTURE.md")
    path.write_text(render(path.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main()
