"""Fakes and fixtures of the fault-injection tests: a replay server, embedders, Qdrant, models."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from langchain_core.messages import BaseMessage
from numpy.typing import NDArray

from codeweaver.bench.fakes import approving_judge
from codeweaver.workflows.orchestration.prompts import GradeVerdict
from codeweaver_runtime import EmbeddingError
from codeweaver_testing import HashEmbedder, ScriptedChatModel
from packages.search.tests.replay import ReplayServer, Reply, fixture

QUESTIONS = fixture("stackexchange", "questions_11227809_withbody.json")
ANSWERS = fixture("stackexchange", "answers_11227902_withbody.json")
GITHUB = fixture("github", "Search.testSearchHighlightingCode.0.json")["body"]
_TAVILY = fixture("tavily", "tavily_python_test_dummy_response.json")
TAVILY = copy.deepcopy({k: v for k, v in _TAVILY.items() if not k.startswith("_")})
TAVILY["results"][0]["url"] = "https://docs.python.org/3/library/functions.html#sorted"

PREFIX = {"stackoverflow": "/so", "github": "/gh", "docs": "/tv"}
"""Each web source talks to its own path prefix of the one replay server."""


def healthy_routes(server: ReplayServer) -> None:
    """Recorded, successful answers of the three web APIs."""
    server.route("GET", "/so/search/advanced", Reply(body=QUESTIONS))
    server.route("GET", "/so/questions/", Reply(body=ANSWERS))
    server.route("GET", "/gh/search/code", Reply(body=GITHUB))
    server.route("POST", "/tv/search", Reply(body=TAVILY))


@pytest.fixture
async def replay() -> AsyncIterator[ReplayServer]:
    server = ReplayServer()
    await server.start()
    healthy_routes(server)
    try:
        yield server
    finally:
        await server.stop()


class FailingEmbedder(HashEmbedder):
    """An embedder whose model cannot encode anything."""

    def embed_sync(self, texts: Sequence[str]) -> NDArray[np.float32]:
        raise EmbeddingError("embedding failed: injected fault (model crashed)")

    async def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        raise EmbeddingError("embedding failed: injected fault (model crashed)")


class BrokenQdrant:
    """A Qdrant server client whose every call fails (`down`) or hangs (`slow`)."""

    init_options: dict[str, Any]

    def __init__(self, mode: str, delay_s: float = 30.0) -> None:
        self.mode = mode
        self.delay_s = delay_s
        self.init_options = {"url": "http://qdrant.invalid:6333"}
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_"):
            raise AttributeError(name)

        async def method(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            if self.mode == "slow":
                await asyncio.sleep(self.delay_s)
            raise ConnectionRefusedError(f"[Errno 111] Connection refused: qdrant {name}")

        return method


ANSWER_TEXT = "Sorted data makes the branch predictable, so the loop runs faster [1]."


def healthy_responder(messages: list[BaseMessage], schema: str | None) -> Any:
    if schema == "Assessment":
        return approving_judge(str(messages[-1].content))
    if schema == "GradeVerdict":
        return GradeVerdict(grounded=True, reason="checked")
    if schema == "PlanAndAnalysis":
        text = str(messages[-1].content).strip().splitlines()[-1]
        return {
            "kind": "single_topic",
            "questions": [
                {
                    "question": text,
                    "question_type": "independent",
                    "standalone_question": text,
                    "should_cache": True,
                    "intent": "debugging",
                    "language": "en",
                }
            ],
            "reason": "one question",
        }
    if schema is None:
        return ANSWER_TEXT
    raise LookupError(schema)


def faulty_model(fault: str | None) -> ScriptedChatModel:
    """A chat model that works, raises, stalls, or answers structured calls with broken JSON."""

    def respond(messages: list[BaseMessage], schema: str | None) -> Any:
        if fault == "raise":
            raise RuntimeError("injected fault: provider returned 503 Service Unavailable")
        if fault == "malformed" and schema is not None:
            return '{"items": [ {"item": "E1", "relevance": "very", '  # cut-off JSON
        return healthy_responder(messages, schema)

    return ScriptedChatModel(responder=respond, latency_s=2.0 if fault == "timeout" else 0.0)


@dataclass
class Outcome:
    case: str
    status: str
    seconds: float
    errors: list[str] = field(default_factory=list)
    degraded: bool | None = None


@dataclass
class Summary:
    outcomes: list[Outcome] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)


_SUMMARY = Summary()


@pytest.fixture(scope="session")
def fault_summary() -> Summary:
    return _SUMMARY


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _SUMMARY.outcomes:
        return
    write = terminalreporter.write_line
    by_status: dict[str, int] = {}
    for o in _SUMMARY.outcomes:
        by_status[o.status] = by_status.get(o.status, 0) + 1
    terminalreporter.section("fault matrix")
    survived = sum(o.status in ("answered", "degraded") for o in _SUMMARY.outcomes)
    write(
        f"{len(_SUMMARY.outcomes)} fault combinations run, {survived} survived with every check "
        "passing (answer or degraded message, errors of the right kind, warning)"
    )
    write("outcomes: " + ", ".join(f"{k}={v}" for k, v in sorted(by_status.items())))
    slowest = max(_SUMMARY.outcomes, key=lambda o: o.seconds)
    write(f"slowest run: {slowest.case} in {slowest.seconds:.2f}s")
    for o in _SUMMARY.outcomes:
        write(
            f"{o.status:<8} {o.seconds:5.2f}s degraded={o.degraded!s:<5} {o.case}: "
            + (", ".join(o.errors) or "-")
        )
