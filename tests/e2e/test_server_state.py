"""`codeweaver serve` keeps the server's own records in its data directory, not in the project.

LangGraph's development server writes its records (threads, runs, assistants, the store, retry
counters) to `.langgraph_api/` in its working folder. Two servers started one after the other
from one project folder on two data directories: the second sees none of the first's threads,
and the project folder gets no `.langgraph_api/`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support import client, start_server, stop_server, write_project

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(600)]


async def test_two_data_directories_share_no_threads(tmp_path: Path) -> None:
    project = write_project(tmp_path / "project")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()

    proc, first = start_server(tmp_path / "a", jobs=1, serve_from=project)
    try:
        async with client(first) as sdk:
            thread: Any = await sdk.threads.create(metadata={"purpose": "the first server's"})
    finally:
        stop_server(proc)  # a clean stop: the server writes its records out

    proc, second = start_server(tmp_path / "b", jobs=1, serve_from=project)
    try:
        async with client(second) as sdk:
            listed = await sdk.threads.search(limit=100)
            try:
                await sdk.threads.get(thread["thread_id"])
                read = 200
            except httpx.HTTPStatusError as exc:
                read = exc.response.status_code
    finally:
        stop_server(proc)
    assert [t["metadata"] for t in listed] == []
    assert read == 404
    # Each server's records are in its own data directory, and deleting it deletes them.
    assert not (project / ".langgraph_api").exists()
    assert (first.home / "server" / ".langgraph_api" / ".langgraph_ops.pckl").is_file()
    assert (second.home / "server" / ".langgraph_api").is_dir()
