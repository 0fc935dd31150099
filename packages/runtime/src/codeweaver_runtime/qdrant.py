"""Qdrant clients: embedded on disk by default, a server or cluster by URL.

Embedded Qdrant does its work (file I/O, SQLite) synchronously inside `async def` methods, which
would stall the event loop of whoever awaits it: LangGraph Server's dev mode rightly refuses such
calls. So an embedded store runs on a thread of its own with its own event loop, behind a facade
that awaits it without blocking; a Qdrant server is talked to directly.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from qdrant_client import AsyncQdrantClient, QdrantClient, models

from codeweaver_runtime.private import private_dir, tighten

if sys.platform != "win32":
    import fcntl
else:  # portalocker locks with msvcrt there: the store is opened without waiting
    fcntl = None

_CLIENTS: dict[str, AsyncQdrantClient] = {}
_LOCK = threading.Lock()
# What embedded Qdrant writes in its folder; each is made private once it exists.
_QDRANT_ENTRIES = (".lock", "meta.json", "collection")
# Calls after which embedded Qdrant may have created files (a collection's storage).
_CREATES_FILES = frozenset({"create_collection", "recreate_collection"})
LOCK_WAIT_SECONDS = 2.0
"""How long opening an embedded store waits for another process to let go of its folder.

Embedded Qdrant locks its folder for one process. `codeweaver mcp` holds it only during a call
(`release`), and a `codeweaver ask` or `ingest` only while it runs: a second process that comes
in meanwhile waits its turn instead of failing its search of the ingested documents. Short,
well inside a source's time budget (`search_source_timeout_s`, 10 s by default), so that a
wait in vain still leaves time for the rest of the local search. A server that keeps the store
open (`codeweaver serve`, `langgraph dev`) is still reported after the wait: run a Qdrant
server (`QDRANT_URL`) to share the store."""


def is_embedded(location: str) -> bool:
    """True for ':memory:' and folder paths, False for server URLs."""
    return not location.startswith(("http://", "https://"))


def runs_embedded(client: AsyncQdrantClient) -> bool:
    """True for a client of embedded Qdrant (in memory or a folder), False for a server's."""
    options = client.init_options
    return options.get("location") == ":memory:" or options.get("path") is not None


class EmbeddedQdrant:
    """An embedded Qdrant on a dedicated thread, with the async API of `AsyncQdrantClient`.

    The synchronous client does the work on one worker thread (no event loop there, and one
    thread means no two calls ever race inside the store); callers await it without blocking.
    """

    def __init__(self, location: str, *, lock_wait: float = LOCK_WAIT_SECONDS) -> None:
        self.location = location
        self.lock_wait = lock_wait
        self.init_options: dict[str, Any] = (
            {"location": ":memory:"} if location == ":memory:" else {"path": location}
        )
        self._client: QdrantClient | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="qdrant")

    def _open(self) -> QdrantClient:
        # Runs on the worker thread: creating the folder and loading collections is file I/O.
        if self._client is None:
            if self.location == ":memory:":
                self._client = QdrantClient(location=":memory:")
            else:
                folder = private_dir(Path(self.location))
                self._client = self._open_when_free()
                tighten(folder, _QDRANT_ENTRIES)
        return self._client

    def _open_when_free(self) -> QdrantClient:
        """The folder's client, once no other process holds the folder (`LOCK_WAIT_SECONDS`).

        The folder's lock file is watched with the lock embedded Qdrant takes (`flock`, through
        portalocker), rather than by opening clients until one succeeds: a client that fails
        to open leaves an error behind for its finaliser.

        Raises:
            RuntimeError: another process still holds it after the wait, or Qdrant failed.
        """
        lock = Path(self.location) / ".lock"
        if fcntl is not None and lock.is_file():
            deadline = time.monotonic() + self.lock_wait
            pause = 0.05
            with lock.open("a") as handle:
                while True:
                    try:
                        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except OSError:
                        if time.monotonic() >= deadline:
                            break  # Qdrant says so, in its own words
                        time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
                        pause = min(pause * 2, 0.5)
                        continue
                    fcntl.flock(handle, fcntl.LOCK_UN)
                    break
        return QdrantClient(path=self.location)

    def _run(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        result = getattr(self._open(), name)(*args, **kwargs)
        if name in _CREATES_FILES and self.location != ":memory:":
            tighten(Path(self.location), _QDRANT_ENTRIES)
        return result

    def _release(self) -> None:
        # Runs on the worker thread, after every call queued before it.
        if self._client is not None:
            self._client.close()
            self._client = None

    async def release(self) -> None:
        """Close the store and let go of its folder's lock; the next call opens it again.

        For a process that holds the store between long pauses (`codeweaver mcp` waiting for
        an agent's next call): other CodeWeaver processes on the same data directory can use
        the store meanwhile.
        """
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self._release)

    async def close(self) -> None:
        """Close the store, if it was ever opened, and stop the worker thread."""
        if self._client is not None:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self._executor, self._client.close)
            self._client = None
        self._executor.shutdown(wait=False)

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        if name.startswith("_"):
            raise AttributeError(name)

        async def method(*args: Any, **kwargs: Any) -> Any:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, self._run, name, args, kwargs)

        return method


def open_qdrant(location: str) -> AsyncQdrantClient:
    """A new client for a URL, ':memory:', or a folder for embedded Qdrant."""
    if not is_embedded(location):
        return AsyncQdrantClient(url=location, timeout=10)
    # The facade offers the same awaitable methods; callers use nothing else.
    return cast(AsyncQdrantClient, EmbeddedQdrant(location))


def get_qdrant(location: str) -> AsyncQdrantClient:
    """The process-wide client for a location.

    Embedded Qdrant locks its folder, so one process must share one client per folder.
    """
    with _LOCK:
        if location not in _CLIENTS:
            _CLIENTS[location] = open_qdrant(location)
        return _CLIENTS[location]


async def release_embedded_stores() -> None:
    """Let go of every embedded store's folder lock, keeping the clients usable (`release`)."""
    with _LOCK:
        # The facades stand in for AsyncQdrantClient (`open_qdrant` casts them).
        clients: list[object] = list(_CLIENTS.values())
    for client in clients:
        if isinstance(client, EmbeddedQdrant):
            await client.release()


async def close_qdrant_clients() -> None:
    """Close every process-wide client (embedded stores flush and release their folder lock)."""
    with _LOCK:
        clients = list(_CLIENTS.values())
        _CLIENTS.clear()
    for client in clients:
        await client.close()


@dataclass(frozen=True)
class CollectionSpec:
    """What a collection is made of: its vectors and the payload fields a server indexes."""

    vectors: models.VectorParams | Mapping[str, models.VectorParams]
    sparse_vectors: Mapping[str, models.SparseVectorParams] | None = None
    payload_indexes: Mapping[str, models.PayloadSchemaType | models.KeywordIndexParams] = field(
        default_factory=dict
    )


class QdrantCollection:
    """A collection created the first time any task needs it, then known to be there.

    The embedder's dimension sizes it; an existing collection is handed to `check` instead
    (to refuse vectors of another size, say). Another event loop or process creating it in the
    meantime is fine. Payload indexes are made on a Qdrant server only: embedded Qdrant scans
    everything and warns that indexes do nothing.
    """

    def __init__(
        self,
        client: AsyncQdrantClient,
        name: str,
        spec: Callable[[int], CollectionSpec],
        dimension: Callable[[], int],
        *,
        check: Callable[[models.CollectionInfo, int], None] | None = None,
    ) -> None:
        self.client = client
        self.name = name
        self._spec = spec
        self._dimension = dimension
        self._check = check
        self._ready = False
        # One lock per event loop: an asyncio.Lock binds to the loop that first waits on it, and
        # a process-wide store serves several loops (the server's, a CLI's, each test's).
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )

    async def exists(self) -> bool:
        """Whether the collection is there, asking Qdrant only until it was set up."""
        return self._ready or await self.client.collection_exists(self.name)

    async def ensure(self) -> None:
        """Create the collection unless it exists; tasks of one loop wait for the first."""
        if self._ready:
            return
        async with self._locks.setdefault(asyncio.get_running_loop(), asyncio.Lock()):
            if not self._ready:  # another task did it while this one waited for the lock
                await self._set_up()
                self._ready = True

    async def _set_up(self) -> None:
        # The first call loads the embedding model, which blocks: keep it off the event loop.
        dimension = await asyncio.to_thread(self._dimension)
        if await self.client.collection_exists(self.name):
            if self._check is not None:
                self._check(await self.client.get_collection(self.name), dimension)
            return
        spec = self._spec(dimension)
        try:
            await self.client.create_collection(
                self.name, vectors_config=spec.vectors, sparse_vectors_config=spec.sparse_vectors
            )
        except Exception:
            if not await self.client.collection_exists(self.name):
                raise
        if not runs_embedded(self.client):
            for field_name, schema in spec.payload_indexes.items():
                await self.client.create_payload_index(self.name, field_name, schema)
