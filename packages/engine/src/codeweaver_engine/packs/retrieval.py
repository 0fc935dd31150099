"""Documentation packs as evidence: search the packs in use, cite each unit's page.

The bundled pack ships with vectors of the default embedding model. An operator who configures
another model gets the same units re-embedded with it once, cached in the data directory (the
queries and the packs must come from one model), so nothing here depends on which model is in
use. Installed packs (`codeweaver ingest --python`) are built with the operator's model: those
of that model under the data directory's `packs/` are searched with the bundled one, and a pack
ingested while a server runs is searched from the next question on (`catalog.py`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from codeweaver_engine.libraries import libraries_named, packs_for, without_names
from codeweaver_engine.packs import DOCS_VERSION
from codeweaver_engine.packs.catalog import Catalog, Listed, catalog
from codeweaver_engine.packs.format import Pack
from codeweaver_engine.packs.index import (
    DocHit,
    DocsIndex,
    IndexError_,
    load_index,
    read_index,
    reembedded,
)
from codeweaver_engine.packs.shelf import Shelf
from codeweaver_engine.scope import names_standard_library
from codeweaver_runtime import Embedder
from codeweaver_schema import Evidence, LocalMeta, stable_id

UNNAMED_LIBRARY_HANDICAP = 0.05
"""How much better than the standard library's an installed library's unit must match a question
that names no library to answer it: a Python question is about the standard library unless it
says otherwise. With the ten pinned libraries and their dependencies installed (43 packs), 0.05
leaves every standard-library dev question to the Python documentation (4 went to pandas or
Django without it) and changes no third-party dev question's best unit (docs/ANSWERS.md)."""
EXAMPLE_DISCOUNT = 0.15
"""A companion example unit ranks this far below the API it illustrates: never the answer."""
REFERENCE_FILE_PREFIX = f"python-docs-{DOCS_VERSION}"
"""How the bundled pack's units name their file: `python-docs-3.11/library/os.rst`."""


def file_prefix(pack: Pack) -> str:
    """How a pack's units name their file: `python-docs-3.11` for the bundled pack."""
    return f"{pack.name}-docs-{pack.version}"


def evidence_of(hit: DocHit, *, text: str | None = None) -> Evidence:
    """A documentation unit as cited evidence.

    An API unit's content starts with its signatures in a code block, then its description, so
    any reader (a model, the offline engine) sees the call form first. `text` replaces a
    passage's own text (with its neighbours, `DocsIndex.in_context`).
    """
    unit, pack = hit.unit, hit.pack
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
    prefix = file_prefix(pack)
    return Evidence(
        id=stable_id("pydocs", pack.version, key, str(hit.index))
        if pack.source == "bundled"
        else stable_id("pack", pack.name, pack.version, key, str(hit.index)),
        source="local",
        title=f"{pack.title} {pack.version} docs: {title}",
        content=content,
        url=hit.url,
        score=round(hit.score, 6),
        meta=LocalMeta(
            doc_id=f"{prefix}/{unit.doc}",
            file=f"{prefix}/{unit.doc}.rst",
            section=unit.section,
            chunk_index=hit.index,
            api=name or None,
            task=hit.via_task,
            pack=pack.name,
            version=pack.version,
        ),
    )


def evidence_in_context(shelf: Shelf, hit: DocHit) -> Evidence:
    """A hit as evidence, a passage read with its section's neighbours (`DocsIndex.in_context`).

    What a search returns and what a follow-up reads again, so both quote the same text.
    """
    return evidence_of(hit, text=shelf.in_context(hit))


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


logger = logging.getLogger(__name__)


class PackSearch:
    """Searches the packs in use with the operator's embedder."""

    def __init__(
        self,
        embedder: Callable[[], Embedder],
        *,
        cache_dir: Path | None = None,
        packs: Sequence[Callable[[], DocsIndex]] = (load_index,),
        installed: Path | None = None,
    ) -> None:
        """Bind the embedder (resolved on first use) and where re-embedded vectors are kept.

        Args:
            embedder: Returns the embedder queries are encoded with.
            cache_dir: Where a pack re-embedded for another model is kept; None: in memory.
            packs: Return the packs always searched (default: the bundled one), loaded on
                first use.
            installed: The installed packs' folder (`$CODEWEAVER_HOME/packs`): those built with
                the embedder's model are searched too, looked up again before each search.
        """
        self._embedder = embedder
        self._cache_dir = cache_dir
        self._packs = list(packs)
        self._catalog: Catalog | None = catalog(installed) if installed is not None else None
        self._fixed: list[DocsIndex] | None = None
        self._loaded: dict[tuple[Path, int], DocsIndex] = {}
        self._failed: dict[tuple[Path, int], str] = {}
        self._ready: Shelf | None = None
        self._lock = threading.Lock()

    async def warm_up(self) -> Shelf:
        """The packs in use now (loaded, or re-embedded once, off the event loop)."""
        if self._ready is None or self._catalog is not None:
            await asyncio.to_thread(self._load)
        assert self._ready is not None
        return self._ready

    def packs_stamp(self) -> str:
        """A digest of the installed packs there are now (`Catalog.stamp`).

        What a query finds changes with it.
        """
        return self._catalog.stamp() if self._catalog is not None else "none"

    @property
    def failures(self) -> dict[str, str]:
        """Installed packs that could not be read, by folder: why."""
        return {str(folder): why for (folder, _), why in self._failed.items()}

    def _load(self) -> None:
        with self._lock:
            embedder = self._embedder()
            if self._fixed is None:
                fixed = []
                for load in self._packs:
                    index = load()
                    if embedder.model_id != index.embedding_model:
                        index = self._reembedded(index, embedder)
                    fixed.append(index)
                self._fixed = fixed
            listed = self._catalog.listed(embedder.model_id) if self._catalog else ()
            installed = [found for entry in listed if (found := self._installed(entry))]
            indexes = [*self._fixed, *installed]
            if self._ready is None or list(map(id, self._ready.indexes)) != list(map(id, indexes)):
                self._ready = Shelf(indexes)
            keep = {(entry.folder, entry.changed) for entry in listed}
            self._loaded = {key: index for key, index in self._loaded.items() if key in keep}

    def _installed(self, entry: Listed) -> DocsIndex | None:
        """An installed pack, read once per build of it; None (and why, logged) if unreadable."""
        key = (entry.folder, entry.changed)
        if key in self._loaded:
            return self._loaded[key]
        if key in self._failed:
            return None
        try:
            index = read_index(entry.folder)
        except IndexError_ as exc:
            self._failed[key] = str(exc)
            logger.warning("documentation pack %s not searched: %s", entry.folder, exc)
            return None
        self._loaded[key] = index
        return index

    def _reembedded(self, index: DocsIndex, embedder: Embedder) -> DocsIndex:
        slug = re.sub(r"[^\w.@-]+", "_", embedder.model_id)
        digest = hashlib.sha256(
            "\n".join(u.name or u.text[:80] for u in index.units).encode()
        ).hexdigest()[:16]
        path = (
            self._cache_dir / f"{file_prefix(index.pack)}-{slug}-{digest}.npz"
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
                pack=replace(index.pack, embedding_model=embedder.model_id),
            )
        fresh = reembedded(index, embedder.embed_sync, embedder.model_id)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.savez(path, units=fresh.vectors, tasks=fresh.task_vectors)
        return fresh

    async def search_hits(
        self, query: str, *, k: int, packs: Collection[str] | None = None
    ) -> list[DocHit]:
        """The best units of the packs for a query.

        Of `packs` alone when given; else, when the query names libraries that have packs
        ("drop NaN rows in pandas"), of their packs alone; else of every pack.
        """
        shelf = await self.warm_up()
        asked = query
        handicap = 0.0
        if packs is None and (named := libraries_named(query)):
            packs = {pack.name for pack in packs_for(named, shelf.packs)} or None
            if packs is not None:
                # Within the library's own pack its name says nothing about the task, and a
                # small model weighs it as much as the words that do.
                asked = without_names(query, named)
        elif packs is None and names_standard_library(query):
            # `datetime.today()` in the question: the standard library's, not pandas'.
            packs = {pack.name for pack in shelf.packs if pack.source == "bundled"}
        elif packs is None:
            handicap = UNNAMED_LIBRARY_HANDICAP
        vector = (await self._embedder().embed([asked]))[0]
        return shelf.search(vector, asked, k=k, packs=packs, handicap=handicap)

    async def search(
        self, query: str, *, k: int, packs: Collection[str] | None = None
    ) -> list[Evidence]:
        """The best units for a query, as evidence.

        The best API without an example of its own brings a unit whose code uses it (scored
        below it), so an answer can show the call.
        """
        shelf = await self.warm_up()
        hits = await self.search_hits(query, k=k, packs=packs)
        found = [evidence_in_context(shelf, hit) for hit in hits]
        if hits:
            companion = shelf.example_for(hits[0], hits[0].score - EXAMPLE_DISCOUNT)
            if companion is not None and all(
                (h.pack, h.index) != (companion.pack, companion.index) for h in hits
            ):
                found.append(evidence_of(companion))
        return found


__all__ = [
    "PackSearch",
    "evidence_in_context",
    "evidence_of",
    "is_reference",
]
