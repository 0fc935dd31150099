"""The run context of the main graph: every package's settings plus the answering ones.

It inherits each subgraph package's context, so a subgraph added as a node reads the same
object; Studio shows all fields, with their descriptions, as the assistant's configuration.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from langgraph.runtime import Runtime

from codeweaver_cache import CacheContext
from codeweaver_search import SearchContext


@dataclass(kw_only=True)
class Context(SearchContext, CacheContext):
    """Settings of one CodeWeaver run."""

    answer_max_regenerations: int = field(
        default=1,
        metadata={"description": "How often an ungrounded answer is rewritten before delivery."},
    )
    answer_language: str = field(
        default="",
        metadata={"description": "ISO 639-1 code to answer in; empty answers in the question's."},
    )
    max_question_chars: int = field(
        default=12_000,
        metadata={"description": "Longer input is cut to this many characters, with a notice."},
    )


def context_of(runtime: Runtime[Context]) -> Context:
    """The run's context, or the defaults when the caller sent none."""
    return runtime.context if runtime.context is not None else Context()
