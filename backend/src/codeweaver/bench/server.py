"""LangGraph Server under load: `langgraph dev` serving the fake graph to concurrent clients."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codeweaver.bench.fakes import distinct_questions
from codeweaver.bench.report import ServerFigures, percentiles

CLIENTS = 10
SERVED_GRAPH = Path(__file__).resolve().with_name("served.py")
"""The fake main graph the served bench runs: part of the package, not of a checkout."""

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve_fake_graph(jobs: int = CLIENTS) -> Iterator[str]:
    """`langgraph dev` serving `codeweaver/bench/served.py` on 127.0.0.1; yields its URL.

    The config is generated in a temporary folder, and logs and data stay there, outside the
    project folder.
    """
    import httpx

    with tempfile.TemporaryDirectory(prefix="codeweaver-bench-") as folder:
        tmp = Path(folder)
        config = tmp / "langgraph.json"
        config.write_text(
            json.dumps(
                {
                    "dependencies": ["."],
                    "python_version": "3.11",
                    "graphs": {"bench": f"{SERVED_GRAPH}:graph"},
                }
            )
        )
        log = tmp / "server.log"
        env = {
            **os.environ,
            "LANGGRAPH_CLI_NO_ANALYTICS": "1",
            "LANGGRAPH_NO_VERSION_CHECK": "true",
            "CODEWEAVER_HOME": str(tmp / "home"),
            "CODEWEAVER_CHAT_MODEL": "offline",
            "HF_HUB_OFFLINE": "1",
        }
        langgraph = shutil.which("langgraph", path=str(Path(sys.executable).parent)) or "langgraph"
        command = [langgraph, "dev", "--host", "127.0.0.1", "--port", str(_free_port())]
        command += ["--no-browser", "--no-reload", "--n-jobs-per-worker", str(jobs)]
        command += ["--config", str(config)]
        with log.open("wb") as handle:
            proc = subprocess.Popen(
                command,
                cwd=tmp,
                env=env,
                stdout=handle,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            deadline = time.monotonic() + 180
            url: str | None = None
            while url is None:
                if proc.poll() is not None or time.monotonic() > deadline:
                    tail = log.read_text(errors="replace")[-3000:]
                    raise RuntimeError(f"langgraph dev did not start:\n{tail}")
                text = _ANSI.sub("", log.read_text(errors="replace"))
                # The server may move off a taken port: trust what it printed.
                found = re.findall(r"API: (http://127\.0\.0\.1:\d+)", text)
                if found and "Application started up" in text:
                    try:
                        if httpx.get(f"{found[-1]}/ok", timeout=2).status_code == 200:
                            url = found[-1]
                    except httpx.HTTPError:
                        pass
                time.sleep(0.5)
            yield url
        finally:
            try:
                os.killpg(proc.pid, 15)
                proc.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(proc.pid, 9)


@dataclass(frozen=True)
class _ServerRun:
    ms: float
    failed: bool
    cache_hit: bool = False
    foreign: bool = False
    """The answer is not about this thread's question (and did not come from the cache)."""


async def _server_run(client: Any, question: str) -> _ServerRun:
    """One thread, one run, checked against its own question."""
    started = time.perf_counter()
    try:
        thread = (await client.post("/threads", json={})).raise_for_status().json()
        response = await client.post(
            f"/threads/{thread['thread_id']}/runs/wait",
            json={
                "assistant_id": "bench",
                "input": {"messages": [{"role": "user", "content": question}]},
            },
        )
        values = response.raise_for_status().json() or {}
    except Exception:  # noqa: BLE001 - every failure of a run counts as one error
        return _ServerRun((time.perf_counter() - started) * 1000, failed=True)
    ms = (time.perf_counter() - started) * 1000
    text = str((values.get("answer") or {}).get("text", ""))
    hit = bool((values.get("cache_decision") or {}).get("hit"))
    if not text or "__error__" in values:
        return _ServerRun(ms, failed=True)
    return _ServerRun(
        ms, failed=False, cache_hit=hit, foreign=not hit and question[:-1] not in text
    )


async def measure_server(url: str, runs_per_client: int, clients: int = CLIENTS) -> ServerFigures:
    """`clients` concurrent clients, each running fresh questions one after another."""
    import httpx

    questions = distinct_questions(clients * runs_per_client + 1, seed=7)
    async with httpx.AsyncClient(base_url=url, timeout=300) as client:
        await _server_run(client, questions.pop())  # loads the embedder in the server

        async def worker(mine: list[str]) -> list[_ServerRun]:
            return [await _server_run(client, q) for q in mine]

        started = time.perf_counter()
        results = await asyncio.gather(*(worker(questions[c::clients]) for c in range(clients)))
        elapsed = time.perf_counter() - started
    flat = [r for batch in results for r in batch]
    figures = percentiles([r.ms for r in flat])
    return ServerFigures(
        clients=clients,
        runs=len(flat),
        runs_per_s=round(len(flat) / elapsed, 2),
        p50_ms=figures.p50,
        p95_ms=figures.p95,
        errors=sum(r.failed for r in flat),
        cache_hits=sum(r.cache_hit for r in flat),
        leaks=sum(r.foreign for r in flat),
    )
