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
    """Markdown of an answer followed by its sources, one line per citation."""
    parts = [answer.text.rstrip()]
    if answer.warning:
        parts.append(f"> ⚠️ {answer.warning}")
    if answer.citations:
        lines = ["**Sources**"]
        for c in answer.citations:
            title = escape_markdown(c.title)
            lines.append(f"[{c.n}] {title} ({SOURCE_LABELS[c.source]}): {_locator(c.locator)}")
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def answer_message(answer: Answer, *, name: str = "codeweaver") -> AIMessage:
    """The AI message that delivers an answer; its citations ride along for clients."""
    return AIMessage(
        content=render_answer(answer),
        name=name,
        additional_kwargs={"citations": [c.model_dump() for c in answer.citations]},
    )
