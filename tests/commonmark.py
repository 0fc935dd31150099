"""How a rendered answer reads in a CommonMark client: parsed with markdown-it-py, checked.

Shared by the unit tests of `codeweaver_schema.render` and the graph tests that render real
answers, so both hold the same contract: the sources are a list with one item per citation,
every link is http(s), and nothing reaches the client as raw HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlparse

from markdown_it import MarkdownIt
from markdown_it.token import Token

from codeweaver_schema import SOURCE_LABELS, Answer

# The CommonMark preset keeps raw HTML enabled, as most chat clients' renderers do: an
# unescaped `<script>` shows up here as an html token instead of vanishing.
_PARSER = MarkdownIt("commonmark")


@dataclass
class SourcesSection:
    items: list[str]
    """The plain text of each list item, as a reader sees it."""
    item_links: list[list[str]]
    """The link targets inside each item."""


def _plain(inline: Token) -> str:
    return "".join(
        child.content for child in inline.children or [] if child.type in ("text", "code_inline")
    )


def _is_sources_heading(inline: Token) -> bool:
    kinds = [(c.type, c.content) for c in inline.children or [] if c.content or c.type != "text"]
    return kinds == [("strong_open", ""), ("text", "Sources"), ("strong_close", "")]


def check_rendered(answer: Answer, rendered: str) -> SourcesSection | None:
    """Assert the CommonMark structure of `rendered` (the Markdown of `answer`).

    Returns the sources section, or None for an answer without citations.
    """
    tokens = _PARSER.parse(rendered)
    raw_html = [t for t in tokens if t.type == "html_block"] + [
        c for t in tokens for c in t.children or [] if c.type == "html_inline"
    ]
    assert not raw_html, f"raw HTML reaches the client: {[t.content for t in raw_html]}"
    for token in [*tokens, *(c for t in tokens for c in t.children or [])]:
        target = token.attrs.get("href") or token.attrs.get("src")
        if token.type in ("link_open", "image"):
            scheme = urlparse(str(target)).scheme
            assert scheme in ("http", "https"), f"a {scheme!r} link: {target}"

    headings = [
        i
        for i, t in enumerate(tokens)
        if t.type == "inline" and t.level == 1 and _is_sources_heading(t)
    ]
    if not answer.citations:
        assert not headings, "an answer without citations has no Sources section"
        return None
    assert len(headings) == 1, f"one Sources section, found {len(headings)}"
    start = headings[0] + 2  # the heading's paragraph_close
    assert tokens[start].type == "bullet_list_open", (
        f"Sources is followed by {tokens[start].type}, not a list"
    )
    depth, end = 0, start
    for end in range(start, len(tokens)):
        depth += tokens[end].nesting
        if depth == 0:
            break
    assert end == len(tokens) - 1, "the sources list ends the message"
    list_level = tokens[start].level
    items: list[str] = []
    links: list[list[str]] = []
    for i in range(start, end):
        if tokens[i].type == "list_item_open" and tokens[i].level == list_level + 1:
            inlines = [
                t for t in tokens[i : end + 1] if t.type == "inline" and t.level == list_level + 3
            ]
            items.append(_plain(inlines[0]))
            links.append(
                [str(c.attrs["href"]) for c in inlines[0].children or [] if c.type == "link_open"]
            )
            assert tokens[i + 1].type == "paragraph_open"
            assert tokens[i + 3].type == "paragraph_close"
            assert tokens[i + 4].type == "list_item_close", "one paragraph per item"
    assert len(items) == len(answer.citations), (
        f"{len(items)} list items for {len(answer.citations)} citations"
    )
    for citation, item, item_links in zip(answer.citations, items, links, strict=True):
        title = " ".join(citation.title.split())
        label = SOURCE_LABELS[citation.source]
        web = urlparse(citation.locator).scheme in ("http", "https")
        where = citation.locator if web else " ".join(citation.locator.split())
        assert item == f"[{citation.n}] {title} ({label}): {where}", item
        assert item_links == ([citation.locator] if web else []), item_links
    return SourcesSection(items=items, item_links=links)


# Links as a lenient client makes them: markdown-it refuses `javascript:` itself, others do not.
_LENIENT = MarkdownIt("commonmark")
_LENIENT.validateLink = lambda url: True  # type: ignore[method-assign]


def assert_safe_for_clients(markdown: str) -> None:
    """Assert that no client, however lenient, renders raw HTML or a link to a script.

    Raw HTML is any `html_block` or `html_inline` token; a link or image may go to http,
    https, mailto or a relative address, nothing else.
    """
    tokens = _LENIENT.parse(markdown)
    everything = [*tokens, *(c for t in tokens for c in t.children or [])]
    raw_html = [t.content for t in everything if t.type in ("html_block", "html_inline")]
    assert not raw_html, f"raw HTML reaches the client: {raw_html}"
    for token in everything:
        if token.type in ("link_open", "image"):
            target = str(token.attrs.get("href") or token.attrs.get("src") or "")
            scheme = urlparse(target).scheme.lower()
            assert scheme in ("", "http", "https", "mailto"), f"a {scheme!r} link: {target}"
