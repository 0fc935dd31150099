"""Qdrant clients: embedded on disk by default, a server or cluster by URL."""

from __future__ import annotations

import threading
from pathlib import Path

from qdrant_client import AsyncQdrantClient

_CLIENTS: dict[str, AsyncQdrantClient] = {}
_LOCK = threading.Lock()


def open_qdrant(location: str) -> AsyncQdrantClient:
    """A new client for a URL, ':memory:', or a folder for embedded Qdrant."""
    if location.startswith(("http://", "https://")):
        return AsyncQdrantClient(url=location, timeout=10)
    if location == ":memory:":
        return AsyncQdrantClient(location=":memory:")
    Path(location).mkdir(parents=True, exist_ok=True)
    return AsyncQdrantClient(path=location)


def get_qdrant(location: str) -> AsyncQdrantClient:
    """The process-wide client for a location.

    Embedded Qdrant locks its folder, so one process must share one client per folder.
    """
    with _LOCK:
        if location not in _CLIENTS:
            _CLIENTS[location] = open_qdrant(location)
        return _CLIENTS[location]
