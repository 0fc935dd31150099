"""`ask` through a running `codeweaver serve`: the server owns the data directory's store.

Embedded Qdrant locks its folder to one process. While `codeweaver serve` runs on a data
directory, a CLI process that opened the same store itself would find it locked and answer
without the user's documents or the cache. So `serve` records where it listens, and a secret it
gave its server, in `$CODEWEAVER_HOME/server.json` (private to its owner), and `ask` sends its
question there, with the local user's token, in the same thread.

Nothing is sent before the listener proves it is that server. The record is trusted only in a
data directory and a file that are the user's own and private; its address must be plain HTTP
on a loopback address; its process must be alive and the user's; and whatever listens must
answer a fresh challenge with the HMAC of the secret (`codeweaver.tokens.identity_proof`). A
stale record (the server died, another process took its pid or port) fails one of these, and the
question is answered here instead.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import os
import secrets
import stat
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from codeweaver.tokens import IDENTITY_PATH, identity_proof

SERVER_FILE = "server.json"
"""Where a running `codeweaver serve` records its address, process id and identity secret."""
THREAD_NAMESPACE = uuid.UUID("6f1d8a4e-4c1b-5d7e-9a53-2f0b0c6d9e11")
"""Names CLI thread ids that are not UUIDs (`--thread my-thread`) on the server."""
MIN_SECRET_CHARS = 32


@dataclass(frozen=True)
class RunningServer:
    """A `codeweaver serve` on this data directory."""

    url: str
    pid: int
    secret: str = field(repr=False)


class UntrustedServer(Exception):
    """A record names a server this client must not send a token or a question to."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"{url}: {reason}")
        self.url = url
        self.reason = reason


def new_secret() -> str:
    """A fresh identity secret for a server about to start."""
    return secrets.token_urlsafe(32)


def server_file(data_dir: Path) -> Path:
    """The record of the server serving `data_dir`."""
    return data_dir / SERVER_FILE


def loopback_url(host: str, port: int) -> str:
    """The address this machine's clients reach a server listening on `host` at.

    Raises:
        ValueError: the server listens on an address that is not this machine's loopback (nor
            every address), so a client here would have to reach it over the network.
    """
    if host in ("", "0.0.0.0", "localhost"):
        return f"http://127.0.0.1:{port}"
    if host in ("::", "[::]"):
        return f"http://[::1]:{port}"
    address = ipaddress.ip_address(host.strip("[]"))
    if not address.is_loopback:
        raise ValueError(f"{host} is not a loopback address")
    return f"http://[{address}]:{port}" if address.version == 6 else f"http://{address}:{port}"


def record_server(data_dir: Path, url: str, pid: int, secret: str) -> Path:
    """Write the record (owner-only); `forget_server` removes it when the server stops."""
    path = server_file(data_dir)
    path.unlink(missing_ok=True)
    # Created anew and exclusively: never written through a link someone left in its place.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({"url": url, "pid": pid, "secret": secret}, handle)
    return path


def forget_server(data_dir: Path, pid: int) -> None:
    """Remove the record if it is still this server's."""
    path = server_file(data_dir)
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(found, dict) and found.get("pid") == pid:
        path.unlink(missing_ok=True)


def _private_and_mine(path: Path, what: str) -> None:
    """Refuse `path` unless it is the user's own and nobody else may change it.

    Raises:
        UntrustedServer: it is a link, another user's, or writable (or, for a file, readable)
            by others.
    """
    info = path.lstat()
    if stat.S_ISLNK(info.st_mode):
        raise UntrustedServer(str(path), f"the {what} is a symbolic link")
    if info.st_uid != os.getuid():
        raise UntrustedServer(str(path), f"the {what} belongs to another user")
    others = 0o022 if stat.S_ISDIR(info.st_mode) else 0o077
    if info.st_mode & others:
        raise UntrustedServer(str(path), f"the {what} is open to other users")


def _loopback_http(url: str) -> str:
    """`url` (without a trailing slash) if it is plain HTTP to a loopback address and a port.

    Raises:
        UntrustedServer: any other scheme, a host name, a remote address, a path or credentials.
    """
    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback, port = False, None
    if parts.scheme != "http" or not loopback or port is None:
        raise UntrustedServer(url, "only http:// to a loopback address (127.0.0.1, ::1) is used")
    if parts.username or parts.password or parts.path.strip("/") or parts.query:
        raise UntrustedServer(url, "the address carries more than a host and a port")
    return url.rstrip("/")


def read_record(data_dir: Path) -> RunningServer | None:
    """The server `data_dir`'s record names, or None when there is no readable record.

    Raises:
        UntrustedServer: the record or its folder is not the user's own and private, or names
            an address or a secret the client will not use.
    """
    path = server_file(data_dir)
    if not path.exists() and not path.is_symlink():
        return None
    _private_and_mine(data_dir, "data directory")
    _private_and_mine(path, "server record")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        url, pid = data["url"], data["pid"]
        secret = data.get("secret")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if not isinstance(url, str) or not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return None
    url = _loopback_http(url)
    if not isinstance(secret, str) or len(secret) < MIN_SECRET_CHARS:
        raise UntrustedServer(url, "the record holds no identity secret (restart the server)")
    return RunningServer(url, pid, secret)


def _alive(pid: int) -> bool:
    """Whether `pid` is a live process of this user: another user's is never our server."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    proc = Path("/proc")
    if not proc.is_dir():
        # Without /proc (macOS), signal 0 reaching it is all there is; the challenge decides.
        return True
    try:
        return (proc / str(pid)).stat().st_uid == os.getuid()
    except OSError:
        return False


def proves_identity(server: RunningServer, *, timeout_s: float) -> bool:
    """Whether what listens at the server's address answers a fresh challenge with its secret.

    The challenge carries a nonce only: no token, no question.

    Raises:
        httpx.HTTPError: nothing answered.
    """
    nonce = secrets.token_urlsafe(32)
    port = urlsplit(server.url).port
    response = httpx.post(
        f"{server.url}{IDENTITY_PATH}",
        json={"nonce": nonce},
        timeout=timeout_s,
        follow_redirects=False,
    )
    try:
        proof = response.json().get("proof") if response.status_code == 200 else None
    except (ValueError, AttributeError):
        proof = None
    if not isinstance(proof, str) or port is None:
        return False
    return hmac.compare_digest(proof, identity_proof(server.secret, nonce, port))


def running_server(data_dir: Path, *, timeout_s: float = 2.0) -> RunningServer | None:
    """The server recorded for `data_dir`, once it proved it is the one that wrote the record.

    None when there is no record, its process is gone (or another user's), or nothing answers.

    Raises:
        UntrustedServer: something answers at the recorded address but cannot prove it is the
            server, or the record cannot be trusted (`read_record`).
    """
    found = read_record(data_dir)
    if found is None or not _alive(found.pid):
        return None
    try:
        proved = proves_identity(found, timeout_s=timeout_s)
    except httpx.HTTPError:
        return None
    if not proved:
        raise UntrustedServer(
            found.url, "what listens there could not prove it is the server that wrote the record"
        )
    return found


def server_thread_id(thread_id: str) -> str:
    """The server's id for a CLI thread: itself if it is a UUID, else a stable UUID of it."""
    try:
        return str(uuid.UUID(thread_id))
    except ValueError:
        return str(uuid.uuid5(THREAD_NAMESPACE, thread_id))


class ServerTimeout(Exception):
    """The server took longer than the client's overall time limit."""


async def ask_server(
    server: RunningServer,
    question: str,
    *,
    thread_id: str,
    context_overrides: dict[str, Any],
    headers: dict[str, str],
    timeout_s: float,
) -> dict[str, Any]:
    """Run one turn on the server; returns the `RunReport` fields.

    Model calls and tokens are not reported by the server: they are None here, not zero.

    Raises:
        ServerTimeout: the turn took longer than `timeout_s` seconds in all.
    """
    try:
        async with asyncio.timeout(timeout_s):
            return await _ask_server(server, question, thread_id, context_overrides, headers)
    except TimeoutError as exc:
        raise ServerTimeout(f"no answer within {timeout_s:g} s") from exc


async def _ask_server(
    server: RunningServer,
    question: str,
    thread_id: str,
    context_overrides: dict[str, Any],
    headers: dict[str, str],
) -> dict[str, Any]:
    from langgraph_sdk import get_client

    started = time.perf_counter()
    remote_thread = server_thread_id(thread_id)
    nodes: list[str] = []
    async with get_client(url=server.url, headers=headers, api_key=None) as sdk:
        # The SDK's overloads reject plain JSON input and context; the server validates both.
        client: Any = sdk
        async for part in client.runs.stream(
            remote_thread,
            "codeweaver",
            input={"messages": [{"role": "user", "content": question}]},
            context=context_overrides or None,
            stream_mode="updates",
            stream_subgraphs=True,
            if_not_exists="create",
            multitask_strategy="enqueue",
        ):
            kind, _, namespace = part.event.partition("|")
            if kind == "error":
                raise RuntimeError(f"the server's run failed: {part.data}")
            if kind == "updates" and isinstance(part.data, dict):
                parents = [p.split(":", 1)[0] for p in namespace.split("|") if p]
                nodes.extend("/".join([*parents, name]) for name in part.data)
        state = await client.threads.get_state(remote_thread)
    raw = state.get("values")
    values: dict[str, Any] = raw if isinstance(raw, dict) else {}
    answer = values.get("answer") or {}
    routing = values.get("routing") or {}
    analysis = values.get("analysis") or {}
    decision = values.get("cache_decision") or {}
    return {
        "answer": answer.get("text", ""),
        "citations": [
            {
                k: c.get(k)
                for k in ("n", "title", "url", "file", "source", "evidence_id", "pack", "version")
            }
            for c in answer.get("citations", [])
        ],
        "route": routing.get("route"),
        "routing_reason": routing.get("reason"),
        "question_type": analysis.get("question_type"),
        "intent": analysis.get("intent"),
        "cache_hit": bool(decision.get("hit")),
        "errors": [{k: v for k, v in e.items() if k != "id"} for e in values.get("errors", [])],
        "model_calls": None,
        "tokens": {},
        "nodes": nodes,
        "thread_id": thread_id,
        "seconds": round(time.perf_counter() - started, 3),
        "warning": answer.get("warning"),
        "declined": bool(answer.get("declined")),
        "decline_reason": answer.get("decline_reason"),
        "flow": [
            {"node": s.get("node"), "ms": round(float(s.get("duration_ms", 0.0)), 1)}
            for s in values.get("flow", [])
        ],
        "server": server.url,
    }
