"""The four sources of evidence and the contract they share."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping

from codeweaver_runtime import get_embedder, get_qdrant
from codeweaver_runtime.corpus import DocumentCorpus
from codeweaver_schema import SourceName
from codeweaver_search.context import SearchContext
from codeweaver_search.sources.base import NeedsWarmUp, RateLimited, Source
from codeweaver_search.sources.docs import TavilyDocsSource
from codeweaver_search.sources.errors import SourceError, is_retryable
from codeweaver_search.sources.github import GitHubCodeSource
from codeweaver_search.sources.local import Corpus, LocalCorpusSource
from codeweaver_search.sources.stackoverflow import StackOverflowSource

__all__ = [
    "Corpus",
    "GitHubCodeSource",
    "LocalCorpusSource",
    "NeedsWarmUp",
    "RateLimited",
    "Source",
    "SourceError",
    "StackOverflowSource",
    "TavilyDocsSource",
    "default_sources",
    "is_retryable",
]

_WEB: dict[str, dict[SourceName, Source]] = {}
_LOCAL: dict[tuple[str, ...], Source] = {}
_LOCK = threading.Lock()


def _corpus_factory(context: SearchContext) -> Callable[[], Corpus]:
    location, model, tenant = context.qdrant_location(), context.embedding_model, context.tenant

    def open_corpus() -> Corpus:
        return DocumentCorpus(get_qdrant(location), get_embedder(model), tenant=tenant)

    return open_corpus


def default_sources(context: SearchContext) -> Mapping[SourceName, Source]:
    """The real sources for a run context, shared by the runs of a process.

    They are shared because they hold state that must outlive a run: circuit breakers, the
    GitHub rate limiter, Stack Exchange backoff and quota, the seeded corpus. The web sources
    are one set per process (the APIs count quotas per key and address, not per CodeWeaver
    user); the local corpus is one per tenant, since each reads its own documents.
    """
    timeout = context.search_source_timeout_s
    local_key = (context.qdrant_location(), context.embedding_model, context.tenant)
    with _LOCK:
        web = _WEB.get(f"{timeout:g}")
        if web is None:
            web = _WEB[f"{timeout:g}"] = {
                "stackoverflow": StackOverflowSource(timeout_s=timeout),
                "github": GitHubCodeSource(timeout_s=timeout),
                "docs": TavilyDocsSource(timeout_s=timeout),
            }
        local = _LOCAL.get(local_key)
        if local is None:
            local = _LOCAL[local_key] = LocalCorpusSource(_corpus_factory(context))
        return {**web, "local": local}
