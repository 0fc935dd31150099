"""CodeWeaver's own HTTP routes, served by LangGraph Server beside its API (`http.app`).

`langgraph.json` names this app and turns the server's auth handler on for its routes
(`http.enable_custom_route_auth`): a request reaches a route here only with a token
`codeweaver.server.auth` accepts, and a refusal is the same 401 as anywhere else on the server.
A new route goes into `build_app`.

`/mcp` serves the coding agents' tools (`codeweaver.tools`: `ask`, `search_docs`,
`list_libraries`) over streamable HTTP, in place of LangGraph Server's own MCP endpoint, which
would list every graph as a tool and is switched off (`http.disable_mcp`). Each request is
answered on its own (stateless, JSON responses), as the authenticated caller: the identity the
auth handler gave the request is the tenant whose documents and answer cache the tools use,
and no argument can name another.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route
from starlette.types import Message, Receive, Scope, Send

from codeweaver.server.auth import MISSING
from codeweaver.tools.protocol import Tools, build_server
from codeweaver.tools.service import LocalTools

if TYPE_CHECKING:
    from langgraph.graph.state import CompiledStateGraph
    from mcp.shared.context import RequestContext

MCP_PATH = "/mcp"
MAX_BODY_BYTES = 4 * 1024 * 1024
"""The largest MCP request taken: a question is at most 12,000 characters."""
IDENTITY = "codeweaver.identity"
"""Where the endpoint leaves the authenticated caller's identity in the request's scope."""


class Unauthenticated(PermissionError):
    """A tool call reached the tools without an authenticated caller."""


def caller_identity(context: RequestContext[Any, Any, Any]) -> str:
    """The authenticated caller of a tool call: never a default, never an argument.

    Raises:
        Unauthenticated: the request carries no identity (it did not come through `/mcp`).
    """
    request = context.request
    scope = getattr(request, "scope", None)
    identity = scope.get(IDENTITY) if isinstance(scope, dict) else None
    if not isinstance(identity, str) or not identity:
        raise Unauthenticated("the request has no authenticated caller")
    return identity


async def served_ask_graph() -> CompiledStateGraph[Any, Any, Any, Any]:
    """The `ask_codeweaver` graph the server already serves (built when the server started)."""
    from codeweaver.server.graphs import ask

    return ask


def _refuse(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status)


async def _whole_body(receive: Receive, limit: int) -> bytes | None:
    """The request's body, or None when it grows past `limit` bytes or the client left."""
    body = b""
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunk: bytes = message.get("body", b"")
        body += chunk
        if len(body) > limit:
            return None
        if not message.get("more_body", False):
            return body


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A `receive` that hands over `body` once, then waits on the client as before."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class McpEndpoint:
    """`/mcp`: the tools over streamable HTTP, for the caller the auth handler identified."""

    def __init__(self, tools: Tools) -> None:
        """Serve `tools`; a session manager runs while an app serving the route runs."""
        self.server = build_server(tools, identity_of=caller_identity)
        self.sessions: StreamableHTTPSessionManager | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """A session manager for as long as the app runs (one per start: each runs once)."""
        sessions = StreamableHTTPSessionManager(app=self.server, json_response=True, stateless=True)
        async with sessions.run():
            self.sessions = sessions
            try:
                yield
            finally:
                self.sessions = None

    def route(self) -> Route:
        """The route that serves it."""
        return Route(MCP_PATH, self, methods=["GET", "POST", "DELETE"])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one request, or refuse it: no caller (401), too large (413), not running."""
        user = scope.get("user")
        identity = getattr(user, "identity", None) if user is not None else None
        if not getattr(user, "is_authenticated", False) or not identity:
            # The server's auth handler runs first (`enable_custom_route_auth`); without it,
            # nobody is served rather than everybody as the local user.
            await _refuse(401, MISSING)(scope, receive, send)
            return
        if self.sessions is None:
            await _refuse(503, "The MCP endpoint is not running.")(scope, receive, send)
            return
        if scope.get("method") == "POST":
            body = await _whole_body(receive, MAX_BODY_BYTES)
            if body is None:
                too_large = f"The request is larger than {MAX_BODY_BYTES:,} bytes."
                await _refuse(413, too_large)(scope, receive, send)
                return
            receive = _replaying(body, receive)
        scope[IDENTITY] = str(identity)
        await self.sessions.handle_request(scope, receive, send)


def server_jobs() -> int:
    """The server's runs at once (`--n-jobs-per-worker`), which also bounds the tools' calls."""
    try:
        return max(1, int(os.environ.get("N_JOBS_PER_WORKER", "10")))
    except ValueError:
        return 10


def served_tools() -> LocalTools:
    """The tools as the server runs them: its own `ask_codeweaver` graph, its bound."""
    return LocalTools(ask_graph=served_ask_graph, concurrency=server_jobs())


def agents_app(
    endpoint: McpEndpoint, *, routes: list[BaseRoute] | None = None, **kwargs: Any
) -> Starlette:
    """A Starlette app with the endpoint's route after `routes`, running its session manager.

    Args:
        endpoint: The MCP endpoint.
        routes: The app's other routes.
        kwargs: Passed on to `Starlette` (its middleware).
    """

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with endpoint.running():
            yield

    return Starlette(routes=[*(routes or []), endpoint.route()], lifespan=lifespan, **kwargs)


__all__ = [
    "MAX_BODY_BYTES",
    "MCP_PATH",
    "McpEndpoint",
    "agents_app",
    "caller_identity",
    "served_tools",
]
