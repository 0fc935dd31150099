"""The four sources of evidence and the contract they share."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from pathlib import Path

from codeweaver_corpus.store import DOCS_COLLECTION, DocumentCorpus
from codeweaver_engine.packs.catalog import packs_folder
from codeweaver_engine.packs.index import DocsIndex, load_index
from codeweaver_engine.packs.retrieval import PackSearch
from codeweaver_runtime import get_embedder, get_qdrant
from codeweaver_runtime.infrastructure import Infrastructure
from codeweaver_runtime.infrastructure import infrastructure as operator_infrastructure
from codeweaver_schema import SourceName, stable_id
from codeweaver_search.context import MAX_SOURCE_TIMEOUT_S, SearchContext
from codeweaver_search.sources.base import NeedsWarmUp, RateLimited, Scoped, Source, result_scope
from codeweaver_search.sources.docs import TavilyDocsSource
from codeweaver_search.sources.errors import PartialResults, SourceError, is_retryable
from codeweaver_search.sources.github import GitHubCodeSource
from codeweaver_search.sources.local import (
    DOCUMENTS_PACK,
    PYTHON_PACK,
    Corpus,
    LocalCorpusSource,
)
from codeweaver_search.sources.stackoverflow import StackOverflowSource

__all__ = [
    "Corpus",
    "GitHubCodeSource",
    "LocalCorpusSource",
    "NeedsWarmUp",
    "PartialResults",
    "RateLimited",
    "Scoped",
    "Source",
    "SourceError",
    "StackOverflowSource",
    "TavilyDocsSource",
    "default_sources",
    "installed_pack",
    "is_retryable",
    "local_scope",
    "result_scope",
]

_WEB: dict[SourceName, Source] = {}
_LOCAL: dict[str, Source] = {}
"""One local source per `local_scope`: a tenant's documents in one store and embedding space."""
_REFERENCES: dict[tuple[str, str, str], PackSearch] = {}
_LOCK = threading.Lock()


def _corpus_factory(infra: Infrastructure, tenant: str) -> Callable[[], Corpus]:
    location, model = infra.qdrant_location(), infra.embedding_model

    def open_corpus() -> Corpus:
        return DocumentCorpus(
            get_qdrant(location), get_embedder(model), collection=DOCS_COLLECTION, tenant=tenant
        )

    return open_corpus


def local_scope(infra: Infrastructure, tenant: str, library: str = "") -> str:
    """What the local source's results depend on besides the query, as a digest.

    The tenant whose documents are read, the store and collection they are read from, the
    embedding model that ranks them, the data directory the documentation is read from
    (where the bundled reference keeps its vectors of another model), and the one pack a run
    restricts the search to, if any (`search_library`).
    """
    parts = [
        "local",
        tenant,
        infra.qdrant_location(),
        DOCS_COLLECTION,
        infra.embedding_model,
        str(infra.data_dir),
    ]
    return stable_id(*parts, f"library={library}") if library else stable_id(*parts)


def installed_pack(infra: Infrastructure, library: str) -> Path | None:
    """The folder of the installed library pack `library` names, built with the operator's model.

    Its name is matched as distributions are (case, `-` and `_` aside); a pack built with another
    embedding model is not one the operator's embedder can search.
    """
    from codeweaver_corpus.packs.store import installed_packs

    wanted = _normal(library)
    model_id = get_embedder(infra.embedding_model).model_id
    for folder, manifest in installed_packs(infra.data_dir):
        if (
            _normal(str(manifest.get("name", ""))) == wanted
            and manifest.get("embedding_model") == model_id
        ):
            return folder
    return None


def _normal(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def _reference(infra: Infrastructure, library: str = "") -> PackSearch | None:
    """The documentation packs a run searches, one searcher per choice in the process.

    The bundled Python documentation and the installed packs under the data directory's
    `packs/` of the operator's model (`codeweaver ingest --python`), looked up again before
    each search; or, for a run restricted to one pack (`search_library`), the Python
    documentation alone or an installed library's pack alone (None when there is no such pack).
    """
    model = infra.embedding_model
    folder: Path | None = None
    if library and _normal(library) not in (PYTHON_PACK, DOCUMENTS_PACK):
        folder = installed_pack(infra, library)
        if folder is None:
            return None
    key = (model, str(infra.data_dir), str(folder or _normal(library)))
    if key not in _REFERENCES:
        packs: tuple[Callable[[], DocsIndex], ...] = (
            (lambda: load_index(folder),) if folder is not None else (load_index,)
        )
        _REFERENCES[key] = PackSearch(
            lambda: get_embedder(model),
            cache_dir=infra.data_dir / "reference",
            packs=packs,
            installed=None if library else packs_folder(infra.data_dir),
        )
    return _REFERENCES[key]


def default_sources(
    context: SearchContext, infrastructure: Infrastructure | None = None
) -> Mapping[SourceName, Source]:
    """The real sources for a run context, shared by the runs of a process.

    They are shared because they hold state that must outlive a run: circuit breakers, the
    GitHub rate limiter, Stack Exchange backoff and quota, the loaded documentation. The web sources
    are one set per process (the APIs count quotas per key and address, not per CodeWeaver
    user), built with the longest timeout a run may ask for: each search is bounded by its
    run's own `search_source_timeout_s`. The local corpus is one per tenant, since each reads
    its own documents, in the store the operator set (`infrastructure`, default: from the
    environment), and one per pack a run restricts it to (`search_library`).
    """
    infra = infrastructure or operator_infrastructure()
    scope = local_scope(infra, context.tenant, context.search_library)
    with _LOCK:
        if not _WEB:
            _WEB.update(
                {
                    "stackoverflow": StackOverflowSource(timeout_s=MAX_SOURCE_TIMEOUT_S),
                    "github": GitHubCodeSource(timeout_s=MAX_SOURCE_TIMEOUT_S),
                    "docs": TavilyDocsSource(timeout_s=MAX_SOURCE_TIMEOUT_S),
                }
            )
        local = _LOCAL.get(scope)
        if local is None:
            local = _LOCAL[scope] = LocalCorpusSource(
                _corpus_factory(infra, context.tenant),
                reference=_reference(infra, context.search_library),
                scope=scope,
                library=context.search_library,
            )
        return {**_WEB, "local": local}
