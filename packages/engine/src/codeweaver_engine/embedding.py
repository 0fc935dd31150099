"""The one rule for a failing embedder: record the failure, then do the work without it.

The engine ranks by meaning when it can; every step that uses the embedder (the turn's analysis,
the search's rerank, the answer's sentences) also works without it, by rules and shared words. A
failing embedding model never fails a run: the step says in the run's errors what it did instead.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from codeweaver_runtime import EmbeddingError
from codeweaver_schema import ErrorRecord

T = TypeVar("T")


async def with_embedder_or_without(
    embedded: Callable[[], Awaitable[T]],
    without: Callable[[], Awaitable[T]],
    errors: list[ErrorRecord],
    *,
    node: str,
    instead: str | None = None,
) -> T:
    """`embedded()`; when the embedder fails, the failure recorded and `without()`.

    Args:
        embedded: The work with the embedder (getting the embedder included: loading it can
            fail too).
        without: The same work without it.
        errors: Where the failure is recorded, as an `embedding` error of `node`.
        node: The node doing the work.
        instead: What was done instead, told after the failure ("analysed by rules only").
    """
    try:
        return await embedded()
    except EmbeddingError as exc:
        message = f"{exc}; {instead}" if instead else str(exc)
        errors.append(ErrorRecord(node=node, kind="embedding", message=message))
        return await without()
