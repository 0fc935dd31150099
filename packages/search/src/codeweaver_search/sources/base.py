"""The contract every source meets, and the guards shared by the web sources."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import time
from collections import deque
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from codeweaver_schema import Evidence, Intent, SourceName, stable_id
from codeweaver_search.sources.errors import SourceError
from codeweaver_search.sources.http import MAX_BODY_BYTES

T = TypeVar("T")


@runtime_checkable
class Source(Protocol):
    """One place evidence comes from: Stack Overflow, GitHub code, official docs, local files."""

    @property
    def name(self) -> SourceName:
        """The source's name, which is also its node's suffix (`search_<name>`)."""
        ...

    def unavailable_reason(self) -> str | None:
        """Why the source cannot be asked now (no key, circuit open), or None when it can."""
        ...

    async def search(
        self, query: str, *, intent: Intent, language: str, limit: int
    ) -> list[Evidence]:
        """Evidence for a query, best first.

        Raises:
            SourceError: the source failed; `retryable` says whether to try again.
        """
        ...


@runtime_checkable
class Scoped(Protocol):
    """A source that says what, besides the query, decides its results.

    The search subgraph memoises results (`raw_response_key`); two runs may share them only
    when they would have received the same results. A web API's depend on its address and key,
    not on who asks; a local corpus's on whose documents are read, in which store, with which
    embedding model and documentation.
    """

    def result_scope(self) -> str | None:
        """A digest of everything besides the query that decides the results; None: unknown."""
        ...


def result_scope(source: Source, tenant: str) -> str:
    """What a source's memoised results are keyed by, besides the query.

    The source's own `Scoped.result_scope`, else the tenant: a source that does not say what
    its results depend on is taken to depend on who asks, so no tenant is served another's.
    """
    declared = source.result_scope() if isinstance(source, Scoped) else None
    return f"{source.name}:{declared or 'tenant:' + stable_id(tenant)}"


@runtime_checkable
class NeedsWarmUp(Protocol):
    """A source with one-time setup that must not count against a search's time budget."""

    async def warm_up(self) -> None:
        """Do the setup once; later calls return at once.

        Raises:
            SourceError: the setup failed.
        """
        ...


@runtime_checkable
class RateLimited(Protocol):
    """A source with a quota or rate limit that can be used up for a while."""

    def rate_limit_reason(self) -> str | None:
        """Why the source's limit stops requests now and when it resets, or None."""
        ...


def resume_time(seconds: float) -> str:
    """When a wait of `seconds` from now ends, for people: '14:05 UTC (in 3 h 12 min)'."""
    at = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=seconds)
    if seconds < 120:
        left = f"{seconds:.0f} s"
    elif seconds < 3600:
        left = f"{seconds / 60:.0f} min"
    else:
        left = f"{int(seconds // 3600)} h {int(seconds % 3600 // 60)} min"
    day = "" if at.date() == dt.datetime.now(dt.UTC).date() else f"{at:%Y-%m-%d} "
    return f"{day}{at:%H:%M} UTC (in {left})"


@dataclass
class CircuitBreaker:
    """Stops asking a source that keeps failing, and tries it again after a cool-down."""

    threshold: int = 3
    cooldown_s: float = 60.0
    failures: int = 0
    opened_at: float | None = None

    def open_reason(self) -> str | None:
        """Why the circuit is open, or None when calls may go through."""
        if self.opened_at is None:
            return None
        remaining = self.cooldown_s - (time.monotonic() - self.opened_at)
        if remaining <= 0:
            # Half-open: let one call through; a failure re-opens at once.
            self.opened_at = None
            self.failures = self.threshold - 1
            return None
        return (
            f"circuit open after {self.failures} consecutive failures; "
            f"retrying in {remaining:.0f} s"
        )

    async def call(self, work: Awaitable[T]) -> T:
        """Await a source call, counting its failure (`SourceError`) or success."""
        try:
            result = await work
        except SourceError:
            self.record_failure()
            raise
        self.record_success()
        return result

    def record_success(self) -> None:
        """A call succeeded: close the circuit."""
        self.failures = 0
        self.opened_at = None

    def record_failure(self) -> None:
        """A call failed: open the circuit once failures reach the threshold."""
        self.failures += 1
        if self.failures >= self.threshold:
            self.opened_at = time.monotonic()


@dataclass
class BackoffGate:
    """Holds requests back until the time a service asked us to wait for has passed."""

    source: SourceName
    not_before: float = 0.0
    why: str = ""
    """What the service said, for the user: 'Stack Overflow daily quota exhausted'."""

    def defer(self, seconds: float, why: str = "") -> None:
        """Wait at least `seconds` before the next request; `why` names the limit for people."""
        until = time.monotonic() + max(0.0, seconds)
        if until > self.not_before:
            self.not_before = until
            self.why = why or self.why

    def remaining(self) -> float:
        """Seconds still to wait."""
        return max(0.0, self.not_before - time.monotonic())

    def blocked_reason(self, budget_s: float) -> str | None:
        """Why requests are held back for longer than `budget_s`, and until when; else None."""
        remaining = self.remaining()
        if remaining <= budget_s:
            return None
        why = self.why or f"{self.source} asked to back off"
        return f"{why}; next request allowed at {resume_time(remaining)}"

    async def wait(self, budget_s: float) -> None:
        """Sleep out the wait if it fits the budget.

        Raises:
            SourceError: the wait is longer than the budget (kind rate_limited).
        """
        remaining = self.remaining()
        if remaining <= 0:
            return
        if remaining > budget_s:
            raise SourceError(
                self.source,
                "rate_limited",
                self.blocked_reason(budget_s) or f"asked to back off for {remaining:.1f} s",
                retry_after=remaining,
            )
        await asyncio.sleep(remaining)


@dataclass
class RateLimiter:
    """At most `max_calls` requests in any window of `period_s` seconds (sliding window)."""

    source: SourceName
    max_calls: int
    period_s: float = 60.0
    _calls: deque[float] = field(default_factory=deque)

    def _prune(self, now: float) -> None:
        while self._calls and now - self._calls[0] >= self.period_s:
            self._calls.popleft()

    def next_slot_in(self) -> float:
        """Seconds until a request may be sent."""
        now = time.monotonic()
        self._prune(now)
        if len(self._calls) < self.max_calls:
            return 0.0
        return self.period_s - (now - self._calls[0])

    async def acquire(self, budget_s: float) -> None:
        """Take a slot, waiting for one if the wait fits the budget.

        Raises:
            SourceError: no slot frees within the budget (kind rate_limited).
        """
        wait = self.next_slot_in()
        if wait > budget_s:
            raise SourceError(
                self.source,
                "rate_limited",
                f"local limit of {self.max_calls} requests per {self.period_s:g} s reached; "
                f"next slot in {wait:.1f} s",
                retry_after=wait,
            )
        if wait > 0:
            await asyncio.sleep(wait)
        self._calls.append(time.monotonic())


@dataclass(kw_only=True)
class WebApi:
    """A web API's address, key and guards: what the web sources share.

    A source (a dataclass too) fixes its `name` and names the variable that overrides its base
    URL (tests point it at a local replay server), its public URL and the variable of its key.
    """

    URL_ENV: ClassVar[str]
    DEFAULT_URL: ClassVar[str]
    KEY_ENV: ClassVar[str]
    MISSING_KEY: ClassVar[str | None] = None
    """Why the source cannot be asked without a key; None when it works without one."""

    name: SourceName
    base_url: str | None = None
    key: str | None = None
    """The API key; default: the value of `KEY_ENV`."""
    timeout_s: float = 10.0
    max_body_bytes: int = MAX_BODY_BYTES
    breaker: CircuitBreaker = field(default_factory=CircuitBreaker)
    gate: BackoffGate = field(init=False)
    """Holds requests back while the API's quota, rate limit or throttle lasts."""

    def __post_init__(self) -> None:
        self.gate = BackoffGate(self.name)

    def _base(self) -> str:
        """The API's base URL: the source's own, else the environment's, else the public one."""
        return (self.base_url or os.environ.get(self.URL_ENV) or self.DEFAULT_URL).rstrip("/")

    def _key(self) -> str | None:
        return self.key or os.environ.get(self.KEY_ENV) or None

    def _required_key(self) -> str:
        """The key of a source that needs one.

        Raises:
            SourceError: there is none (kind skipped).
        """
        key = self._key()
        if not key:
            raise SourceError(self.name, "skipped", f"{self.KEY_ENV} is not set")
        return key

    def _records(self, body: Any, key: str) -> list[dict[str, Any]]:
        """The JSON objects a response body lists under `key`; other entries are passed over.

        Raises:
            SourceError: the body is not an object with a list under `key` (kind malformed).
        """
        if not isinstance(body, dict) or not isinstance(body.get(key), list):
            raise SourceError(self.name, "malformed", f"response has no '{key}' list")
        return [item for item in body[key] if isinstance(item, dict)]

    def result_scope(self) -> str:
        """The API's address and a digest of its key: its results are the same for every user.

        The key is part of it because it can change what an API finds (a GitHub token sees the
        private repositories its owner may read), never whose CodeWeaver run asks.
        """
        return stable_id(self.name, self._base(), self._key() or "")

    def rate_limit_reason(self) -> str | None:
        """A quota, rate limit or throttle of the API holds requests back longer than a search."""
        return self.gate.blocked_reason(self.timeout_s)

    def unavailable_reason(self) -> str | None:
        """No key where one is needed, a limit longer than a search, or an open circuit."""
        if self.MISSING_KEY and not self._key():
            return self.MISSING_KEY
        return self.rate_limit_reason() or self.breaker.open_reason()
