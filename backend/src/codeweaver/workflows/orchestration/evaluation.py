"""`codeweaver eval answers`: does the answer name what a correct answer needs?

Each question runs through the real main graph, offline, with default settings, in a fresh
thread and with the answer cache off (a cached answer would measure the cache). A question is
answered correctly when the answer is not a decline and its text contains at least one of the
row's `nuggets` (the API names or idioms a correct answer mentions; case-sensitive); wrongly when
it answers without one; an out-of-scope question is handled when the answer declines.

The relevance floor is the one setting that trades correct answers for declines. Every answer
the engine gives records the relevance of what it quoted, and nothing else depends on the floor,
so one run with the floor at 0 yields the figures at every floor (`floor_curve`).
"""

from __future__ import annotations

import json
import statistics
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from codeweaver.context import Context
from codeweaver.workflows.orchestration.graph import build_main_graph
from codeweaver_engine.compose import floor_for
from codeweaver_engine.language.script import detect_language
from codeweaver_schema import Answer


@dataclass(frozen=True)
class Row:
    """One question: nuggets for an in-scope question, none for an out-of-scope one."""

    id: str
    question: str
    nuggets: tuple[str, ...]
    in_scope: bool


@dataclass(frozen=True)
class Outcome:
    """What the engine did with one question."""

    row: Row
    text: str
    declined: bool
    decline_reason: str | None
    relevance: float | None
    seconds: float
    language: str

    @property
    def correct(self) -> bool:
        """An in-scope question answered with a nugget."""
        return self.row.in_scope and not self.declined and self.has_nugget

    @property
    def has_nugget(self) -> bool:
        """The answer names at least one nugget."""
        return any(n in self.text for n in self.row.nuggets)

    def declined_at(self, floor: float) -> bool:
        """Whether the engine would decline this question with the floor at `floor`."""
        below = self.relevance is not None and self.relevance < floor_for(
            self.row.question, self.language, floor
        )
        return self.declined or (below and self.decline_reason is None)


def read_rows(path: Path, *, in_scope: bool) -> list[Row]:
    """Rows of a JSONL file: `id`, `question` and, for in-scope questions, `nuggets`."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        raw = json.loads(line)
        nuggets = tuple(raw.get("nuggets", ()))
        if in_scope and not nuggets:
            raise ValueError(f"{path}:{number}: an in-scope question needs nuggets")
        rows.append(Row(str(raw.get("id", number)), raw["question"], nuggets, in_scope))
    return rows


async def ask_all(
    rows: Sequence[Row],
    *,
    context: Context,
    on_row: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Run every question through the main graph, each in a fresh thread."""
    graph = build_main_graph(checkpointer=InMemorySaver())
    outcomes = []
    for row in rows:
        started = time.perf_counter()
        config: Any = {"configurable": {"thread_id": str(uuid.uuid4())}}
        values = await graph.ainvoke(
            {"messages": [HumanMessage(row.question)]}, config, context=context
        )
        answer: Answer | None = values.get("answer")
        analysis = values.get("analysis")
        outcome = Outcome(
            row=row,
            text=answer.text if answer else "",
            declined=bool(answer and answer.declined),
            decline_reason=answer.decline_reason if answer else None,
            relevance=answer.relevance if answer else None,
            seconds=time.perf_counter() - started,
            language=analysis.language if analysis else detect_language(row.question),
        )
        outcomes.append(outcome)
        if on_row is not None:
            on_row(outcome)
    return outcomes


def evaluation_context(floor: float | None = None) -> Context:
    """Default settings with the answer cache off (and the relevance floor, when given)."""
    context = replace(Context(), cache_enabled=False)
    return context if floor is None else replace(context, answer_relevance_floor=floor)


def _figures(outcomes: Iterable[Outcome], floor: float | None = None) -> dict[str, Any]:
    scoped = [o for o in outcomes if o.row.in_scope]
    n = len(scoped)

    def declined(o: Outcome) -> bool:
        return o.declined if floor is None else o.declined_at(floor)

    correct = sum(not declined(o) and o.has_nugget for o in scoped)
    gave_up = sum(declined(o) for o in scoped)
    wrong = n - correct - gave_up
    return {
        "n": n,
        "correct": correct,
        "wrong": wrong,
        "declined": gave_up,
        "accuracy": round(correct / n, 4) if n else 0.0,
        "wrong_rate": round(wrong / n, 4) if n else 0.0,
        "decline_rate": round(gave_up / n, 4) if n else 0.0,
    }


def report(outcomes: Sequence[Outcome], floor: float | None = None) -> dict[str, Any]:
    """The figures of an evaluation run (see the module docstring).

    Args:
        outcomes: The run's outcomes.
        floor: Count as declined what this relevance floor would decline (for a run made with
            the floor at 0); None: as the run went.
    """
    scoped = [o for o in outcomes if o.row.in_scope]
    outside = [o for o in outcomes if not o.row.in_scope]
    seconds = sorted(o.seconds for o in outcomes)
    lengths = [len(o.text) for o in outcomes]
    figures = _figures(outcomes, floor)
    figures["by_language"] = {
        language: _figures((o for o in scoped if o.language == language), floor)
        for language in sorted({o.language for o in scoped})
    }
    declined_outside = sum(o.declined if floor is None else o.declined_at(floor) for o in outside)
    figures["out_of_scope"] = {
        "n": len(outside),
        "declined": declined_outside,
        "answered": len(outside) - declined_outside,
    }
    figures["median_s"] = round(statistics.median(seconds), 3) if seconds else 0.0
    figures["p90_s"] = round(seconds[int(0.9 * (len(seconds) - 1))], 3) if seconds else 0.0
    figures["median_chars"] = int(statistics.median(lengths)) if lengths else 0
    return figures


def floor_curve(outcomes: Sequence[Outcome], floors: Sequence[float]) -> list[dict[str, Any]]:
    """Accuracy, wrong rate and decline rate (in scope, and out of scope declined) per floor.

    Exact only for outcomes run with the floor at 0, so that no answer was declined for its
    relevance during the run.
    """
    outside = [o for o in outcomes if not o.row.in_scope]
    curve = []
    for floor in floors:
        point = {"floor": floor, **_figures(outcomes, floor)}
        point["out_of_scope_declined"] = sum(o.declined_at(floor) for o in outside)
        curve.append(point)
    return curve


def verbose_line(outcome: Outcome) -> str:
    """One line per question for `--verbose`."""
    if not outcome.row.in_scope:
        verdict = "declined" if outcome.declined else "ANSWERED"
    elif outcome.declined:
        verdict = "declined"
    else:
        verdict = "correct" if outcome.has_nugget else "WRONG"
    relevance = f"{outcome.relevance:.3f}" if outcome.relevance is not None else "  -  "
    return (
        f"{verdict:8} {relevance} {outcome.seconds:5.1f}s {outcome.row.id:24} "
        f"{outcome.row.question[:70]}"
    )
