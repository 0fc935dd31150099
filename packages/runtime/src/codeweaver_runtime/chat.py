"""Chat models by name, per role, and the calls that every node makes through them.

A model is named `provider:model`: `openai:gpt-4o-mini` (also any OpenAI-compatible server when
`OPENAI_BASE_URL` is set: Ollama, vLLM, llama.cpp, LM Studio), `google_genai:gemini-2.5-flash`.
`offline` (or no key at all) selects the built-in offline engine: nodes then get `None` and run
their deterministic path.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

from langchain_core.callbacks import AsyncCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from codeweaver_runtime.context import OFFLINE, RuntimeContext
from codeweaver_runtime.secrets import install_log_redaction

ModelRole = Literal["planner", "judge", "answer"]
StructuredT = TypeVar("StructuredT", bound=BaseModel)


class ModelCallError(RuntimeError):
    """A chat-model call failed or timed out; the node falls back to its offline path."""


class ChatModels(Protocol):
    """Gives each role its chat model, or None for the offline engine."""

    def for_role(self, role: ModelRole) -> BaseChatModel | None:
        """The model for a role, or None when the role runs offline."""
        ...


def build_chat_model(name: str, *, timeout_s: float) -> BaseChatModel | None:
    """Build a chat model from `provider:model`, or return None for `offline`.

    Raises:
        ValueError: the name has no known provider.
    """
    if not name or name == OFFLINE:
        return None
    install_log_redaction()
    provider, sep, model = name.partition(":")
    if not sep or not model:
        raise ValueError(f"model name {name!r} is not of the form provider:model")
    if provider == "openai":
        from langchain_openai import ChatOpenAI

        base_url = os.environ.get("OPENAI_BASE_URL") or None
        api_key = os.environ.get("OPENAI_API_KEY") or ("not-needed" if base_url else None)
        return ChatOpenAI(
            model=model, base_url=base_url, api_key=api_key, timeout=timeout_s, max_retries=1
        )
    if provider == "google_genai":
        from langchain_google_genai import ChatGoogleGenerativeAI

        return ChatGoogleGenerativeAI(model=model, timeout=timeout_s, max_retries=1)
    raise ValueError(f"unknown model provider {provider!r} in {name!r} (openai, google_genai)")


@dataclass
class ConfiguredChatModels:
    """Models named by the run context, built once per name."""

    context: RuntimeContext
    _built: dict[str, BaseChatModel | None] = field(default_factory=dict)

    def for_role(self, role: ModelRole) -> BaseChatModel | None:
        """The model for a role as the context names it."""
        name = self.context.model_for(role)
        if name not in self._built:
            self._built[name] = build_chat_model(name, timeout_s=self.context.model_timeout_s)
        return self._built[name]


@dataclass(frozen=True)
class StaticChatModels:
    """One injected model (or None) for every role: tests, benchmarks, embedding apps."""

    model: BaseChatModel | None

    def for_role(self, role: ModelRole) -> BaseChatModel | None:
        """The same model whatever the role."""
        return self.model


def resolve_chat_models(injected: ChatModels | None, context: RuntimeContext) -> ChatModels:
    """Injected models win; otherwise the ones the run context names."""
    return injected if injected is not None else ConfiguredChatModels(context)


async def call_structured(
    model: BaseChatModel,
    schema: type[StructuredT],
    messages: list[BaseMessage],
    *,
    timeout_s: float,
    tags: list[str] | None = None,
) -> StructuredT:
    """One structured-output call, bounded in time.

    Raises:
        ModelCallError: the model failed, timed out or returned something that is not `schema`.
    """
    runnable = model.with_structured_output(schema)
    try:
        result: Any = await asyncio.wait_for(
            runnable.ainvoke(messages, config={"tags": tags or ["codeweaver:internal"]}),
            timeout=timeout_s,
        )
    except TimeoutError as exc:
        raise ModelCallError(f"model call timed out after {timeout_s:g}s") from exc
    except Exception as exc:
        raise ModelCallError(f"model call failed: {type(exc).__name__}: {exc}") from exc
    if isinstance(result, schema):
        return result
    try:
        return schema.model_validate(result)
    except Exception as exc:
        raise ModelCallError(f"model returned malformed {schema.__name__}: {exc}") from exc


async def call_text(
    model: BaseChatModel,
    messages: list[BaseMessage],
    *,
    timeout_s: float,
    tags: list[str] | None = None,
) -> str:
    """One free-text call, bounded in time; `tags` mark whether its tokens reach the user.

    Raises:
        ModelCallError: the model failed or timed out.
    """
    try:
        reply = await asyncio.wait_for(
            model.ainvoke(messages, config={"tags": tags or []}), timeout=timeout_s
        )
    except TimeoutError as exc:
        raise ModelCallError(f"model call timed out after {timeout_s:g}s") from exc
    except Exception as exc:
        raise ModelCallError(f"model call failed: {type(exc).__name__}: {exc}") from exc
    content = reply.content
    if isinstance(content, str):
        return content
    return "".join(
        part.get("text", "") if isinstance(part, dict) else str(part) for part in content
    )


class ModelCallCounter(AsyncCallbackHandler):
    """Counts chat-model calls of a run (pass it in `config['callbacks']`)."""

    def __init__(self) -> None:
        self.calls = 0

    async def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[BaseMessage]], **kwargs: Any
    ) -> None:
        """Count one call per prompt sent."""
        self.calls += len(messages)
