"""Finding a running `codeweaver serve` for a data directory, proving it is that server, and
naming threads for it.

The CLI once sent the local token and the question to whatever answered `/ok` at the address in
`server.json`, as long as the recorded pid was alive: a stale record, with the pid reused and the
port taken by someone else's listener (or `"pid": 1` and any port), received both. Now nothing is
sent until the listener proves it knows the secret `serve` recorded.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from starlette.testclient import TestClient

from codeweaver.cli.remote import (
    SERVER_FILE,
    RunningServer,
    UntrustedServer,
    _alive,
    forget_server,
    loopback_url,
    new_secret,
    record_server,
    running_server,
    server_thread_id,
)
from codeweaver.server.app import app as identity_app
from codeweaver.server.auth import ensure_local_token
from codeweaver.tokens import IDENTITY_PATH, IDENTITY_SECRET_ENV, identity_proof
from tests.support import serving

QUESTION = "How do I reverse a list in Python? (asked privately)"


@dataclass
class Listener:
    """What a fake server received: request lines, headers and bodies, in order."""

    requests: list[str] = field(default_factory=list)

    def saw(self, text: str) -> bool:
        return any(text in request for request in self.requests)


def impostor(
    listener: Listener, answer_challenge: Any = None, stall: threading.Event | None = None
) -> type[Any]:
    """A plain HTTP server that answers `/ok` as LangGraph Server does and records the rest.

    `answer_challenge(nonce)`, when given, is what it answers to the identity challenge; with
    `stall`, a run's stream starts and then says nothing until the event is set.
    """

    class Handler(http.server.BaseHTTPRequestHandler):
        def _record(self) -> bytes:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            listener.requests.append(
                f"{self.requestline}\n{self.headers}\n{body.decode('utf-8', 'replace')}"
            )
            return body

        def _reply(self, status: int, payload: object) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._record()
            self._reply(200, {"ok": True})

        def do_POST(self) -> None:
            body = self._record()
            if self.path == IDENTITY_PATH and answer_challenge is not None:
                self._reply(200, {"proof": answer_challenge(json.loads(body)["nonce"])})
                return
            if stall is not None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                self.wfile.flush()
                stall.wait(timeout=120)
                return
            # Whatever else is asked (a run, with the token and the question), it takes it.
            self._reply(200, {"thread_id": str(uuid.uuid4()), "run_id": str(uuid.uuid4())})

        def log_message(self, *_: object) -> None:
            return

    return Handler


@pytest.fixture
def live_pid() -> Iterator[int]:
    """A live process of this user (the test's own child), as a reused pid would be."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    try:
        yield child.pid
    finally:
        child.kill()
        child.wait()


def home_with_token(tmp_path: Path) -> tuple[Path, str]:
    home = tmp_path / "home"
    token = ensure_local_token(home)
    return home, token


def ask(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "CODEWEAVER_HOME": str(home),
        "CODEWEAVER_CHAT_MODEL": "offline",
        "HF_HUB_OFFLINE": "1",
    }
    for key in ("OPENAI_API_KEY", "GOOGLE_API_KEY", "GITHUB_TOKEN", "TAVILY_API_KEY"):
        env.pop(key, None)
    env.pop("CODEWEAVER_TOKEN", None)
    return subprocess.run(
        [sys.executable, "-m", "codeweaver", "ask", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.slow
@pytest.mark.parametrize("pid", ["live child", "1"])
def test_a_listener_that_cannot_prove_it_is_the_server_gets_neither_token_nor_question(
    tmp_path: Path, live_pid: int, pid: str
) -> None:
    home, token = home_with_token(tmp_path)
    listener = Listener()
    with serving(impostor(listener)) as url:
        record_server(home, url, live_pid if pid == "live child" else 1, new_secret())
        done = ask(home, QUESTION, "--json")
    assert done.returncode == 0, done.stderr[-3000:]
    assert not listener.saw(token), listener.requests
    assert not listener.saw("reverse a list"), listener.requests
    assert not listener.saw("/runs"), listener.requests
    report = json.loads(done.stdout)
    assert report["server"] is None, "answered here"
    assert report["citations"], report["answer"]
    if pid == "live child" or os.getuid() == 0:
        assert f"Not asking {url}" in done.stderr
        assert "could not prove" in done.stderr


def test_a_listener_that_relays_the_challenge_from_another_port_is_refused(
    tmp_path: Path, live_pid: int
) -> None:
    """The real server's answer for its own port is no proof on another."""
    home, _ = home_with_token(tmp_path)
    secret = new_secret()
    listener = Listener()
    with serving(impostor(listener, lambda nonce: identity_proof(secret, nonce, 2024))) as url:
        record_server(home, url, live_pid, secret)
        with pytest.raises(UntrustedServer, match="could not prove"):
            running_server(home)
    assert listener.requests
    assert all(IDENTITY_PATH in r for r in listener.requests)


def test_a_listener_that_knows_the_secret_is_the_server(tmp_path: Path, live_pid: int) -> None:
    home, token = home_with_token(tmp_path)
    secret = new_secret()
    listener = Listener()

    def prove(nonce: str) -> str:
        return identity_proof(secret, nonce, int(urlsplit(url).port or 0))

    with serving(impostor(listener, prove)) as url:
        record_server(home, url, live_pid, secret)
        found = running_server(home)
    assert found == RunningServer(url, live_pid, secret)
    # The challenge is a nonce: no token, no question.
    [challenge] = listener.requests
    assert token not in challenge
    assert "Authorization" not in challenge


@pytest.mark.slow
def test_ask_gives_up_on_a_server_that_proves_itself_then_stalls(
    tmp_path: Path, live_pid: int
) -> None:
    home, _ = home_with_token(tmp_path)
    secret = new_secret()
    stalled = threading.Event()

    def prove(nonce: str) -> str:
        return identity_proof(secret, nonce, int(urlsplit(url).port or 0))

    try:
        with serving(impostor(Listener(), prove, stall=stalled)) as url:
            record_server(home, url, live_pid, secret)
            done = ask(home, QUESTION, "--timeout", "2")
    finally:
        stalled.set()
    assert done.returncode == 1, done.stderr
    said = " ".join(done.stderr.split())
    assert f"The running server {url} gave no answer within 2 s" in said
    assert "set a longer limit with --timeout" in said
    assert "Traceback" not in done.stderr


def test_the_server_proves_its_identity_for_the_port_it_was_reached_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = new_secret()
    nonce = new_secret()
    http_client = TestClient(identity_app)
    # Started without `codeweaver serve`: there is nothing to prove.
    monkeypatch.delenv(IDENTITY_SECRET_ENV, raising=False)
    assert http_client.post(IDENTITY_PATH, json={"nonce": nonce}).status_code == 404
    monkeypatch.setenv(IDENTITY_SECRET_ENV, secret)
    answered = http_client.post(IDENTITY_PATH, json={"nonce": nonce})
    assert answered.status_code == 200
    # Starlette's test client reaches the app on port 80.
    assert answered.json() == {"proof": identity_proof(secret, nonce, 80)}
    assert secret not in answered.text
    for bad in ({}, {"nonce": "short"}, {"nonce": "x" * 500}, {"nonce": "a b" * 10}, [1]):
        assert http_client.post(IDENTITY_PATH, json=bad).status_code == 422, bad
    assert http_client.post(IDENTITY_PATH, content=b"\xff").status_code == 422


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1:2024",
        "http://10.0.0.5:2024",
        "http://example.com:2024",
        "http://localhost:2024",
        "http://127.0.0.1",
        "http://user:pw@127.0.0.1:2024",
        "http://127.0.0.1:2024/elsewhere",
        "file:///etc/passwd",
    ],
)
def test_only_plain_http_to_a_loopback_address_is_used(
    tmp_path: Path, live_pid: int, url: str
) -> None:
    home, _ = home_with_token(tmp_path)
    record_server(home, url, live_pid, new_secret())
    with pytest.raises(UntrustedServer, match=r"only http:// to a loopback|more than a host"):
        running_server(home, timeout_s=0.5)


def test_a_record_others_could_write_or_read_is_not_trusted(tmp_path: Path, live_pid: int) -> None:
    home, _ = home_with_token(tmp_path)
    path = record_server(home, "http://127.0.0.1:9", live_pid, new_secret())
    path.chmod(0o644)
    with pytest.raises(UntrustedServer, match="server record is open to other users"):
        running_server(home)
    path.chmod(0o600)
    home.chmod(0o777)
    with pytest.raises(UntrustedServer, match="data directory is open to other users"):
        running_server(home)
    home.chmod(0o700)
    path.unlink()
    path.symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(UntrustedServer, match="symbolic link"):
        running_server(home)


def test_a_record_without_a_secret_is_not_trusted(tmp_path: Path, live_pid: int) -> None:
    """What an earlier `serve` wrote: an address and a pid, nothing to prove an identity with."""
    home, _ = home_with_token(tmp_path)
    path = record_server(home, "http://127.0.0.1:9", live_pid, new_secret())
    path.write_text(json.dumps({"url": "http://127.0.0.1:9", "pid": live_pid}))
    with pytest.raises(UntrustedServer, match="no identity secret"):
        running_server(home)


def test_another_users_process_is_not_alive(tmp_path: Path) -> None:
    """`kill(pid, 0)` refused (another user's process) is not a server of ours."""
    if os.getuid() != 0:
        assert not _alive(1)
        return
    # As root every signal goes through: the process's owner decides.
    child = subprocess.Popen(["sleep", "60"], user="nobody")
    try:
        assert not _alive(child.pid)
    finally:
        child.kill()
        child.wait()
    assert _alive(os.getpid())


def test_the_record_is_private_and_removed_only_by_its_server(tmp_path: Path) -> None:
    secret = new_secret()
    path = record_server(tmp_path, "http://127.0.0.1:9", 4242, secret)
    assert path.stat().st_mode & 0o777 == 0o600
    assert json.loads(path.read_text()) == {
        "url": "http://127.0.0.1:9",
        "pid": 4242,
        "secret": secret,
    }
    forget_server(tmp_path, 1)
    assert path.exists(), "another server's record stays"
    forget_server(tmp_path, 4242)
    assert not path.exists()


def test_serve_records_the_loopback_address_clients_reach_it_on() -> None:
    assert loopback_url("127.0.0.1", 2024) == "http://127.0.0.1:2024"
    assert loopback_url("0.0.0.0", 2024) == "http://127.0.0.1:2024"
    assert loopback_url("localhost", 2024) == "http://127.0.0.1:2024"
    assert loopback_url("::1", 2024) == "http://[::1]:2024"
    assert loopback_url("::", 2024) == "http://[::1]:2024"
    with pytest.raises(ValueError, match="not a loopback"):
        loopback_url("192.168.1.5", 2024)


def test_a_dead_process_or_a_silent_address_is_no_server(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    home, _ = home_with_token(tmp_path)
    record_server(home, "http://127.0.0.1:9", int(done.stdout), new_secret())
    assert running_server(home) is None
    # A live process (this one) but nothing listening on the address.
    record_server(home, "http://127.0.0.1:9", os.getpid(), new_secret())
    assert running_server(home, timeout_s=0.5) is None


def test_broken_records_are_ignored(tmp_path: Path) -> None:
    home, _ = home_with_token(tmp_path)
    assert running_server(home) is None
    for text in ("", "{", "[]", '{"url": "http://127.0.0.1:9", "pid": true}', '{"pid": 5}'):
        path = home / SERVER_FILE
        path.unlink(missing_ok=True)
        path.write_text(text)
        path.chmod(0o600)
        assert running_server(home) is None


def test_thread_names_become_stable_uuids() -> None:
    given = str(uuid.uuid4())
    assert server_thread_id(given) == given
    named = server_thread_id("my-thread")
    assert named == server_thread_id("my-thread") != server_thread_id("other")
    assert uuid.UUID(named)


def test_the_cli_and_the_server_client_import_no_graph_store_or_models() -> None:
    """`ask` through a running server stays a light process: a new process in ~3 s, not ~10."""
    probe = (
        "import sys, codeweaver.cli.main, codeweaver.cli.remote, codeweaver.tokens\n"
        "heavy = ['qdrant_client', 'sentence_transformers', 'torch', 'langchain_core',\n"
        "         'langgraph.graph', 'codeweaver_corpus', 'codeweaver.context']\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    assert done.stdout.strip() == "[]"
