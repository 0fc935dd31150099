"""The graphs LangGraph Server serves (see langgraph.json), built with default collaborators.

None carries a checkpointer: the server provides persistence. Subgraph packages' own graphs
(search, cache) are registered straight from their packages; the multi-question graph needs
the application's single-question pipeline as its worker, so it is assembled here.
"""

from __future__ import annotations

from codeweaver.workflows.orchestration.graph import build_main_graph, build_multi_question_app

main = build_main_graph()
multi_question = build_multi_question_app()

__all__ = ["main", "multi_question"]
