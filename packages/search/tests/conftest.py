from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from codeweaver_testing import HashEmbedder

from .replay import ReplayServer


@pytest.fixture
async def server() -> AsyncIterator[ReplayServer]:
    replay = ReplayServer()
    await replay.start()
    try:
        yield replay
    finally:
        await replay.stop()


@pytest.fixture
def embedder() -> HashEmbedder:
    return HashEmbedder()
