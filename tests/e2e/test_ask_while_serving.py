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


def _codeweaver(
    home: Path, *args: str | bytes, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """`codeweaver ARGS`; arguments may be bytes, as a terminal passes what it was typed."""
    return subprocess.run(
        [sys.executable, "-m", "codeweaver", *args],
        env=_env(home),
        cwd=home.parent,
        input=stdin,
        capture_output=True,
        timeout=300,
    )


def _ask(home: Path, question: str | bytes, thread: str) -> dict[str, Any]:
    done = _codeweaver(home, "ask", question, "--thread", thread, "--json")
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
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

        # Bytes a terminal could not decode reach the server as U+FFFD, as they reach the graph
        # in-process: the same answer, not a 422 blamed on the server.
        garbled = b"How do I sort a dict by value in Python? \xff\xfe"
        served = _ask(home, garbled, "garbled")
        assert served["server"] == url
        here = _ask(tmp_path / "elsewhere", garbled, "garbled")
        assert here["server"] is None
        assert (served["answer"], served["citations"]) == (here["answer"], here["citations"])
        # And a chat goes on after such a line.
        chat = _codeweaver(
            home, "chat", stdin=garbled + b"\nHow do I reverse a list in Python?\n/quit\n"
        )
        said = chat.stderr.decode(errors="replace")
        assert chat.returncode == 0, said[-3000:]
        assert "could not answer" not in said
        assert said.count(f"asking the running server {url}") == 2
        assert "sorted" in chat.stdout.decode()
        assert "reverse" in chat.stdout.decode()
    finally:
        # SIGTERM to `serve` alone: it stops its server and removes the record.
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
    assert not (home / SERVER_FILE).exists()
