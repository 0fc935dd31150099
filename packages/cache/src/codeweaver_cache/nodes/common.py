"""What the cache nodes share: finding the cache, recording failures, delivering a hit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langgraph.runtime import Runtime

from codeweaver_cache.context import CacheContext
from codeweaver_cache.state import LookupUpdate
from codeweaver_cache.store import SemanticCache
from codeweaver_runtime import Collaborators, run_context
from codeweaver_schema import Answer, CacheDecision, ErrorKind, ErrorRecord, answer_message


@dataclass(frozen=True)
class CacheDeps(Collaborators):
    """The shared collaborators (the verifier's models) plus the cache itself."""

    cache: SemanticCache | None = None
    """The cache; None: the process-wide one, viewed with this run's timeout."""

    def cache_for(self, context: CacheContext) -> SemanticCache:
        """The injected cache, else the shared one with the context's timeout."""
        if self.cache is not None:
            return self.cache
        return SemanticCache.shared(timeout_s=context.cache_timeout_s)


def cache_context(runtime: Runtime[CacheContext]) -> CacheContext:
    """The run's context; the defaults when the graph runs without one (Studio, a bare invoke)."""
    return run_context(runtime, CacheContext)


def error(node: str, kind: ErrorKind, exc: BaseException) -> ErrorRecord:
    """An error record for a failure the run survives."""
    return ErrorRecord(node=node, kind=kind, message=str(exc) or type(exc).__name__)


def miss(reason: str, **details: Any) -> LookupUpdate:
    """The update of a lookup that missed."""
    return {"cache_decision": CacheDecision(hit=False, reason=reason, **details)}


def hit(answer: Answer, decision: CacheDecision) -> LookupUpdate:
    """The update of a lookup that hit: the cached answer, delivered as this turn's message."""
    served = answer.model_copy(update={"from_cache": True})
    return {
        "answer": served,
        "messages": [answer_message(served)],
        "cache_decision": decision,
    }
