"""The local model server speaks the OpenAI and Gemini wire formats, and misbehaves on demand."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from codeweaver_testing.model_server import (
    THINKING,
    ChatRequest,
    MakeServer,
    Quirks,
    Reply,
    count_tokens,
)

VERDICT = {"grounded": True, "reason": "ok"}
SCHEMA = {
    "type": "object",
    "properties": {"grounded": {"type": "boolean"}, "reason": {"type": "string"}},
    "required": ["grounded", "reason"],
}


def reply(request: ChatRequest) -> Reply:
    return VERDICT if request.structure else "Reverse it in place [1]."


def chat(**extra: Any) -> dict[str, Any]:
    return {"model": "qwen2.5-coder", "messages": [{"role": "user", "content": "hi"}], **extra}


def events(body: str) -> list[str]:
    return [line.removeprefix("data: ") for line in body.splitlines() if line.startswith("data: ")]


async def test_a_completion_has_the_shape_of_openai(model_server: MakeServer) -> None:
    server = model_server(reply)
    async with httpx.AsyncClient(base_url=server.openai_url) as client:
        body = (await client.post("/chat/completions", json=chat())).json()
    assert body["object"] == "chat.completion"
    assert body["id"].startswith("chatcmpl-")
    assert body["model"] == "qwen2.5-coder"
    assert isinstance(body["created"], int)
    (choice,) = body["choices"]
    assert choice["message"] == {
        "role": "assistant",
        "content": "Reverse it in place [1].",
        "refusal": None,
        "annotations": [],
    }
    assert choice["finish_reason"] == "stop"
    usage = body["usage"]
    assert usage["prompt_tokens"] == count_tokens("hi")
    assert usage["completion_tokens"] == count_tokens("Reverse it in place [1].")
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


async def test_a_stream_ends_with_usage_then_done(model_server: MakeServer) -> None:
    server = model_server(reply)
    async with httpx.AsyncClient(base_url=server.openai_url) as client:
        response = await client.post(
            "/chat/completions", json=chat(stream=True, stream_options={"include_usage": True})
        )
    assert response.headers["content-type"].startswith("text/event-stream")
    data = events(response.text)
    assert data[-1] == "[DONE]"
    chunks = [json.loads(d) for d in data[:-1]]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    assert text == "Reverse it in place [1]."
    finish, last = chunks[-2], chunks[-1]
    assert finish["choices"][0]["finish_reason"] == "stop"
    assert last["choices"] == []
    assert last["usage"]["completion_tokens"] == count_tokens(text)
    assert all(c["usage"] is None for c in chunks[:-1])
    assert len(chunks) > 4


async def test_structure_goes_where_the_request_asks(model_server: MakeServer) -> None:
    server = model_server(reply)
    tool = {"type": "function", "function": {"name": "Verdict", "parameters": SCHEMA}}
    async with httpx.AsyncClient(base_url=server.openai_url) as client:
        schema = await client.post(
            "/chat/completions",
            json=chat(
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": "Verdict", "schema": SCHEMA},
                }
            ),
        )
        called = await client.post(
            "/chat/completions",
            json=chat(
                tools=[tool], tool_choice={"type": "function", "function": {"name": "Verdict"}}
            ),
        )
        streamed = await client.post("/chat/completions", json=chat(tools=[tool], stream=True))
        models = await client.get("/models")
    assert json.loads(schema.json()["choices"][0]["message"]["content"]) == VERDICT
    choice = called.json()["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    (call,) = choice["message"]["tool_calls"]
    assert call["type"] == "function"
    assert call["function"]["name"] == "Verdict"
    assert json.loads(call["function"]["arguments"]) == VERDICT
    deltas = [json.loads(d)["choices"][0]["delta"] for d in events(streamed.text)[:-1]]
    pieces = [t["function"].get("arguments", "") for d in deltas for t in d.get("tool_calls", [])]
    assert json.loads("".join(pieces)) == VERDICT
    assert models.json()["data"][0]["object"] == "model"
    assert [r.structure for r in server.requests()] == ["json_schema", "tool", "tool"]


async def test_refusals_rate_limits_and_errors_have_openai_bodies(
    model_server: MakeServer,
) -> None:
    server = model_server(
        reply, Quirks(reject_response_format=True, rate_limited=1, retry_after_s=7)
    )
    async with httpx.AsyncClient(base_url=server.openai_url) as client:
        limited = await client.post("/chat/completions", json=chat())
        refused = await client.post(
            "/chat/completions", json=chat(response_format={"type": "json_object"})
        )
        server.quirks = Quirks(server_errors=1)
        failed = await client.post("/chat/completions", json=chat())
        recovered = await client.post("/chat/completions", json=chat())
    assert limited.status_code == 429
    assert limited.headers["retry-after"] == "7"
    assert limited.json()["error"]["code"] == "rate_limit_exceeded"
    assert refused.status_code == 400
    assert refused.json()["error"]["type"] == "invalid_request_error"
    assert "json_object" in refused.json()["error"]["message"]
    assert failed.status_code == 500
    assert recovered.status_code == 200
    assert [e.outcome for e in server.exchanges] == [
        "rate_limited",
        "rejected",
        "server_error",
        "answered",
    ]


@pytest.mark.parametrize(
    ("quirks", "expected"),
    [
        (Quirks(json_as_text="fenced"), f"```json\n{json.dumps(VERDICT)}\n```"),
        (Quirks(trailing_commas=True), '{"grounded": true, "reason": "ok",}'),
        (Quirks(drop_required=True), '{"reason": "ok"}'),
        (Quirks(think=True), THINKING + json.dumps(VERDICT)),
    ],
)
async def test_json_replies_misbehave_as_told(
    model_server: MakeServer, quirks: Quirks, expected: str
) -> None:
    server = model_server(reply, quirks)
    async with httpx.AsyncClient(base_url=server.openai_url) as client:
        body = (
            await client.post(
                "/chat/completions",
                json=chat(
                    response_format={
                        "type": "json_schema",
                        "json_schema": {"name": "Verdict", "schema": SCHEMA},
                    }
                ),
            )
        ).json()
    assert body["choices"][0]["message"]["content"] == expected


async def test_a_cut_stream_stops_mid_answer(model_server: MakeServer) -> None:
    server = model_server(reply, Quirks(cut_stream_after=2, cut_by="end"))
    async with httpx.AsyncClient(base_url=server.openai_url) as client:
        ended = await client.post("/chat/completions", json=chat(stream=True))
        server.quirks = Quirks(cut_stream_after=2)
        with pytest.raises(httpx.RemoteProtocolError):
            await client.post("/chat/completions", json=chat(stream=True))
    data = events(ended.text)
    assert "[DONE]" not in data
    assert all(json.loads(d)["choices"][0]["finish_reason"] is None for d in data)
    assert [e.outcome for e in server.exchanges] == ["cut", "cut"]


async def test_gemini_requests_and_replies(model_server: MakeServer) -> None:
    server = model_server(reply)
    url = f"{server.gemini_url}/v1beta/models/gemini-2.5-flash"
    body = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
    }
    structured = {
        **body,
        "generationConfig": {"responseMimeType": "application/json", "responseJsonSchema": SCHEMA},
    }
    async with httpx.AsyncClient() as client:
        plain = (await client.post(f"{url}:generateContent", json=body)).json()
        shaped = (await client.post(f"{url}:generateContent", json=structured)).json()
        streamed = await client.post(f"{url}:streamGenerateContent?alt=sse", json=body)
    candidate = plain["candidates"][0]
    assert candidate["content"] == {
        "parts": [{"text": "Reverse it in place [1]."}],
        "role": "model",
    }
    assert candidate["finishReason"] == "STOP"
    assert plain["usageMetadata"]["totalTokenCount"] == (
        plain["usageMetadata"]["promptTokenCount"] + plain["usageMetadata"]["candidatesTokenCount"]
    )
    assert json.loads(shaped["candidates"][0]["content"]["parts"][0]["text"]) == VERDICT
    chunks = [json.loads(d) for d in events(streamed.text)]
    text = "".join(
        p.get("text", "") for c in chunks for p in c["candidates"][0]["content"]["parts"]
    )
    assert text == "Reverse it in place [1]."
    assert chunks[-1]["candidates"][0]["finishReason"] == "STOP"
    assert server.requests("gemini")[0].messages[0] == ("system", "Be brief.")
