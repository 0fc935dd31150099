"""How an answer is shown as a chat message: its text, then its numbered sources."""

from __future__ import annotations

import html
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


_FENCE = re.compile(r"^ {0,3}(`{3,}(?!.*`)|~{3,})")
"""A fence as CommonMark reads one: up to three spaces, and no backtick after a backtick fence."""
_LINK = re.compile(
    r"(!?)\[((?:[^\[\]\\]|\\.)*)\]"
    r"\(\s*(<[^>\n]*>|(?:[^\s()]|\([^\s()]*\))*)(\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
"""An inline link or image: `[text](destination "title")`, one level of parentheses inside."""
_DEFINITION = re.compile(r"(\[(?:[^\[\]\\]|\\.)+\]):([ \t]*\n?[ \t>]*)(<[^>\n]*>|\S+)")
"""A link reference definition, `[label]: destination`, the destination maybe on the next line."""
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>")
_PLAIN_LINE = re.compile(
    r"^(?! {4}|\t| {0,3}(?:>|[-+*](?:\s|$)|\d{1,9}[.)](?:\s|$)|<))(?!.*(?:```|~~~))"
)
"""A line CommonMark reads as a paragraph's: no quote, list, indented code, fence or HTML."""
_PLAIN_AFTER_LT = re.compile(r"[\s=\d]")
"""What follows a `<` that starts neither a tag nor an autolink (`a < b`, `x<=y`, `i<3`)."""
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_SAFE_SCHEMES = frozenset({"http", "https", "mailto"})


def safe_destination(destination: str) -> bool:
    """Whether a link may go there: the web, mail, or a relative address; never `javascript:`.

    The address is read as a browser would: entities decoded, whitespace and control
    characters dropped, case ignored (`JaVa&#x73;cript:` is `javascript:`).
    """
    plain = html.unescape(destination.strip("<> "))
    plain = "".join(c for c in plain if c.isprintable() and not c.isspace()).lower()
    scheme = re.match(r"([a-z][a-z0-9+.-]*):", plain)
    return scheme is None or scheme.group(1) in _SAFE_SCHEMES


def _without_unsafe_links(text: str) -> str:
    """Links and images to other schemes as their text; such reference definitions undone.

    Applied to a whole paragraph, code spans included (a link's text may hold one), until
    nothing changes: taking a link out can close the brackets of another around it.
    """

    def link(match: re.Match[str]) -> str:
        return match.group(0) if safe_destination(match.group(3)) else match.group(2)

    def definition(match: re.Match[str]) -> str:
        if safe_destination(match.group(3)):
            return match.group(0)
        # `]\:` defines nothing: the label stays text, and links to it stay unresolved.
        return f"{match.group(1)}\\:{match.group(2)}{match.group(3)}"

    text = _DEFINITION.sub(definition, text)
    for _ in range(10):
        changed = _LINK.sub(link, text)
        if changed == text:
            break
        text = changed
    return text


def _escape_tags(text: str, *, code_spans: bool) -> str:
    """Every `<` that could open raw HTML or a link as `&lt;`, outside code and safe autolinks.

    Read left to right as CommonMark reads a paragraph: a backslash escapes the punctuation
    after it, a run of backticks opens a code span that the next run of the same length
    closes (inside it nothing is markup), and otherwise the run is text. Without
    `code_spans`, backticks are text too, and a `<` inside what may be code is escaped.
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] in _ASCII_PUNCTUATION:
            out.append(text[i : i + 2])
            i += 2
        elif c == "`" and code_spans:
            j = i
            while j < n and text[j] == "`":
                j += 1
            run = text[i:j]
            close = re.compile(rf"(?<!`){run}(?!`)").search(text, j)
            if close is None:
                out.append(run)
                i = j
            else:
                out.append(text[i : close.end()])
                i = close.end()
        elif c == "<":
            autolink = _AUTOLINK.match(text, i)
            if autolink and safe_destination(autolink.group(1)):
                out.append(autolink.group(0))
                i = autolink.end()
            elif i + 1 < n and not _PLAIN_AFTER_LT.match(text[i + 1]):
                out.append("&lt;")
                i += 1
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def safe_markdown(text: str) -> str:
    """Markdown any client may render: no raw HTML, no link to a `javascript:` or `data:` URL.

    Retrieved pages and ingested documents can hold `<script>`, `<img onerror=...>` or
    `[click](javascript:...)`; a chat page sanitises them, but an agent's client, a terminal
    or a REST client may not. Outside code, a tag's `<` becomes `&lt;` (shown as itself), a
    link or image to any scheme but http, https and mailto keeps only its text, and such a
    reference definition goes. Fenced code blocks and code spans show their text literally in
    every renderer and are left as they are.
    """
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None

    def flush() -> None:
        if prose:
            # Code spans are trusted only in plain paragraphs: with quotes, lists, HTML or a
            # fence in a container, the blocks a client sees can differ from the ones read
            # here, so there every `<` is escaped (at worst `&lt;` shows inside a code span).
            plain = all(_PLAIN_LINE.match(line) for line in prose)
            unlinked = _without_unsafe_links("\n".join(prose))
            out.append(_escape_tags(unlinked, code_spans=plain))
            prose.clear()

    for line in text.split("\n"):
        opened = _FENCE.match(line)
        if fence is not None:
            marks = opened.group(1) if opened else ""
            if marks[:1] == fence[0] and len(marks) >= len(fence):
                fence = None
            out.append(line)
        elif opened:
            flush()
            fence = opened.group(1)
            out.append(line)
        elif not line.strip():
            # A blank line ends a paragraph: no code span or link reaches across it.
            flush()
            out.append(line)
        else:
            prose.append(line)
    flush()
    return "\n".join(out)


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
