"""Fixtures shared by the cross-package and end-to-end tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support import Server, start_server, stop_server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One LangGraph Server for the session's end-to-end tests."""
    proc, running = start_server(tmp_path_factory.mktemp("langgraph"))
    try:
        yield running
    finally:
        stop_server(proc)
