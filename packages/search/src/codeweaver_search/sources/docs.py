"""Official documentation through Tavily's search API, restricted to the projects' own sites.

The HTTP API (`POST /search`) is called directly rather than through `tavily-python`'s client so
that every web source shares one bounded HTTP path: the same timeout, body-size limit and error
classification. The request is the one the SDK sends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal
from urllib.parse import urlsplit

from codeweaver_engine.language.words import collapse_whitespace
from codeweaver_schema import DocsMeta, Evidence, Intent, stable_id
from codeweaver_search.sources.base import WebApi
from codeweaver_search.sources.doc_domains import docs_domains, is_allowed
from codeweaver_search.sources.errors import SourceError
from codeweaver_search.sources.http import fetch_json, retry_after_header, snippet

MAX_QUERY_CHARS = 400
# 432 and 433 are Tavily's plan and pay-as-you-go limits: no retry helps before the user acts.
_QUOTA_STATUSES = {432, 433}
QUOTA_PAUSE_S = 3600.0
"""How long official-docs search pauses after Tavily reports a usage limit."""


@dataclass(kw_only=True)
class TavilyDocsSource(WebApi):
    """Official docs pages; skipped with a reason when `TAVILY_API_KEY` is not set.

    A usage limit (Tavily's plan or pay-as-you-go) or a rate limit holds requests back.
    """

    URL_ENV: ClassVar[str] = "CODEWEAVER_TAVILY_URL"
    DEFAULT_URL: ClassVar[str] = "https://api.tavily.com"
    KEY_ENV: ClassVar[str] = "TAVILY_API_KEY"
    MISSING_KEY: ClassVar[str | None] = (
        "TAVILY_API_KEY is not set (official docs are searched through Tavily)"
    )
    name: Literal["docs"] = "docs"

    async def search(
        self, query: str, *, intent: Intent, language: str, limit: int
    ) -> list[Evidence]:
        """Pages of the official documentation of the technologies the query names.

        Raises:
            SourceError: no key, the API failed or limited us, or the body was unreadable.
        """
        key = self._required_key()
        return await self.breaker.call(self._search(query, key=key, limit=limit))

    async def _search(self, query: str, *, key: str, limit: int) -> list[Evidence]:
        await self.gate.wait(self.timeout_s)
        domains = docs_domains(query)
        response = await fetch_json(
            "docs",
            "POST",
            f"{self._base()}/search",
            json_body={
                "query": collapse_whitespace(query)[:MAX_QUERY_CHARS],
                "search_depth": "basic",
                "topic": "general",
                "max_results": max(1, min(limit, 20)),
                "include_domains": domains,
                "include_answer": False,
                "include_raw_content": False,
            },
            headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
            timeout_s=self.timeout_s,
            max_bytes=self.max_body_bytes,
        )
        if not response.ok:
            raise self._http_error(response.status, response.body, response.text, response)
        evidence: list[Evidence] = []
        for result in self._records(response.body, "results"):
            if item := _evidence(result, domains):
                evidence.append(item)
        return evidence[:limit]

    def _http_error(self, status: int, body: Any, text: str, response: Any) -> SourceError:
        detail = body.get("detail") if isinstance(body, dict) else None
        error = detail.get("error") if isinstance(detail, dict) else detail
        message = f"HTTP {status}: {error or snippet(text)}"
        if status == 429:
            wait = retry_after_header(response.headers)
            if wait is not None:
                self.gate.defer(wait, "Tavily rate limit reached")
            return SourceError(
                "docs",
                "rate_limited",
                message,
                retryable=wait is None or wait <= self.timeout_s,
                retry_after=wait,
            )
        if status in _QUOTA_STATUSES:
            # Tavily does not say when a plan or pay-as-you-go limit resets: pause, then try
            # again, rather than spend a request of every run on a known refusal.
            limit = "plan" if status == 432 else "pay-as-you-go"
            self.gate.defer(
                QUOTA_PAUSE_S,
                f"Tavily {limit} usage limit reached (raise it on the Tavily dashboard)",
            )
            reason = self.gate.blocked_reason(self.timeout_s)
            return SourceError(
                "docs", "rate_limited", f"{reason} [{message}]", retry_after=QUOTA_PAUSE_S
            )
        return SourceError("docs", "http", message, retryable=status >= 500)


def _evidence(result: dict[str, Any], domains: list[str]) -> Evidence | None:
    url = result.get("url")
    if not isinstance(url, str):
        return None
    parts = urlsplit(url)
    # Tavily treats include_domains as a strong hint; official docs are a promise, so enforce it.
    if not parts.hostname or not is_allowed(parts.hostname, domains):
        return None
    score = result.get("score")
    published = result.get("published_date")
    return Evidence(
        id=stable_id("docs", url.split("#", 1)[0]),
        source="docs",
        title=str(result.get("title") or url),
        content=str(result.get("content") or ""),
        url=url,
        score=float(score) if isinstance(score, int | float) else 0.0,
        meta=DocsMeta(
            domain=parts.hostname,
            section=parts.fragment or None,
            published=published if isinstance(published, str) else None,
        ),
    )
