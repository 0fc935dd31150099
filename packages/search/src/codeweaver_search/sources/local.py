"""Documents the user ingested, through the shared `DocumentCorpus` (hybrid search, neighbours)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from codeweaver_schema import Evidence, Intent
from codeweaver_search.sources.errors import SourceError


class Corpus(Protocol):
    """What the local source needs from `codeweaver_runtime.corpus.DocumentCorpus`."""

    async def search(self, query: str, *, k: int = 8, neighbours: bool = True) -> list[Evidence]:
        """Chunks for a query, best first, with their neighbouring chunks."""
        ...

    async def ensure_seeded(self) -> int:
        """Seed an empty corpus with bundled documentation; returns the chunks added."""
        ...


@dataclass
class LocalCorpusSource:
    """Local documents; the corpus is opened on first use and seeded once per process."""

    corpus_factory: Callable[[], Corpus]
    name: Literal["local"] = "local"
    _corpus: Corpus | None = None
    _seeded: bool = False
    _lock: asyncio.Lock | None = field(default=None, repr=False)
    _lock_loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)

    def unavailable_reason(self) -> str | None:
        """The local corpus needs no key and has no quota."""
        return None

    async def warm_up(self) -> None:
        """Open the corpus and seed it if empty (first use only).

        Raises:
            SourceError: the vector store or the embedder failed.
        """
        try:
            await self._ready()
        except Exception as exc:
            raise SourceError("local", "store", f"{type(exc).__name__}: {exc}") from exc

    async def search(
        self, query: str, *, intent: Intent, language: str, limit: int
    ) -> list[Evidence]:
        """Chunks of ingested documents, with the previous and next chunk of each hit.

        Raises:
            SourceError: the vector store or the embedder failed.
        """
        try:
            corpus = await self._ready()
            return await corpus.search(query, k=limit, neighbours=True)
        except SourceError:
            raise
        except Exception as exc:
            raise SourceError("local", "store", f"{type(exc).__name__}: {exc}") from exc

    async def _ready(self) -> Corpus:
        if self._corpus is not None and self._seeded:
            return self._corpus
        # One lock per event loop: the source outlives loops (tests, Studio, the CLI).
        loop = asyncio.get_running_loop()
        if self._lock is None or self._lock_loop is not loop:
            self._lock, self._lock_loop = asyncio.Lock(), loop
        async with self._lock:
            if self._corpus is None:
                self._corpus = self.corpus_factory()
            if not self._seeded:
                await self._corpus.ensure_seeded()
                self._seeded = True
        return self._corpus
