"""Finding a running `codeweaver serve` for a data directory, and naming threads for it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

from codeweaver.cli.remote import (
    SERVER_FILE,
    forget_server,
    record_server,
    running_server,
    server_thread_id,
)


def test_the_record_is_private_and_removed_only_by_its_server(tmp_path: Path) -> None:
    path = record_server(tmp_path, "http://127.0.0.1:9", 4242)
    assert path.stat().st_mode & 0o777 == 0o600
    assert json.loads(path.read_text()) == {"url": "http://127.0.0.1:9", "pid": 4242}
    forget_server(tmp_path, 1)
    assert path.exists(), "another server's record stays"
    forget_server(tmp_path, 4242)
    assert not path.exists()


def test_a_dead_process_or_a_silent_address_is_no_server(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    record_server(tmp_path, "http://127.0.0.1:9", int(done.stdout))
    assert running_server(tmp_path) is None
    # A live process (this one) but nothing listening on the address.
    record_server(tmp_path, "http://127.0.0.1:9", os.getpid())
    assert running_server(tmp_path, timeout_s=0.5) is None


def test_broken_records_are_ignored(tmp_path: Path) -> None:
    assert running_server(tmp_path) is None
    for text in (
        "",
        "{",
        "[]",
        '{"url": "file:///etc", "pid": 1}',
        '{"url": "http://x", "pid": true}',
    ):
        (tmp_path / SERVER_FILE).write_text(text)
        assert running_server(tmp_path) is None


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
