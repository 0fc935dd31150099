"""The run context of the main graph: every package's settings plus the answering ones.

It inherits each subgraph package's context, so a subgraph added as a node reads the same
object; Studio shows all fields, with their descriptions, as the assistant's configuration.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from langgraph.runtime import Runtime

from codeweaver_cache import CacheContext
from codeweaver_engine.compose import RELEVANCE_FLOOR
from codeweaver_runtime import run_context, setting
from codeweaver_search import SearchContext

MAX_REGENERATIONS = 3
"""Ceiling of `answer_max_regenerations`, whatever a configuration asks."""


@dataclass(kw_only=True)
class Context(SearchContext, CacheContext):
    """Settings of one CodeWeaver run."""

    answer_max_regenerations: int = setting(
        1,
        bounds=(0, MAX_REGENERATIONS),
        description="How often an ungrounded answer is rewritten before delivery (at most 3).",
    )
    answer_language: str = setting(
        "",
        pattern="([a-z]{2,3})?",
        pattern_help="an ISO 639-1 code such as en or ko, or empty",
        description="ISO 639-1 code to answer in; empty answers in the question's.",
    )
    answer_relevance_floor: float = setting(
        RELEVANCE_FLOOR,
        bounds=(0.0, 1.0),
        description="Offline engine: relevance (0-1) the best evidence needs before it is "
        "quoted as an answer; below it, the engine declines and says what to do next. "
        "Calibrated by `codeweaver eval answers --floors`.",
    )
    max_question_chars: int = setting(
        12_000,
        bounds=(200, 1_000_000),
        description="Longer input is cut to this many characters, with a notice.",
    )
    run_budget_s: float = setting(
        120.0,
        bounds=(0.0, 24 * 3600.0),
        description="Seconds a run may take before optional work (further search rounds, "
        "answer rewrites) is skipped and the answer is written from what was found, with a "
        "notice. 0: no budget.",
    )


def context_of(runtime: Runtime[Context]) -> Context:
    """The run's context, or the defaults when the caller sent none."""
    return run_context(runtime, Context)


def max_regenerations(context: Context) -> int:
    """The configured number of rewrites, clamped to 0..`MAX_REGENERATIONS`."""
    return max(0, min(context.answer_max_regenerations, MAX_REGENERATIONS))


Clock = Callable[[], float]
"""Epoch seconds. Deadlines are absolute so that they keep their meaning across a checkpoint."""


def wall_clock() -> float:
    """The clock every run deadline is set and checked by, unless a test passes its own."""
    return time.time()


def run_deadline(context: Context, clock: Clock = wall_clock) -> float | None:
    """The time on `clock` at which a run starting now is out of budget; None without a budget."""
    return clock() + context.run_budget_s if context.run_budget_s > 0 else None
