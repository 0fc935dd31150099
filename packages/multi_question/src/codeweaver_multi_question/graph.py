"""The multi-question subgraph: independent questions answered in parallel.

The worker is injected: it is the single-question pipeline, which lives in the application
(this package never imports it). Its output schema must be limited to `multi_answers`, so that
parallel workers write back through that reducer channel only and never collide on the
parent's scalar fields.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.pregel import Pregel

from codeweaver_multi_question.connect import WORKER, route_questions
from codeweaver_multi_question.state import MultiOutput, MultiState


def build_multi_question_graph(
    *, worker: Pregel[Any, Any, Any, Any], context_schema: type[Any] | None = None
) -> CompiledStateGraph[MultiState, Any, MultiState, MultiOutput]:
    """Compile the fan-out of a turn's questions to `worker`, one `Send` per question.

    Args:
        worker: compiled single-question graph; input `WorkerInput`, output `multi_answers`.
        context_schema: the run context the worker reads (the parent's, when added as a node).
    """
    builder = StateGraph(MultiState, output_schema=MultiOutput, context_schema=context_schema)
    builder.add_node(WORKER, worker)
    builder.add_conditional_edges(START, route_questions, [WORKER])
    builder.add_edge(WORKER, END)
    return builder.compile(name="multi_question")
