"""`codeweaver mcp`: the tools over stdio, the way coding agents start a local tool.

Standard output carries the protocol and nothing else. The process's file descriptor 1 is
moved aside for the protocol at start-up and descriptor 1 then points at standard error, so
whatever else writes to "stdout" (a library's print, a native extension, a progress bar) ends
up in the agent's log, never inside a JSON-RPC message.

Each line is read as JSON, then as a JSON-RPC message. A line that is not JSON gets a parse
error; a message MCP does not know gets an invalid-request error with its id, so the client
hears back instead of waiting forever. (The SDK's own stdio transport parses with a stricter
JSON reader that refuses an unpaired surrogate escape, and drops such a line unanswered; here
it reaches the tool, whose argument check names it.)

Where the tools run is decided per call: when a `codeweaver serve` holds this data directory
(its embedded store is locked to it), the call goes to that server's `/mcp` with the local
user's token; otherwise the graphs run here, and the store is let go of after every call so
that `codeweaver ask`, `ingest` or `serve` can use it between an agent's calls.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import asdict
from typing import IO, TYPE_CHECKING, Any

import anyio
import mcp.types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

if TYPE_CHECKING:
    from codeweaver.tools.service import LocalTools

from codeweaver.tools.protocol import (
    ASK,
    LIST_LIBRARIES,
    SEARCH_DOCS,
    AskArgs,
    SearchArgs,
    ToolArgs,
    ToolOutput,
    Tools,
    build_server,
)

logger = logging.getLogger(__name__)

REMOTE_TIMEOUT_S = 600.0
"""How long a call relayed to a running server may take (a busy server queues it)."""


def protocol_output() -> IO[bytes]:
    """Standard output, reserved for the protocol; descriptor 1 then writes to stderr.

    Returns:
        A binary stream on a private copy of the original standard output.
    """
    sys.stdout.flush()
    private = os.dup(1)
    os.dup2(2, 1)
    return os.fdopen(private, "wb", buffering=0)


class InvalidLine(ValueError):
    """A line that is not a JSON-RPC message; `response` is the error to send back."""

    def __init__(self, response: dict[str, Any]) -> None:
        super().__init__(response["error"]["message"])
        self.response = response


def _error(request_id: Any, code: int, message: str) -> dict[str, Any]:
    valid_id = (
        request_id
        if isinstance(request_id, str | int) and not isinstance(request_id, bool)
        else None
    )
    return {"jsonrpc": "2.0", "id": valid_id, "error": {"code": code, "message": message}}


def parse_line(line: str) -> types.JSONRPCMessage:
    """One line as a JSON-RPC message.

    Raises:
        InvalidLine: the line is not JSON, or not a message MCP knows.
    """
    try:
        raw = json.loads(line)
    except ValueError as exc:
        raise InvalidLine(
            _error(None, types.PARSE_ERROR, f"Parse error: the line is not JSON ({exc})")
        ) from None
    try:
        return types.JSONRPCMessage.model_validate(raw)
    except ValidationError:
        request_id = raw.get("id") if isinstance(raw, dict) else None
        raise InvalidLine(
            _error(
                request_id,
                types.INVALID_REQUEST,
                "Invalid request: not a JSON-RPC 2.0 request, notification or response.",
            )
        ) from None


@asynccontextmanager
async def json_lines(
    stdin: IO[bytes], stdout: IO[bytes]
) -> AsyncIterator[
    tuple[
        MemoryObjectReceiveStream[SessionMessage | Exception],
        MemoryObjectSendStream[SessionMessage],
    ]
]:
    """The two streams `Server.run` takes, over newline-delimited JSON on `stdin`/`stdout`."""
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)
    source = anyio.wrap_file(stdin)
    sink = anyio.wrap_file(stdout)
    lock = anyio.Lock()

    async def emit(text: str) -> None:
        async with lock:
            await sink.write(text.encode("utf-8") + b"\n")

    async def read() -> None:
        async with read_writer:
            async for raw in source:
                line = raw.decode("utf-8", errors="replace").strip()
                if not line:
                    continue
                try:
                    message = parse_line(line)
                except InvalidLine as bad:
                    logger.warning("answered a line that is not an MCP message: %s", bad)
                    await emit(json.dumps(bad.response))
                    continue
                await read_writer.send(SessionMessage(message))

    async def write() -> None:
        async with write_reader:
            async for session_message in write_reader:
                message = session_message.message
                try:
                    text = message.model_dump_json(by_alias=True, exclude_none=True)
                except ValueError:
                    logger.exception("a message could not be written as JSON")
                    root = message.root
                    if not isinstance(root, types.JSONRPCResponse | types.JSONRPCError):
                        continue
                    text = json.dumps(
                        _error(root.id, types.INTERNAL_ERROR, "The reply could not be encoded.")
                    )
                await emit(text)

    async with anyio.create_task_group() as group:
        group.start_soon(read)
        group.start_soon(write)
        try:
            yield read_stream, write_stream
        finally:
            group.cancel_scope.cancel()


def _arguments_of(arguments: ToolArgs) -> tuple[str, dict[str, Any]]:
    """The tool name and JSON arguments of a checked call, to send on to a server."""
    if isinstance(arguments, AskArgs):
        name = ASK.name
    elif isinstance(arguments, SearchArgs):
        name = SEARCH_DOCS.name
    else:
        name = LIST_LIBRARIES.name
    return name, {key: value for key, value in asdict(arguments).items() if value is not None}


class RemoteTools:
    """The tools of a running CodeWeaver server, called through its `/mcp` endpoint."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        """Bind the server's base URL and the headers that authenticate this user."""
        self.url = url.rstrip("/")
        self._headers = headers

    async def call(self, arguments: ToolArgs, identity: str | None) -> types.CallToolResult:
        """Send the call on; the server answers as the user its token authenticates."""
        import httpx
        from mcp import ClientSession
        from mcp.client.streamable_http import streamable_http_client

        name, payload = _arguments_of(arguments)
        http = httpx.AsyncClient(headers=self._headers, timeout=REMOTE_TIMEOUT_S)
        async with (
            http,
            streamable_http_client(f"{self.url}/mcp", http_client=http) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await session.call_tool(name, payload)


ServerFinder = Callable[[], Any]
"""Returns the running server of the data directory (`remote.RunningServer`), or None."""


class StdioTools:
    """Per call: the running server that holds the data directory, else this process."""

    def __init__(
        self,
        local: LocalTools,
        *,
        find_server: ServerFinder,
        headers: Callable[[], dict[str, str]],
        remote: Callable[[str, dict[str, str]], Tools] = RemoteTools,
    ) -> None:
        """Bind the local tools and how to find a server.

        Args:
            local: The tools run in this process.
            find_server: The running server of the data directory, or None.
            headers: The headers that authenticate the local user to that server.
            remote: The tools of the server at a URL, called with those headers.
        """
        self.local = local
        self._find_server = find_server
        self._headers = headers
        self._remote = remote
        self._announced: str | None = None

    async def call(
        self, arguments: ToolArgs, identity: str | None
    ) -> ToolOutput | types.CallToolResult:
        """Run the call where the data is."""
        server = await asyncio.to_thread(self._find_server)
        where = server.url if server is not None else None
        if where != self._announced:
            self._announced = where
            if where:
                logger.warning("tools run by %s, the server that holds the data directory", where)
            else:
                logger.warning("tools run in this process")
        if server is None:
            return await self.local.call(arguments, identity)
        return await self._remote(server.url, self._headers()).call(arguments, identity)

    async def warm_up(self) -> None:
        """Load the local tools ahead of the first call, unless a server will answer it."""
        if await asyncio.to_thread(self._find_server) is None:
            await self.local.warm_up()


async def serve(
    tools: Tools,
    stdin: IO[bytes],
    stdout: IO[bytes],
    *,
    warm_up: Callable[[], Coroutine[Any, Any, None]] | None = None,
) -> None:
    """Answer MCP over newline-delimited JSON until `stdin` ends.

    Args:
        tools: Runs the calls.
        stdin: The client's requests.
        stdout: Where replies go, and nothing else.
        warm_up: Awaited in the background once the client has initialised, so the first
            answer does not pay for loading the graphs and the documentation.
    """
    server = build_server(tools)
    pending: set[asyncio.Task[Any]] = set()
    if warm_up is not None:
        start = warm_up

        async def initialized(_: types.InitializedNotification) -> None:
            task = asyncio.create_task(start())
            pending.add(task)
            task.add_done_callback(pending.discard)

        server.notification_handlers[types.InitializedNotification] = initialized
    async with json_lines(stdin, stdout) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
    for task in pending:
        task.cancel()
