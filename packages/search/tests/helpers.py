"""Fakes shared by the search tests: evidence, sources, and web sources asking a replay server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import pytest

from codeweaver_schema import (
    DocsMeta,
    Evidence,
    GitHubMeta,
    Intent,
    LocalMeta,
    SourceName,
    StackOverflowMeta,
    stable_id,
)
from codeweaver_search.sources import (
    GitHubCodeSource,
    Source,
    SourceError,
    StackOverflowSource,
    TavilyDocsSource,
)

from .replay import ReplayServer


def make_evidence(source: SourceName, key: str, content: str, *, title: str = "") -> Evidence:
    meta: StackOverflowMeta | GitHubMeta | DocsMeta | LocalMeta
    url: str | None = f"https://example.org/{source}/{key}"
    if source == "stackoverflow":
        meta = StackOverflowMeta(question_id=1, answer_id=abs(hash(key)) % 10**6, is_accepted=True)
    elif source == "github":
        meta = GitHubMeta(repository="o/r", path=f"{key}.py")
    elif source == "docs":
        meta = DocsMeta(domain="docs.python.org")
    else:
        meta = LocalMeta(doc_id=key, file=f"{key}.rst.txt")
        url = None
    return Evidence(
        id=stable_id(source, key),
        source=source,
        title=title or f"{source} {key}",
        content=content,
        url=url,
        score=0.5,
        meta=meta,
    )


Responder = Callable[[str, int], list[Evidence]]


@dataclass
class FakeSource:
    """A source with scripted results, latency and failures; records the queries it got."""

    name: SourceName
    respond: Responder
    latency_s: float = 0.0
    fail: SourceError | None = None
    reason: str | None = None
    queries: list[str] = field(default_factory=list)
    intents: list[Intent] = field(default_factory=list)
    started: list[float] = field(default_factory=list)
    finished: list[float] = field(default_factory=list)

    def unavailable_reason(self) -> str | None:
        return self.reason

    async def search(
        self, query: str, *, intent: Intent, language: str, limit: int
    ) -> list[Evidence]:
        self.queries.append(query)
        self.intents.append(intent)
        self.started.append(time.perf_counter())
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        self.finished.append(time.perf_counter())
        if self.fail is not None:
            raise self.fail
        return self.respond(query, limit)


def fixed(*items: Evidence) -> Responder:
    return lambda _query, _limit: list(items)


WebSource = TypeVar("WebSource", bound=Source)


@dataclass(frozen=True)
class Replayed(Generic[WebSource]):
    """How the tests of one web source ask it: against the replay server, a question of its kind."""

    make: Callable[..., WebSource]
    question: str
    intent: Intent
    method: str
    path: str
    """The request of a search (the first, when a search makes two)."""

    def source(self, server: ReplayServer, timeout_s: float = 2.0) -> WebSource:
        """The source, sending its requests to `server` instead of its API."""
        return self.make(base_url=server.url, timeout_s=timeout_s)

    async def ask(self, source: WebSource, query: str | None = None) -> list[Evidence]:
        """At most five results for `query` (default: the question), asked in English."""
        asked = self.question if query is None else query
        return await source.search(asked, intent=self.intent, language="en", limit=5)

    async def refusal(self, source: WebSource, query: str | None = None) -> SourceError:
        """The error asking `source` raises; the test fails when it raises none."""
        with pytest.raises(SourceError) as caught:
            await self.ask(source, query)
        return caught.value


DOCS = Replayed(
    TavilyDocsSource, "How do I reverse a list in Python?", "learning", "POST", "/search"
)
GITHUB = Replayed(
    GitHubCodeSource, "mock record_replay toto in python", "code_review", "GET", "/search/code"
)
STACKOVERFLOW = Replayed(
    StackOverflowSource, "why is a sorted array faster", "debugging", "GET", "/search/advanced"
)
