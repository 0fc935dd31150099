"""One tenant's ingested documents never answer another tenant, through every door of the server.

`codeweaver ingest --tenant alice` fills alice's corpus; the server accepts alice's and bob's
tokens. Before, bob's question was answered from alice's file through REST and MCP (the search
subgraph memoised a source's results without naming whose documents they were), that answer
entered bob's answer cache and came back after a restart; and bob's empty results hid alice's
document from her. Here each asks through REST and MCP, in both orders, and again after a
restart.

The MCP check calls whichever question-answering tool the server lists (`MCP_TOOLS`, in order
of preference), and reads the text of its result, so it holds for the graph-as-tool the server
exposes by default and for CodeWeaver's own `ask` tool alike; CodeWeaver's `search_docs` and
`list_libraries` show alice her documents and bob none.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support import REPO, Server, client, start_server, stop_server

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(900)]

KEYS = {
    "alice": f"cw-alice-{secrets.token_urlsafe(24)}",
    "bob": f"cw-bob-{secrets.token_urlsafe(24)}",
}
SECRET = "spin_rate = 42"
HANDBOOK = f"""# Frobnicator daemon handbook

## Configuring the frobnicator daemon

To configure the frobnicator daemon, write the file `/etc/frobnicator/frob.toml` with the line
`{SECRET}` and then run `frobctl reload --gently`. The frobnicator daemon reads its
configuration only at reload time, so always run `frobctl reload --gently` after editing it.
"""
ASKED_OVER_REST = "How do I configure the frobnicator daemon?"
ASKED_OVER_MCP = "How do I set the spin rate of the frobnicator daemon?"
MCP_TOOLS = ("ask", "ask_codeweaver")
"""Question-answering tools, by preference: CodeWeaver's own, then the served graph."""


def _ingest_for_alice(tmp: Path) -> Path:
    """`codeweaver ingest` of alice's handbook into the data directory the server will use."""
    folder = tmp / "alice-docs"
    folder.mkdir()
    handbook = folder / "frobnicator.md"
    handbook.write_text(HANDBOOK, encoding="utf-8")
    env = {**os.environ, "CODEWEAVER_HOME": str(tmp / "home"), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "codeweaver", "ingest", str(folder), "--tenant", "alice"],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "1 added" in done.stderr, done.stderr
    return handbook


async def _rest(server: Server, identity: str, question: str) -> dict[str, Any]:
    """The answer of one run on a fresh thread of `identity`."""
    turn: Any = {"messages": [{"role": "user", "content": question}]}
    async with client(server, identity) as sdk:
        thread = await sdk.threads.create()
        await sdk.runs.wait(thread["thread_id"], "codeweaver", input=turn)
        values: Any = (await sdk.threads.get_state(thread["thread_id"]))["values"]
    answer: dict[str, Any] = values["answer"]
    return answer


async def _mcp(server: Server, identity: str, question: str) -> str:
    """The text an MCP client gets from the server's question-answering tool."""
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    http = httpx.AsyncClient(headers=server.headers_of(identity), timeout=300)
    async with (
        http,
        streamable_http_client(f"{server.url}/mcp", http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        listed = {tool.name for tool in (await session.list_tools()).tools}
        name = next((tool for tool in MCP_TOOLS if tool in listed), None)
        assert name is not None, f"no question-answering tool among {sorted(listed)}"
        result = await session.call_tool(name, {"question": question})
    assert not result.isError, result.content
    return "\n".join(part.text for part in result.content if part.type == "text")


async def _mcp_tool(server: Server, identity: str, tool: str, arguments: dict[str, Any]) -> Any:
    """The structured content `identity` gets from one of CodeWeaver's MCP tools."""
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    http = httpx.AsyncClient(headers=server.headers_of(identity), timeout=300)
    async with (
        http,
        streamable_http_client(f"{server.url}/mcp", http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        result = await session.call_tool(tool, arguments)
    assert not result.isError, result.content
    return result.structuredContent


def _cites(answer: dict[str, Any], file: Path) -> bool:
    return any(citation.get("file") == str(file) for citation in answer["citations"])


async def test_a_tenants_documents_answer_only_that_tenant(tmp_path: Path) -> None:
    handbook = _ingest_for_alice(tmp_path)
    proc, server = start_server(tmp_path, jobs=2, keys=KEYS)
    try:
        # Bob first: his empty results must not hide alice's document from her.
        bob_first = await _rest(server, "bob", ASKED_OVER_REST)
        alice = await _rest(server, "alice", ASKED_OVER_REST)
        assert _cites(alice, handbook), alice["text"]
        assert SECRET in alice["text"]
        # Then bob again: alice's results must not answer him.
        bob = await _rest(server, "bob", ASKED_OVER_REST)
        for answer in (bob_first, bob):
            assert not _cites(answer, handbook), answer["text"]
            assert SECRET not in answer["text"]

        over_mcp = {who: await _mcp(server, who, ASKED_OVER_MCP) for who in ("alice", "bob")}
        assert SECRET in over_mcp["alice"], over_mcp["alice"]
        assert SECRET not in over_mcp["bob"], over_mcp["bob"]
        assert str(handbook) not in over_mcp["bob"]

        # The documentation tools read the caller's own documents too, and nobody else's.
        query = {"query": "frobnicator daemon spin rate", "library": "documents"}
        found = {who: await _mcp_tool(server, who, "search_docs", query) for who in KEYS}
        assert any(r["file"] == str(handbook) for r in found["alice"]["results"]), found
        assert found["bob"]["results"] == [], found["bob"]
        packs = {who: await _mcp_tool(server, who, "list_libraries", {}) for who in KEYS}
        assert "documents" in {p["name"] for p in packs["alice"]["libraries"]}
        assert "documents" not in {p["name"] for p in packs["bob"]["libraries"]}
    finally:
        stop_server(proc)

    # What bob was told is not in his answer cache: not after a restart either.
    proc, server = start_server(tmp_path, jobs=2, keys=KEYS)
    try:
        for question in (ASKED_OVER_REST, ASKED_OVER_MCP):
            bob = await _rest(server, "bob", question)
            assert not _cites(bob, handbook), bob["text"]
            assert SECRET not in bob["text"]
        alice = await _rest(server, "alice", ASKED_OVER_REST)
        assert _cites(alice, handbook), alice["text"]
    finally:
        stop_server(proc)
