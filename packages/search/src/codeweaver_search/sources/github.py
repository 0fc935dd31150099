"""GitHub code search: `GET /search/code` with text-match fragments.

Code search needs an authenticated user (`GITHUB_TOKEN`), allows 10 requests a minute and
queries of at most 256 characters, and matches terms rather than sentences, so the question is
reduced to its most specific terms first.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from codeweaver_engine.language.words import content_words
from codeweaver_schema import Evidence, GitHubMeta, Intent, stable_id
from codeweaver_search.sources.base import RateLimiter, WebApi
from codeweaver_search.sources.doc_domains import github_language
from codeweaver_search.sources.errors import SourceError
from codeweaver_search.sources.http import fetch_json, retry_after_header, snippet

MAX_QUERY_CHARS = 256
MAX_TERMS = 5
TEXT_MATCH = "application/vnd.github.text-match+json"
SECONDARY_WAIT_S = 60.0
"""How long to hold back after a rate limit response that says no time."""
_IDENTIFIER = re.compile(r"[._]|[a-z][A-Z]|\d")


@dataclass(kw_only=True)
class GitHubCodeSource(WebApi):
    """Code fragments from GitHub; skipped with a reason when `GITHUB_TOKEN` is not set.

    GitHub's rate limit holds requests back.
    """

    URL_ENV: ClassVar[str] = "CODEWEAVER_GITHUB_URL"
    DEFAULT_URL: ClassVar[str] = "https://api.github.com"
    KEY_ENV: ClassVar[str] = "GITHUB_TOKEN"
    MISSING_KEY: ClassVar[str | None] = (
        "GITHUB_TOKEN is not set (GitHub code search needs an authenticated user)"
    )
    name: Literal["github"] = "github"
    limiter: RateLimiter = field(default_factory=lambda: RateLimiter("github", max_calls=10))

    async def search(
        self, query: str, *, intent: Intent, language: str, limit: int
    ) -> list[Evidence]:
        """Code fragments matching the question's most specific terms.

        Raises:
            SourceError: no token, the API failed or limited us, or the body was unreadable.
        """
        token = self._required_key()
        q = code_query(query)
        if not q:
            return []
        return await self.breaker.call(self._search(q, token=token, limit=limit))

    async def _search(self, q: str, *, token: str, limit: int) -> list[Evidence]:
        await self.gate.wait(self.timeout_s)
        await self.limiter.acquire(self.timeout_s)
        response = await fetch_json(
            "github",
            "GET",
            f"{self._base()}/search/code",
            params={"q": q, "per_page": max(1, min(limit, 100))},
            headers={
                "Accept": TEXT_MATCH,
                "Authorization": f"Bearer {token}",
                "X-GitHub-Api-Version": "2022-11-28",
            },
            timeout_s=self.timeout_s,
            max_bytes=self.max_body_bytes,
        )
        if not response.ok:
            raise self._http_error(response.status, response.headers, response.body, response.text)
        items = self._records(response.body, "items")
        return [ev for rank, item in enumerate(items[:limit]) if (ev := _evidence(item, rank))]

    def _http_error(self, status: int, headers: Any, body: Any, text: str) -> SourceError:
        message = body.get("message") if isinstance(body, dict) else None
        detail = f"HTTP {status}: {message or snippet(text)}"
        exhausted = headers.get("x-ratelimit-remaining") == "0"
        secondary = "secondary rate limit" in str(message or text).lower()
        limited = status == 429 or (
            status == 403
            and (exhausted or secondary or "retry-after" in headers or "rate limit" in detail)
        )
        if limited:
            wait = retry_after_header(headers)
            reset = headers.get("x-ratelimit-reset")
            if wait is None and exhausted and reset and reset.isdigit():
                wait = max(0.0, int(reset) - time.time())
            if wait is None:
                # GitHub's advice when it names no time: wait at least a minute.
                wait = SECONDARY_WAIT_S
            kind = "secondary rate limit" if secondary else "rate limit"
            self.gate.defer(wait, f"GitHub {kind} reached")
            if wait > self.timeout_s:
                detail = f"{self.gate.blocked_reason(self.timeout_s)} [{detail}]"
            return SourceError(
                "github",
                "rate_limited",
                detail,
                retryable=wait <= self.timeout_s,
                retry_after=wait,
            )
        return SourceError("github", "http", detail, retryable=status >= 500)


def code_query(question: str) -> str:
    """A code-search query: the most specific terms, a language qualifier, at most 256 chars."""
    terms = list(dict.fromkeys(content_words(question)))
    # Identifiers (dotted, snake_case, camelCase, versioned) say more than plain words.
    ranked = sorted(terms, key=lambda t: (not _IDENTIFIER.search(t), terms.index(t)))
    chosen = [t for t in ranked if len(t) > 2][:MAX_TERMS]
    qualifier = f" language:{lang}" if (lang := github_language(question)) else ""
    chosen = [t for t in chosen if t.lower() != (lang or "").lower()]
    query = " ".join(chosen)
    return (query[: MAX_QUERY_CHARS - len(qualifier)].rstrip() + qualifier).strip()


def _evidence(item: dict[str, Any], rank: int) -> Evidence | None:
    repo = item.get("repository") if isinstance(item.get("repository"), dict) else None
    path = item.get("path")
    html_url = item.get("html_url")
    if not repo or not isinstance(path, str) or not isinstance(html_url, str):
        return None
    full_name = str(repo.get("full_name") or repo.get("name") or "")
    fragments = [
        str(match["fragment"])
        for match in item.get("text_matches") or []
        if isinstance(match, dict) and isinstance(match.get("fragment"), str)
    ]
    license_info = repo.get("license")
    stars = repo.get("stargazers_count")
    language = item.get("language")
    return Evidence(
        id=stable_id("github", full_name, path, str(item.get("sha", ""))),
        source="github",
        title=f"{full_name}: {path}",
        content="\n\n".join(f"```\n{fragment.strip()}\n```" for fragment in fragments),
        url=html_url,
        score=round(1.0 / (1 + rank), 4),
        meta=GitHubMeta(
            repository=full_name,
            path=path,
            stars=stars if isinstance(stars, int) else None,
            license=(
                str(license_info.get("spdx_id"))
                if isinstance(license_info, dict) and license_info.get("spdx_id")
                else None
            ),
            fragments=fragments,
            language=language if isinstance(language, str) else None,
        ),
    )
