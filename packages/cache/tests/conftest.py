from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from codeweaver_cache import SemanticCache
from codeweaver_runtime import (
    DEFAULT_EMBEDDING_MODEL,
    Embedder,
    get_embedder,
    open_qdrant,
)


class Clock:
    """A clock tests move by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    return get_embedder(DEFAULT_EMBEDDING_MODEL)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def cache(embedder: Embedder, clock: Clock) -> AsyncIterator[SemanticCache]:
    client = open_qdrant(":memory:")
    yield SemanticCache(client, embedder, clock=clock, timeout_s=30.0)
    await client.close()
