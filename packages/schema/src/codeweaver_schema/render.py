"""How an answer is shown as a chat message: its text, then its numbered sources."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from codeweaver_schema.models import SOURCE_LABELS, Answer


def render_answer(answer: Answer) -> str:
    """Markdown of an answer followed by its sources, one line per citation."""
    parts = [answer.text.rstrip()]
    if answer.warning:
        parts.append(f"> ⚠️ {answer.warning}")
    if answer.citations:
        lines = ["**Sources**"]
        for c in answer.citations:
            lines.append(f"[{c.n}] {c.title} ({SOURCE_LABELS[c.source]}): {c.locator}")
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def answer_message(answer: Answer, *, name: str = "codeweaver") -> AIMessage:
    """The AI message that delivers an answer; its citations ride along for clients."""
    return AIMessage(
        content=render_answer(answer),
        name=name,
        additional_kwargs={"citations": [c.model_dump() for c in answer.citations]},
    )
