"""`ask` through a running `codeweaver serve`: the server owns the data directory's store.

Embedded Qdrant locks its folder to one process. While `codeweaver serve` runs on a data
directory, a CLI process that opened the same store itself would find it locked and answer
without the user's documents or the cache. So `serve` records where it listens
(`$CODEWEAVER_HOME/server.json`, private to its owner), and `ask` sends its question there when
that server answers, with the local user's token, in the same thread.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

SERVER_FILE = "server.json"
"""Where a running `codeweaver serve` records its address and process id."""
THREAD_NAMESPACE = uuid.UUID("6f1d8a4e-4c1b-5d7e-9a53-2f0b0c6d9e11")
"""Names CLI thread ids that are not UUIDs (`--thread my-thread`) on the server."""


@dataclass(frozen=True)
class RunningServer:
    """A `codeweaver serve` on this data directory."""

    url: str
    pid: int


def server_file(data_dir: Path) -> Path:
    """The record of the server serving `data_dir`."""
    return data_dir / SERVER_FILE


def record_server(data_dir: Path, url: str, pid: int) -> Path:
    """Write the record (owner-only); `forget_server` removes it when the server stops."""
    path = server_file(data_dir)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({"url": url, "pid": pid}, handle)
    return path


def forget_server(data_dir: Path, pid: int) -> None:
    """Remove the record if it is still this server's."""
    found = _read(server_file(data_dir))
    if found is not None and found.pid == pid:
        server_file(data_dir).unlink(missing_ok=True)


def _read(path: Path) -> RunningServer | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        url, pid = data["url"], data["pid"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        return None
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return None
    return RunningServer(url.rstrip("/"), pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def running_server(data_dir: Path, *, timeout_s: float = 2.0) -> RunningServer | None:
    """The server recorded for `data_dir`, if its process lives and it answers `/ok`."""
    found = _read(server_file(data_dir))
    if found is None or not _alive(found.pid):
        return None
    try:
        response = httpx.get(f"{found.url}/ok", timeout=timeout_s)
    except httpx.HTTPError:
        return None
    return found if response.status_code == 200 else None


def server_thread_id(thread_id: str) -> str:
    """The server's id for a CLI thread: itself if it is a UUID, else a stable UUID of it."""
    try:
        return str(uuid.UUID(thread_id))
    except ValueError:
        return str(uuid.uuid5(THREAD_NAMESPACE, thread_id))


async def ask_server(
    server: RunningServer,
    question: str,
    *,
    thread_id: str,
    context_overrides: dict[str, Any],
    headers: dict[str, str],
) -> dict[str, Any]:
    """Run one turn on the server; returns the `RunReport` fields.

    Model calls and tokens are not reported by the server: they are None here, not zero.
    """
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
            {k: c.get(k) for k in ("n", "title", "url", "file", "source", "evidence_id")}
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
