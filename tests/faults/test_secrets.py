"""Secrets (API keys, tokens) never reach state, checkpoints, the flow log, errors, answers or logs.

The real sources and the real OpenAI chat model (`openai:gpt-4o-mini` through
`OPENAI_BASE_URL`) talk to a local replay server, so every key is actually sent; the test then
greps everything the run left behind for the secret strings.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver

from codeweaver.persistence import schema_serializer
from codeweaver_testing import HashEmbedder

from .conftest import ANSWER_TEXT, healthy_responder
from .harness import all_errors, build, context, run, web_sources

SECRETS = {
    "OPENAI_API_KEY": "sk-test-SECRET-openai-7f3a9c1e5b",
    "GITHUB_TOKEN": "ghp_SECRETgithub7f3a9c1e5b2d4",
    "TAVILY_API_KEY": "tvly-SECRET-tavily-7f3a9c1e5b",
    "STACKEXCHANGE_KEY": "SECRETstackexchange7f3a9c1e",
}
QUESTION = "Why is processing a sorted array faster than processing an unsorted array?"


def completion(request: Any) -> Any:
    """An OpenAI chat completion: JSON for a structured call's schema, prose otherwise."""
    from packages.search.tests.replay import Reply

    data = request.json()
    last = str(data["messages"][-1].get("content", ""))
    schema = None
    response_format = data.get("response_format") or {}
    if response_format.get("type") == "json_schema":
        schema = response_format["json_schema"]["name"]
    reply = healthy_responder([HumanMessage(last)], schema)
    content = (
        ANSWER_TEXT
        if schema is None
        else json.dumps(reply if isinstance(reply, dict) else reply.model_dump())
    )
    return Reply(
        body={
            "id": "chatcmpl-replay",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": "gpt-4o-mini",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }
    )


def leaks(text: str) -> list[str]:
    return [name for name, secret in SECRETS.items() if secret in text]


def byte_leaks(blob: bytes) -> list[str]:
    return [name for name, secret in SECRETS.items() if secret.encode() in blob]


def _raw_bytes(obj: Any) -> bytes:
    """Every bytes value inside the saver's storage (the serialised checkpoints and writes)."""
    out = bytearray()
    if isinstance(obj, bytes | bytearray):
        out += obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out += _raw_bytes(k) + _raw_bytes(v)
    elif isinstance(obj, list | tuple | set):
        for v in obj:
            out += _raw_bytes(v)
    elif isinstance(obj, str):
        out += obj.encode("utf-8", "surrogatepass")
    return bytes(out)


@pytest.fixture
def secret_env(replay: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("OPENAI_BASE_URL", replay.url + "/oa/v1")
    monkeypatch.delenv("CODEWEAVER_CHAT_MODEL", raising=False)
    replay.route("POST", "/oa/v1/chat/completions", completion)


async def secret_run(
    replay: Any, failing: bool
) -> tuple[dict[str, Any], InMemorySaver, RunnableConfig]:
    from packages.search.tests.replay import Reply

    if failing:
        # Error paths build messages from responses: two sources and the model fail (Stack
        # Overflow still answers, so there is evidence and the model is asked).
        replay.route("GET", "/gh/search/code", Reply(401, {"message": "Bad credentials"}))
        replay.route("POST", "/tv/search", Reply(429, {"detail": {"error": "limit"}}))
        replay.route("POST", "/oa/v1/chat/completions", Reply(500, {"error": {"message": "x"}}))
    saver = InMemorySaver(serde=schema_serializer())
    graph, _ = build(sources=web_sources(replay.url), embedder=HashEmbedder(), checkpointer=saver)
    # No injected model: the context names the real OpenAI chat model, built from the env.
    ctx = context(chat_model="openai:gpt-4o-mini", model_timeout_s=5.0)
    values, config = await run(graph, ctx, [HumanMessage(QUESTION)])
    return values, saver, config


def assert_keys_were_sent(replay: Any) -> None:
    """The keys really went out: otherwise finding none in the state would prove nothing."""
    seen = json.dumps(
        [{"path": r.path, "query": r.query, "headers": r.headers} for r in replay.requests]
    )
    assert sorted(leaks(seen)) == sorted(SECRETS), leaks(seen)


@pytest.mark.parametrize("failing", [False, True], ids=["healthy", "sources-and-model-fail"])
@pytest.mark.usefixtures("secret_env")
async def test_secrets_never_reach_state_checkpoints_or_answer(replay: Any, failing: bool) -> None:
    values, saver, config = await secret_run(replay, failing)
    assert_keys_were_sent(replay)

    answer = values["answer"]
    assert answer is not None
    assert answer.text.strip()
    if failing:
        assert answer.degraded
        assert all_errors(values)
    else:
        assert not answer.offline, all_errors(values)

    assert leaks(json.dumps(values, default=str)) == []
    assert leaks(answer.model_dump_json()) == []
    assert leaks(json.dumps([e.model_dump() for e in all_errors(values)])) == []
    assert leaks(json.dumps([f.model_dump() for f in values.get("flow", [])])) == []
    for message in values["messages"]:
        assert leaks(message.model_dump_json()) == []

    checkpoints = [t async for t in saver.alist(config)]
    assert checkpoints
    for snapshot in checkpoints:
        assert leaks(json.dumps(snapshot.checkpoint, default=str)) == []
        assert leaks(json.dumps(snapshot.metadata, default=str)) == []
        assert leaks(json.dumps(snapshot.pending_writes or [], default=str)) == []
    # And the bytes the checkpointer actually stored.
    assert byte_leaks(_raw_bytes(saver.storage) + _raw_bytes(saver.writes)) == []


async def logged_text(replay: Any, failing: bool, caplog: pytest.LogCaptureFixture) -> str:
    caplog.set_level(logging.DEBUG)
    await secret_run(replay, failing)
    assert_keys_were_sent(replay)
    return "\n".join(
        [
            caplog.text,
            *(r.getMessage() for r in caplog.records),
            *(repr(r.args) for r in caplog.records),
        ]
    )


@pytest.mark.parametrize("failing", [False, True], ids=["healthy", "sources-and-model-fail"])
@pytest.mark.usefixtures("secret_env")
async def test_header_secrets_never_reach_logs(
    replay: Any, failing: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """OpenAI, GitHub and Tavily keys travel in headers: no log at DEBUG shows them."""
    found = leaks(await logged_text(replay, failing, caplog))
    assert [name for name in found if name != "STACKEXCHANGE_KEY"] == []


@pytest.mark.parametrize("failing", [False, True], ids=["healthy", "sources-and-model-fail"])
@pytest.mark.usefixtures("secret_env")
async def test_secrets_never_reach_logs(
    replay: Any, failing: bool, caplog: pytest.LogCaptureFixture
) -> None:
    assert leaks(await logged_text(replay, failing, caplog)) == []
