"""A local chat-model server for tests: the OpenAI and Gemini wire protocols, scripted replies.

`ModelServer` is a real HTTP server on 127.0.0.1 (uvicorn in a thread), so the real clients,
`langchain-openai` and `langchain-google-genai`, send their real requests to it and parse its
replies exactly as they would a provider's:

- OpenAI-compatible (`openai_url`, ending in `/v1`): `POST /v1/chat/completions`, plain and
  streamed (server-sent events, `data: [DONE]`, usage in a last chunk without choices when
  `stream_options.include_usage` is set), tool calls, `response_format` `json_schema` and
  `json_object`, errors in OpenAI's `{"error": {...}}` shape; `GET /v1/models`.
- Gemini (`gemini_url`): `POST /v1beta/models/{model}:generateContent` and
  `:streamGenerateContent?alt=sse`, with function calls, `responseMimeType` JSON and Google's
  error shape.

What the model says comes from the test's `Responder`, which sees each request as a
`ChatRequest` (the same whichever protocol carried it) and returns text, or a JSON object for a
request that asks for structure. How it is said follows `Quirks`: the misbehaviours of small
local models (Ollama, vLLM, llama.cpp, LM Studio), each switchable on its own, even between
two requests of one test.

Usage figures are counted as OpenAI's rule of thumb has it, one token per four characters
(`count_tokens`), and every response's figures are recorded with its request, so a test can
compare what a client reports with what the server sent.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import socket
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

Structure = Literal["json_schema", "json_object", "tool"]
WireProtocol = Literal["openai", "gemini"]
THINKING = (
    '<think>\nThe user wants {"answer": ...}? Let me read the evidence before I reply.\n'
    "</think>\n\n"
)
"""What a reasoning model emits before its reply when `Quirks.think` is on (braces included:
a careless JSON extractor would pick them up)."""
PROSE_BEFORE = "Sure! Here is the JSON you asked for:\n"
PROSE_AFTER = "\nLet me know if you need anything else."
CREATED = 1_735_689_600
"""A fixed `created` timestamp, so recorded bodies do not vary between runs."""


def count_tokens(text: str) -> int:
    """Tokens in a text by OpenAI's rule of thumb: one per four characters, rounded up."""
    return math.ceil(len(text) / 4)


@dataclass(frozen=True)
class Quirks:
    """Misbehaviours of small local models; every one is off by default.

    Failures by count (`rate_limited`, `server_errors`) apply to the next requests the server
    receives, whatever they ask, and are used up as they happen.
    """

    reject_response_format: bool = False
    """Answer 400 to any request with `response_format` (or Gemini's JSON response type)."""
    reject_tools: bool = False
    """Answer 400 to any request with tools."""
    json_as_text: Literal["fenced", "prose"] | None = None
    """Ignore `response_format` and tools; write the JSON as text, in a ```json fence or
    between sentences."""
    think: bool = False
    """Start every reply's text with a `<think>…</think>` block."""
    drop_required: bool = False
    """Leave the first required field out of every JSON reply."""
    trailing_commas: bool = False
    """Write JSON with a comma after the last member of every object and array."""
    token_delay_s: float = 0.0
    """Pause before each streamed token."""
    rate_limited: int = 0
    """Answer this many requests 429, with `Retry-After: retry_after_s`."""
    retry_after_s: int = 1
    server_errors: int = 0
    """Answer this many requests 500."""
    cut_stream_after: int | None = None
    """Stop a streamed reply after this many tokens."""
    cut_by: Literal["drop", "end"] = "drop"
    """How a stream stops: `drop` closes the connection mid-body (a crashed server or proxy);
    `end` ends the body cleanly, with no finish reason and no `[DONE]`."""


@dataclass(frozen=True)
class ChatRequest:
    """One chat request, as the server understood it, whichever protocol carried it."""

    protocol: WireProtocol
    model: str
    messages: list[tuple[str, str]]
    """(role, text) pairs: `system`, `user`, `assistant`, `tool`."""
    stream: bool
    include_usage: bool
    structure: Structure | None
    """How the client asked for structure: a JSON schema, any JSON object, a forced tool."""
    schema_name: str | None
    schema: dict[str, Any] | None
    headers: dict[str, str]
    body: dict[str, Any]

    def text(self, role: str | None = None) -> str:
        """Every message's text (of one role, if given), joined by blank lines."""
        return "\n\n".join(t for r, t in self.messages if role is None or r == role)

    def last_user(self) -> str:
        """The text of the last user message."""
        return next((t for r, t in reversed(self.messages) if r == "user"), "")


Reply = str | Mapping[str, Any] | BaseModel
"""Text for a free-text reply; a JSON object (a mapping or a pydantic model) for a structured
one. The server puts either where the request's protocol and the quirks put it."""
Responder = Callable[[ChatRequest], Reply]
MakeServer = Callable[..., "ModelServer"]
"""The `model_server` fixture: given a responder (and quirks), a started server."""


@dataclass(frozen=True)
class Usage:
    """Token counts the server reported for one reply."""

    input_tokens: int
    output_tokens: int


@dataclass(frozen=True)
class Exchange:
    """One request the server received and how it answered."""

    request: ChatRequest
    status: int
    arrived: float
    """When it arrived, by the server's clock (`time.monotonic` unless another is given)."""
    usage: Usage | None = None
    outcome: str = "answered"
    """`answered`, `streamed`, `cut`, `rate_limited`, `server_error` or `rejected`."""


class StreamCut(ConnectionAbortedError):
    """Raised inside a streamed body to drop the connection (`Quirks.cut_by == "drop"`)."""


@dataclass
class _Rendered:
    """A reply laid out for the wire: text, or a tool call, and how it ended."""

    text: str = ""
    tool: tuple[str, dict[str, Any], str] | None = None
    """(name, arguments, arguments as the model wrote them)."""

    @property
    def output(self) -> str:
        return self.text + (self.tool[2] if self.tool else "")


@dataclass
class _Failure:
    status: int
    message: str
    outcome: str
    headers: dict[str, str] = field(default_factory=dict)
    param: str | None = None


class ModelServer:
    """A chat-model server on 127.0.0.1 that answers through `responder`, as `quirks` says.

    Use it as a context manager (`with ModelServer(responder) as server:`), or `start()` and
    `stop()`. `quirks` may be replaced at any time; `exchanges` lists every request.
    """

    def __init__(
        self,
        responder: Responder,
        *,
        quirks: Quirks | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.responder = responder
        self.quirks = quirks or Quirks()
        self.clock = clock
        self.exchanges: list[Exchange] = []
        self._lock = threading.Lock()
        self._spent = {"rate_limited": 0, "server_errors": 0}
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # --- lifecycle ------------------------------------------------------------------------

    @property
    def openai_url(self) -> str:
        """The OpenAI-compatible base URL (what `OPENAI_BASE_URL` or `@url` names)."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def gemini_url(self) -> str:
        """The Gemini API's base URL (`ChatGoogleGenerativeAI(base_url=...)`)."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 60.0) -> ModelServer:
        """Serve on a free loopback port from a background thread; return once it listens.

        Raises:
            RuntimeError: the server did not start within `timeout_s`.
        """
        import uvicorn
        from starlette.applications import Starlette
        from starlette.routing import Route

        app = Starlette(
            routes=[
                Route("/v1/chat/completions", self._openai_chat, methods=["POST"]),
                Route("/v1/models", self._openai_models, methods=["GET"]),
                Route("/v1beta/models/{target:path}", self._gemini, methods=["POST"]),
            ]
        )

        async def closing(scope: Any, receive: Any, send: Any) -> None:
            # Every response closes its connection, so no client keeps an idle socket to a
            # server that a test is about to stop (real servers keep them alive).
            async def send_closing(message: Any) -> None:
                if message["type"] == "http.response.start":
                    message["headers"] = [*message.get("headers", []), (b"connection", b"close")]
                await send(message)

            await app(scope, receive, send_closing)

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            closing,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + timeout_s
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the model server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Stop serving and wait for the thread."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)

    def __enter__(self) -> ModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- what every protocol shares -------------------------------------------------------

    def requests(self, protocol: WireProtocol | None = None) -> list[ChatRequest]:
        """The requests received so far (of one protocol, if given)."""
        return [e.request for e in self.exchanges if protocol in (None, e.request.protocol)]

    def _record(self, exchange: Exchange) -> None:
        with self._lock:
            self.exchanges.append(exchange)

    def _failure(self, request: ChatRequest) -> _Failure | None:
        """A failure the quirks call for, before any reply is written."""
        quirks = self.quirks
        with self._lock:
            if self._spent["rate_limited"] < quirks.rate_limited:
                self._spent["rate_limited"] += 1
                return _Failure(
                    429,
                    "Rate limit reached for requests. Please try again later.",
                    "rate_limited",
                    {"retry-after": str(quirks.retry_after_s)},
                )
            if self._spent["server_errors"] < quirks.server_errors:
                self._spent["server_errors"] += 1
                return _Failure(
                    500, "The server had an error while processing your request.", "server_error"
                )
        if quirks.reject_response_format and request.structure in ("json_schema", "json_object"):
            return _Failure(
                400,
                f"response_format type '{request.structure}' is not supported by this server",
                "rejected",
                param="response_format",
            )
        if quirks.reject_tools and request.structure == "tool":
            return _Failure(400, "tools are not supported by this model", "rejected", param="tools")
        return None

    def _render(self, request: ChatRequest) -> _Rendered:
        """The responder's reply, laid out as the request and the quirks say."""
        quirks = self.quirks
        reply = self.responder(request)
        prefix = THINKING if quirks.think else ""
        if isinstance(reply, str):
            return _Rendered(text=prefix + reply)
        payload = dict(reply.model_dump(mode="json") if isinstance(reply, BaseModel) else reply)
        if quirks.drop_required:
            required = list((request.schema or {}).get("required") or payload)
            payload.pop(next((k for k in required if k in payload), ""), None)
        written = _dumps(payload, trailing_commas=quirks.trailing_commas)
        if quirks.json_as_text == "fenced":
            return _Rendered(text=f"{prefix}```json\n{written}\n```")
        if quirks.json_as_text == "prose":
            return _Rendered(text=f"{prefix}{PROSE_BEFORE}{written}{PROSE_AFTER}")
        if request.structure == "tool" and request.schema_name:
            return _Rendered(text=prefix, tool=(request.schema_name, payload, written))
        return _Rendered(text=prefix + written)

    async def _paced(self, pieces: list[str]) -> AsyncIterator[str]:
        """The pieces, slowed and cut as the quirks say."""
        quirks = self.quirks
        for n, piece in enumerate(pieces):
            if quirks.cut_stream_after is not None and n >= quirks.cut_stream_after:
                if quirks.cut_by == "drop":
                    raise StreamCut("the model server dropped the stream mid-answer")
                return
            if quirks.token_delay_s:
                await asyncio.sleep(quirks.token_delay_s)
            yield piece

    def _cut(self, pieces: list[str]) -> bool:
        after = self.quirks.cut_stream_after
        return after is not None and after < len(pieces)

    def _reply(
        self,
        request: ChatRequest,
        *,
        error: Callable[[_Failure], dict[str, Any]],
        whole: Callable[[_Rendered, Usage], dict[str, Any]],
        streamed: Callable[[_Rendered, list[str], Usage], AsyncIterator[str]],
    ) -> Any:
        """The response to a request, in its protocol's bodies, recorded as an exchange.

        A failure the quirks call for is answered with `error`'s body; otherwise the rendered
        reply as one `whole` body, or as the `streamed` events when the request streams.
        """
        from starlette.responses import JSONResponse, StreamingResponse

        arrived = self.clock()
        failure = self._failure(request)
        if failure is not None:
            self._record(Exchange(request, failure.status, arrived, outcome=failure.outcome))
            return JSONResponse(error(failure), status_code=failure.status, headers=failure.headers)
        rendered = self._render(request)
        usage = Usage(count_tokens(request.text()), count_tokens(rendered.output))
        if not request.stream:
            self._record(Exchange(request, 200, arrived, usage))
            return JSONResponse(whole(rendered, usage))
        pieces = _tokens(rendered.text)
        self._record(
            Exchange(request, 200, arrived, usage, "cut" if self._cut(pieces) else "streamed")
        )
        return StreamingResponse(streamed(rendered, pieces, usage), media_type="text/event-stream")

    # --- OpenAI ---------------------------------------------------------------------------

    async def _openai_models(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        return JSONResponse(
            {
                "object": "list",
                "data": [
                    {
                        "id": "test-model",
                        "object": "model",
                        "created": CREATED,
                        "owned_by": "codeweaver",
                    }
                ],
            }
        )

    async def _openai_chat(self, http: Any) -> Any:
        body = await http.json()
        request = _openai_request(body, dict(http.headers))
        completion_id = f"chatcmpl-{uuid.uuid4().hex[:24]}"
        return self._reply(
            request,
            error=lambda failure: {
                "error": {
                    "message": failure.message,
                    "type": "invalid_request_error" if failure.status < 500 else "server_error",
                    "param": failure.param,
                    "code": "rate_limit_exceeded" if failure.status == 429 else None,
                }
            },
            whole=lambda rendered, usage: _openai_completion(
                completion_id, request.model, rendered, usage
            ),
            streamed=lambda rendered, pieces, usage: self._openai_stream(
                completion_id, request, rendered, pieces, usage
            ),
        )

    async def _openai_stream(
        self,
        completion_id: str,
        request: ChatRequest,
        rendered: _Rendered,
        pieces: list[str],
        usage: Usage,
    ) -> AsyncIterator[str]:
        def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
            data: dict[str, Any] = {
                "id": completion_id,
                "object": "chat.completion.chunk",
                "created": CREATED,
                "model": request.model,
                "system_fingerprint": "fp_codeweaver",
                "choices": [
                    {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
                ],
            }
            if request.include_usage:
                data["usage"] = None
            return f"data: {json.dumps(data)}\n\n"

        yield chunk({"role": "assistant", "content": "", "refusal": None})
        async for piece in self._paced(pieces):
            if piece:
                yield chunk({"content": piece})
        if self._cut(pieces):
            return
        finish = "stop"
        if rendered.tool:
            name, _, arguments = rendered.tool
            call_id = f"call_{uuid.uuid4().hex[:24]}"
            yield chunk(
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": call_id,
                            "type": "function",
                            "function": {"name": name, "arguments": ""},
                        }
                    ]
                }
            )
            for part in _tokens(arguments):
                yield chunk({"tool_calls": [{"index": 0, "function": {"arguments": part}}]})
            finish = "tool_calls"
        yield chunk({}, finish)
        if request.include_usage:
            data = {
                "id": completion_id,
                "object": "chat.completion.chunk",
                "created": CREATED,
                "model": request.model,
                "system_fingerprint": "fp_codeweaver",
                "choices": [],
                "usage": _openai_usage(usage),
            }
            yield f"data: {json.dumps(data)}\n\n"
        yield "data: [DONE]\n\n"

    # --- Gemini ---------------------------------------------------------------------------

    async def _gemini(self, http: Any) -> Any:
        model, _, method = str(http.path_params["target"]).partition(":")
        body = await http.json()
        stream = method == "streamGenerateContent"
        request = _gemini_request(model, body, dict(http.headers), stream=stream)
        response_id = uuid.uuid4().hex[:22]

        def error(failure: _Failure) -> dict[str, Any]:
            status = {400: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED"}.get(
                failure.status, "INTERNAL"
            )
            return {"error": {"code": failure.status, "message": failure.message, "status": status}}

        return self._reply(
            request,
            error=error,
            whole=lambda rendered, usage: _gemini_response(
                response_id, model, _gemini_parts(rendered.text, rendered.tool), "STOP", usage
            ),
            streamed=lambda rendered, pieces, usage: self._gemini_stream(
                response_id, model, rendered, pieces, usage
            ),
        )

    async def _gemini_stream(
        self, response_id: str, model: str, rendered: _Rendered, pieces: list[str], usage: Usage
    ) -> AsyncIterator[str]:
        sent = False
        async for piece in self._paced(pieces):
            if piece:
                sent = True
                data = _gemini_response(response_id, model, [{"text": piece}], None, None)
                yield f"data: {json.dumps(data)}\r\n\r\n"
        if self._cut(pieces):
            return
        last = _gemini_parts("" if sent else rendered.text, rendered.tool)
        data = _gemini_response(response_id, model, last or [{"text": ""}], "STOP", usage)
        yield f"data: {json.dumps(data)}\r\n\r\n"


# --- the two protocols' shapes -----------------------------------------------------------


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def _openai_request(body: dict[str, Any], headers: dict[str, str]) -> ChatRequest:
    messages = [
        (str(m.get("role", "user")), _content_text(m.get("content")))
        for m in body.get("messages") or []
    ]
    structure: Structure | None = None
    schema_name: str | None = None
    schema: dict[str, Any] | None = None
    response_format = body.get("response_format") or {}
    if response_format.get("type") == "json_schema":
        structure = "json_schema"
        spec = response_format.get("json_schema") or {}
        schema_name, schema = spec.get("name"), spec.get("schema")
    elif response_format.get("type") == "json_object":
        structure = "json_object"
    elif body.get("tools"):
        structure = "tool"
        function = (body["tools"][0] or {}).get("function") or {}
        choice = body.get("tool_choice")
        forced = choice.get("function", {}).get("name") if isinstance(choice, dict) else None
        schema_name = forced or function.get("name")
        schema = function.get("parameters")
    return ChatRequest(
        protocol="openai",
        model=str(body.get("model", "")),
        messages=messages,
        stream=bool(body.get("stream")),
        include_usage=bool((body.get("stream_options") or {}).get("include_usage")),
        structure=structure,
        schema_name=schema_name,
        schema=schema,
        headers=headers,
        body=body,
    )


def _openai_usage(usage: Usage) -> dict[str, Any]:
    return {
        "prompt_tokens": usage.input_tokens,
        "completion_tokens": usage.output_tokens,
        "total_tokens": usage.input_tokens + usage.output_tokens,
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0},
    }


def _openai_completion(
    completion_id: str, model: str, rendered: _Rendered, usage: Usage
) -> dict[str, Any]:
    message: dict[str, Any] = {
        "role": "assistant",
        "content": rendered.text or None,
        "refusal": None,
        "annotations": [],
    }
    finish = "stop"
    if rendered.tool:
        name, _, arguments = rendered.tool
        message["tool_calls"] = [
            {
                "id": f"call_{uuid.uuid4().hex[:24]}",
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
        ]
        finish = "tool_calls"
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        "system_fingerprint": "fp_codeweaver",
        "service_tier": "default",
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": _openai_usage(usage),
    }


def _gemini_request(
    model: str, body: dict[str, Any], headers: dict[str, str], *, stream: bool
) -> ChatRequest:
    roles = {"model": "assistant", "user": "user", "function": "tool"}
    messages: list[tuple[str, str]] = []
    system = body.get("systemInstruction") or body.get("system_instruction")
    if isinstance(system, dict):
        messages.append(("system", _content_text(system.get("parts"))))
    for content in body.get("contents") or []:
        role = roles.get(str(content.get("role", "user")), "user")
        messages.append((role, _content_text(content.get("parts"))))
    config = body.get("generationConfig") or {}
    structure: Structure | None = None
    schema_name: str | None = None
    schema: dict[str, Any] | None = None
    declarations = [
        d for tool in body.get("tools") or [] for d in tool.get("functionDeclarations") or []
    ]
    if config.get("responseMimeType") == "application/json":
        schema = config.get("responseJsonSchema") or config.get("responseSchema")
        structure = "json_schema" if schema else "json_object"
        schema_name = (schema or {}).get("title")
    elif declarations:
        structure = "tool"
        calling = (body.get("toolConfig") or {}).get("functionCallingConfig") or {}
        allowed = calling.get("allowedFunctionNames") or []
        schema_name = allowed[0] if allowed else declarations[0].get("name")
        chosen = next((d for d in declarations if d.get("name") == schema_name), declarations[0])
        schema = chosen.get("parametersJsonSchema") or chosen.get("parameters")
    return ChatRequest(
        protocol="gemini",
        model=model,
        messages=messages,
        stream=stream,
        include_usage=True,
        structure=structure,
        schema_name=schema_name,
        schema=schema,
        headers=headers,
        body=body,
    )


def _gemini_parts(text: str, tool: tuple[str, dict[str, Any], str] | None) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = [{"text": text}] if text else []
    if tool:
        parts.append({"functionCall": {"name": tool[0], "args": tool[1]}})
    return parts


def _gemini_response(
    response_id: str,
    model: str,
    parts: list[dict[str, Any]],
    finish: str | None,
    usage: Usage | None,
) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"parts": parts, "role": "model"}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    data: dict[str, Any] = {
        "candidates": [candidate],
        "modelVersion": model,
        "responseId": response_id,
    }
    if usage is not None:
        data["usageMetadata"] = {
            "promptTokenCount": usage.input_tokens,
            "candidatesTokenCount": usage.output_tokens,
            "totalTokenCount": usage.input_tokens + usage.output_tokens,
        }
    return data


# --- text helpers ------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*\S{1,4}|\s+")


def _tokens(text: str) -> list[str]:
    """The text in token-sized pieces that join back to it exactly.

    Each piece is at most four visible characters, with the spaces before them.
    """
    return _TOKEN.findall(text)


def _dumps(value: Any, *, trailing_commas: bool) -> str:
    """JSON, optionally with the trailing commas a careless model writes."""
    if not trailing_commas:
        return json.dumps(value)
    if isinstance(value, dict):
        members = "".join(
            f"{json.dumps(k)}: {_dumps(v, trailing_commas=True)}, " for k, v in value.items()
        )
        return "{" + members.rstrip(" ") + "}"
    if isinstance(value, list):
        items = "".join(f"{_dumps(v, trailing_commas=True)}, " for v in value)
        return "[" + items.rstrip(" ") + "]"
    return json.dumps(value)


__all__ = [
    "THINKING",
    "ChatRequest",
    "Exchange",
    "ModelServer",
    "Quirks",
    "Reply",
    "Responder",
    "StreamCut",
    "Usage",
    "count_tokens",
]
