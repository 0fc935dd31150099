from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from qdrant_client import models

from codeweaver_runtime import (
    close_qdrant_clients,
    get_qdrant,
    open_qdrant,
    release_embedded_stores,
)
from codeweaver_runtime.qdrant import CollectionSpec, EmbeddedQdrant, QdrantCollection


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


async def test_a_released_store_is_free_for_another_process_and_reopens_on_next_use(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "qdrant"
    client = get_qdrant(str(folder))
    try:
        await client.create_collection(
            "notes", vectors_config=models.VectorParams(size=2, distance=models.Distance.DOT)
        )
        assert _opens_elsewhere(folder) is False, "held while open"
        await release_embedded_stores()
        assert _opens_elsewhere(folder) is True
        assert await client.collection_exists("notes"), "the same client opens it again"
        assert _opens_elsewhere(folder) is False
    finally:
        await close_qdrant_clients()


def _opens_elsewhere(folder: Path) -> bool:
    """Whether another process can open the store now (embedded Qdrant locks its folder)."""
    script = (
        "import sys\n"
        "from qdrant_client import QdrantClient\n"
        "try:\n"
        f"    QdrantClient(path={str(folder)!r}).close()\n"
        "except (RuntimeError, BlockingIOError):\n"
        "    sys.exit(3)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert done.returncode in (0, 3), done.stderr.decode()
    return done.returncode == 0


_HOLD = """
import sys, time
from pathlib import Path
from qdrant_client import QdrantClient
client = QdrantClient(path=sys.argv[1])
print("held", flush=True)
if sys.argv[2] == "until-told":
    sys.stdin.readline()
else:
    time.sleep(float(sys.argv[2]))
client.close()
Path(sys.argv[1], "released-by-holder").write_text("")
"""


def _holder(folder: Path, hold: str) -> subprocess.Popen[str]:
    """Another process that opens the store, says so, and keeps it `hold` seconds or until told."""
    process = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(folder), hold],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "held"
    return process


async def test_a_store_another_process_holds_for_a_moment_is_waited_for(tmp_path: Path) -> None:
    folder = tmp_path / "qdrant"
    holder = _holder(folder, "1.0")
    client = EmbeddedQdrant(str(folder), lock_wait=60)
    try:
        # Held when asked: answered once the other process has let go, not refused.
        assert await client.collection_exists("notes") is False
        assert (folder / "released-by-holder").exists()
    finally:
        await client.close()
        holder.communicate(timeout=60)


# Qdrant's client leaves its lock file open when it cannot take the lock (its own finaliser's
# warning), whether or not the store waited first.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
async def test_a_store_held_past_the_wait_is_refused_with_qdrant_s_reason(tmp_path: Path) -> None:
    folder = tmp_path / "qdrant"
    holder = _holder(folder, "until-told")
    client = EmbeddedQdrant(str(folder), lock_wait=0.2)
    try:
        with pytest.raises(RuntimeError, match="already accessed by another instance"):
            await client.collection_exists("notes")
    finally:
        await client.close()
        holder.communicate("go\n", timeout=60)
