from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from codeweaver_runtime.model_server import ModelServer, Quirks, Responder

MakeServer = Callable[..., ModelServer]


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
