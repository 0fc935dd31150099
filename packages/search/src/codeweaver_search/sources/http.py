"""One bounded HTTP exchange: time-limited, size-limited, JSON-decoded, errors classified."""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass
from typing import Any

import httpx

from codeweaver_runtime import install_log_redaction
from codeweaver_schema import SourceName
from codeweaver_search.sources.errors import SourceError

# httpx logs every request URL at INFO, and Stack Exchange takes its key as a query parameter.
install_log_redaction()

MAX_BODY_BYTES = 4 * 1024 * 1024
"""Larger bodies are refused: a search page is tens of kilobytes, so this is a broken server."""

USER_AGENT = "CodeWeaver/0.1 (+https://github.com/codeweaver; search subgraph)"


@dataclass(frozen=True)
class JsonResponse:
    """A response whose body was read within the limits; `body` is None when not JSON."""

    status: int
    headers: httpx.Headers
    body: Any
    text: str

    @property
    def ok(self) -> bool:
        """True for a 2xx status."""
        return 200 <= self.status < 300


async def fetch_json(
    source: SourceName,
    method: str,
    url: str,
    *,
    timeout_s: float,
    params: dict[str, str | int] | None = None,
    json_body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    max_bytes: int = MAX_BODY_BYTES,
) -> JsonResponse:
    """Send one request and read its JSON body, whatever the status.

    A fresh client per call keeps sources usable from any event loop (tests, Studio, the CLI).

    Raises:
        SourceError: timeout, connection failure, a body over `max_bytes`, or a 2xx body that is
            not JSON. Non-2xx statuses are returned for the caller to interpret.
    """
    all_headers = {"User-Agent": USER_AGENT, "Accept": "application/json", **(headers or {})}
    timeout = httpx.Timeout(timeout_s)
    try:
        async with (
            httpx.AsyncClient(timeout=timeout, follow_redirects=True) as client,
            client.stream(
                method, url, params=params, json=json_body, headers=all_headers
            ) as response,
        ):
            declared = response.headers.get("content-length")
            if declared and declared.isdigit() and int(declared) > max_bytes:
                raise SourceError(
                    source, "malformed", f"response of {int(declared)} bytes exceeds {max_bytes}"
                )
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > max_bytes:
                    raise SourceError(
                        source, "malformed", f"response body exceeds {max_bytes} bytes"
                    )
                chunks.append(chunk)
    except httpx.TimeoutException as exc:
        raise SourceError(
            source, "timeout", f"no response within {timeout_s:g} s ({type(exc).__name__})"
        ) from exc
    except httpx.ConnectError as exc:
        if _unresolvable(exc):
            # No DNS answer for the host means no network here (an offline machine): the source
            # was not reached at all, so the run is not degraded by it, it is just without it.
            host = httpx.URL(url).host
            raise SourceError(
                source, "skipped", f"{host} cannot be resolved: no network connection?"
            ) from exc
        raise SourceError(
            source, "http", f"connection failed: {type(exc).__name__}: {exc}", retryable=True
        ) from exc
    except httpx.TransportError as exc:
        raise SourceError(
            source, "http", f"connection failed: {type(exc).__name__}: {exc}", retryable=True
        ) from exc
    raw = b"".join(chunks)
    text = raw.decode(response.encoding or "utf-8", errors="replace")
    try:
        body: Any = json.loads(text) if text.strip() else None
    except json.JSONDecodeError as exc:
        if response.is_success:
            raise SourceError(
                source, "malformed", f"response is not JSON: {exc.msg} at {exc.pos}"
            ) from exc
        body = None
    return JsonResponse(status=response.status_code, headers=response.headers, body=body, text=text)


def _unresolvable(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, socket.gaierror):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def retry_after_header(headers: httpx.Headers) -> float | None:
    """Seconds from a `Retry-After` header given in seconds (the form these APIs use)."""
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def snippet(text: str, limit: int = 200) -> str:
    """The start of a body, on one line, for an error message."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + "…"
