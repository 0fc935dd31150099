"""The bundled Python documentation as evidence: search it, cite docs.python.org.

The index ships with vectors of the default embedding model. An operator who configures another
model gets the same units re-embedded with it once, cached in the data directory (the queries
and the index must come from one model), so nothing here depends on which model is in use.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from codeweaver_corpus.pydocs import DOCS_VERSION, PACKAGED_INDEX
from codeweaver_corpus.pydocs.index import DocHit, DocsIndex, load_index, reembedded
from codeweaver_runtime import Embedder
from codeweaver_schema import Evidence, LocalMeta, stable_id

EXAMPLE_DISCOUNT = 0.15
"""A companion example unit ranks this far below the API it illustrates: never the answer."""
REFERENCE_FILE_PREFIX = f"python-docs-{DOCS_VERSION}"
"""How bundled units name their file: `python-docs-3.11/library/os.rst`."""


def evidence_of(hit: DocHit, version: str = DOCS_VERSION, *, text: str | None = None) -> Evidence:
    """A documentation unit as cited evidence.

    An API unit's content starts with its signatures in a code block, then its description, so
    any reader (a model, the offline engine) sees the call form first. `text` replaces a
    passage's own text (with its neighbours, `DocsIndex.in_context`).
    """
    unit = hit.unit
    name = hit.asked_as or unit.name
    if unit.kind == "api":
        title = f"{name} — {unit.doc_title}"
        signatures = "\n".join(_asked_first(unit.signatures, hit.asked_as))
        content = f"```\n{signatures}\n```\n\n{unit.text}".strip()
    else:
        title = (
            unit.doc_title
            if unit.section == unit.doc_title
            else (f"{unit.doc_title} — {unit.section}")
        )
        content = text if text is not None else unit.text
    key = unit.name or f"{unit.doc}#{unit.anchor}#{unit.directive}"
    return Evidence(
        id=stable_id("pydocs", version, key, str(hit.index)),
        source="local",
        title=f"Python {version} docs: {title}",
        content=content,
        url=hit.url,
        score=round(hit.score, 6),
        meta=LocalMeta(
            doc_id=f"{REFERENCE_FILE_PREFIX}/{unit.doc}",
            file=f"{REFERENCE_FILE_PREFIX}/{unit.doc}.rst",
            section=unit.section,
            chunk_index=hit.index,
            api=name or None,
            task=hit.via_task,
        ),
    )


def evidence_in_context(index: DocsIndex, hit: DocHit) -> Evidence:
    """A hit as evidence, a passage read with its section's neighbours (`DocsIndex.in_context`).

    What a search returns and what a follow-up reads again, so both quote the same text.
    """
    return evidence_of(hit, text=index.in_context(hit.index))


def _asked_first(signatures: list[str], asked_as: str | None) -> list[str]:
    """An entry's signatures, the name a task asked for first, qualified like the entry's.

    One entry documents `sys.stdin`, `stdout` and `stderr`: asked for `sys.stderr`, it shows
    `sys.stderr` first.
    """
    if asked_as is None:
        return signatures
    short = asked_as.rsplit(".", 1)[-1]
    asked = [s for s in signatures if s.split("(", 1)[0] in (asked_as, short)]
    shown = [s if s.startswith(asked_as) else asked_as + s[len(short) :] for s in asked]
    return [*shown, *(s for s in signatures if s not in asked)]


def is_reference(evidence: Evidence) -> bool:
    """Whether an evidence item comes from the bundled Python documentation."""
    meta = evidence.meta
    return isinstance(meta, LocalMeta) and meta.file.startswith(REFERENCE_FILE_PREFIX + "/")


class PythonReference:
    """Searches the bundled documentation with the operator's embedder."""

    def __init__(
        self,
        embedder: Callable[[], Embedder],
        *,
        cache_dir: Path | None = None,
        index: Callable[[], DocsIndex] = load_index,
    ) -> None:
        """Bind the embedder (resolved on first use) and where re-embedded vectors are kept.

        Args:
            embedder: Returns the embedder queries are encoded with.
            cache_dir: Where an index re-embedded for another model is kept; None: in memory.
            index: Returns the packaged index.
        """
        self._embedder = embedder
        self._cache_dir = cache_dir
        self._index = index
        self._ready: DocsIndex | None = None
        self._lock = threading.Lock()

    @property
    def version(self) -> str:
        """The documentation version searched."""
        return DOCS_VERSION

    async def warm_up(self) -> DocsIndex:
        """Load the index (and re-embed it once if the embedder differs); off the event loop."""
        if self._ready is None:
            await asyncio.to_thread(self._load)
        assert self._ready is not None
        return self._ready

    def _load(self) -> None:
        with self._lock:
            if self._ready is not None:
                return
            index = self._index()
            embedder = self._embedder()
            if embedder.model_id != index.embedding_model:
                index = self._reembedded(index, embedder)
            self._ready = index

    def _reembedded(self, index: DocsIndex, embedder: Embedder) -> DocsIndex:
        slug = re.sub(r"[^\w.@-]+", "_", embedder.model_id)
        digest = hashlib.sha256(
            "\n".join(u.name or u.text[:80] for u in index.units).encode()
        ).hexdigest()[:16]
        path = (
            self._cache_dir / f"{REFERENCE_FILE_PREFIX}-{slug}-{digest}.npz"
            if (self._cache_dir)
            else None
        )
        if path is not None and path.is_file():
            stored = np.load(path)
            return DocsIndex(
                index.units,
                stored["units"],
                index.tasks,
                stored["tasks"],
                version=index.version,
                embedding_model=embedder.model_id,
            )
        fresh = reembedded(index, embedder.embed_sync, embedder.model_id)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.savez(path, units=fresh.vectors, tasks=fresh.task_vectors)
        return fresh

    async def search_hits(self, query: str, *, k: int) -> list[DocHit]:
        """The best units for a query."""
        index = await self.warm_up()
        vector = (await self._embedder().embed([query]))[0]
        return index.search(vector, query, k=k)

    async def search(self, query: str, *, k: int) -> list[Evidence]:
        """The best units for a query, as evidence.

        The best API without an example of its own brings a unit whose code uses it (scored
        below it), so an answer can show the call.
        """
        index = await self.warm_up()
        hits = await self.search_hits(query, k=k)
        found = [evidence_in_context(index, hit) for hit in hits]
        if hits:
            companion = index.example_for(hits[0])
            if companion is not None and all(h.index != companion for h in hits):
                hit = DocHit(index.unit(companion), companion, hits[0].score - EXAMPLE_DISCOUNT)
                found.append(evidence_of(hit))
        return found


__all__ = [
    "PACKAGED_INDEX",
    "PythonReference",
    "evidence_in_context",
    "evidence_of",
    "is_reference",
]
