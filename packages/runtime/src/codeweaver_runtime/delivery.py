"""Speak a composed message on LangGraph's `messages` stream, in chunks of one message id.

Standard clients (agent-chat-ui, Studio, `useStream`) show an answer as it arrives on the
`messages` stream (`messages-tuple` on LangGraph Server). That stream carries the tokens of
chat-model calls and, whole, the messages nodes write; an answer the offline engine composes,
or a model's draft once it has been checked and given its sources, would arrive in one block at
the end. `speak` replays such a message through a chat model that only repeats it, so clients
receive it in chunks of the message's own id, and the message the node then writes (same id)
is not sent again: the chunks add up to exactly the message in the thread.

The replay is no model call: it is tagged `DELIVERY_TAG`, and call counters skip it.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import RunnableConfig

DELIVERY_TAG = "codeweaver:delivery"
"""Tag of the replays that deliver a composed message; they are not model calls."""
CHUNK_CHARS = 80
"""Longest chunk: a line, or a run of words of a longer line."""
_WORDS = re.compile(r"\S+\s*|\s+")


def chunks_of(text: str, limit: int = CHUNK_CHARS) -> list[str]:
    """`text` cut into chunks that add up to it: lines, and long lines at word boundaries."""
    pieces: list[str] = []
    for line in text.splitlines(keepends=True):
        current = ""
        for word in _WORDS.findall(line):
            if current and len(current) + len(word) > limit:
                pieces.append(current)
                current = ""
            current += word
        if current:
            pieces.append(current)
    return pieces


class _Replay(BaseChatModel):
    """A chat model that repeats one composed message, chunk by chunk, under its id."""

    message: AIMessage

    @property
    def _llm_type(self) -> str:
        return "codeweaver-delivery"

    def _text(self) -> str:
        content = self.message.content
        return content if isinstance(content, str) else ""

    def _pieces(self) -> Iterator[ChatGenerationChunk]:
        pieces = chunks_of(self._text()) or [""]
        for index, piece in enumerate(pieces):
            last = index == len(pieces) - 1
            yield ChatGenerationChunk(
                message=AIMessageChunk(
                    content=piece,
                    id=self.message.id,
                    # Marks the end, so LangChain adds no empty closing chunk of another id.
                    chunk_position="last" if last else None,
                )
            )

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self.message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        yield from self._pieces()

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        for chunk in self._pieces():
            yield chunk
            # Let the server send each chunk as its own event before the next is made.
            await asyncio.sleep(0)


async def speak(message: AIMessage, *, tags: list[str] | None = None) -> None:
    """Send `message` on the run's `messages` stream in chunks carrying its id.

    Call it from a node that then returns `message` in its update: LangGraph sends a node's
    messages only when their id has not streamed yet, so clients get the chunks, not a copy.
    Outside a streamed run (a plain `invoke`, a unit test) nobody listens and nothing is sent.

    Args:
        message: The composed message; it must have an id and string content.
        tags: Extra tags of the replay, for clients that pick what they show by tag.

    Raises:
        ValueError: the message has no id.
    """
    if not message.id:
        raise ValueError("a delivered message needs an id, so its chunks and it are one message")
    config: RunnableConfig = {
        "tags": [DELIVERY_TAG, *(tags or [])],
        "run_name": "deliver",
    }
    # `astream` makes LangChain stream even when no handler asked for it; the chunks are
    # drained here because the stream's listeners are the point, not the return value.
    async for _ in _Replay(message=message).astream([], config):
        pass
