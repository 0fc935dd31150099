"""What the main graph's nodes share: the turn's messages, failures, delivering the answer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import uuid4

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage

from codeweaver.context import Context
from codeweaver.workflows.orchestration.state import MainState, MainUpdate
from codeweaver_runtime import Node, speak
from codeweaver_schema import Answer, ErrorKind, ErrorRecord, answer_message

ANSWER_TAG = "codeweaver:answer"
"""Tag of the calls whose tokens are the answer: the answer model's, and the delivery's."""


def message_text(message: BaseMessage) -> str:
    """The text of a message whose content may be a string or a list of content blocks."""
    content = message.content
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "\n".join(parts)


def split_turn(messages: list[AnyMessage]) -> tuple[list[AnyMessage], str]:
    """The history before the last user message, and that message's text."""
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], HumanMessage):
            return messages[:i], message_text(messages[i])
    return list(messages), ""


def model_error(node: str, exc: Exception) -> ErrorRecord:
    """An error record for a model call the node survived by falling back to the offline engine."""
    return ErrorRecord(node=node, kind="model", message=f"{exc}; answered with the offline engine")


_MODEL_FAILURES = (
    ("timed out", "model timed out"),
    ("could not be read as", "model replies not in the requested format"),
    ("stopped mid-answer", "model reply cut off"),
    ("no text besides its reasoning", "model reply empty"),
    ("RateLimit", "model rate-limited"),
    ("Connection", "model connection lost"),
    ("Error code: 5", "model server error"),
    ("500 INTERNAL", "model server error"),
    ("503 UNAVAILABLE", "model server error"),
)


def model_failure(message: str) -> str:
    """A few words, for the answer's warning, on why a model call was worked around."""
    return next((words for cue, words in _MODEL_FAILURES if cue in message), "model failed")


def error(node: str, kind: ErrorKind, message: str) -> ErrorRecord:
    """An error record of another kind."""
    return ErrorRecord(node=node, kind=kind, message=message)


MainNode = Node[MainState, Context, MainUpdate]
"""A node of the main graph (and of the multi-question worker, whose state extends it)."""


async def deliver_message(answer: Answer, state: Mapping[str, Any]) -> AIMessage:
    """The message that ends the turn, streamed in chunks to clients of the `messages` stream.

    A multi-question worker's answer is not the turn's message (`combine` writes that), so a
    worker's is not streamed: a client would show it as a message of its own.
    """
    message = answer_message(answer, message_id=str(uuid4()))
    if "multi_question" not in state:
        await speak(message, tags=[ANSWER_TAG])
    return message
