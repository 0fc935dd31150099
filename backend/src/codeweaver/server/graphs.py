"""The graphs LangGraph Server serves (see langgraph.json), built with default collaborators.

None carries a checkpointer: the server provides persistence (and a warning at start-up when it
is plain `langgraph dev`, which a crash can cost the last seconds of turns). Subgraph packages'
own graphs (search, cache) are registered straight from their packages; the multi-question graph
needs the application's single-question pipeline as its worker, so it is assembled here.
"""

from __future__ import annotations

import logging

from codeweaver.server.threads import durability_notice
from codeweaver.workflows.orchestration.graph import build_main_graph, build_multi_question_app
from codeweaver.workflows.tool.graph import build_ask_graph

if notice := durability_notice():
    logging.getLogger(__name__).warning(notice)

main = build_main_graph()
multi_question = build_multi_question_app()
ask = build_ask_graph(main)
"""The main graph as a tool: `{"question"}` in, `{"answer"}` out (what `/mcp` lists)."""

__all__ = ["ask", "main", "multi_question"]
