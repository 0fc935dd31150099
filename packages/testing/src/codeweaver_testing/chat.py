"""A scripted chat model for tests: structured output, call recording, latency.

It is a real `BaseChatModel`, so callbacks, tags and streaming behave as with a provider's
model; what it answers comes from a responder function the test writes. Given a token counter,
its replies carry usage metadata as a provider's do. For the real wire protocols, see
`codeweaver_testing.model_server`.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda, RunnableParallel
from pydantic import BaseModel, PrivateAttr


@dataclass(frozen=True)
class RecordedCall:
    """One call the fake received."""

    messages: list[BaseMessage]
    schema: str | None
    tags: list[str]


Responder = Callable[[list[BaseMessage], str | None], Any]
"""Given the prompt and the requested schema's name (None for free text), return the reply:
a pydantic model or dict for structured calls, a string for text, or raise to simulate failure."""


class ScriptedChatModel(BaseChatModel):
    """A chat model whose replies come from `responder`, recording every call."""

    responder: Responder
    latency_s: float = 0.0
    count_tokens: Callable[[str], int] | None = None
    """Counts a text's tokens; when given, every reply reports usage (prompt and reply)."""
    _calls: list[RecordedCall] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "codeweaver-scripted"

    @property
    def calls(self) -> list[RecordedCall]:
        """Every call so far, in order."""
        return self._calls

    def _reply(self, messages: list[BaseMessage], schema: str | None, tags: list[str]) -> str:
        self._calls.append(RecordedCall(list(messages), schema, tags))
        reply = self.responder(list(messages), schema)
        if isinstance(reply, BaseModel):
            return reply.model_dump_json()
        if isinstance(reply, dict | list):
            return json.dumps(reply)
        return str(reply)

    def _prompt_tokens(self, messages: list[BaseMessage]) -> int | None:
        if self.count_tokens is None:
            return None
        return sum(self.count_tokens(str(m.content)) for m in messages)

    def _result(self, text: str, prompt: int | None) -> ChatResult:
        usage: UsageMetadata | None = None
        if self.count_tokens is not None and prompt is not None:
            reply = self.count_tokens(text)
            usage = {"input_tokens": prompt, "output_tokens": reply, "total_tokens": prompt + reply}
        message = AIMessage(content=text, usage_metadata=usage)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        tags = list(run_manager.tags) if run_manager else []
        prompt = self._prompt_tokens(messages)
        return self._result(self._reply(messages, kwargs.get("structured_schema"), tags), prompt)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        started = time.perf_counter()
        prompt = self._prompt_tokens(messages)
        if self.latency_s:
            # Counting is part of the set latency, so a benchmark's timings do not move.
            await asyncio.sleep(max(0.0, self.latency_s - (time.perf_counter() - started)))
        tags = list(run_manager.tags) if run_manager else []
        return self._result(self._reply(messages, kwargs.get("structured_schema"), tags), prompt)

    def with_structured_output(  # type: ignore[override]
        self, schema: type[BaseModel], *, include_raw: bool = False, **kwargs: Any
    ) -> Runnable[LanguageModelInput, Any]:
        """Ask the responder for `schema`, then validate its JSON as a provider's parser would.

        With `include_raw`, the result is `{"raw", "parsed", "parsing_error"}` as LangChain's
        providers return it; `method` and other provider options are accepted and ignored.
        """
        bound = self.bind(structured_schema=schema.__name__)

        def parse(message: BaseMessage) -> BaseModel:
            return schema.model_validate_json(str(message.content))

        if not include_raw:
            return bound | RunnableLambda(parse)

        def parse_raw(result: dict[str, Any]) -> dict[str, Any]:
            try:
                return {**result, "parsed": parse(result["raw"]), "parsing_error": None}
            except ValueError as exc:
                return {**result, "parsed": None, "parsing_error": exc}

        return RunnableParallel(raw=bound) | RunnableLambda(parse_raw)


def respond_with(replies: dict[str | None, Any]) -> Responder:
    """A responder that answers each schema name (None: free text) with a fixed reply."""

    def responder(messages: Sequence[BaseMessage], schema: str | None) -> Any:
        if schema not in replies:
            raise KeyError(f"no scripted reply for schema {schema!r}")
        reply = replies[schema]
        return reply(messages) if callable(reply) else reply

    return responder
