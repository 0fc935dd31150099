"""What standard LangGraph clients send, byte for byte, and what they must receive.

agent-chat-ui (through `useStream` of `@langchain/langgraph-sdk`) creates a thread, then posts
a run with `stream_mode` values + messages-tuple + custom, subgraphs streamed, a human message
of content blocks, and its "LangSmith API Key" field as `X-Api-Key`. The answer must arrive as
chunks of one message id before the run ends, adding up to the message the thread keeps.

The server of this module has Stack Overflow at a closed port, so its source node fails and
LangGraph's error handler runs: its internal name must not reach the `updates` stream.
"""

from __future__ import annotations

import ast
import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from tests.support import Server, free_port, start_server, stop_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

QUESTION = "How do I reverse a list in Python?"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    closed = f"http://127.0.0.1:{free_port()}"
    proc, running = start_server(
        tmp_path_factory.mktemp("clients"), extra_env={"CODEWEAVER_STACKEXCHANGE_URL": closed}
    )
    try:
        yield running
    finally:
        stop_server(proc)


def api_key_headers(server: Server) -> dict[str, str]:
    """agent-chat-ui's headers: the token pasted into its "LangSmith API Key" field."""
    return {"X-Api-Key": next(iter(server.tokens.values())), "Content-Type": "application/json"}


async def sse(response: httpx.Response) -> AsyncIterator[tuple[str, Any]]:
    """Server-sent events as (event, decoded data), in order."""
    event, data = "", []
    async for line in response.aiter_lines():
        if line.startswith("event:"):
            event = line.removeprefix("event:").strip()
        elif line.startswith("data:"):
            data.append(line.removeprefix("data:").strip())
        elif not line and event:
            yield event, json.loads("\n".join(data)) if data else None
            event, data = "", []


async def run_as_agent_chat_ui(server: Server, question: str) -> list[tuple[str, Any]]:
    async with httpx.AsyncClient(base_url=server.url, timeout=300) as http:
        headers = api_key_headers(server)
        created = await http.post("/threads", json={}, headers=headers)
        created.raise_for_status()
        thread_id = created.json()["thread_id"]
        body = {
            "input": {
                "messages": [
                    {
                        "id": str(uuid.uuid4()),
                        "type": "human",
                        "content": [{"type": "text", "text": question}],
                    }
                ]
            },
            "stream_mode": ["values", "messages-tuple", "custom"],
            "stream_subgraphs": True,
            "stream_resumable": True,
            "assistant_id": "codeweaver",
            "on_disconnect": "continue",
        }
        events: list[tuple[str, Any]] = []
        async with http.stream(
            "POST", f"/threads/{thread_id}/runs/stream", json=body, headers=headers
        ) as response:
            assert response.status_code == 200, await response.aread()
            async for event in sse(response):
                events.append(event)
    return events


@pytest.fixture(scope="module")
def agent_chat_ui_run(server: Server) -> list[tuple[str, Any]]:
    """One run, as agent-chat-ui makes it, shared by the tests that read its events."""
    return asyncio.run(run_as_agent_chat_ui(server, QUESTION))


def answer_chunks(events: list[tuple[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    return [
        (i, data[0])
        for i, (event, data) in enumerate(events)
        if event == "messages" and data[0].get("type") == "AIMessageChunk"
    ]


def test_the_answer_streams_in_chunks_of_one_message_that_add_up_to_it(
    agent_chat_ui_run: list[tuple[str, Any]],
) -> None:
    events = agent_chat_ui_run
    assert not [data for event, data in events if event == "error"]
    chunks = answer_chunks(events)
    assert len(chunks) >= 3, [event for event, _ in events]
    assert len({chunk["id"] for _, chunk in chunks}) == 1
    last_values = max(i for i, (event, _) in enumerate(events) if event == "values")
    # Several chunks arrive while the run is still going: before its final state.
    assert sum(1 for i, _ in chunks if i < last_values) >= 3
    final = events[last_values][1]["messages"][-1]
    assert final["type"] == "ai"
    assert final["id"] == chunks[0][1]["id"]
    assert final["content"] == "".join(chunk["content"] for _, chunk in chunks)
    assert "reversed" in final["content"]
    assert "**Sources**" in final["content"]


def test_no_message_is_sent_whole_besides_its_chunks(
    agent_chat_ui_run: list[tuple[str, Any]],
) -> None:
    ai = [
        data[0]
        for event, data in agent_chat_ui_run
        if event.startswith("messages") and data[0].get("type") in ("ai", "AIMessageChunk")
    ]
    # One message in the client's list while streaming: no draft, worker or duplicate.
    assert len({message["id"] for message in ai}) == 1
    assert all(message["type"] == "AIMessageChunk" for message in ai)


def test_progress_arrives_on_the_custom_channel_before_the_answer(
    agent_chat_ui_run: list[tuple[str, Any]],
) -> None:
    events = agent_chat_ui_run
    progress = [
        (i, data)
        for i, (event, data) in enumerate(events)
        if event.startswith("custom") and isinstance(data, dict) and data.get("type") == "progress"
    ]
    first_chunk = answer_chunks(events)[0][0]
    started = {data["node"] for i, data in progress if i < first_chunk}
    assert {"plan", "route", "analyze", "rerank", "answer", "grade"} <= started
    finished = [data for _, data in progress if data["status"] == "finished"]
    assert all(data["duration_ms"] >= 0 for data in finished)


async def test_updates_show_no_internal_node_even_when_a_source_fails(server: Server) -> None:
    headers = api_key_headers(server)
    async with httpx.AsyncClient(base_url=server.url, timeout=300) as http:
        created = await http.post("/threads", json={}, headers=headers)
        thread_id = created.json()["thread_id"]
        body = {
            "input": {"messages": [{"type": "human", "content": "How do I sort a dict by value?"}]},
            "stream_mode": ["updates"],
            "stream_subgraphs": True,
            "assistant_id": "codeweaver",
        }
        nodes: list[str] = []
        async with http.stream(
            "POST", f"/threads/{thread_id}/runs/stream", json=body, headers=headers
        ) as response:
            async for event, data in sse(response):
                assert event != "error", data
                if event.startswith("updates") and isinstance(data, dict):
                    nodes.extend(data)
        state = (await http.get(f"/threads/{thread_id}/state", headers=headers)).json()
    failures = [e for e in state["values"]["errors"] if e.get("source") == "stackoverflow"]
    # The Stack Overflow node failed and its error handler recorded it ...
    assert failures, state["values"]["errors"]
    assert all(e["kind"] != "skipped" for e in failures), failures
    # ... but clients of `updates` never see the handler's internal node name.
    assert "search_local" in nodes
    assert not [name for name in nodes if name.startswith("__")], nodes


async def test_mcp_refuses_a_client_without_a_token_and_says_what_to_send(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        response = await http.post(
            "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
            headers={"Accept": "application/json, text/event-stream"},
        )
    assert response.status_code == 401
    assert "Authorization: Bearer" in response.text


async def test_an_mcp_client_lists_codeweaver_as_a_tool_and_gets_a_cited_answer(
    server: Server,
) -> None:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    token = next(iter(server.tokens.values()))
    http = httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=300)
    async with (
        http,
        streamable_http_client(f"{server.url}/mcp", http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        tool = tools["ask_codeweaver"]
        assert tool.description is not None
        assert tool.description.startswith("Answer a programming question with cited")
        schema = tool.inputSchema
        assert set(schema["properties"]) == {"question", "library", "version"}
        assert schema["required"] == ["question"]
        assert "programming question" in schema["properties"]["question"]["description"]

        result = await session.call_tool("ask_codeweaver", {"question": QUESTION})
    assert not result.isError, result.content
    [content] = result.content
    assert content.type == "text"
    # LangGraph Server returns the run's output as the Python repr of the output dict.
    output = ast.literal_eval(content.text)
    assert set(output) == {"answer", "citations", "declined", "decline_reason"}
    answer = output["answer"]
    assert "reversed" in answer
    assert "**Sources**" in answer
    assert "https://docs.python.org/" in answer


async def test_studio_scheme_without_a_token_is_refused_by_default(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        response = await http.post(
            "/threads/search", json={}, headers={"X-Auth-Scheme": "langsmith"}
        )
    assert response.status_code == 401
    assert "codeweaver token" in response.text
