"""`codeweaver ask` while `codeweaver serve` holds the data directory: the server answers.

The embedded store is locked to the server, so a CLI process answering by itself would miss
the user's documents and the cache. `serve` records where it listens; `ask` sends the question
there, with the local token, in the same thread (issue 16, item 5).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from codeweaver.cli.remote import SERVER_FILE
from tests.support import REPO, free_port

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(600)]


def _env(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "CODEWEAVER_HOME": str(home),
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "CODEWEAVER_API_KEYS": "",
    }


def _ask(home: Path, question: str, thread: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "codeweaver", "ask", question, "--thread", thread, "--json"],
        env=_env(home),
        cwd=home.parent,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def _wait_for_record(home: Path, proc: subprocess.Popen[bytes], log: Path) -> str:
    record = home / SERVER_FILE
    for _ in range(600):
        assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
        if record.is_file():
            url = str(json.loads(record.read_text())["url"])
            try:
                if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                    return url
            except httpx.HTTPError:
                pass
        time.sleep(0.5)
    raise AssertionError(log.read_text(errors="replace")[-3000:])


def test_ask_goes_to_the_running_server_and_keeps_its_thread(tmp_path: Path) -> None:
    home = tmp_path / "home"
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "codeweaver", "serve", "--port", str(free_port())],
            env=_env(home),
            cwd=REPO,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        url = _wait_for_record(home, proc, log)
        assert (home / SERVER_FILE).stat().st_mode & 0o077 == 0
        # The server proves it knows the secret `serve` recorded: only then does `ask` send.
        assert len(json.loads((home / SERVER_FILE).read_text())["secret"]) >= 32

        first = _ask(home, "How do I reverse a list in Python?", "my-thread")
        assert first["server"] == url, "the server proved its identity and answered"
        assert first["model_calls"] is None, "the server does not report model calls"
        assert first["citations"], first["answer"]
        assert "search/search_local" in first["nodes"] or "search" in first["nodes"]

        # The follow-up finds the earlier answer: the thread lives on the server.
        second = _ask(home, "Can you explain that in more detail?", "my-thread")
        assert second["server"] == url
        assert second["question_type"] == "clarification", second
        assert "Following up" in second["answer"]

        # The server's answer says when it declined, as the in-process one does.
        assert first["declined"] is False
        declined = _ask(home, "How do I undo the last git commit?", "other-thread")
        assert declined["declined"] is True
        assert declined["decline_reason"] == "out_of_scope"
    finally:
        # SIGTERM to `serve` alone: it stops its server and removes the record.
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
    assert not (home / SERVER_FILE).exists()
