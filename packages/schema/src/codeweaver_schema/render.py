"""How an answer is shown as a chat message: its text, then its numbered sources."""

from __future__ import annotations

import re

from langchain_core.messages import AIMessage

from codeweaver_schema.models import SOURCE_LABELS, Answer

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>&~])")
"""What can start emphasis, code, a link, HTML or an entity in the middle of a line."""
_SAFE_URL = re.compile(r"https?://[^\s<>\"'`]+\Z")


def escape_markdown(text: str) -> str:
    """Text shown as itself in Markdown: emphasis, links, HTML and entities all escaped.

    Titles come from retrieved pages (a Stack Overflow title can hold `<script>` or
    `[click](javascript:...)`); in the chat message they must read as plain text.
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _locator(locator: str) -> str:
    """A web address as an autolink; anything else (a file, a page) escaped."""
    if _SAFE_URL.match(locator):
        return f"<{locator}>"
    return escape_markdown(locator)


def render_answer(answer: Answer) -> str:
    """Markdown of an answer followed by its sources, a list with one item per citation.

    The sources are a bullet list rather than lines joined by single newlines: CommonMark
    joins such lines into one paragraph, so every standard client (agent-chat-ui, Studio,
    any Markdown renderer) showed them as one run-on line. A bullet list rather than an
    ordered one because citation numbers need not start at 1 or be contiguous, and an
    ordered list would renumber them.
    """
    parts = [answer.text.rstrip()]
    if answer.warning:
        parts.append(f"> ⚠️ {answer.warning}")
    if answer.citations:
        items = [
            f"- [{c.n}] {escape_markdown(c.title)} ({SOURCE_LABELS[c.source]}): "
            f"{_locator(c.locator)}"
            for c in answer.citations
        ]
        parts.append("**Sources**\n\n" + "\n".join(items))
    return "\n\n".join(parts)


def answer_message(
    answer: Answer, *, name: str = "codeweaver", message_id: str | None = None
) -> AIMessage:
    """The AI message that delivers an answer; its citations ride along for clients.

    `message_id` is the id its streamed chunks carried, so a client joins them into it.
    """
    return AIMessage(
        content=render_answer(answer),
        name=name,
        id=message_id,
        additional_kwargs={"citations": [c.model_dump() for c in answer.citations]},
    )
