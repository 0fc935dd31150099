"""Delivering a composed message on the `messages` stream: chunks of one id that add up to it."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage
from langgraph.errors import NodeError
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.types import Command
from typing_extensions import TypedDict

from codeweaver_runtime import (
    DELIVERY_TAG,
    ModelCallCounter,
    add_node_with_fallback,
    chunks_of,
    hide_error_handlers,
    speak,
)

TEXT = (
    "**Use `reversed`** [1]\n\n```python\nlist(reversed([1, 2, 3]))\n```\n\n"
    "A line that is much longer than one chunk may be, so it is cut between its words and "
    "never inside one of them, whatever its length.\n\n**Sources**\n\n- [1] Built-in "
    "Functions (Python docs): <https://docs.python.org/3/library/functions.html>"
)


class State(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    errors: list[str]


@given(st.text())
def test_chunks_add_up_to_the_text(text: str) -> None:
    assert "".join(chunks_of(text)) == text


def test_a_long_line_is_cut_at_words() -> None:
    pieces = chunks_of(TEXT, limit=40)
    assert len(pieces) > 5
    assert all(len(p) <= 40 for p in pieces if " " in p.strip())
    words = TEXT.split()
    assert [w for p in pieces for w in p.split()] == words


def _graph() -> Any:
    async def answer(state: State) -> dict[str, Any]:
        message = AIMessage(TEXT, id="answer-1", name="codeweaver")
        await speak(message, tags=["codeweaver:answer"])
        return {"messages": [message]}

    builder = StateGraph(State)
    builder.add_node("answer", answer)
    builder.add_edge(START, "answer")
    builder.add_edge("answer", END)
    return builder.compile()


async def test_a_spoken_message_streams_in_chunks_of_its_id_and_is_not_sent_again() -> None:
    counter = ModelCallCounter()
    parts: list[tuple[BaseMessage, dict[str, Any]]] = []
    final: dict[str, Any] = {}
    async for mode, data in _graph().astream(
        {"messages": [("user", "How do I reverse a list?")]},
        {"callbacks": [counter]},
        stream_mode=["messages", "values"],
    ):
        if mode == "messages":
            parts.append(data)
        else:
            final = data
    assert len(parts) > 5
    assert {m.id for m, _ in parts} == {"answer-1"}
    assert all(DELIVERY_TAG in meta["tags"] for _, meta in parts)
    assert "".join(str(m.content) for m, _ in parts) == TEXT
    assert final["messages"][-1].content == TEXT
    assert final["messages"][-1].id == "answer-1"
    # Replaying a composed message is not a model call.
    assert counter.calls == 0


async def test_a_message_without_an_id_cannot_be_spoken() -> None:
    with pytest.raises(ValueError, match="needs an id"):
        await speak(AIMessage("text"))


async def test_speaking_outside_a_graph_run_sends_nothing_and_does_not_fail() -> None:
    await speak(AIMessage("text", id="m"))


async def test_error_handlers_stay_out_of_the_updates_stream_but_record_in_state() -> None:
    async def fails(state: State) -> dict[str, Any]:
        raise RuntimeError("source down")

    def handle(state: State, error: NodeError) -> Command[str]:
        return Command(update={"errors": [str(error.error)]}, goto=END)

    builder = StateGraph(State)
    add_node_with_fallback(builder, "search", fails, error_handler=handle, fallback_to=END)
    builder.add_edge(START, "search")
    graph = hide_error_handlers(builder.compile())
    updates: list[str] = []
    final: Any = {}
    question: State = {"messages": [HumanMessage("q")]}
    async for mode, data in graph.astream(question, stream_mode=["updates", "values"]):
        if mode == "updates":
            updates += list(data)
        else:
            final = data
    assert not any(name.startswith("__") for name in updates)
    assert final["errors"] == ["source down"]
