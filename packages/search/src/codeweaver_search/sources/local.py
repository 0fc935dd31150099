"""Local documents: the bundled Python documentation and the documents the user ingested.

The bundled documentation (`codeweaver_corpus.pydocs`) is always there and costs no set-up: its
vectors ship with the package. Ingested documents live in the vector store, opened on first use.
The two are searched together, or one alone when a run names its pack (`search_library`:
`python`, an installed library's pack, or `documents`); when the store fails (for example
because another process holds the embedded store's lock), the documentation's results still
come back, with the store's failure reported beside them (`PartialResults`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from codeweaver_schema import DOCUMENTS_NOT_SEARCHED, Evidence, Intent
from codeweaver_search.sources.errors import PartialResults, SourceError

PYTHON_PACK = "python"
"""`search_library` naming the bundled Python documentation."""
DOCUMENTS_PACK = "documents"
"""`search_library` naming the user's ingested documents."""


class Corpus(Protocol):
    """What the local source needs from `codeweaver_corpus.store.DocumentCorpus`."""

    async def search(self, query: str, *, k: int = 8, neighbours: bool = True) -> list[Evidence]:
        """Chunks for a query, best first, with their neighbouring chunks."""
        ...


class Reference(Protocol):
    """What the local source needs from `codeweaver_corpus.pydocs.PackSearch`."""

    async def warm_up(self) -> object:
        """Load the reference (once)."""
        ...

    async def search(self, query: str, *, k: int) -> list[Evidence]:
        """The best units for a query, as evidence."""
        ...

    # A reference whose packs can change while it runs (packs ingested meanwhile) also has
    # `packs_stamp() -> str`, a digest of the packs it would search now (`PackSearch`).


@dataclass
class LocalCorpusSource:
    """The bundled reference and the user's ingested documents; the store opens on first use."""

    corpus_factory: Callable[[], Corpus]
    reference: Reference | None = None
    scope: str | None = None
    """A digest of whose documents the corpus reads, in which store, with which embedding model
    and documentation (`result_scope`); None: the run's tenant keys the results."""
    library: str = ""
    """Search one pack alone: `documents` leaves the reference out; any other (`python`, an
    installed library's, for which `reference` searches that pack) leaves the ingested
    documents closed; empty: both."""
    name: Literal["local"] = "local"
    _corpus: Corpus | None = None
    _lock: asyncio.Lock | None = field(default=None, repr=False)
    _lock_loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)

    def unavailable_reason(self) -> str | None:
        """The local corpus needs no key and has no quota."""
        return None

    def result_scope(self) -> str | None:
        """Whose documents in which store (see `scope`), and which packs there are now.

        A pack ingested while the server runs changes what a query finds: results memoised
        before it are not served after it.
        """
        stamp = getattr(self.reference, "packs_stamp", None)
        if self.scope is None or not callable(stamp):
            return self.scope
        return f"{self.scope}:{stamp()}"

    async def warm_up(self) -> None:
        """Load the reference and open the store (first use only).

        A store that cannot be opened is not an error here: the search reports it, next to the
        reference's results.

        Raises:
            SourceError: the reference could not be loaded.
        """
        if self.reference is not None:
            try:
                await self.reference.warm_up()
            except Exception as exc:
                raise SourceError("local", "store", f"{type(exc).__name__}: {exc}") from exc
        try:
            await self._opened()
        except Exception as exc:
            if self.reference is None:
                raise SourceError("local", "store", f"{type(exc).__name__}: {exc}") from exc

    async def search(
        self, query: str, *, intent: Intent, language: str, limit: int
    ) -> list[Evidence]:
        """The reference's units and the ingested chunks (with their neighbours), best first.

        Raises:
            PartialResults: the store failed but the reference answered.
            SourceError: nothing could be searched.
        """
        found: list[Evidence] = []
        if self.reference is not None and self.library != DOCUMENTS_PACK:
            try:
                found = await self.reference.search(query, k=limit)
            except Exception as exc:
                raise SourceError("local", "store", f"{type(exc).__name__}: {exc}") from exc
        if self.library and self.library != DOCUMENTS_PACK:
            # One documentation pack (the Python docs or an installed library's): no documents.
            return found
        try:
            corpus = await self._opened()
            found += await corpus.search(query, k=limit, neighbours=True)
        except Exception as exc:
            message = f"{DOCUMENTS_NOT_SEARCHED}: {type(exc).__name__}: {exc}"
            if self.reference is None:
                raise SourceError("local", "store", message) from exc
            raise PartialResults("local", "store", message, found=found) from exc
        return found

    async def _opened(self) -> Corpus:
        if self._corpus is not None:
            return self._corpus
        # One lock per event loop: the source outlives loops (tests, Studio, the CLI).
        loop = asyncio.get_running_loop()
        if self._lock is None or self._lock_loop is not loop:
            self._lock, self._lock_loop = asyncio.Lock(), loop
        async with self._lock:
            if self._corpus is None:
                self._corpus = self.corpus_factory()
        return self._corpus
