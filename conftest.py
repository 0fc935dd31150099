"""Fixtures the tests of every package share (pytest loads this file for all of them)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from codeweaver_engine.packs import BUNDLED_PACK
from codeweaver_engine.packs.index import DocsIndex, read_index
from codeweaver_testing.model_server import MakeServer, ModelServer, Quirks, Responder


@pytest.fixture(scope="session")
def index() -> DocsIndex:
    """The packaged Python documentation index, read and verified once for the session."""
    return read_index(BUNDLED_PACK)


@pytest.fixture
def model_server() -> Iterator[MakeServer]:
    """Start local chat-model servers (`ModelServer`); each stops when the test ends."""
    started: list[ModelServer] = []

    def make(responder: Responder, quirks: Quirks | None = None) -> ModelServer:
        server = ModelServer(responder, quirks=quirks).start()
        started.append(server)
        return server

    try:
        yield make
    finally:
        for server in started:
            server.stop()
