"""The one state every CodeWeaver graph shares.

Subgraph packages inherit `OrchestrationState` and add fields prefixed with their own name
(`search_`, `cache_`, `multi_`); the main graph's state composes them. Fields that belong to one
turn are reset with `Overwrite` when the turn starts (see `fresh_turn`), so a thread never carries
the last turn's plan, evidence or answer into this one.

Each state has an update type beside it (`OrchestrationUpdate` here, `SearchUpdate`, ...): the
same keys with the types a node may write, which for a reducer's channel include `Overwrite`.
Nodes return it, so a misspelt key or a wrong value is a type error, not an update LangGraph
drops; each package's tests hold its update type to its state's keys.
"""

from __future__ import annotations

from typing import Annotated

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from langgraph.types import Overwrite
from typing_extensions import TypedDict

from codeweaver_schema.models import (
    Analysis,
    Answer,
    ErrorRecord,
    Evidence,
    FlowStep,
    Grade,
    Plan,
    RoutingDecision,
)
from codeweaver_schema.reducers import merge_by_id


class InputState(TypedDict):
    """What a caller sends: the chat convention, so Studio's chat view and any client work."""

    messages: Annotated[list[AnyMessage], add_messages]


class OrchestrationState(TypedDict, total=False):
    """Shared state of the main graph and every subgraph."""

    messages: Annotated[list[AnyMessage], add_messages]
    question: str
    """This turn's question as the user wrote it, cleaned and bounded in length."""
    notices: list[str]
    """Things the user should be told about their input (e.g. it was truncated)."""
    plan: Plan | None
    routing: RoutingDecision | None
    analysis: Analysis | None
    evidence: Annotated[list[Evidence], merge_by_id]
    answer: Answer | None
    grade: Grade | None
    errors: Annotated[list[ErrorRecord], merge_by_id]
    flow: Annotated[list[FlowStep], merge_by_id]


class OrchestrationUpdate(TypedDict, total=False):
    """What a node may write to the shared state (`OrchestrationState`)."""

    messages: list[AnyMessage]
    question: str
    notices: list[str]
    plan: Plan | None
    routing: RoutingDecision | None
    analysis: Analysis | None
    evidence: list[Evidence] | Overwrite
    answer: Answer | None
    grade: Grade | None
    errors: list[ErrorRecord] | Overwrite
    flow: list[FlowStep] | Overwrite


def fresh_turn(question: str, notices: list[str]) -> OrchestrationUpdate:
    """The update that starts a turn: per-turn fields reset, reducers bypassed."""
    return {
        "question": question,
        "notices": notices,
        "plan": None,
        "routing": None,
        "analysis": None,
        "evidence": Overwrite([]),
        "answer": None,
        "grade": None,
        "errors": Overwrite([]),
        "flow": Overwrite([]),
    }
