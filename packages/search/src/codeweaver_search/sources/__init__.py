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

_DEFAULTS: dict[tuple[str, ...], dict[SourceName, Source]] = {}
_LOCK = threading.Lock()


def _corpus_factory(context: SearchContext) -> Callable[[], Corpus]:
    location, model, tenant = context.qdrant_location(), context.embedding_model, context.tenant

    def open_corpus() -> Corpus:
        return DocumentCorpus(get_qdrant(location), get_embedder(model), tenant=tenant)

    return open_corpus


def default_sources(context: SearchContext) -> Mapping[SourceName, Source]:
    """The real sources for a run context, one set per process and settings.

    They are shared because they hold state that must outlive a run: circuit breakers, the
    GitHub rate limiter, Stack Exchange backoff and quota, the seeded corpus.
    """
    key = (
        context.qdrant_location(),
        context.embedding_model,
        context.tenant,
        f"{context.search_source_timeout_s:g}",
    )
    with _LOCK:
        if key not in _DEFAULTS:
            timeout = context.search_source_timeout_s
            _DEFAULTS[key] = {
                "stackoverflow": StackOverflowSource(timeout_s=timeout),
                "github": GitHubCodeSource(timeout_s=timeout),
                "docs": TavilyDocsSource(timeout_s=timeout),
                "local": LocalCorpusSource(_corpus_factory(context)),
            }
        return _DEFAULTS[key]
