"""The development server's guards, on a bare ASGI app: Host names over loopback, dev routes."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from codeweaver.server.guards import (
    LOOPBACK_HOSTS_ENV,
    LoopbackHostOnly,
    Message,
    RefuseDevRoutes,
    addresses_loopback,
    is_loopback_address,
)


async def answer(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"served"})


async def call(app: Any, path: str, *, host: str | None, server: tuple[str, int | None]) -> Any:
    """One request through `app` as uvicorn would hand it over: (status, body)."""
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    headers = [(b"host", host.encode())] if host is not None else []
    scope = {"type": "http", "method": "POST", "path": path, "headers": headers, "server": server}
    await app(scope, receive, send)
    return sent[0]["status"], sent[1]["body"]


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("127.0.0.1:8123", True),
        ("localhost:8123", True),
        ("LOCALHOST:8123", True),
        ("[::1]:8123", True),
        ("127.0.0.2:8123", True),
        ("evil.example:8123", False),
        ("localhost.evil.example:8123", False),
        ("127.0.0.1.nip.io:8123", False),
        ("localhost:2024", False),
        ("localhost", False),
        ("[::1]", False),
        ("localhost:8123:1", False),
        ("[::1:8123", False),
        ("", False),
    ],
)
def test_a_host_header_names_loopback_on_the_servers_port(host: str, allowed: bool) -> None:
    assert addresses_loopback(host, 8123) is allowed


def test_port_80_may_go_unsaid() -> None:
    assert addresses_loopback("localhost", 80)
    assert addresses_loopback("localhost:80", 80)


def test_loopback_addresses() -> None:
    assert is_loopback_address("127.0.0.1")
    assert is_loopback_address("::1")
    assert is_loopback_address("::ffff:127.0.0.1")
    assert not is_loopback_address("0.0.0.0")
    assert not is_loopback_address("192.168.1.5")
    assert not is_loopback_address("api")  # the server's in-process client
    assert not is_loopback_address(None)


async def test_over_loopback_a_foreign_host_is_refused_with_the_reason() -> None:
    app = LoopbackHostOnly(answer, enabled=True)
    status, body = await call(
        app, "/runs/wait", host="evil.example:8123", server=("127.0.0.1", 8123)
    )
    assert status == 403
    detail = httpx.Response(403, content=body).json()["detail"]
    assert "'evil.example:8123' is not this server" in detail
    assert "DNS rebinding" in detail
    assert "http://127.0.0.1:8123" in detail
    assert await call(app, "/runs/wait", host="localhost:8123", server=("127.0.0.1", 8123)) == (
        200,
        b"served",
    )


async def test_beyond_loopback_and_in_process_the_host_is_not_checked() -> None:
    app = LoopbackHostOnly(answer, enabled=True)
    # A connection on a LAN address of a 0.0.0.0 bind: the token guards it, not the name.
    lan = await call(app, "/ok", host="codeweaver.lan:8123", server=("192.168.1.5", 8123))
    assert lan == (200, b"served")
    # LangGraph Server's own in-process client (A2A) addresses itself as http://api.
    assert await call(app, "/threads", host="api", server=("api", None)) == (200, b"served")
    # No Host at all (HTTP/1.0) is no rebinding page.
    assert await call(app, "/ok", host=None, server=("127.0.0.1", 8123)) == (200, b"served")


@pytest.mark.parametrize(
    "path",
    ["/internal/truncate", "/internal/debug/thread/x", "/deploy", "/deploy/op/stream"],
)
async def test_langgraph_devs_own_routes_are_not_served(path: str) -> None:
    status, _ = await call(RefuseDevRoutes(answer), path, host=None, server=("127.0.0.1", 1))
    assert status == 404


@pytest.mark.parametrize("path", ["/threads", "/deployments", "/internals", "/ok"])
async def test_other_routes_pass(path: str) -> None:
    assert await call(RefuseDevRoutes(answer), path, host=None, server=("127.0.0.1", 1)) == (
        200,
        b"served",
    )


async def test_the_host_check_is_the_development_servers_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deployment's proxy may reach it over loopback under the public name: not refused."""
    rebound: Any = {"host": "evil.example:8123", "server": ("127.0.0.1", 8123)}
    monkeypatch.delenv(LOOPBACK_HOSTS_ENV, raising=False)
    assert await call(LoopbackHostOnly(answer), "/ok", **rebound) == (200, b"served")
    monkeypatch.setenv(LOOPBACK_HOSTS_ENV, "1")
    assert (await call(LoopbackHostOnly(answer), "/ok", **rebound))[0] == 403
