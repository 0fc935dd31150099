"""The `ask_codeweaver` graph: the main graph behind the smallest interface a tool can have.

LangGraph Server lists every assistant as a tool on `/mcp`, named after the assistant, with the
assistant's description and its graph's input schema, and returns what the run returns. The
main graph takes a message list and returns its whole state, which makes a poor tool for a
coding agent: this graph takes `{"question": "..."}` and returns `{"answer": "..."}`, the
Markdown answer with its inline citations and Sources list, exactly as a chat client shows it.
Each call is one fresh turn of the main graph (a tool call has no thread).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from codeweaver.context import Context, context_of
from codeweaver.workflows.orchestration.nodes.common import message_text

TOOL_NAME = "ask_codeweaver"
"""The graph id in `langgraph.json`, hence the assistant's and the MCP tool's name."""


class AskInput(BaseModel):
    """One programming question."""

    question: str = Field(
        description="A programming question, in English or Korean, for example 'How do I "
        "reverse a list in Python?'. At most two questions in one call; put error messages "
        "and versions in it verbatim.",
        min_length=1,
    )


class AskOutput(TypedDict):
    """The cited answer."""

    answer: str
    """Markdown: the answer with inline citations [n], then a Sources list with their links."""


class AskState(TypedDict, total=False):
    """The question and, once the main graph has run, its answer."""

    question: str
    answer: str


def build_ask_graph(
    main: CompiledStateGraph[Any, Context, Any, Any],
) -> CompiledStateGraph[AskState, Context, AskInput, AskOutput]:
    """Compile the tool graph around `main`, the compiled main graph it runs for each call."""

    async def ask(state: AskState, runtime: Runtime[Context]) -> AskState:
        result = await main.ainvoke(
            {"messages": [HumanMessage(state.get("question", ""))]},
            context=context_of(runtime),
        )
        replies = [m for m in result.get("messages", []) if isinstance(m, AIMessage)]
        if not replies:
            raise RuntimeError("CodeWeaver's main graph ended the turn without an answer")
        return {"answer": message_text(replies[-1])}

    builder = StateGraph(
        AskState, input_schema=AskInput, output_schema=AskOutput, context_schema=Context
    )
    builder.add_node("ask", ask)
    builder.add_edge(START, "ask")
    builder.add_edge("ask", END)
    return builder.compile(name=TOOL_NAME)
