"""The main graph with real chat clients on the wire, against a local model server that
misbehaves as small local models do (`codeweaver_testing.model_server`).

Each case runs two turns of one thread through the whole graph, streamed to a `messages`
client: a first question (judge, answer, grade) and a new topic (planner too). The model is
named by its server, `openai:test-model@http://127.0.0.1:<port>/v1` (or Gemini's), so the
graph builds the real `ChatOpenAI` / `ChatGoogleGenerativeAI` from the run context. Every case
ends with a cited answer, or a degraded one that says what failed; no `<think>` text, no
internal call's tokens and no key ever reach the client, the logs or the state.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from langchain_core.messages import AIMessageChunk, BaseMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from codeweaver.context import Context
from codeweaver.persistence import schema_serializer
from codeweaver.workflows.orchestration.graph import build_main_graph
from codeweaver.workflows.orchestration.nodes.answering import ANSWER_TAG
from codeweaver_cache import SemanticCache
from codeweaver_runtime import DELIVERY_TAG, ModelCallCounter, open_qdrant
from codeweaver_testing import HashEmbedder
from codeweaver_testing.model_server import ChatRequest, ModelServer, Quirks, Reply

from .conftest import KeywordSource

REVERSE = "How do I reverse a list in Python?"
SORT = "How do I sort a dictionary by value?"
ANSWERS = {
    REVERSE: "Call `lst.reverse()`: the reverse() method modifies the list in place [1].",
    SORT: "Use `sorted(d.items(), key=lambda kv: kv[1])` to sort the items by value [1].",
}
SERVER_KEY = "sk-local-SECRET-7f3a9c1e5b2d"
OPENAI_KEY = "sk-openai-SECRET-4e8b2a6c0d1f"

Outcome = Literal["model", "degraded", "offline"]


def _between(text: str, tag: str) -> str:
    found = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", text, flags=re.DOTALL)
    return found.group(1).strip() if found else ""


def brain(request: ChatRequest) -> Reply:
    """What a capable model answers to each of CodeWeaver's prompts, told by its system prompt."""
    system, user = request.text("system"), request.last_user()
    if "evidence judge" in system:
        question = _between(user, "question")
        words = {w for w in re.findall(r"[a-z]+", question.lower()) if len(w) > 3}
        items = []
        for label, body in re.findall(
            r"\[(E\d+)\][^\n]*\n(.*?)(?=\n\n\[E\d+\]|\nEND )", user, re.S
        ):
            shared = words & set(re.findall(r"[a-z]+", body.lower()))
            items.append({"item": label, "relevance": min(1.0, 0.2 * len(shared)), "summary": ""})
        return {
            "items": items,
            "sufficiency_score": 0.9,
            "sufficient": True,
            "missing_aspects": [],
            "refined_query": None,
            "reason": "the evidence covers the question",
        }
    if "grounded in its evidence" in system:
        return {"grounded": True, "unsupported_claims": [], "reason": "every claim is cited"}
    if "You plan the work" in system:
        message = _between(user, "new_message")
        planned = {
            "question": message,
            "question_type": "new_topic",
            "standalone_question": message,
            "should_cache": True,
            "intent": "learning",
            "language": "en",
        }
        return {"kind": "single_topic", "questions": [planned], "reason": "one question"}
    return ANSWERS[SORT if "dictionary" in _between(user, "question") else REVERSE]


@dataclass(frozen=True)
class Case:
    name: str
    quirks: Quirks
    outcome: Outcome
    provider: str = "openai"
    warning: str | None = None
    """Words the answer's warning must hold when it is degraded."""
    timeout_s: float = 30.0
    requests_per_call: int | None = None
    """When set: every model call of the first turn is exactly this many HTTP requests."""


CASES = [
    Case("well-behaved", Quirks(), "model", requests_per_call=1),
    Case("rejects-response-format", Quirks(reject_response_format=True), "model"),
    Case(
        "rejects-response-format-and-tools",
        Quirks(reject_response_format=True, reject_tools=True),
        "model",
    ),
    Case("json-in-fences", Quirks(json_as_text="fenced"), "model", requests_per_call=1),
    Case("json-in-prose", Quirks(json_as_text="prose"), "model", requests_per_call=1),
    Case("think-first", Quirks(think=True), "model", requests_per_call=1),
    Case(
        "small-reasoning-model",
        Quirks(reject_response_format=True, json_as_text="fenced", think=True),
        "model",
    ),
    Case("trailing-commas", Quirks(trailing_commas=True), "model", requests_per_call=1),
    Case(
        "drops-required-fields",
        Quirks(drop_required=True),
        "degraded",
        warning="rerank (model replies not in the requested format)",
    ),
    Case("slow-tokens", Quirks(token_delay_s=0.03), "model", requests_per_call=1),
    Case(
        "tokens-slower-than-the-timeout",
        Quirks(token_delay_s=0.5),
        "offline",
        warning="answer (model timed out)",
        timeout_s=2.0,
    ),
    Case("429-once-with-retry-after", Quirks(rate_limited=1, retry_after_s=1), "model"),
    Case(
        "429-throughout",
        Quirks(rate_limited=1000, retry_after_s=1),
        "offline",
        warning="answer (model rate-limited)",
    ),
    Case("500-once", Quirks(server_errors=1), "model"),
    Case(
        "500-throughout",
        Quirks(server_errors=1000),
        "offline",
        warning="answer (model server error)",
    ),
    Case(
        "stream-dropped-mid-answer",
        Quirks(cut_stream_after=4),
        "offline",
        warning="answer (model connection lost)",
    ),
    Case(
        "stream-ended-mid-answer",
        Quirks(cut_stream_after=4, cut_by="end"),
        "offline",
        warning="answer (model reply cut off)",
    ),
    Case("gemini", Quirks(), "model", provider="google_genai", requests_per_call=1),
    Case(
        "gemini-small-model",
        Quirks(reject_response_format=True, json_as_text="prose", think=True),
        "model",
        provider="google_genai",
    ),
]


@dataclass
class Turn:
    values: dict[str, Any]
    calls: int
    tokens: dict[str, dict[str, int]]
    streamed: list[tuple[BaseMessage, dict[str, Any]]] = field(default_factory=list)
    first_request: int = 0
    requests: int = 0

    @property
    def answer_tokens(self) -> list[str]:
        return [
            str(m.content)
            for m, meta in self.streamed
            if isinstance(m, AIMessageChunk)
            and ANSWER_TAG in meta.get("tags", [])
            and DELIVERY_TAG not in meta.get("tags", [])
        ]


async def ask(graph: Any, ctx: Context, server: ModelServer, text: str) -> Turn:
    counter = ModelCallCounter()
    config: Any = {"configurable": {"thread_id": "wire"}, "callbacks": [counter]}
    before = len(server.exchanges)
    turn = Turn({}, 0, {}, first_request=before)
    async for _, (message, metadata) in graph.astream(
        {"messages": [HumanMessage(text)]},
        config,
        context=ctx,
        stream_mode="messages",
        subgraphs=True,
    ):
        turn.streamed.append((message, metadata))
    turn.values = (await graph.aget_state(config)).values
    turn.calls, turn.tokens = counter.calls, counter.tokens()
    turn.requests = len(server.exchanges) - before
    return turn


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
async def test_the_graph_on_the_wire(
    case: Case, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("CODEWEAVER_MODEL_SERVER_KEY", SERVER_KEY)
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    monkeypatch.setenv("GOOGLE_API_KEY", OPENAI_KEY)
    embedder = HashEmbedder()
    saver = InMemorySaver(serde=schema_serializer())
    graph = build_main_graph(
        embedder=embedder,
        sources={"local": KeywordSource()},
        cache=SemanticCache(open_qdrant(":memory:"), embedder),
        checkpointer=saver,
    )
    with ModelServer(brain, quirks=case.quirks) as server:
        url = server.openai_url if case.provider == "openai" else server.gemini_url
        ctx = Context(
            chat_model=f"{case.provider}:test-model@{url}",
            search_sources=["local"],
            search_max_iterations=1,
            model_timeout_s=case.timeout_s,
            # The keyword source's scores are not MiniLM cosines: the offline fallback must
            # quote here, so its relevance floor (tested in engine/test_offline_answers) is off.
            answer_relevance_floor=0.0,
        )
        first = await ask(graph, ctx, server, REVERSE)
        second = await ask(graph, ctx, server, SORT)

    for question, turn in ((REVERSE, first), (SORT, second)):
        answer = turn.values["answer"]
        assert answer.citations, f"{case.name}: no citation"
        assert "<think>" not in answer.text
        if case.outcome == "model":
            assert not answer.offline
            assert answer.text == ANSWERS[question]
            assert answer.grounded
            assert not answer.degraded
            assert not turn.values["errors"]
            assert "".join(turn.answer_tokens) == ANSWERS[question]
        else:
            assert answer.degraded
            assert case.warning is not None
            assert case.warning in (answer.warning or "")
            assert any(e.kind == "model" for e in turn.values["errors"])
            assert answer.offline == (case.outcome == "offline")
            assert not turn.values.get("cache_stored")
        _check_stream(turn)
        if case.outcome != "offline":
            _check_tokens(turn, server, case)
    if case.requests_per_call is not None:
        assert first.calls <= 4
        assert first.requests == first.calls * case.requests_per_call
    if case.quirks.reject_response_format and case.outcome == "model":
        # Refused once, then remembered for this model and server: never asked again.
        schema_requests = [r for r in server.requests() if r.structure == "json_schema"]
        assert len(schema_requests) == 1
        assert second.requests == second.calls
    if case.name == "slow-tokens":
        assert len(first.answer_tokens) > 5
    _check_secrets(server, saver, first, second, caplog.text)


def _check_stream(turn: Turn) -> None:
    """The model's tokens stream, then the delivered answer in chunks of its own id.

    Nothing of any internal call (planner, judge, grader) streams, as tokens or whole, and the
    delivered message is not sent again whole: its chunks add up to it.
    """
    delivered = turn.values["messages"][-1]
    delivery = []
    for i, (message, metadata) in enumerate(turn.streamed):
        assert "<think>" not in str(message.content)
        assert isinstance(message, AIMessageChunk), message
        tags = metadata.get("tags", [])
        assert ANSWER_TAG in tags, (metadata, message.content)
        if DELIVERY_TAG in tags:
            assert message.id == delivered.id
            delivery.append(i)
    assert delivery, "the delivered answer was not streamed"
    assert "".join(str(turn.streamed[i][0].content) for i in delivery) == delivered.content
    drafts = [i for i, (_, meta) in enumerate(turn.streamed) if DELIVERY_TAG not in meta["tags"]]
    assert all(i < delivery[0] for i in drafts)


def _check_tokens(turn: Turn, server: ModelServer, case: Case) -> None:
    """Token counts per role add up to what the server reported, for every answered request."""
    assert set(turn.tokens) >= {"judge", "answer", "total"}
    total = turn.tokens["total"]
    assert total["calls"] == turn.calls
    recent = server.exchanges[turn.first_request : turn.first_request + turn.requests]
    sent = [e.usage for e in recent if e.status == 200 and e.usage is not None]
    assert total["input_tokens"] == sum(u.input_tokens for u in sent), case.name
    assert total["output_tokens"] == sum(u.output_tokens for u in sent), case.name
    # Every call that got a reply got exactly one 200 (retries happen inside a call); the
    # others (refused, failed) report no tokens, and say so.
    assert total["calls_without_usage"] == turn.calls - len(sent)


def _check_secrets(
    server: ModelServer, saver: InMemorySaver, first: Turn, second: Turn, logs: str
) -> None:
    """The server's key is sent (to it only), and no key is in logs, state or checkpoints."""
    sent = {
        r.headers.get("authorization") or r.headers.get("x-goog-api-key") for r in server.requests()
    }
    assert sent <= {f"Bearer {SERVER_KEY}", SERVER_KEY}
    stored = repr(saver.storage) + repr(saver.writes)
    for secret in (SERVER_KEY, OPENAI_KEY):
        assert secret not in logs
        assert secret not in stored
        assert secret not in repr(first.values) + repr(second.values)
        assert secret not in repr(first.streamed) + repr(second.streamed)
