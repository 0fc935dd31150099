"""What an agent's tools search: the documentation packs, as one small interface.

A pack is a body of documentation with a name and a version: the bundled Python documentation
(`python` 3.11), the API reference of each library `codeweaver ingest --python` read from the
user's environment (`pandas` 3.1.1, under `$CODEWEAVER_HOME/packs/`), and the documents the
user ingested (`documents`). The tools ask two things of
them, whatever a pack is made of: which packs there are (`list_libraries`), and the best units
of one pack or all of them for a query (`search_docs`, and `ask` to check a library it is given).
Everything else (how a pack is read, embedded and ranked) stays with the packs' own code.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from codeweaver_engine.packs.index import DocHit
    from codeweaver_engine.packs.retrieval import PackSearch
    from codeweaver_engine.packs.shelf import Shelf
    from codeweaver_runtime.infrastructure import Infrastructure
    from codeweaver_schema import Evidence

from codeweaver_search.sources.local import DOCUMENTS_PACK, PYTHON_PACK

logger = logging.getLogger(__name__)

PackSource = Literal["bundled", "installed", "ingested"]


@dataclass(frozen=True)
class PackInfo:
    """One pack CodeWeaver can search.

    Attributes:
        name: What `library` names it by (`python`, `documents`; a distribution's name).
        version: The version documented; None for ingested documents, which have none.
        source: Where it came from: shipped prebuilt, read from an installed library, or
            ingested from the user's files.
        title: What it is, in words.
        units: How many units (API entries, passages, chunks) it holds.
        url: Where its pages are online, when they are.
        note: Something the user should know about it now (it could not be read).
    """

    name: str
    version: str | None
    source: PackSource
    title: str
    units: int
    url: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class DocResult:
    """One documentation unit found for a query, as the pack holds it.

    Attributes:
        kind: `api` (one documented object), `passage` (prose and examples of a page's
            section) or `chunk` (a piece of an ingested document).
        title: The unit's name or heading, with its page.
        name: An API entry's qualified name (`os.path.getsize`); None otherwise.
        signatures: An API entry's call forms.
        summary: Its first sentence: what the API does, or what the passage is about.
        text: The unit's Markdown (an API's description, a passage read with its neighbours).
        example: The unit's first code example, when it has one.
        url: Its address online; None for ingested documents.
        file: The file it comes from (an ingested document, or the docs' source page).
        section: The section it sits under.
        pack: The pack's name.
        version: The pack's version.
        score: Relevance, on the scale of cosine similarity.
        flagged: Sentences taken out of `text` because they act on a model reading them
            (the agents' tools fill it: `codeweaver.tools.render.quoted`).
    """

    kind: Literal["api", "passage", "chunk"]
    title: str
    text: str
    pack: str
    version: str | None
    score: float
    name: str | None = None
    signatures: list[str] = field(default_factory=list)
    summary: str = ""
    example: str | None = None
    url: str | None = None
    file: str | None = None
    section: str | None = None
    flagged: list[str] = field(default_factory=list)


class DocumentStore(Protocol):
    """What the packs need of a tenant's ingested documents (`DocumentCorpus`)."""

    async def count(self) -> int:
        """How many chunks the tenant has stored."""
        ...

    async def search(self, query: str, *, k: int = 8, neighbours: bool = True) -> list[Evidence]:
        """The best chunks for a query."""
        ...


class PackError(RuntimeError):
    """A pack could not be searched; the message says which and why."""


class Packs(Protocol):
    """The documentation packs a tenant can search."""

    async def warm_up(self) -> None:
        """Load what every search needs (the bundled documentation), once."""
        ...

    async def available(self) -> list[PackInfo]:
        """Every pack there is, the bundled documentation first."""
        ...

    async def search(self, query: str, *, library: str | None, limit: int) -> list[DocResult]:
        """The best `limit` units for `query`, best first, in one pack (`library`) or all.

        Raises:
            PackError: the pack, or every pack, could not be searched.
        """
        ...


def find_pack(packs: Sequence[PackInfo], library: str) -> PackInfo | None:
    """The pack a library name means: its name, case and `-`/`_` aside."""
    wanted = _normal(library)
    return next((p for p in packs if _normal(p.name) == wanted), None)


def _normal(name: str) -> str:
    return name.strip().lower().replace("_", "-")


_PACK_FILE = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*?)-docs-([^/\s]+)/")
"""How a pack's units name their file (`codeweaver_engine.packs.retrieval.file_prefix`):
`python-docs-3.11/library/os.rst`, `pandas-docs-3.1.1/pandas.rst`."""


def pack_of(file: str | None, url: str | None) -> tuple[str | None, str | None]:
    """(pack, version) of a cited source: its file or address tells which pack it came from.

    Web sources (Stack Overflow, GitHub, other sites) belong to no pack: (None, None).
    """
    from codeweaver_engine.packs import DOCS_URL, DOCS_VERSION

    if url and url.startswith(DOCS_URL):
        return PYTHON_PACK, DOCS_VERSION
    if file and (named := _PACK_FILE.match(file)):
        return named.group(1), named.group(2)
    if file and not url:
        return DOCUMENTS_PACK, None
    return None, None


class LocalPacks:
    """The bundled Python documentation, the installed library packs, a tenant's documents."""

    def __init__(
        self,
        tenant: str,
        *,
        reference: PackSearch | None = None,
        corpus: Callable[[], DocumentStore] | None = None,
        infrastructure: Infrastructure | None = None,
    ) -> None:
        """Bind the packs to a tenant.

        Args:
            tenant: Whose ingested documents are searched; nobody else's ever are.
            reference: The bundled documentation's searcher; default: the operator's, with
                the operator's embedding model.
            corpus: Opens the tenant's ingested documents; default: the operator's store.
            infrastructure: Where the store is and which model embeds; default: the
                operator's settings from the environment.
        """
        self.tenant = tenant
        self._reference = reference
        self._corpus_factory = corpus
        self._infrastructure = infrastructure

    def _infra(self) -> Infrastructure:
        if self._infrastructure is None:
            from codeweaver_runtime.infrastructure import infrastructure

            self._infrastructure = infrastructure()
        return self._infrastructure

    def reference(self) -> PackSearch:
        """The bundled documentation's searcher (built on first use)."""
        if self._reference is None:
            self._reference = self._searcher(None)
        return self._reference

    def _searcher(self, folders: Sequence[Path] | None) -> PackSearch:
        """A searcher of the bundled pack (None), or of installed packs' folders."""
        from codeweaver_engine.packs.index import DocsIndex, load_index
        from codeweaver_engine.packs.retrieval import PackSearch
        from codeweaver_runtime import get_embedder

        infra = self._infra()
        model = infra.embedding_model
        loads: list[Callable[[], DocsIndex]] = (
            [load_index] if folders is None else [functools.partial(load_index, f) for f in folders]
        )
        return PackSearch(
            lambda: get_embedder(model), cache_dir=infra.data_dir / "reference", packs=loads
        )

    def _installed(self) -> list[tuple[Path, dict[str, object]]]:
        """The installed library packs under the data directory, with their manifests."""
        from codeweaver_corpus.packs.store import installed_packs

        return list(installed_packs(self._infra().data_dir))

    def _searchable(self) -> dict[str, Path]:
        """The installed packs the operator's embedder can search, folder by name."""
        model = self._model_id()
        return {
            _normal(str(manifest.get("name", folder.name))): folder
            for folder, manifest in self._installed()
            if manifest.get("embedding_model") == model
        }

    def _model_id(self) -> str:
        """What the operator's embedder calls its vectors (what a pack's manifest records)."""
        from codeweaver_runtime import get_embedder

        return get_embedder(self._infra().embedding_model).model_id

    def corpus(self) -> DocumentStore:
        """The tenant's ingested documents (opened on each use: the store may be released)."""
        if self._corpus_factory is None:
            from codeweaver_corpus.store import DocumentCorpus
            from codeweaver_runtime import get_embedder, get_qdrant

            infra = self._infra()
            location, model, tenant = infra.qdrant_location(), infra.embedding_model, self.tenant

            def open_corpus() -> DocumentStore:
                return DocumentCorpus(get_qdrant(location), get_embedder(model), tenant=tenant)

            self._corpus_factory = open_corpus
        return self._corpus_factory()

    async def warm_up(self) -> None:
        """Load the bundled documentation (and re-embed it once for another model)."""
        await self.reference().warm_up()

    async def available(self) -> list[PackInfo]:
        """The Python documentation, the installed packs, then the ingested documents if any."""
        from codeweaver_engine.packs import DOCS_URL, DOCS_VERSION

        shelf = await self.reference().warm_up()
        found = [
            PackInfo(
                name=PYTHON_PACK,
                version=DOCS_VERSION,
                source="bundled",
                title=f"The Python {DOCS_VERSION} documentation: the standard library, the "
                "language reference, the tutorial and the how-tos",
                units=sum(len(index) for index in shelf.indexes if index.pack.name == PYTHON_PACK),
                url=DOCS_URL,
            )
        ]
        found += [self._installed_info(folder, manifest) for folder, manifest in self._installed()]
        documents = await self._documents()
        if documents is not None:
            found.append(documents)
        return found

    def _installed_info(self, folder: Path, manifest: dict[str, object]) -> PackInfo:
        name = str(manifest.get("name") or folder.name)
        version = str(manifest.get("version") or "") or None
        model = manifest.get("embedding_model")
        note = None
        if model != self._model_id():
            note = (
                f"built with the embedding model {model}, not this server's: run "
                f"`codeweaver ingest --python PATH --packages {name}` again to search it"
            )
        units = manifest.get("units")
        return PackInfo(
            name=name,
            version=version,
            source="installed",
            title=f"The API reference of {name} {version or ''}, read from the installed "
            "package's docstrings and signatures".replace("  ", " "),
            units=units if isinstance(units, int) else 0,
            note=note,
        )

    async def _documents(self) -> PackInfo | None:
        title = "Your ingested documents (codeweaver ingest PATH)"
        try:
            chunks = await self.corpus().count()
        except Exception as exc:  # the store is another process's, or broken: say so
            logger.warning("ingested documents could not be read", exc_info=True)
            return PackInfo(
                name=DOCUMENTS_PACK,
                version=None,
                source="ingested",
                title=title,
                units=0,
                note=f"could not be read now ({type(exc).__name__}); "
                "another CodeWeaver process may hold the store",
            )
        if not chunks:
            return None
        return PackInfo(
            name=DOCUMENTS_PACK, version=None, source="ingested", title=title, units=chunks
        )

    async def search(self, query: str, *, library: str | None, limit: int) -> list[DocResult]:
        """The best units of every pack, or of one: the Python docs, a library's, documents.

        Raises:
            PackError: `library` names no pack, or nothing could be searched.
        """
        wanted = _normal(library) if library else None
        installed = self._searchable()
        if wanted not in (None, PYTHON_PACK, DOCUMENTS_PACK, *installed):
            raise PackError(f"no pack named {library!r}")
        found: list[DocResult] = []
        failures: list[str] = []
        if wanted in (None, PYTHON_PACK):
            found += await self._search_reference(self.reference(), query, limit)
        if wanted is None and installed:
            everything = self._searcher(list(installed.values()))
            found += await self._search_reference(everything, query, limit)
        elif wanted in installed:
            found += await self._search_reference(self._searcher([installed[wanted]]), query, limit)
        if wanted in (None, DOCUMENTS_PACK):
            try:
                found += await self._search_documents(query, limit)
            except Exception as exc:  # reported with the results, never a traceback
                logger.warning("ingested documents were not searched", exc_info=True)
                failures.append(f"your ingested documents could not be searched ({exc})")
        if failures and not found:
            raise PackError("; ".join(failures))
        return sorted(found, key=lambda r: -r.score)[:limit]

    async def _search_reference(
        self, reference: PackSearch, query: str, limit: int
    ) -> list[DocResult]:
        shelf = await reference.warm_up()
        hits = await reference.search_hits(query, k=limit)
        return [_reference_result(shelf, hit) for hit in hits]

    async def _search_documents(self, query: str, limit: int) -> list[DocResult]:
        hits = await self.corpus().search(query, k=limit, neighbours=False)
        return [_document_result(e) for e in hits]


def _reference_result(shelf: Shelf, hit: DocHit) -> DocResult:
    from codeweaver_engine.packs.retrieval import file_prefix

    unit = hit.unit
    name = hit.asked_as or unit.name or None
    is_api = unit.kind == "api"
    if is_api:
        title = f"{name} — {unit.doc_title}"
    elif unit.section and unit.section != unit.doc_title:
        title = f"{unit.doc_title} — {unit.section}"
    else:
        title = unit.doc_title
    return DocResult(
        kind="api" if is_api else "passage",
        title=title,
        text=unit.text if is_api else shelf.in_context(hit),
        pack=hit.pack.name,
        version=hit.pack.version,
        score=round(hit.score, 4),
        name=name if is_api else None,
        signatures=list(unit.signatures),
        summary=unit.summary,
        example=unit.examples[0] if unit.examples else None,
        url=hit.url,
        file=f"{file_prefix(hit.pack)}/{unit.doc}.rst",
        section=unit.section or None,
    )


def _document_result(evidence: Evidence) -> DocResult:
    from codeweaver_engine.packs.units import first_sentence, prose_of
    from codeweaver_schema import LocalMeta

    meta = evidence.meta
    local = meta if isinstance(meta, LocalMeta) else None
    return DocResult(
        kind="chunk",
        title=evidence.title,
        text=evidence.content,
        pack=DOCUMENTS_PACK,
        version=None,
        score=round(evidence.score, 4),
        summary=first_sentence(prose_of(evidence.content)),
        url=evidence.url,
        file=local.file if local else None,
        section=local.section if local else None,
    )


__all__ = [
    "DOCUMENTS_PACK",
    "PYTHON_PACK",
    "DocResult",
    "DocumentStore",
    "LocalPacks",
    "PackError",
    "PackInfo",
    "Packs",
    "find_pack",
    "pack_of",
]
