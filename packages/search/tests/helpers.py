"""Fakes shared by the search tests: an embedder, evidence and sources."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

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
from codeweaver_search.sources import SourceError


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
