"""Structured output from models that may not support it: a fallback chain, remembered per model.

Hosted models honour a JSON schema (`response_format`); small local models often do not. They
may refuse it (HTTP 400), ignore it and write the JSON as text (in a fence, between sentences,
after a `<think>` block, with trailing commas), or support tool calls but not schemas. So a
structured call tries, in order, the ways a provider offers:

1. `json_schema`: the schema as `response_format` (OpenAI), `responseJsonSchema` (Gemini);
2. `function_calling`: the schema as the one tool the model must call;
3. `json_mode`: any JSON object, with the schema given in the prompt (OpenAI only; for Gemini
   it is the same request as `json_schema`);
4. `text`: no structure requested at all, the schema given in the prompt.

Whatever comes back is read leniently before giving up on a way: the parsed value, else JSON
found and repaired in the reply's text or tool arguments (`codeweaver_runtime.replies`). A way
the server refuses (400, 422, 501) is remembered as refused, and the way that worked as
working, per model name and base URL (`MethodMemory`), so later calls start with what works.
Models of other classes (test fakes) get their own `with_structured_output`, read the same
lenient way.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from typing import Any, Literal, TypeVar, cast

from langchain_core.exceptions import ContextOverflowError
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel, ValidationError

from codeweaver_runtime.replies import json_object_from_text

Method = Literal["json_schema", "function_calling", "json_mode", "text", "default"]
StructuredT = TypeVar("StructuredT", bound=BaseModel)

CHAINS: dict[str, tuple[Method, ...]] = {
    "openai": ("json_schema", "function_calling", "json_mode", "text"),
    "google_genai": ("json_schema", "function_calling", "text"),
}
OTHER_CHAIN: tuple[Method, ...] = ("default",)
REFUSAL_STATUSES = frozenset({400, 422, 501})
"""HTTP statuses with which a server says it does not take this kind of request."""
SCHEMA_INSTRUCTION = (
    "Reply with one JSON object and nothing else (no code fence, no prose) that matches this "
    "JSON schema:\n{schema}"
)


class Refused(Exception):
    """The server would not take this way of asking for structure."""


class Unusable(Exception):
    """The model answered, but nothing in the answer is a valid instance of the schema."""


def provider_of(model: BaseChatModel) -> str:
    """`openai`, `google_genai`, or the class name of any other chat model."""
    module = type(model).__module__
    for provider in CHAINS:
        if module.startswith(f"langchain_{provider}"):
            return provider
    return type(model).__name__


def model_identity(model: BaseChatModel) -> str:
    """Provider, model name and base URL: what a remembered method is remembered for."""
    name = getattr(model, "model_name", None) or getattr(model, "model", None) or ""
    base = getattr(model, "openai_api_base", None) or getattr(model, "base_url", None)
    return f"{provider_of(model)}:{name}@{base or 'default'}"


def chain_for(model: BaseChatModel) -> tuple[Method, ...]:
    """The ways to ask this model for structure, best first."""
    return CHAINS.get(provider_of(model), OTHER_CHAIN)


class MethodMemory:
    """Which way of asking for structure works, and which are refused, per model identity."""

    def __init__(self) -> None:
        self._working: dict[str, Method] = {}
        self._refused: dict[str, set[Method]] = {}
        self._lock = threading.Lock()

    def order(self, identity: str, chain: Sequence[Method]) -> list[Method]:
        """The ways to try now: from the one that worked last, else those not refused.

        When every way was refused once, all are tried again: a server may have been
        restarted with other options.
        """
        with self._lock:
            working = self._working.get(identity)
            if working in chain:
                return list(chain[chain.index(working) :])
            refused = self._refused.get(identity, set())
        return [m for m in chain if m not in refused] or list(chain)

    def worked(self, identity: str, method: Method) -> None:
        """Start with `method` next time."""
        with self._lock:
            self._working[identity] = method
            self._refused.get(identity, set()).discard(method)

    def refused(self, identity: str, method: Method) -> None:
        """Do not try `method` again unless nothing else is left."""
        with self._lock:
            self._refused.setdefault(identity, set()).add(method)
            if self._working.get(identity) == method:
                del self._working[identity]

    def known(self, identity: str) -> Method | None:
        """The way that worked last for this model, if any."""
        with self._lock:
            return self._working.get(identity)


METHODS = MethodMemory()
"""The process's memory: what works is a property of the server, not of one run."""


def status_of(exc: BaseException) -> int | None:
    """The HTTP status a provider's exception carries, if any."""
    for attribute in ("status_code", "code"):
        value = getattr(exc, attribute, None)
        if isinstance(value, int):
            return value
    response = getattr(exc, "response", None)
    value = getattr(response, "status_code", None)
    return value if isinstance(value, int) else None


def is_refusal(exc: BaseException) -> bool:
    """Whether the server refused the request's form (not the prompt's size, not the key)."""
    if isinstance(exc, ContextOverflowError):
        return False
    cause = exc.__cause__
    status = status_of(exc) or (status_of(cause) if cause is not None else None)
    return status in REFUSAL_STATUSES


def with_schema_instruction(
    messages: Sequence[BaseMessage], schema: type[BaseModel]
) -> list[BaseMessage]:
    """The prompt with the schema spelled out in its system message (added if it has none)."""
    instruction = SCHEMA_INSTRUCTION.format(schema=json.dumps(schema.model_json_schema()))
    prompt = list(messages)
    for i, message in enumerate(prompt):
        if isinstance(message, SystemMessage) and isinstance(message.content, str):
            prompt[i] = SystemMessage(f"{message.content}\n\n{instruction}")
            return prompt
    return [SystemMessage(instruction), *prompt]


async def ask_once(
    model: BaseChatModel,
    schema: type[StructuredT],
    messages: Sequence[BaseMessage],
    method: Method,
    config: RunnableConfig,
) -> StructuredT:
    """One structured request in one way, read leniently.

    Raises:
        Refused: the server refused this way.
        Unusable: the reply holds no valid instance of `schema`.
        Exception: any other failure of the call, as the provider raised it.
    """
    prompt = (
        with_schema_instruction(messages, schema)
        if method in ("json_mode", "text")
        else list(messages)
    )
    try:
        if method == "text":
            return read_message(await model.ainvoke(prompt, config=config), schema)
        if method == "json_schema" and provider_of(model) == "openai":
            reply = await model.bind(response_format=_openai_schema(schema)).ainvoke(
                prompt, config=config
            )
            return read_message(reply, schema)
        options: dict[str, Any] = {} if method == "default" else {"method": method}
        runnable = model.with_structured_output(schema, include_raw=True, **options)
        result = await runnable.ainvoke(prompt, config=config)
    except Exception as exc:
        if is_refusal(exc):
            raise Refused(f"{type(exc).__name__}: {exc}") from exc
        raise
    if isinstance(result, dict) and "raw" in result:
        parsed = result.get("parsed")
        if isinstance(parsed, schema):
            return parsed
        return read_message(result["raw"], schema)
    return validate(result, schema)


def _openai_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The strict `response_format` the OpenAI client builds from a pydantic class, as a dict.

    Handed the class, the client validates the reply itself and raises on a bad one, losing
    the reply and its token counts; handed this dict, it returns the reply for reading here.
    """
    from openai.lib._parsing import type_to_response_format_param

    return cast(dict[str, Any], type_to_response_format_param(schema))


def read_text(text: str, schema: type[StructuredT]) -> StructuredT:
    """An instance of `schema` from JSON found in a reply's text.

    Raises:
        Unusable: the text holds no JSON object, or none that validates.
    """
    try:
        return validate(json_object_from_text(text), schema)
    except ValueError as exc:
        raise Unusable(str(exc)) from None


def read_message(message: BaseMessage, schema: type[StructuredT]) -> StructuredT:
    """An instance of `schema` from a reply: its tool-call arguments, else JSON in its text.

    Raises:
        Unusable: nothing in the reply validates.
    """
    problems: list[str] = []
    for candidate in _candidates(message):
        try:
            if isinstance(candidate, str):
                return read_text(candidate, schema)
            return validate(candidate, schema)
        except Unusable as exc:
            problems.append(str(exc))
    raise Unusable(problems[0] if problems else "the reply was empty")


def _candidates(message: BaseMessage) -> list[str | dict[str, Any]]:
    found: list[str | dict[str, Any]] = []
    if isinstance(message, AIMessage):
        found += [call["args"] for call in message.tool_calls]
        found += [call["args"] or "" for call in message.invalid_tool_calls]
    for call in message.additional_kwargs.get("tool_calls") or []:
        arguments = (
            (call.get("function") or {}).get("arguments") if isinstance(call, dict) else None
        )
        if isinstance(arguments, str):
            found.append(arguments)
    text = message.text
    if text.strip():
        found.append(text)
    return found


def validate(value: Any, schema: type[StructuredT]) -> StructuredT:
    """`value` as an instance of `schema`.

    Raises:
        Unusable: it is not one; the message names the fields that are wrong or missing.
    """
    if isinstance(value, schema):
        return value
    try:
        return schema.model_validate(value)
    except ValidationError as exc:
        raise Unusable(describe(exc, schema)) from None


def describe(exc: ValidationError, schema: type[BaseModel]) -> str:
    """What is wrong with a reply, in a few words: the first fields and their problems."""
    fields = [
        f"{'.'.join(str(p) for p in error['loc']) or '(root)'} {error['type']}"
        for error in exc.errors()[:3]
    ]
    return f"not a valid {schema.__name__}: {', '.join(fields)}"
