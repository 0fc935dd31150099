"""Chat models by name, per role, and the calls that every node makes through them.

A model is named `provider:model`, optionally `@base_url` (`codeweaver_runtime.model_names`):
`openai:gpt-4o-mini` (also any OpenAI-compatible server when `OPENAI_BASE_URL` is set),
`openai:qwen2.5-coder@http://127.0.0.1:11434/v1` (that server, for one role), or
`google_genai:gemini-2.5-flash`. `offline` (or no key at all) selects the built-in offline
engine: nodes then get `None` and run their deterministic path.

Every call is bounded by the model timeout. Structured calls survive models that cannot do
structured output well (`codeweaver_runtime.structured`); text replies lose their `<think>`
blocks, streamed tokens included, so reasoning never reaches the user. Internal calls
(structured ones) are tagged `nostream`: a client of the `messages` stream sees only the
answer's tokens.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol
from uuid import UUID

from langchain_core.callbacks import (
    AsyncCallbackHandler,
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.base import LangSmithParams
from langchain_core.language_models.chat_models import agenerate_from_stream, generate_from_stream
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult, LLMResult
from langchain_core.runnables import RunnableConfig
from langgraph.constants import TAG_NOSTREAM

from codeweaver_runtime.context import RuntimeContext
from codeweaver_runtime.delivery import DELIVERY_TAG
from codeweaver_runtime.model_names import ModelSpec, parse_model_name
from codeweaver_runtime.replies import ThinkingFilter, strip_thinking
from codeweaver_runtime.secrets import install_log_redaction
from codeweaver_runtime.structured import (
    METHODS,
    MethodMemory,
    Refused,
    StructuredT,
    Unusable,
    ask_once,
    chain_for,
    model_identity,
)

ModelRole = Literal["planner", "judge", "answer"]
INTERNAL_TAG = "codeweaver:internal"
ROLE_TAG_PREFIX = "codeweaver:role:"
MODEL_SERVER_KEY_ENV = "CODEWEAVER_MODEL_SERVER_KEY"
"""The key sent to a model at its own base URL (vLLM `--api-key`, a gateway); none if unset."""
NO_KEY = "not-needed"
"""What the clients send when a server needs no key (they refuse to run without one)."""


class ModelCallError(RuntimeError):
    """A chat-model call failed or timed out; the node falls back to its offline path."""


class ChatModels(Protocol):
    """Gives each role its chat model, or None for the offline engine."""

    def for_role(self, role: ModelRole) -> BaseChatModel | None:
        """The model for a role, or None when the role runs offline."""
        ...


def _same_url(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and str(a).rstrip("/") == str(b).rstrip("/")


def _key_for(spec: ModelSpec, provider_key: str | None, provider_url: str | None) -> str | None:
    """The provider's key goes only where the provider's settings send it.

    A model at its own base URL gets `CODEWEAVER_MODEL_SERVER_KEY` (or no key), unless that URL
    is the provider's configured one: an OpenAI key never travels to another server because a
    role names one.
    """
    if spec.base_url is None or _same_url(spec.base_url, provider_url):
        return provider_key
    return os.environ.get(MODEL_SERVER_KEY_ENV) or NO_KEY


def build_chat_model(name: str, *, timeout_s: float) -> BaseChatModel | None:
    """Build a chat model from `provider:model[@base_url]`, or return None for `offline`.

    Raises:
        ValueError: the name has no known provider or an unusable base URL.
    """
    spec = parse_model_name(name)
    if spec is None:
        return None
    install_log_redaction()
    if spec.provider == "openai":
        from langchain_openai import ChatOpenAI

        configured_url = os.environ.get("OPENAI_BASE_URL") or None
        base_url = spec.base_url or configured_url
        api_key = _key_for(spec, os.environ.get("OPENAI_API_KEY"), configured_url)
        return ChatOpenAI(
            model=spec.model,
            base_url=base_url,
            api_key=api_key or (NO_KEY if base_url else None),
            timeout=timeout_s,
            max_retries=1,
            # Token counts of streamed answers come in a last chunk, only when asked for.
            stream_usage=True,
        )
    from langchain_google_genai import ChatGoogleGenerativeAI

    google_key = os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY")
    options: dict[str, Any] = {}
    if spec.base_url is not None:
        options = {"base_url": spec.base_url, "google_api_key": _key_for(spec, google_key, None)}
    # Google counts the first request as an attempt: 2 is one retry, as OpenAI's 1 is.
    return ChatGoogleGenerativeAI(model=spec.model, timeout=timeout_s, max_retries=2, **options)


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


def role_tag(role: ModelRole | None) -> list[str]:
    """The tag that files a call's tokens under its role (`ModelCallCounter`)."""
    return [f"{ROLE_TAG_PREFIX}{role}"] if role else []


async def call_structured(
    model: BaseChatModel,
    schema: type[StructuredT],
    messages: list[BaseMessage],
    *,
    timeout_s: float,
    tags: list[str] | None = None,
    role: ModelRole | None = None,
    memory: MethodMemory | None = None,
) -> StructuredT:
    """One structured-output answer, by whichever way the model supports, within `timeout_s`.

    The ways are tried as `codeweaver_runtime.structured` describes, starting from the one
    `memory` (the process's, by default) says worked for this model; the whole chain shares
    the one timeout. The call is internal: its tokens never reach a `messages` stream.

    Raises:
        ModelCallError: the model failed or timed out, or no way gave a valid `schema`; the
            message says what each way answered.
    """
    memory = memory if memory is not None else METHODS
    identity = model_identity(model)
    config: RunnableConfig = {
        "tags": [*(tags or [INTERNAL_TAG]), TAG_NOSTREAM, *role_tag(role)],
    }
    # Nobody reads these tokens as they come, and streamed structured output is where small
    # servers and client libraries differ most: ask for the whole reply at once.
    quiet = model.model_copy(update={"disable_streaming": True})
    tried: list[str] = []
    try:
        async with asyncio.timeout(timeout_s):
            for method in memory.order(identity, chain_for(model)):
                try:
                    result = await ask_once(quiet, schema, messages, method, config)
                except Refused as exc:
                    memory.refused(identity, method)
                    tried.append(f"{method} refused ({_short(exc)})")
                    continue
                except Unusable as exc:
                    tried.append(f"{method}: {_short(exc)}")
                    continue
                memory.worked(identity, method)
                return result
    except TimeoutError as exc:
        raise ModelCallError(
            f"model call timed out after {timeout_s:g}s{_attempts(tried)}"
        ) from exc
    except Exception as exc:
        raise ModelCallError(
            f"model call failed: {type(exc).__name__}: {_short(exc)}{_attempts(tried)}"
        ) from exc
    raise ModelCallError(
        f"the model's replies could not be read as {schema.__name__}{_attempts(tried)}"
    )


def _short(exc: BaseException, limit: int = 200) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _attempts(tried: list[str]) -> str:
    return f" (tried {'; '.join(tried)})" if tried else ""


def text_of(message: BaseMessage, separator: str = "") -> str:
    """The text of a message whose content may be a string or a list of content blocks.

    Args:
        message: The message.
        separator: What stands between the blocks' texts ("": a reply streamed in pieces; " ":
            blocks read as words, which must not run together).
    """
    content = message.content
    if isinstance(content, str):
        return content
    return separator.join(
        part.get("text", "") if isinstance(part, dict) else str(part) for part in content
    )


def _cut_short(reply: BaseMessage) -> bool:
    """A provider's reply that ends with no finish reason: its stream stopped mid-answer."""
    metadata = reply.response_metadata
    return bool(metadata.get("model_provider")) and not metadata.get("finish_reason")


async def call_text(
    model: BaseChatModel,
    messages: list[BaseMessage],
    *,
    timeout_s: float,
    tags: list[str] | None = None,
    role: ModelRole | None = None,
) -> str:
    """One free-text reply, bounded in time, without `<think>` blocks, streamed ones included.

    `tags` mark whether its tokens reach the user (the answer's do).

    Raises:
        ModelCallError: the model failed or timed out, its stream stopped mid-answer, or the
            reply had no text besides its reasoning.
    """
    visible = WithoutThinking(inner=model)
    config: RunnableConfig = {"tags": [*(tags or []), *role_tag(role)]}
    try:
        reply = await asyncio.wait_for(visible.ainvoke(messages, config=config), timeout=timeout_s)
    except TimeoutError as exc:
        raise ModelCallError(f"model call timed out after {timeout_s:g}s") from exc
    except Exception as exc:
        raise ModelCallError(f"model call failed: {type(exc).__name__}: {_short(exc)}") from exc
    if _cut_short(reply):
        raise ModelCallError("the model's reply stopped mid-answer (no finish reason)")
    text = strip_thinking(text_of(reply))
    if not text:
        raise ModelCallError("the model's reply held no text besides its reasoning")
    return text


def _streams(model: BaseChatModel) -> bool:
    kind = type(model)
    return kind._astream is not BaseChatModel._astream or kind._stream is not BaseChatModel._stream


def _visible_result(result: ChatResult) -> ChatResult:
    generations = []
    for generation in result.generations:
        message = generation.message
        if isinstance(message.content, str):
            message = message.model_copy(update={"content": strip_thinking(message.content)})
        generations.append(
            ChatGeneration(message=message, generation_info=generation.generation_info)
        )
    return ChatResult(generations=generations, llm_output=result.llm_output)


class WithoutThinking(BaseChatModel):
    """A chat model whose replies, streamed or whole, lose their `<think>` blocks.

    It calls the inner model's own generation methods, so there is one model run per call
    (one count, one set of callbacks) and the tokens a `messages` client sees are the visible
    ones. Usage and response metadata pass through unchanged.
    """

    inner: BaseChatModel

    @property
    def _llm_type(self) -> str:
        return self.inner._llm_type

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return dict(self.inner._identifying_params)

    def _get_ls_params(self, stop: list[str] | None = None, **kwargs: Any) -> LangSmithParams:
        return self.inner._get_ls_params(stop=stop, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if _streams(self.inner) and getattr(self.inner, "streaming", False) is True:
            return generate_from_stream(
                self._stream(messages, stop=stop, run_manager=run_manager, **kwargs)
            )
        inner_run = None if _streams(self.inner) else run_manager
        return _visible_result(
            self.inner._generate(messages, stop=stop, run_manager=inner_run, **kwargs)
        )

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if _streams(self.inner) and getattr(self.inner, "streaming", False) is True:
            # A model configured to stream only streams: take its reply through the filter.
            return await agenerate_from_stream(
                self._astream(messages, stop=stop, run_manager=run_manager, **kwargs)
            )
        # A model that cannot stream emits no tokens, so it may see the run (fakes record
        # its tags); one that can must not, or its raw tokens would reach the stream.
        inner_run = None if _streams(self.inner) else run_manager
        result = await self.inner._agenerate(messages, stop=stop, run_manager=inner_run, **kwargs)
        return _visible_result(result)

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        thinking = ThinkingFilter()
        if not _streams(self.inner):
            result = self._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
            chunk = _whole(result.generations[0].message)
            if run_manager:
                run_manager.on_llm_new_token(chunk.text, chunk=chunk)
            yield chunk
            return
        for chunk in self.inner._stream(messages, stop=stop, **kwargs):
            shown = _shown(chunk, thinking.feed(chunk.text))
            if run_manager:
                run_manager.on_llm_new_token(shown.text, chunk=shown)
            yield shown
        tail = thinking.flush()
        if tail:
            yield ChatGenerationChunk(message=AIMessageChunk(content=tail))

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        if not _streams(self.inner):
            result = await self._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)
            chunk = _whole(result.generations[0].message)
            if run_manager:
                await run_manager.on_llm_new_token(chunk.text, chunk=chunk)
            yield chunk
            return
        thinking = ThinkingFilter()
        async for chunk in self.inner._astream(messages, stop=stop, **kwargs):
            shown = _shown(chunk, thinking.feed(chunk.text))
            if run_manager:
                await run_manager.on_llm_new_token(shown.text, chunk=shown)
            yield shown
        tail = thinking.flush()
        if tail:
            last = ChatGenerationChunk(message=AIMessageChunk(content=tail))
            if run_manager:
                await run_manager.on_llm_new_token(tail, chunk=last)
            yield last


def _whole(message: BaseMessage) -> ChatGenerationChunk:
    return ChatGenerationChunk(
        message=AIMessageChunk(
            content=message.content,
            id=message.id,
            response_metadata=message.response_metadata,
            usage_metadata=message.usage_metadata if isinstance(message, AIMessage) else None,
        )
    )


def _shown(chunk: ChatGenerationChunk, text: str) -> ChatGenerationChunk:
    return ChatGenerationChunk(
        message=chunk.message.model_copy(update={"content": text}),
        generation_info=chunk.generation_info,
    )


@dataclass
class RoleUsage:
    """Calls and tokens of one role in a run, as the providers reported them."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    without_usage: int = 0
    """Calls whose reply reported no token counts (failed, cut, or a server that omits them)."""


class ModelCallCounter(AsyncCallbackHandler):
    """Counts chat-model calls of a run, and their tokens per role (pass it in `callbacks`).

    The role is the one the call was tagged with (`role_tag`); untagged calls count as
    `other`. Tokens are the replies' usage metadata, so they are the provider's own counts.
    """

    def __init__(self) -> None:
        self.calls = 0
        self.by_role: dict[str, RoleUsage] = {}
        self._running: dict[UUID, RoleUsage] = {}

    async def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        tags: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        """Count one call per prompt sent, under its role (not the replays that deliver answers)."""
        if DELIVERY_TAG in (tags or []):
            return
        self.calls += len(messages)
        role = next(
            (t.removeprefix(ROLE_TAG_PREFIX) for t in tags or [] if t.startswith(ROLE_TAG_PREFIX)),
            "other",
        )
        usage = self.by_role.setdefault(role, RoleUsage())
        usage.calls += len(messages)
        self._running[run_id] = usage

    async def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        """Add the reply's token counts to its role."""
        usage = self._running.pop(run_id, None)
        if usage is None:
            return
        for generations in response.generations:
            for generation in generations:
                message = getattr(generation, "message", None)
                counts = message.usage_metadata if isinstance(message, AIMessage) else None
                if counts:
                    usage.input_tokens += counts.get("input_tokens", 0)
                    usage.output_tokens += counts.get("output_tokens", 0)
                else:
                    usage.without_usage += 1

    async def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """A failed call reports no tokens."""
        usage = self._running.pop(run_id, None)
        if usage is not None:
            usage.without_usage += 1

    def tokens(self) -> dict[str, dict[str, int]]:
        """Per role: calls, input and output tokens, calls without counts; and the total."""
        report = {
            role: {
                "calls": u.calls,
                "input_tokens": u.input_tokens,
                "output_tokens": u.output_tokens,
                "calls_without_usage": u.without_usage,
            }
            for role, u in sorted(self.by_role.items())
        }
        if report:
            report["total"] = {
                key: sum(r[key] for r in list(report.values()))
                for key in next(iter(report.values()))
            }
        return report
