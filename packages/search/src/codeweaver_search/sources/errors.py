"""What a failing source raises, and which failures are worth another attempt."""

from __future__ import annotations

from langgraph.errors import NodeTimeoutError

from codeweaver_schema import ErrorKind, Evidence, SourceName


class SourceError(Exception):
    """A source call failed; the graph records it in `errors` and the other sources go on.

    Attributes:
        source: Which source failed.
        kind: The error kind recorded in state.
        retryable: Whether another attempt may succeed (5xx, short rate-limit waits, resets).
        retry_after: Seconds the service asked us to wait, when it said so.
    """

    def __init__(
        self,
        source: SourceName,
        kind: ErrorKind,
        message: str,
        *,
        retryable: bool = False,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.source: SourceName = source
        self.kind: ErrorKind = kind
        self.message = message
        self.retryable = retryable
        self.retry_after = retry_after


class PartialResults(SourceError):
    """A source answered in part: what it found is kept, and the failure recorded beside it.

    Attributes:
        found: The evidence the source could still return.
    """

    def __init__(
        self, source: SourceName, kind: ErrorKind, message: str, *, found: list[Evidence]
    ) -> None:
        super().__init__(source, kind, message)
        self.found = found


def is_retryable(exc: Exception) -> bool:
    """The `retry_on` predicate of the source nodes' `RetryPolicy`.

    A node timeout is not retried: the timeout is the source's whole budget, and a second
    attempt would make the slowest source slower still.
    """
    if isinstance(exc, SourceError):
        return exc.retryable
    if isinstance(exc, NodeTimeoutError):
        return False
    return False
