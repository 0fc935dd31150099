"""What standard LangGraph clients send, byte for byte, and what they must receive.

agent-chat-ui (through `useStream` of `@langchain/langgraph-sdk`) creates a thread, then posts
a run with `stream_mode` values + messages-tuple + custom, subgraphs streamed, a human message
of content blocks, and its "LangSmith API Key" field as `X-Api-Key`. The answer must arrive as
chunks of one message id before the run ends, adding up to the message the thread keeps.

The server of this module has Stack Overflow at a closed port, so its source node fails and
LangGraph's error handler runs: its internal name must not reach the `updates` stream.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import McpError
from mcp.types import CallToolResult, TextContent

from tests.support import Server, free_port, readme_mcp_entries, start_server, stop_server

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


@pytest.mark.parametrize("method", ["GET", "POST", "DELETE"])
async def test_mcp_refuses_a_client_without_a_token_and_says_what_to_send(
    server: Server, method: str
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        response = await http.request(
            method,
            "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
            headers={"Accept": "application/json, text/event-stream"},
        )
        elsewhere = await http.post("/threads/search", json={})
    assert response.status_code == 401
    assert "Authorization: Bearer" in response.text
    assert response.json() == elsewhere.json(), "the same refusal as the rest of the server"


@asynccontextmanager
async def mcp_session(server: Server) -> AsyncIterator[ClientSession]:
    """The MCP SDK's streamable-HTTP client, as Claude Code or Cursor connect with a token."""
    token = next(iter(server.tokens.values()))
    http = httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=300)
    async with (
        http,
        streamable_http_client(f"{server.url}/mcp", http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def text_of(result: CallToolResult) -> str:
    [content] = result.content
    assert isinstance(content, TextContent)
    return content.text


async def test_an_mcp_client_gets_the_three_tools_and_cited_markdown(server: Server) -> None:
    async with mcp_session(server) as session:
        tools = [tool.name for tool in (await session.list_tools()).tools]
        libraries = await session.call_tool("list_libraries", {})
        found = await session.call_tool("search_docs", {"query": "reverse a list", "limit": 2})
        answered = await session.call_tool("ask", {"question": QUESTION})
        with pytest.raises(McpError, match="Unknown tool 'codeweaver'"):
            await session.call_tool("codeweaver", {"messages": []})
        too_long = await session.call_tool("ask", {"question": "x" * 1_048_576})
    # LangGraph Server's own /mcp listed every graph; here only CodeWeaver's tools answer.
    assert tools == ["ask", "search_docs", "list_libraries"]
    assert libraries.structuredContent is not None
    assert libraries.structuredContent["libraries"][0]["name"] == "python"
    assert "Quoted from" in text_of(found)
    assert found.structuredContent is not None
    assert found.structuredContent["results"][0]["pack"] == "python"
    answer = text_of(answered)
    # Markdown, not the repr of the output dict LangGraph's /mcp returned.
    assert not answer.startswith("{")
    assert "reversed" in answer
    assert "**Sources**" in answer
    assert "https://docs.python.org/" in answer
    assert answered.structuredContent is not None
    assert answered.structuredContent["answer"] == answer
    assert answered.structuredContent["citations"][0]["pack"] == "python"
    assert answered.structuredContent["citations"][0]["version"] == "3.11"
    assert too_long.isError
    assert "takes at most 12,000" in text_of(too_long)


async def test_the_readme_http_entries_connect_with_the_token(server: Server) -> None:
    """Each served-endpoint line of the README, as Cursor, VS Code or any client reads it."""
    token = next(iter(server.tokens.values()))
    placeholders = (
        "${env:CODEWEAVER_TOKEN}",
        "${input:codeweaver-token}",
        "<output of codeweaver token>",
    )
    entries = [e["entry"] for e in readme_mcp_entries() if "url" in e["entry"]]
    assert len(entries) == 3
    for entry in entries:
        url = entry["url"].replace("http://127.0.0.1:2024", server.url)
        headers = dict(entry["headers"])
        for placeholder in placeholders:
            headers = {k: v.replace(placeholder, token) for k, v in headers.items()}
        http = httpx.AsyncClient(headers=headers, timeout=60)
        async with (
            http,
            streamable_http_client(url, http_client=http) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            listed = [tool.name for tool in (await session.list_tools()).tools]
        assert listed == ["ask", "search_docs", "list_libraries"], entry


async def test_codeweaver_mcp_relays_a_call_to_the_running_server(server: Server) -> None:
    """What `codeweaver mcp` does when a server holds its data directory."""
    from codeweaver.tools.protocol import SearchArgs
    from codeweaver.tools.stdio import RemoteTools

    relayed = await RemoteTools(server.url, server.headers).call(SearchArgs("reverse a list"), None)
    assert not relayed.isError
    assert relayed.structuredContent is not None
    assert relayed.structuredContent["results"][0]["pack"] == "python"


async def test_broken_mcp_requests_get_clear_errors_never_a_traceback(server: Server) -> None:
    headers = {
        **server.headers,
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
    }
    call = (
        '{"jsonrpc": "2.0", "id": 5, "method": "tools/call", '
        '"params": {"name": "ask", "arguments": {"question": "why \\ud800 here"}}}'
    )
    async with httpx.AsyncClient(base_url=server.url, headers=headers, timeout=120) as http:
        surrogate = await http.post("/mcp", content=call.encode())
        not_json = await http.post("/mcp", content=b"{not json")
        huge = await http.post("/mcp", content=b" " * (5 * 1024 * 1024))
    assert surrogate.status_code == 200, surrogate.text
    result = surrogate.json()["result"]
    assert result["isError"] is True
    assert "lone UTF-16 surrogate" in result["content"][0]["text"]
    assert not_json.status_code == 400
    assert not_json.json()["error"]["code"] == -32700
    assert huge.status_code == 413
    for response in (surrogate, not_json, huge):
        assert "Traceback" not in response.text


async def test_studio_scheme_without_a_token_is_refused_by_default(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        response = await http.post(
            "/threads/search", json={}, headers={"X-Auth-Scheme": "langsmith"}
        )
    assert response.status_code == 401
    assert "codeweaver token" in response.text
