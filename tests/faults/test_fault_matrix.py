"""The fault matrix: real runs of the main graph with faults injected, one and several at a time.

The three web sources are the real `StackOverflowSource`, `GitHubCodeSource` and
`TavilyDocsSource`, talking HTTP to a local replay server that misbehaves on demand (or to a
closed port). The chat model, the embedder and Qdrant are fakes that fail in the ways real ones
do. Every run must end with an answer, the failures recorded in `errors` with the right kind,
the answer marked degraded with a warning naming what failed, nothing raised, and every stalled
dependency given up by its own timeout (a `timeout` error against it) rather than waited for.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from codeweaver_schema import SOURCE_LABELS, SourceName
from codeweaver_testing import HashEmbedder

from .conftest import (
    GITHUB,
    QUESTIONS,
    TAVILY,
    BrokenQdrant,
    FailingEmbedder,
    Outcome,
    Summary,
    faulty_model,
)
from .harness import WEB, all_errors, build, context, run, web_sources

QUESTION = "Why is processing a sorted array faster than processing an unsorted array?"
FOLLOW_UP = "How do I sort a dictionary by value in Python?"
DEBUG_QUESTION = (
    "Why does my loop over a sorted array raise an error, yet the unsorted one runs fine?"
)
"""Names an error, so intent comes from the rules and analysis needs no embedding."""
TWO_QUESTIONS = (
    "Why is processing a sorted array faster than an unsorted array?\n"
    "How do I search code on GitHub for a function name?"
)
HANG_GUARD_S = 24.0
"""A run still going after this has hung; how fast a run is is not checked here (a busy machine
is slow), only that each stalled dependency was given up by its own timeout."""

SLOW_REPLY_S = 5.0
"""How long a 'timing out' web source takes to reply; the harness allows SOURCE_TIMEOUT_S."""

_PATHS = {
    "stackoverflow": ("GET", "/so/search/advanced", QUESTIONS),
    "github": ("GET", "/gh/search/code", GITHUB),
    "docs": ("POST", "/tv/search", TAVILY),
}

EXPECTED_KIND = {
    "timeout": "timeout",
    "refused": "http",
    "429": "rate_limited",
    "backoff": "rate_limited",
    "500": "http",
    "malformed": "malformed",
    "huge": "malformed",
}


def fault_reply(source: str, fault: str) -> Any:
    from packages.search.tests.replay import Reply

    healthy = _PATHS[source][2]
    if fault == "timeout":
        return Reply(body=healthy, delay_s=SLOW_REPLY_S)
    if fault == "429":
        if source == "stackoverflow":
            return Reply(
                429,
                {
                    "error_id": 502,
                    "error_name": "throttle_violation",
                    "error_message": "too many requests from this IP, more requests available "
                    "in 60 seconds",
                    "backoff": 60,
                },
            )
        return Reply(429, {"message": "API rate limit exceeded"}, headers={"retry-after": "60"})
    if fault == "backoff":
        # A successful page that asks us to wait 60 s before the next request (answers).
        return Reply(body={**QUESTIONS, "backoff": 60})
    if fault == "500":
        return Reply(
            500,
            raw=b"<html><body>Internal Server Error</body></html>",
            headers={"content-type": "text/html"},
        )
    if fault == "malformed":
        return Reply(raw=b'{"items": [{"question_id": 1, "title": "cut off')
    if fault == "huge":
        return Reply(stream_bytes=10 * 1024 * 1024)
    raise ValueError(fault)


@dataclass(frozen=True)
class Case:
    id: str
    web: tuple[tuple[SourceName, str], ...] = ()
    model: str | None = None
    embedder: bool = False
    qdrant: str | None = None
    text: str = QUESTION
    history: bool = False
    model_called: bool = True
    """False when no evidence survives, so no model call happens and no model error is due."""

    @property
    def faults(self) -> int:
        return len(self.web) + bool(self.model) + self.embedder + bool(self.qdrant)


WEB_FAULTS = ("timeout", "refused", "429", "500", "malformed", "huge")
SINGLE_WEB = [
    Case(f"{source}-{fault}", web=((source, fault),)) for source in WEB for fault in WEB_FAULTS
]
OTHER_SINGLE = [
    Case("stackoverflow-backoff-in-body", web=(("stackoverflow", "backoff"),)),
    Case("model-raises", model="raise"),
    Case("model-times-out", model="timeout"),
    Case("model-malformed-structured-output", model="malformed"),
    Case("planner-model-raises-on-follow-up", model="raise", text=FOLLOW_UP, history=True),
    Case("planner-model-malformed-on-follow-up", model="malformed", text=FOLLOW_UP, history=True),
    Case("embedder-fails", embedder=True),
    Case("embedder-fails-on-debugging-question", embedder=True, text=DEBUG_QUESTION),
    Case("qdrant-down", qdrant="down"),
    Case("qdrant-slow", qdrant="slow"),
]
COMBINED = [
    Case("all-web-time-out", web=tuple((s, "timeout") for s in WEB)),
    Case("all-web-refused", web=tuple((s, "refused") for s in WEB)),
    Case("all-web-huge", web=tuple((s, "huge") for s in WEB)),
    Case(
        "so-429+gh-500+docs-malformed",
        web=(("stackoverflow", "429"), ("github", "500"), ("docs", "malformed")),
    ),
    Case(
        "all-web-500+model-raises",
        web=tuple((s, "500") for s in WEB),
        model="raise",
        model_called=False,
    ),
    Case("gh-500+docs-500+model-raises", web=(("github", "500"), ("docs", "500")), model="raise"),
    Case("gh-refused+model-times-out", web=(("github", "refused"),), model="timeout"),
    Case("docs-timeout+model-malformed", web=(("docs", "timeout"),), model="malformed"),
    Case("model-malformed+qdrant-slow", model="malformed", qdrant="slow"),
    Case("so-huge+qdrant-down", web=(("stackoverflow", "huge"),), qdrant="down"),
    Case("embedder-fails+qdrant-down", embedder=True, qdrant="down"),
    Case("embedder-fails+model-raises", embedder=True, model="raise"),
    Case(
        "embedder-fails-on-debugging-question+model-raises",
        embedder=True,
        model="raise",
        text=DEBUG_QUESTION,
    ),
    Case(
        "everything-fails",
        web=(("stackoverflow", "timeout"), ("github", "refused"), ("docs", "429")),
        model="timeout",
        embedder=True,
        qdrant="down",
        model_called=False,
    ),
    Case(
        "two-questions+so-500+gh-429+model-raises",
        web=(("stackoverflow", "500"), ("github", "429")),
        model="raise",
        text=TWO_QUESTIONS,
    ),
    Case(
        "two-questions+all-web-timeout+qdrant-slow",
        web=tuple((s, "timeout") for s in WEB),
        qdrant="slow",
        text=TWO_QUESTIONS,
    ),
]
CASES = [*SINGLE_WEB, *OTHER_SINGLE, *COMBINED]


def params() -> list[Any]:
    return [pytest.param(case, id=case.id) for case in CASES]


def test_matrix_is_large_enough() -> None:
    assert len(CASES) >= 30
    assert len({c.id for c in CASES}) == len(CASES)
    assert sum(c.faults > 1 for c in CASES) >= 10


def messages_for(case: Case) -> list[BaseMessage]:
    if not case.history:
        return [HumanMessage(case.text)]
    return [
        HumanMessage(QUESTION),
        AIMessage("Branch prediction works better on sorted data [1]."),
        HumanMessage(case.text),
    ]


@pytest.mark.parametrize("case", params())
async def test_fault_combination(
    case: Case, replay: Any, fault_summary: Summary, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STACKEXCHANGE_KEY", "fake-se-key")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_fake")
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-fake")
    refused = {source for source, fault in case.web if fault == "refused"}
    for source, fault in case.web:
        if fault != "refused":
            method, path, _ = _PATHS[source]
            replay.route(method, path, fault_reply(source, fault))
    graph, _ = build(
        sources=web_sources(replay.url, refused),
        embedder=FailingEmbedder() if case.embedder else HashEmbedder(),
        models=faulty_model(case.model),
        qdrant=BrokenQdrant(case.qdrant) if case.qdrant else None,
    )

    started = time.perf_counter()
    outcome = Outcome(case=case.id, status="raised", seconds=0.0)
    fault_summary.add(outcome)
    try:
        values, _ = await asyncio.wait_for(
            run(graph, context(), messages_for(case)), timeout=HANG_GUARD_S
        )
    except TimeoutError:
        outcome.status = "hung"
        outcome.seconds = time.perf_counter() - started
        pytest.fail(f"run did not end within {HANG_GUARD_S:g} s")
    except Exception as exc:
        outcome.seconds = time.perf_counter() - started
        outcome.errors = [f"{type(exc).__name__}: {exc}"[:200]]
        pytest.fail(f"the run raised to the caller: {type(exc).__name__}: {exc}")
    outcome.seconds = time.perf_counter() - started
    errors = all_errors(values)
    answer = values.get("answer")
    outcome.errors = [f"{e.source or e.node}:{e.kind}" for e in errors]
    outcome.degraded = answer.degraded if answer is not None else None
    outcome.status = "check-failed"

    # An answer or a clear degraded message, always.
    assert answer is not None, "no answer in the final state"
    assert answer.text.strip()

    # Every injected web fault is recorded against its source with the right kind.
    for source, fault in case.web:
        kinds = {e.kind for e in errors if e.source == source}
        assert EXPECTED_KIND[fault] in kinds, (source, fault, outcome.errors)
    if case.model and case.model_called:
        assert any(e.kind == "model" for e in errors), outcome.errors
    if case.embedder:
        assert any(e.kind == "embedding" for e in errors), outcome.errors
    if case.qdrant:
        wanted = "timeout" if case.qdrant == "slow" else "store"
        cache_errors = [e for e in errors if e.node.startswith("cache")]
        assert any(e.kind == wanted for e in cache_errors), outcome.errors

    # The user is told: the answer is degraded and its warning names every failed source.
    failed = [e for e in errors if e.kind not in ("skipped", "input")]
    if failed:
        assert answer.degraded, outcome.errors
        if case.text == TWO_QUESTIONS:
            # Each question's section names its failed sources inline.
            for source, _ in case.web:
                assert SOURCE_LABELS[source] in answer.text, source
        assert answer.warning, "degraded answer without a warning"
        for source, _ in case.web:
            assert SOURCE_LABELS[source] in answer.warning, (source, answer.warning)
    outcome.status = "degraded" if answer.degraded else "answered"


async def test_no_fault_baseline(replay: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same harness with nothing broken: a grounded, non-degraded answer from the web."""
    monkeypatch.setenv("STACKEXCHANGE_KEY", "fake-se-key")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_fake")
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-fake")
    graph, _ = build(
        sources=web_sources(replay.url), embedder=HashEmbedder(), models=faulty_model(None)
    )
    values, _ = await run(graph, context(), [HumanMessage(QUESTION)])
    answer = values["answer"]
    assert not all_errors(values), all_errors(values)
    assert not answer.degraded
    assert answer.warning is None
    assert answer.citations
    assert {e.source for e in values["evidence"]} >= {"stackoverflow"}
