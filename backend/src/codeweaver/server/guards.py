"""What the development server refuses before any route sees a request (`codeweaver.server.app`).

- `LoopbackHostOnly`: a request that reached the server over loopback must be addressed to it
  by a loopback name (`127.0.0.1`, `localhost`, `[::1]`) and its port. A web page on a domain
  whose DNS answer the attacker switches to 127.0.0.1 (DNS rebinding) is same-origin with its
  own domain, so CORS never applies and the browser lets it read the answers; its requests
  carry its own domain in `Host`, which is how they are told apart. This matters most with
  `serve --studio`, where the Studio scheme stands in for the token.
- `RefuseDevRoutes`: `langgraph dev` mounts routes for LangGraph's own tests and for deploying
  from Studio outside authentication: `POST /internal/truncate` wipes the server's threads and
  runs, `GET /internal/debug/thread/{id}` reads any thread, `/deploy` starts `langgraph deploy`
  with the server's environment. Any web page could post to the first (a plain form POST needs
  no preflight). CodeWeaver uses none of them; they answer 404.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_HOSTS_ENV = "CODEWEAVER_LOOPBACK_HOSTS_ONLY"
"""Set to 1 in the development server's config (`dev_server_config`): the Host check is on."""
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
"""The names a request over loopback may address the server by (any loopback address too)."""
DEV_ROUTES = ("/internal/", "/deploy/")
"""Path prefixes of `langgraph dev`'s own routes, refused (and `/deploy` itself)."""
_PORT = re.compile(r":(\d{1,5})")


def is_loopback_address(address: object) -> bool:
    """Whether `address` (an IP address as text) is one only this machine reaches."""
    if not isinstance(address, str):
        return False
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped.is_loopback
    return ip.is_loopback


def split_host(value: str) -> tuple[str, int | None] | None:
    """(host, port or None) of a `Host` header, or None when it is malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        host, rest = value[: end + 1], value[end + 1 :]
    else:
        host, colon, port = value.partition(":")
        rest = f"{colon}{port}"
    if not rest:
        return host, None
    matched = _PORT.fullmatch(rest)
    return (host, int(matched.group(1))) if matched else None


def addresses_loopback(value: str, port: int | None) -> bool:
    """Whether a `Host` header names this machine's loopback, on the server's `port`."""
    parts = split_host(value)
    if parts is None:
        return False
    host, given = parts
    if host != "localhost" and not is_loopback_address(host):
        return False
    return given == port or (given is None and port == 80)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def _refuse(scope: Scope, send: Send, status: int, detail: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008, "reason": detail[:120]})
        return
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class LoopbackHostOnly:
    """ASGI middleware: over loopback, only requests addressed to a loopback name get in.

    It is on in the server `codeweaver serve` runs (`LOOPBACK_HOSTS_ENV`, set by its config),
    not in a deployment, whose proxies may well reach it over loopback under the public name.
    The check applies to connections that arrived on a loopback address (the socket's own,
    which a client cannot choose), so it follows the server's bind: everything on a loopback
    bind (`codeweaver serve`'s default, and the only bind `--studio` accepts), the loopback
    side of a `0.0.0.0` bind; requests the server makes to itself in process pass.
    """

    def __init__(self, app: ASGIApp, *, enabled: bool | None = None) -> None:
        """Wrap `app`.

        Args:
            app: The application.
            enabled: Check Host names (default: when `LOOPBACK_HOSTS_ENV` is 1).
        """
        self.app = app
        self.enabled = os.environ.get(LOOPBACK_HOSTS_ENV) == "1" if enabled is None else enabled

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a request over loopback addressed to another name, with 403."""
        server = scope.get("server") if scope["type"] in ("http", "websocket") else None
        if self.enabled and server and is_loopback_address(server[0]):
            port = server[1]
            host = _header(scope, b"host")
            if host is not None and not addresses_loopback(host, port):
                names = ", ".join(f"{name}:{port}" for name in LOOPBACK_NAMES)
                await _refuse(
                    scope,
                    send,
                    403,
                    f"Host {host!r} is not this server: a CodeWeaver server listening on "
                    f"loopback answers only requests addressed to {names}, so that a web "
                    "page cannot reach it through a domain name of its own (DNS rebinding). "
                    f"Connect to http://127.0.0.1:{port}.",
                )
                return
        await self.app(scope, receive, send)


class RefuseDevRoutes:
    """ASGI middleware: `langgraph dev`'s test and deploy routes answer 404."""

    def __init__(self, app: ASGIApp) -> None:
        """Wrap `app`."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse `/internal/...` and `/deploy...`; pass everything else."""
        path = str(scope.get("path") or "") if scope["type"] in ("http", "websocket") else ""
        if path.startswith(DEV_ROUTES) or path == "/deploy":
            await _refuse(scope, send, 404, "Not Found")
            return
        await self.app(scope, receive, send)
