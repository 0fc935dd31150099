"""The main graph through LangGraph Server: streaming, thread state, the xray graph."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from langgraph_sdk.client import LangGraphClient

from tests import support
from tests.support import Server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

QUESTION = "How do I reverse a list in Python?"


def ask(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


@pytest.fixture
async def client(server: Server) -> AsyncIterator[LangGraphClient]:
    async with support.client(server) as sdk:
        yield sdk


async def test_assistants_exist_for_every_graph(client: LangGraphClient) -> None:
    found = await client.assistants.search(limit=20)
    assert {a["graph_id"] for a in found} >= {
        "codeweaver",
        "search",
        "cache_lookup",
        "cache_store",
        "multi_question",
    }


async def test_question_streams_subgraph_nodes_and_lands_in_the_thread(
    client: LangGraphClient,
) -> None:
    thread = await client.threads.create()
    namespaces: set[str] = set()
    nodes: list[str] = []
    async for part in client.runs.stream(
        thread["thread_id"],
        "codeweaver",
        input=ask(QUESTION),
        stream_mode="updates",
        stream_subgraphs=True,
    ):
        if part.event.startswith("updates"):
            namespace = part.event.partition("|")[2]
            if namespace:
                namespaces.add(namespace.split(":", 1)[0])
            if isinstance(part.data, dict):
                nodes.extend(part.data)
        assert part.event != "error", part.data
    assert "search" in namespaces, namespaces
    assert {"plan", "route", "analyze", "answer", "grade"} <= set(nodes)

    state = await client.threads.get_state(thread["thread_id"])
    values = state["values"]
    assert isinstance(values, dict), values
    answer = values["answer"]
    assert answer["citations"], answer
    evidence_ids = {e["id"] for e in values["evidence"]}
    assert {c["evidence_id"] for c in answer["citations"]} <= evidence_ids
    assert values["routing"]["route"] == "single"
    assert values["messages"][-1]["type"] == "ai"


async def test_xray_graph_shows_subgraph_nodes(client: LangGraphClient) -> None:
    assistant = (await client.assistants.search(graph_id="codeweaver", limit=1))[0]
    graph = await client.assistants.get_graph(assistant["assistant_id"], xray=True)
    ids = {node["id"] for node in graph["nodes"]}
    assert any(i.startswith("search:") for i in ids), ids
    assert any(i.startswith("cache_lookup:") for i in ids), ids


async def test_thread_keeps_the_conversation_for_a_follow_up(client: LangGraphClient) -> None:
    thread = await client.threads.create()
    first = await client.runs.wait(
        thread["thread_id"],
        "codeweaver",
        input=ask(QUESTION),
    )
    assert isinstance(first, dict)
    assert first["answer"]["citations"]
    follow = await client.runs.wait(
        thread["thread_id"],
        "codeweaver",
        input=ask("Can you show an example of that?"),
    )
    assert isinstance(follow, dict)
    assert follow["analysis"]["question_type"] == "clarification"
    assert len(follow["messages"]) == 4
