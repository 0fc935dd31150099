from __future__ import annotations

import asyncio

from qdrant_client import models

from codeweaver_runtime import open_qdrant
from codeweaver_runtime.qdrant import CollectionSpec, QdrantCollection


def _spec(dimension: int) -> CollectionSpec:
    return CollectionSpec(vectors=models.VectorParams(size=dimension, distance=models.Distance.DOT))


async def test_concurrent_tasks_create_the_collection_once_and_later_owners_check_it() -> None:
    client = open_qdrant(":memory:")
    dimensions_asked: list[int] = []

    def dimension() -> int:
        dimensions_asked.append(4)
        return 4

    first = QdrantCollection(client, "notes", _spec, dimension)
    assert not await first.exists()
    await asyncio.gather(*(first.ensure() for _ in range(5)))
    assert dimensions_asked == [4]
    assert await first.exists()

    seen: list[tuple[int | None, int]] = []

    def check(existing: models.CollectionInfo, size: int) -> None:
        vectors = existing.config.params.vectors
        assert isinstance(vectors, models.VectorParams)
        seen.append((vectors.size, size))

    second = QdrantCollection(client, "notes", _spec, lambda: 4, check=check)
    await second.ensure()
    assert seen == [(4, 4)]
    await client.close()
