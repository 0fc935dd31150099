"""`codeweaver mcp`'s stdio transport: every line gets an answer, and stdout is the protocol's.

The server runs in this process on a pair of pipes, with tools that record their calls; raw
lines are written as a client that cannot be trusted would write them.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import IO, Any

import pytest

from codeweaver.tools.protocol import ListArgs, ToolArgs, ToolOutput
from codeweaver.tools.stdio import InvalidLine, StdioTools, parse_line, serve


@dataclass
class EchoTools:
    calls: list[ToolArgs] = field(default_factory=list)

    async def call(self, arguments: ToolArgs, identity: str | None) -> ToolOutput:
        self.calls.append(arguments)
        return ToolOutput(text="ok", structured={"libraries": []})


@dataclass
class Pipes:
    """The client's ends: what it writes to the server and what it reads back."""

    to_server: IO[bytes]
    from_server: IO[bytes]

    def send(self, line: str | bytes) -> None:
        self.to_server.write(line if isinstance(line, bytes) else line.encode("utf-8"))
        self.to_server.write(b"\n")
        self.to_server.flush()

    async def reply(self) -> dict[str, Any]:
        line = await asyncio.wait_for(asyncio.to_thread(self.from_server.readline), 20)
        assert line, "the server closed its output"
        found: dict[str, Any] = json.loads(line)
        return found


@asynccontextmanager
async def running(tools: EchoTools) -> AsyncIterator[Pipes]:
    read_in, write_in = os.pipe()
    read_out, write_out = os.pipe()
    server_in = os.fdopen(read_in, "rb")
    server_out = os.fdopen(write_out, "wb", buffering=0)
    pipes = Pipes(os.fdopen(write_in, "wb"), os.fdopen(read_out, "rb"))
    task = asyncio.create_task(serve(tools, server_in, server_out))
    try:
        pipes.send(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 0,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-06-18",
                        "capabilities": {},
                        "clientInfo": {"name": "test", "version": "0"},
                    },
                }
            )
        )
        assert (await pipes.reply())["result"]["serverInfo"]["name"] == "codeweaver"
        pipes.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        yield pipes
    finally:
        pipes.to_server.close()
        await asyncio.wait_for(task, 20)
        for stream in (server_in, server_out, pipes.from_server):
            stream.close()


async def test_a_lone_surrogate_reaches_the_argument_check_and_is_refused_in_words() -> None:
    tools = EchoTools()
    async with running(tools) as pipes:
        # Written as a JSON escape, the way a client serialising broken text sends it.
        pipes.send(
            '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", '
            '"params": {"name": "ask", "arguments": {"question": "why \\ud800 here"}}}'
        )
        reply = await pipes.reply()
    assert reply["id"] == 1
    assert reply["result"]["isError"] is True
    assert "lone UTF-16 surrogate" in reply["result"]["content"][0]["text"]
    assert tools.calls == []


async def test_lines_that_are_not_messages_are_answered_and_the_session_goes_on() -> None:
    tools = EchoTools()
    async with running(tools) as pipes:
        pipes.send("this is not json")
        not_json = await pipes.reply()
        pipes.send('{"jsonrpc": "2.0", "id": 7, "params": {}}')
        no_method = await pipes.reply()
        pipes.send(b'{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": \xff}')
        bad_bytes = await pipes.reply()
        pipes.send(
            '{"jsonrpc": "2.0", "id": 9, "method": "tools/call", '
            '"params": {"name": "list_libraries"}}'
        )
        listed = await pipes.reply()
    assert not_json == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32700, "message": not_json["error"]["message"]},
    }
    assert not_json["error"]["message"].startswith("Parse error: the line is not JSON")
    assert no_method["id"] == 7
    assert no_method["error"]["code"] == -32600
    assert bad_bytes["error"]["code"] == -32700
    assert listed["id"] == 9
    assert listed["result"]["content"][0]["text"] == "ok"
    assert len(tools.calls) == 1


def test_parse_line_keeps_a_usable_request_id_only() -> None:
    with pytest.raises(InvalidLine) as raised:
        parse_line('{"id": true, "jsonrpc": "2.0"}')
    assert raised.value.response["id"] is None
    with pytest.raises(InvalidLine) as raised:
        parse_line('{"id": "a", "jsonrpc": "1.0", "method": "x"}')
    assert raised.value.response["id"] == "a"
    assert parse_line('{"jsonrpc": "2.0", "id": 3, "method": "ping"}').root.id == 3  # type: ignore[union-attr]


def test_stdout_carries_the_protocol_alone_whatever_else_writes_to_it() -> None:
    script = textwrap.dedent(
        """
        import os, sys
        from codeweaver.tools.stdio import protocol_output
        protocol = protocol_output()
        print("a library's print")
        sys.stdout.flush()
        os.write(1, b"a native extension's write\\n")
        protocol.write(b'{"jsonrpc": "2.0", "id": 1, "result": {}}\\n')
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, timeout=120, check=True
    )
    assert done.stdout == b'{"jsonrpc": "2.0", "id": 1, "result": {}}\n'
    assert b"a library's print" in done.stderr
    assert b"a native extension's write" in done.stderr


@dataclass
class Found:
    url: str


@dataclass
class Remote:
    url: str
    headers: dict[str, str]
    calls: list[ToolArgs] = field(default_factory=list)

    async def call(self, arguments: ToolArgs, identity: str | None) -> ToolOutput:
        self.calls.append(arguments)
        return ToolOutput(text=f"from {self.url}", structured={})


async def test_calls_go_to_the_running_server_that_holds_the_data_and_here_otherwise() -> None:
    local = EchoTools()
    server: list[Found | None] = [None]
    remotes: list[Remote] = []

    def remote(url: str, headers: dict[str, str]) -> Remote:
        remotes.append(Remote(url, headers))
        return remotes[-1]

    tools = StdioTools(
        local,  # type: ignore[arg-type]
        find_server=lambda: server[0],
        headers=lambda: {"Authorization": "Bearer local-user-token"},
        remote=remote,
    )
    here = await tools.call(ListArgs(), None)
    server[0] = Found("http://127.0.0.1:2024")
    there = await tools.call(ListArgs(), None)
    server[0] = None
    here_again = await tools.call(ListArgs(), None)
    assert [getattr(out, "text", None) for out in (here, there, here_again)] == [
        "ok",
        "from http://127.0.0.1:2024",
        "ok",
    ]
    assert len(local.calls) == 2
    assert remotes[0].headers == {"Authorization": "Bearer local-user-token"}
