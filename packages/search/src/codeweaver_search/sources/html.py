"""Stack Overflow bodies are HTML; answers need clean text with the code kept as fenced code."""

from __future__ import annotations

import re

from bs4 import BeautifulSoup
from bs4.element import NavigableString, Tag

_BLOCKS = {"p", "div", "blockquote", "table", "tr", "hr", "ul", "ol", "dl"}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


def html_to_text(html: str) -> str:
    """Readable text of an HTML fragment: paragraphs, lists, and ``` fenced code blocks."""
    soup = BeautifulSoup(html, "html.parser")
    parts: list[str] = []
    _walk(soup, parts)
    text = "".join(parts)
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip()


def _walk(node: Tag, out: list[str]) -> None:
    for child in node.children:
        if isinstance(child, NavigableString):
            out.append(re.sub(r"\s+", " ", str(child)))
            continue
        if not isinstance(child, Tag):
            continue
        name = child.name
        if name == "pre":
            code = child.get_text()
            lang = _code_language(child)
            out.append(f"\n\n```{lang}\n{code.rstrip()}\n```\n\n")
        elif name == "code":
            out.append(f"`{child.get_text()}`")
        elif name == "br":
            out.append("\n")
        elif name == "img":
            alt = child.get("alt")
            if isinstance(alt, str) and alt.strip():
                out.append(f"[image: {alt.strip()}]")
        elif name in _HEADINGS:
            out.append("\n\n" + "#" * int(name[1]) + " ")
            _walk(child, out)
            out.append("\n\n")
        elif name == "li":
            out.append("\n- ")
            _walk(child, out)
        elif name in _BLOCKS:
            out.append("\n\n")
            _walk(child, out)
            out.append("\n\n")
        else:
            _walk(child, out)


def _code_language(pre: Tag) -> str:
    classes = pre.get("class")
    names = classes if isinstance(classes, list) else [classes] if isinstance(classes, str) else []
    for cls in names:
        if cls.startswith("lang-") and cls != "lang-none":
            return cls.removeprefix("lang-")
    return ""
