"""A real HTTP server on loopback that replays recorded API responses (stdlib asyncio only)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

FIXTURES = Path(__file__).resolve().parents[3] / "data" / "fixtures"


def fixture(*parts: str) -> Any:
    return json.loads((FIXTURES.joinpath(*parts)).read_text(encoding="utf-8"))


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    raw: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    stream_bytes: int = 0
    """Send this many bytes of JSON-ish padding without a content-length (a huge body)."""


Handler = Callable[[Request], Reply]

_REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 429: "Too Many"}


class ReplayServer:
    def __init__(self) -> None:
        self.routes: list[tuple[str, str, Handler]] = []
        self.requests: list[Request] = []
        self._server: asyncio.Server | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def route(self, method: str, prefix: str, handler: Handler | Reply) -> None:
        fn = handler if callable(handler) else (lambda _req, r=handler: r)
        self.routes.insert(0, (method, prefix, fn))

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, target, _ = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    k, v = line.split(":", 1)
                    headers[k.strip().lower()] = v.strip()
            length = int(headers.get("content-length", "0"))
            body = await reader.readexactly(length) if length else b""
            parts = urlsplit(target)
            request = Request(method, parts.path, dict(parse_qsl(parts.query)), headers, body)
            self.requests.append(request)
            reply = self._dispatch(request)
            if reply.delay_s:
                await asyncio.sleep(reply.delay_s)
            await self._write(writer, reply)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    def _dispatch(self, request: Request) -> Reply:
        for method, prefix, handler in self.routes:
            if request.method == method and request.path.startswith(prefix):
                return handler(request)
        return Reply(404, {"message": "Not Found"})

    async def _write(self, writer: asyncio.StreamWriter, reply: Reply) -> None:
        status_line = f"HTTP/1.1 {reply.status} {_REASONS.get(reply.status, 'Status')}\r\n"
        headers = {"content-type": "application/json; charset=utf-8", "connection": "close"}
        headers.update({k.lower(): v for k, v in reply.headers.items()})
        if reply.stream_bytes:
            head = status_line + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
            writer.write(head.encode("latin-1") + b'{"items": [')
            chunk = b'{"padding": "' + b"x" * 65_000 + b'"},'
            sent = 0
            while sent < reply.stream_bytes:
                writer.write(chunk)
                sent += len(chunk)
                await writer.drain()
            return
        payload = reply.raw if reply.raw is not None else json.dumps(reply.body).encode()
        headers["content-length"] = str(len(payload))
        head = status_line + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
        writer.write(head.encode("latin-1") + payload)
        await writer.drain()
