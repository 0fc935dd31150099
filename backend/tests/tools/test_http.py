"""`/mcp` in process: the tools run as the identity the server's auth gave, or not at all.

LangGraph Server puts its auth handler in front of the app's routes; here a small middleware
plays that part, so what is tested is the endpoint's own side.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send

from codeweaver.server.agents import MAX_BODY_BYTES, McpEndpoint, agents_app
from codeweaver.server.auth import MISSING
from codeweaver.tools.protocol import ToolArgs, ToolOutput

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@dataclass
class RecordingTools:
    callers: list[str | None] = field(default_factory=list)

    async def call(self, arguments: ToolArgs, identity: str | None) -> ToolOutput:
        self.callers.append(identity)
        return ToolOutput(text="ok", structured={"libraries": []})


@dataclass(frozen=True)
class User:
    """What LangGraph Server's auth middleware leaves in `scope["user"]`."""

    identity: str
    is_authenticated: bool = True


class AuthenticatedAs:
    """Sets `scope["user"]` as LangGraph Server's auth middleware does (None: nobody)."""

    def __init__(self, app: ASGIApp, identity: str | None) -> None:
        self.app = app
        self.identity = identity

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.identity is not None:
            scope["user"] = User(self.identity)
        await self.app(scope, receive, send)


@pytest.fixture
def tools() -> RecordingTools:
    return RecordingTools()


@contextmanager
def client_as(tools: RecordingTools, identity: str | None) -> Iterator[TestClient]:
    app: Starlette = agents_app(McpEndpoint(tools))
    app.add_middleware(AuthenticatedAs, identity=identity)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client


def call(name: str, arguments: dict[str, Any], request_id: int = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


def test_the_tools_run_as_the_authenticated_identity(tools: RecordingTools) -> None:
    with client_as(tools, "alice") as client:
        response = client.post("/mcp", json=call("list_libraries", {}), headers=HEADERS)
    assert response.status_code == 200, response.text
    assert response.json()["result"]["content"][0]["text"] == "ok"
    assert tools.callers == ["alice"]


def test_without_an_authenticated_caller_nothing_runs(tools: RecordingTools) -> None:
    with client_as(tools, None) as client:
        for method in ("GET", "POST", "DELETE"):
            response = client.request(method, "/mcp", json=call("ask", {"question": "q"}))
            assert response.status_code == 401
            assert response.json() == {"detail": MISSING}
    assert tools.callers == []


def test_a_body_past_the_limit_is_refused_before_it_is_read_as_json(
    tools: RecordingTools,
) -> None:
    with client_as(tools, "alice") as client:
        response = client.post("/mcp", content=b" " * (MAX_BODY_BYTES + 1), headers=HEADERS)
    assert response.status_code == 413
    assert tools.callers == []
