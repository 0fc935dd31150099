"""Stack Overflow answers through the Stack Exchange API 2.3.

Two requests per search: `/search/advanced` finds answered questions, then
`/questions/{ids}/answers` with the `withbody` filter fetches their answers. Each evidence item is
one answer (the accepted one and the best-voted ones), with its question's title and tags and the
CC BY-SA attribution the content requires.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from codeweaver_engine.language.words import collapse_whitespace, truncate
from codeweaver_engine.markup import html_to_text
from codeweaver_schema import Evidence, Intent, StackOverflowMeta, stable_id
from codeweaver_search.sources.base import WebApi
from codeweaver_search.sources.errors import SourceError
from codeweaver_search.sources.http import JsonResponse, fetch_json, snippet

SITE = "stackoverflow"
ANSWERS_PER_QUESTION = 2
MAX_QUERY_CHARS = 500
DAILY_QUOTA_WAIT_S = 3600.0
"""A throttle wait longer than this is the daily quota running out."""
_THROTTLE_WAIT = re.compile(r"available in (\d+) seconds")
# Stack Exchange error ids that a later attempt may get past.
_RETRYABLE_ERRORS = {500, 503}


@dataclass(kw_only=True)
class StackOverflowSource(WebApi):
    """Stack Overflow answers; `STACKEXCHANGE_KEY` raises the daily quota from 300 to 10,000.

    A used-up daily quota, or Stack Exchange throttling us, holds requests back.
    """

    URL_ENV: ClassVar[str] = "CODEWEAVER_STACKEXCHANGE_URL"
    DEFAULT_URL: ClassVar[str] = "https://api.stackexchange.com/2.3"
    KEY_ENV: ClassVar[str] = "STACKEXCHANGE_KEY"
    name: Literal["stackoverflow"] = "stackoverflow"
    quota_remaining: int | None = None

    def _quota_exhausted(self, seconds: float | None = None) -> None:
        if seconds is None:
            # The quota resets at midnight UTC.
            now = dt.datetime.now(dt.UTC)
            midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), dt.UTC)
            seconds = (midnight - now).total_seconds()
        advice = "" if self._key() else " (STACKEXCHANGE_KEY raises it from 300 to 10,000)"
        self.gate.defer(seconds, f"Stack Overflow daily quota exhausted{advice}")

    async def search(
        self, query: str, *, intent: Intent, language: str, limit: int
    ) -> list[Evidence]:
        """Answers to the questions that best match the query.

        Raises:
            SourceError: the API failed, throttled us, or answered something unreadable.
        """
        return await self.breaker.call(self._search(query, limit=limit))

    async def _search(self, query: str, *, limit: int) -> list[Evidence]:
        found = await self._get(
            "/search/advanced",
            {
                "q": truncate(collapse_whitespace(query), MAX_QUERY_CHARS),
                "answers": 1,
                "order": "desc",
                "sort": "relevance",
                "pagesize": max(1, min(limit, 30)),
            },
        )
        questions = [q for q in found if isinstance(q.get("question_id"), int)]
        if not questions:
            return []
        ids = ";".join(str(q["question_id"]) for q in questions)
        answers = await self._get(
            f"/questions/{ids}/answers",
            {"order": "desc", "sort": "votes", "filter": "withbody", "pagesize": 100},
        )
        return _to_evidence(questions, answers, limit)

    async def _get(self, path: str, params: dict[str, str | int]) -> list[dict[str, Any]]:
        """The items the API lists for `path`, after noting the quota and backoff it reports."""
        await self.gate.wait(self.timeout_s)
        query: dict[str, str | int] = {**params, "site": SITE}
        if key := self._key():
            query["key"] = key
        response = await fetch_json(
            "stackoverflow",
            "GET",
            self._base() + path,
            params=query,
            timeout_s=self.timeout_s,
            max_bytes=self.max_body_bytes,
        )
        body = response.body
        if isinstance(body, dict):
            self._note_limits(body)
        if isinstance(body, dict) and "error_id" in body:
            raise self._api_error(body, response)
        if not response.ok:
            raise SourceError(
                "stackoverflow",
                "rate_limited" if response.status == 429 else "http",
                f"HTTP {response.status}: {snippet(response.text)}",
                retryable=response.status >= 500 or response.status == 429,
            )
        return self._records(body, "items")

    def _note_limits(self, body: dict[str, Any]) -> None:
        backoff = body.get("backoff")
        if isinstance(backoff, int | float) and backoff > 0:
            self.gate.defer(float(backoff))
        quota = body.get("quota_remaining")
        if isinstance(quota, int):
            self.quota_remaining = quota
            if quota <= 0:
                self._quota_exhausted()

    def _api_error(self, body: dict[str, Any], response: JsonResponse) -> SourceError:
        error_id = body.get("error_id")
        name = body.get("error_name", "error")
        message = f"{name} ({error_id}): {body.get('error_message', '')}".strip()
        if error_id == 502 or name == "throttle_violation":
            match = _THROTTLE_WAIT.search(str(body.get("error_message", "")))
            wait = float(match.group(1)) if match else None
            if wait is not None and wait > DAILY_QUOTA_WAIT_S:
                # A wait of hours is the daily quota of this IP or key, not a burst throttle.
                self._quota_exhausted(wait)
            elif wait is not None:
                self.gate.defer(wait, "Stack Overflow throttled this client")
            if wait is not None and wait > self.timeout_s:
                message = f"{self.gate.blocked_reason(self.timeout_s)} [{message}]"
            return SourceError(
                "stackoverflow",
                "rate_limited",
                message,
                retryable=wait is not None and wait <= self.timeout_s,
                retry_after=wait,
            )
        return SourceError(
            "stackoverflow",
            "http",
            f"HTTP {response.status} {message}",
            retryable=error_id in _RETRYABLE_ERRORS,
        )


def _to_evidence(
    questions: list[dict[str, Any]], answers: list[dict[str, Any]], limit: int
) -> list[Evidence]:
    by_question: dict[int, list[dict[str, Any]]] = {}
    for answer in answers:
        qid = answer.get("question_id")
        if isinstance(qid, int) and isinstance(answer.get("answer_id"), int):
            by_question.setdefault(qid, []).append(answer)
    evidence: list[Evidence] = []
    for rank, question in enumerate(questions):
        qid = question["question_id"]
        chosen = sorted(
            by_question.get(qid, []),
            key=lambda a: (not a.get("is_accepted", False), -int(a.get("score") or 0)),
        )[:ANSWERS_PER_QUESTION]
        for answer in chosen:
            evidence.append(_answer_evidence(question, answer, rank))
    return evidence[: max(limit, 1) * ANSWERS_PER_QUESTION]


def _answer_evidence(question: dict[str, Any], answer: dict[str, Any], rank: int) -> Evidence:
    answer_id = int(answer["answer_id"])
    owner = answer.get("owner") if isinstance(answer.get("owner"), dict) else {}
    author = owner.get("display_name") if isinstance(owner, dict) else None
    title = html_to_text(str(question.get("title", ""))).text
    title = title or f"Question {question['question_id']}"
    score = int(answer.get("score") or 0)
    license_ = str(answer.get("content_license") or question.get("content_license") or "")
    return Evidence(
        id=stable_id("stackoverflow", str(answer_id)),
        source="stackoverflow",
        title=title,
        content=html_to_text(str(answer.get("body", ""))).text,
        url=f"https://stackoverflow.com/a/{answer_id}",
        # Search rank, nudged by the community's verdict on the answer.
        score=round(
            1.0 / (1 + rank)
            + (0.1 if answer.get("is_accepted") else 0.0)
            + min(0.1, math.log10(1 + max(score, 0)) / 40),
            4,
        ),
        meta=StackOverflowMeta(
            question_id=int(question["question_id"]),
            answer_id=answer_id,
            is_accepted=bool(answer.get("is_accepted", False)),
            score=score,
            tags=[str(t) for t in question.get("tags", []) if isinstance(t, str)],
            created=_int_or_none(answer.get("creation_date")),
            last_activity=_int_or_none(answer.get("last_activity_date")),
            author=str(author) if author else None,
            license=license_ or "CC BY-SA 4.0",
        ),
    )


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) else None
