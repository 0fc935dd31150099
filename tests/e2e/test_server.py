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
    assert follow["answer"]["citations"]


def _user(text: str) -> Any:
    """A run's input with one user message (JSON, as any client sends it)."""
    return {"messages": [{"role": "user", "content": text}]}


async def test_threads_load_under_strict_msgpack(client: LangGraphClient, server: Server) -> None:
    """The server runs with LANGGRAPH_STRICT_MSGPACK=true (tests.support.start_server): a
    follow-up in the same thread loads the earlier Plan and Answer from the checkpoint, the
    cache subgraphs run and hit, and no type is blocked or unregistered. (The search node
    cache's serializer: packages/search/tests/test_node_cache_serde.py.)"""
    thread = await client.threads.create()
    thread_id = thread["thread_id"]
    first = await client.runs.wait(thread_id, "codeweaver", input=_user(QUESTION))
    assert isinstance(first, dict)
    assert first["answer"]["citations"]
    # The same question in a second thread: a semantic-cache hit with the same citations.
    again = await client.runs.wait(
        (await client.threads.create())["thread_id"],
        "codeweaver",
        input=_user(QUESTION),
    )
    assert isinstance(again, dict)
    assert again["answer"]["citations"] == first["answer"]["citations"]
    follow = await client.runs.wait(
        thread_id,
        "codeweaver",
        input=_user("Can you show an example of that?"),
    )
    assert isinstance(follow, dict)
    # The follow-up was answered from the first turn's answer, read back from the checkpoint.
    assert follow["analysis"]["question_type"] == "clarification"
    assert follow["answer"]["citations"]
    history = await client.threads.get_history(thread_id, limit=100)
    states: list[Any] = [h["values"] for h in history]
    turns = [v for v in states if v.get("answer")]
    first_turn = [v for v in turns if v["answer"]["text"] == first["answer"]["text"]]
    assert first_turn, "the first turn's Answer loads from the checkpoint"
    assert first_turn[0]["plan"]["kind"] == "single_topic"
    assert first_turn[0]["answer"]["citations"] == first["answer"]["citations"]
    # The cache subgraphs ran cleanly: under strict msgpack they once failed on a clone of
    # the server's checkpointer adapter (RecursionError), recorded as a model failure.
    for turn in (first, again, follow):
        failed = [e for e in turn["errors"] if e["node"].startswith("cache_")]
        assert failed == [], failed
    assert again["cache_decision"]["hit"] is True
    log = server.log.read_text(errors="replace")
    assert "Blocked deserialization" not in log
    assert "unregistered type" not in log
