"""Reading what models write: `<think>` blocks removed, JSON found and repaired in text.

Reasoning models served locally (Qwen3, QwQ, DeepSeek-R1 and their distillations) write their
reasoning inside `<think>…</think>` before the reply, in the same text. Small models asked for
JSON often answer with it in a Markdown fence, between sentences, or with trailing commas.
These functions take what such a reply means and leave the rest; they never invent content.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

OPEN, CLOSE = "<think>", "</think>"
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)
_NEXT_CHAR = re.compile(r"\s*(\S)")
_MAX_SPANS = 20


def _held(text: str, tag: str) -> int:
    """How many characters at the end of `text` could begin `tag` (so must wait for more)."""
    lowered = text.lower()
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(lowered[-size:]):
            return size
    return 0


class ThinkingFilter:
    """Removes `<think>…</think>` blocks from text that arrives in pieces (a token stream).

    Text that might be the start of a tag is held back until the next piece shows whether it
    is; the white space after a block that opened the reply is dropped with it. Tags are
    matched without regard to case.
    """

    def __init__(self) -> None:
        self._inside = False
        self._held = ""
        self._shown = False
        self._after_block = False
        self.saw_thinking = False

    def feed(self, piece: str) -> str:
        """The visible part of the text so far that has not been returned yet."""
        text = self._held + piece
        self._held = ""
        out: list[str] = []
        while text:
            if self._inside:
                end = text.lower().find(CLOSE)
                if end < 0:
                    keep = _held(text, CLOSE)
                    self._held = text[len(text) - keep :] if keep else ""
                    break
                text = text[end + len(CLOSE) :]
                self._inside = False
                self._after_block = True
                continue
            start = text.lower().find(OPEN)
            if start < 0:
                keep = _held(text, OPEN)
                out.append(self._show(text[: len(text) - keep]))
                self._held = text[len(text) - keep :]
                break
            out.append(self._show(text[:start]))
            text = text[start + len(OPEN) :]
            self._inside = True
            self.saw_thinking = True
        return "".join(out)

    def flush(self) -> str:
        """What is still held at the end: nothing inside an unfinished block."""
        held, self._held = self._held, ""
        return "" if self._inside else self._show(held)

    def _show(self, text: str) -> str:
        if self._after_block and not self._shown:
            text = text.lstrip()
        if text:
            self._shown = True
            self._after_block = False
        return text


def strip_thinking(text: str) -> str:
    """The text without its `<think>` blocks, and without leading or trailing white space.

    A reply whose template opened the block itself starts with the reasoning and only shows
    `</think>`; everything up to the last such tag is reasoning too.
    """
    thinking = ThinkingFilter()
    visible = thinking.feed(text) + thinking.flush()
    close = visible.lower().rfind(CLOSE)
    if close >= 0:
        visible = visible[close + len(CLOSE) :]
    return visible.strip()


def json_object_from_text(text: str) -> dict[str, Any]:
    """The JSON object a model's text holds.

    Looks, in order, inside Markdown code fences, at the whole text, and at every balanced
    `{…}` in it; each candidate is read as it is, then with trailing commas removed.

    Raises:
        ValueError: no candidate is a JSON object.
    """
    visible = strip_thinking(text)
    for candidate in _candidates(visible):
        for attempt in (candidate, without_trailing_commas(candidate)):
            try:
                value = json.loads(attempt)
            except json.JSONDecodeError:
                continue
            if isinstance(value, dict):
                return value
    shown = visible if len(visible) <= 80 else visible[:77] + "..."
    raise ValueError(f"no JSON object in the reply {shown!r}")


def _candidates(text: str) -> list[str]:
    found = [m.group(1).strip() for m in _FENCE.finditer(text)]
    found.append(text)
    start = text.find("{")
    while start >= 0 and len(found) < _MAX_SPANS:
        span = _balanced(text, start)
        if span is not None:
            found.append(span)
        start = text.find("{", start + 1)
    return found


def _json_characters(text: str, start: int = 0) -> Iterator[tuple[int, str, bool]]:
    """Each character from `start`, its index, and whether it belongs to a JSON string.

    A string's quotes belong to it, and so does an escaped quote inside it.
    """
    in_string = escaped = False
    for i in range(start, len(text)):
        char = text[i]
        if not in_string:
            in_string = char == '"'
            yield i, char, in_string
            continue
        yield i, char, True
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == '"':
            in_string = False


def _balanced(text: str, start: int) -> str | None:
    """The `{…}` starting at `start`, up to its matching brace, outside strings."""
    depth = 0
    for i, char, quoted in _json_characters(text, start):
        if quoted:
            continue
        if char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def without_trailing_commas(text: str) -> str:
    """JSON text without commas before a closing brace or bracket (strings left alone)."""
    out: list[str] = []
    for i, char, quoted in _json_characters(text):
        if not quoted and char == ",":
            following = _NEXT_CHAR.match(text, i + 1)
            if following is not None and following.group(1) in "}]":
                continue
        out.append(char)
    return "".join(out)
