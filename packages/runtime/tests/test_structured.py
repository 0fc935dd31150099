"""Structured output and text through the real OpenAI and Gemini clients, against a local server
that misbehaves like small local models."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from langchain_core.callbacks import AsyncCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.outputs import ChatGenerationChunk, GenerationChunk
from langchain_core.runnables import RunnableLambda
from pydantic import BaseModel

from codeweaver_runtime import (
    MethodMemory,
    ModelCallCounter,
    ModelCallError,
    WithoutThinking,
    build_chat_model,
    call_structured,
    call_text,
)
from codeweaver_testing.model_server import ChatRequest, MakeServer, ModelServer, Quirks, Reply

ANSWER = "Call `lst.reverse()`: it reverses the list in place [1]."
PROMPT: list[BaseMessage] = [SystemMessage("You check answers."), HumanMessage("Check this.")]


class Verdict(BaseModel):
    grounded: bool
    reason: str


def brain(request: ChatRequest) -> Reply:
    """Structure whenever the request or its prompt asks for it, the answer otherwise."""
    if request.structure or "JSON schema" in request.text("system"):
        return Verdict(grounded=True, reason="every claim is cited")
    return ANSWER


def model_at(server: ModelServer, provider: str) -> BaseChatModel:
    url = server.openai_url if provider == "openai" else server.gemini_url
    model = build_chat_model(f"{provider}:test-model@{url}", timeout_s=30)
    assert model is not None
    return model


PROVIDERS = ["openai", "google_genai"]
CHAIN = {
    "openai": ["json_schema", "tool", "json_object", None],
    "google_genai": ["json_schema", "tool", None],
}


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(
    "quirks",
    [
        Quirks(),
        Quirks(json_as_text="fenced"),
        Quirks(json_as_text="prose", think=True),
        Quirks(trailing_commas=True),
        Quirks(think=True),
    ],
    ids=["honoured", "fenced", "prose-after-thinking", "trailing-commas", "thinking"],
)
async def test_one_request_is_enough_when_the_reply_holds_the_json(
    model_server: MakeServer, provider: str, quirks: Quirks
) -> None:
    server = model_server(brain, quirks)
    verdict = await call_structured(
        model_at(server, provider), Verdict, PROMPT, timeout_s=30, memory=MethodMemory()
    )
    assert verdict == Verdict(grounded=True, reason="every claim is cited")
    assert [r.structure for r in server.requests()] == ["json_schema"]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_refused_way_is_skipped_and_the_working_one_remembered(
    model_server: MakeServer, provider: str
) -> None:
    server = model_server(brain, Quirks(reject_response_format=True))
    memory = MethodMemory()
    model = model_at(server, provider)
    await call_structured(model, Verdict, PROMPT, timeout_s=30, memory=memory)
    assert [r.structure for r in server.requests()] == ["json_schema", "tool"]
    await call_structured(model, Verdict, PROMPT, timeout_s=30, memory=memory)
    assert [r.structure for r in server.requests()][2:] == ["tool"]
    # Another base URL is another server: what this one refuses says nothing about it.
    other = model_server(brain)
    await call_structured(model_at(other, provider), Verdict, PROMPT, timeout_s=30, memory=memory)
    assert [r.structure for r in other.requests()] == ["json_schema"]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_with_every_structure_refused_json_is_read_from_plain_text(
    model_server: MakeServer, provider: str
) -> None:
    server = model_server(brain, Quirks(reject_response_format=True, reject_tools=True))
    memory = MethodMemory()
    model = model_at(server, provider)
    verdict = await call_structured(model, Verdict, PROMPT, timeout_s=30, memory=memory)
    assert verdict.grounded
    assert [r.structure for r in server.requests()] == CHAIN[provider]
    plain = server.requests()[-1]
    assert '"title": "Verdict"' in plain.text("system")  # the schema is spelled out
    await call_structured(model, Verdict, PROMPT, timeout_s=30, memory=memory)
    assert [r.structure for r in server.requests()][len(CHAIN[provider]) :] == [None]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_missing_fields_fail_every_way_and_say_which(
    model_server: MakeServer, provider: str
) -> None:
    server = model_server(brain, Quirks(drop_required=True))
    with pytest.raises(ModelCallError, match="could not be read as Verdict") as failed:
        await call_structured(
            model_at(server, provider), Verdict, PROMPT, timeout_s=30, memory=MethodMemory()
        )
    assert "grounded missing" in str(failed.value)
    assert [r.structure for r in server.requests()] == CHAIN[provider]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_one_server_error_is_retried_and_a_lasting_one_is_not_a_format_problem(
    model_server: MakeServer, provider: str
) -> None:
    server = model_server(brain, Quirks(server_errors=1))
    model = model_at(server, provider)
    assert (await call_structured(model, Verdict, PROMPT, timeout_s=30)).grounded
    assert [e.status for e in server.exchanges] == [500, 200]
    server.quirks = Quirks(server_errors=3)
    with pytest.raises(ModelCallError, match="model call failed"):
        await call_structured(model, Verdict, PROMPT, timeout_s=30, memory=MethodMemory())
    # A failing server is not a refused format: no other way was tried.
    assert {r.structure for r in server.requests()[2:]} == {"json_schema"}


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_rate_limit_is_retried_once(model_server: MakeServer, provider: str) -> None:
    server = model_server(brain, Quirks(rate_limited=1, retry_after_s=1))
    verdict = await call_structured(model_at(server, provider), Verdict, PROMPT, timeout_s=30)
    assert verdict.grounded
    limited, answered = server.exchanges
    assert (limited.status, answered.status) == (429, 200)
    if provider == "openai":  # the OpenAI client waits as Retry-After says; Google backs off
        assert answered.arrived - limited.arrived >= 0.9


async def test_the_whole_chain_shares_one_timeout(model_server: MakeServer) -> None:
    server = model_server(brain, Quirks(rate_limited=5, retry_after_s=30))
    with pytest.raises(ModelCallError, match=r"timed out after 1\.5s"):
        await call_structured(model_at(server, "openai"), Verdict, PROMPT, timeout_s=1.5)
    assert len(server.exchanges) == 1  # still waiting out Retry-After when time ran out


class TokenRecorder(AsyncCallbackHandler):
    """Records what a `messages` stream would see: every streamed token, with its run's tags."""

    def __init__(self) -> None:
        self.tokens: list[str] = []
        self.tags: list[list[str]] = []

    async def on_chat_model_start(self, serialized: Any, messages: Any, **kwargs: Any) -> None:
        self.tags.append(list(kwargs.get("tags") or []))

    async def on_llm_new_token(
        self,
        token: str | list[str | dict[str, Any]],
        *,
        chunk: GenerationChunk | ChatGenerationChunk | None = None,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        # Content blocks are kept as their text form so that nothing streamed escapes the check.
        self.tokens.append(token if isinstance(token, str) else str(token))


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_thinking_never_reaches_the_text_nor_its_stream(
    model_server: MakeServer, provider: str
) -> None:
    server = model_server(brain, Quirks(think=True))
    model = model_at(server, provider)
    assert await call_text(model, PROMPT, timeout_s=30) == ANSWER
    recorder = TokenRecorder()
    streamed = [
        chunk.text
        async for chunk in WithoutThinking(inner=model).astream(
            PROMPT, config={"callbacks": [recorder]}
        )
    ]
    assert "".join(streamed) == ANSWER
    assert "".join(recorder.tokens) == ANSWER
    assert len([t for t in recorder.tokens if t]) > 3
    assert server.requests()[-1].stream


@pytest.mark.parametrize(
    ("cut_by", "error"), [("drop", "model call failed"), ("end", "stopped mid-answer")]
)
async def test_a_cut_stream_is_a_failed_call(
    model_server: MakeServer, cut_by: Any, error: str
) -> None:
    from langchain_openai import ChatOpenAI

    server = model_server(brain, Quirks(cut_stream_after=3, cut_by=cut_by))
    streaming = ChatOpenAI(
        model="test-model", base_url=server.openai_url, api_key="none", streaming=True
    )
    with pytest.raises(ModelCallError, match=error):
        await call_text(streaming, PROMPT, timeout_s=30)
    assert [e.outcome for e in server.exchanges] == ["cut"]


async def test_a_reply_of_reasoning_only_is_a_failed_call(model_server: MakeServer) -> None:
    server = model_server(lambda request: "<think>I am still thinking when the reply ends")
    with pytest.raises(ModelCallError, match="no text besides its reasoning"):
        await call_text(model_at(server, "openai"), PROMPT, timeout_s=30)


async def test_tokens_are_counted_per_role_from_the_replies(model_server: MakeServer) -> None:
    server = model_server(brain)
    model = model_at(server, "openai")
    counter = ModelCallCounter()

    async def run(_: object) -> None:
        await call_structured(model, Verdict, PROMPT, timeout_s=30, role="judge")
        await call_text(model, PROMPT, timeout_s=30, role="answer")

    # Calls inside a runnable inherit its callbacks, as nodes' calls inherit a graph run's.
    await RunnableLambda(run).ainvoke(None, config={"callbacks": [counter]})
    judge, answer = (e.usage for e in server.exchanges)
    assert judge is not None
    assert answer is not None
    tokens = counter.tokens()
    assert tokens["judge"] == {
        "calls": 1,
        "input_tokens": judge.input_tokens,
        "output_tokens": judge.output_tokens,
        "calls_without_usage": 0,
    }
    assert tokens["answer"]["output_tokens"] == answer.output_tokens
    assert tokens["total"]["calls"] == counter.calls == 2
