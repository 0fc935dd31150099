"""CodeWeaver's multi-question subgraph: one worker per independent question."""

from codeweaver_multi_question.connect import MAX_QUESTIONS, route_questions
from codeweaver_multi_question.graph import build_multi_question_graph
from codeweaver_multi_question.state import (
    MultiOutput,
    MultiState,
    MultiUpdate,
    WorkerInput,
    fresh_multi_fields,
)

__all__ = [
    "MAX_QUESTIONS",
    "MultiOutput",
    "MultiState",
    "MultiUpdate",
    "WorkerInput",
    "build_multi_question_graph",
    "fresh_multi_fields",
    "route_questions",
]
