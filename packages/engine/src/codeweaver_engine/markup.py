"""Reading markup: Sphinx roles and grid tables of reST, and HTML pages as Markdown-like text.

The documentation packs keep reST roles in their units' text, so the composer renders them as
Sphinx shows them; the pack builder, the ingested-documents reader and the web sources read
HTML and reST with the same functions.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import ClassVar, NamedTuple

_RST_ROLE = re.compile(r":(?:[A-Za-z][\w+-]*:)?([A-Za-z][\w+-]*):`([^`]*)`")
_RST_TEXT_ROLES = frozenset(
    {
        *("term", "ref", "doc", "abbr", "dfn", "manpage", "guilabel", "menuselection", "kbd"),
        *("program", "mailheader", "newsgroup", "source", "token", "keyword", "option"),
        *("envvar", "file", "samp", "makevar", "gh", "issue"),
    }
)
"""Roles whose text is prose, not a name in code."""


def rst_roles(text: str, *, code: bool = True) -> str:
    """Sphinx roles as Sphinx shows them: :func:`~os.path.join` as `join()`, :pep:`8` as PEP 8.

    A role's text is its label when it has one (:ref:`the guide <guide>`), the last part of a
    name marked `~`, a name without the leading dot of :class:`.HTMLParser`, and a function's
    or method's name gains `()`. Names in code become code spans, or stay bare with
    `code=False` (plain text to search); prose roles (:term:, :ref:, :kbd: ...) stay prose.
    Any domain is read (:py:func:, :c:func:).
    """

    def shown(match: re.Match[str]) -> str:
        role, raw = match.group(1), match.group(2)
        label, _, target = raw.partition("<")
        name = label.strip() or target.rstrip(">").strip()
        if role in ("pep", "rfc"):
            return f"{role.upper()} {name}"
        if role in _RST_TEXT_ROLES:
            return name.strip("!~")
        # As Sphinx reads a name: `!` unlinks it, a leading `.` is for the lookup alone, and
        # `~` shows its last part.
        name = name.lstrip("!").lstrip(".")
        if name.startswith("~"):
            name = name[1:].rsplit(".", 1)[-1]
        if role in ("func", "meth") and not name.endswith(")"):
            name += "()"
        return f"`{name}`" if code else name

    return _RST_ROLE.sub(shown, text)


_DEFAULT_ROLE_NAME = re.compile(
    r"`~\.?((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)`|`\.([A-Za-z_]\w*(?:\.\w+)+)`"
    r"|`_[a-z]+\.([A-Za-z_]\w*(?:\.\w+)*)`"
)
"""A name in the default role's single backquotes, marked as only a cross-reference is:
`~matplotlib.axes.Axes` (shown as its last part), `.pyplot.close` (a lookup from here)."""


def default_role_names(text: str) -> str:
    """Cross-references in the default role (no `:role:`) as Sphinx shows them.

    Libraries that set Sphinx's `default_role` (matplotlib: `obj`) write `~.Figure.savefig` and
    `.pyplot.close` in plain backquotes; shown as written, a reader sees the lookup marks
    ("passed to the ~.FigureCanvasBase.new_manager method"). Sphinx shows `savefig` and
    `pyplot.close`. SQLAlchemy's names carry the module they are looked up in
    (`_orm.Session`, `_sql.select`), which its documentation shows without: `Session`. Code
    spans that are code stay: `~mask` (no dot) is Python's inversion and `.str` (one part) is
    how pandas names an accessor.
    """

    def shown(match: re.Match[str]) -> str:
        if match.group(4) is not None:
            return f"`{match.group(4)}`"
        if match.group(3) is not None:
            return f"`{match.group(3)}`"
        if not match.group(1):
            return match.group(0)
        return f"`{match.group(2)}`"

    return _DEFAULT_ROLE_NAME.sub(shown, text)


def grid_table_rows(lines: list[str]) -> list[list[str]]:
    """The cells of a reST grid table's rows (`| a | b |` lines, borders left out).

    A line whose first cell is empty and that has as many cells as the row above continues that
    row: each of its cells is joined to the cell above it.
    """
    rows: list[list[str]] = []
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if rows and not cells[0] and len(cells) == len(rows[-1]):
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
        else:
            rows.append(cells)
    return rows


class HtmlText(NamedTuple):
    """An HTML page or fragment as Markdown-like text."""

    title: str | None
    """The <title>, else the first <h1>, else None."""
    text: str


def html_to_text(html: str) -> HtmlText:
    """Markdown-like text of an HTML page or fragment (a web page, a Stack Overflow answer).

    Headings become `#` lines, <pre> blocks fenced code (a `lang-py` class names the fence's
    language), <code> inline code spans, list items `- ` lines and a table's rows lines of cells
    separated by `|`; images are their alt text; scripts, styles and the <head> are dropped.
    """
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    text = "".join(parser.parts)
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    title = " ".join(parser.title.split()) or parser.first_h1 or None
    return HtmlText(title, text)


class _HtmlText(HTMLParser):
    _BLOCK = frozenset(
        {"p", "div", "section", "article", "main", "header", "footer", "br", "tr", "table",
         "ul", "ol", "dl", "dt", "dd", "blockquote", "hr", "nav", "aside", "figure", "form"}
    )  # fmt: skip
    _SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head"})
    _HEADINGS: ClassVar[dict[str, int]] = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title = ""
        self.first_h1 = ""
        self._skip_depth = 0
        self._in_title = False
        self._pre_depth = 0
        self._pre_start = 0
        self._cells = 0
        self._heading: list[str] | None = None
        self._heading_level = 0

    def _inline(self, text: str) -> None:
        (self._heading if self._heading is not None else self.parts).append(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        if tag in self._SKIP:
            self._skip_depth += 1
        elif self._skip_depth:
            return
        elif tag in self._HEADINGS:
            self._heading = []
            self._heading_level = self._HEADINGS[tag]
        elif tag == "pre":
            self._pre_depth += 1
            if self._pre_depth == 1:
                self.parts.append(f"\n\n```{_fence_language(attrs)}\n")
                self._pre_start = len(self.parts)
        elif tag == "code" and not self._pre_depth:
            self._inline("`")
        elif tag == "img":
            alt = " ".join((dict(attrs).get("alt") or "").split())
            if alt:
                self._inline(f"[image: {alt}]")
        elif tag == "li":
            self.parts.append("\n- ")
        elif tag in ("td", "th"):
            if self._cells:
                self.parts[-1] = self.parts[-1].rstrip(" ")
                self.parts.append(" | ")
            self._cells += 1
        elif tag in self._BLOCK:
            self.parts.append("\n\n" if tag != "br" else "\n")
            if tag == "tr":
                self._cells = 0

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in self._SKIP:
            self._skip_depth = max(0, self._skip_depth - 1)
        elif self._skip_depth:
            return
        elif tag in self._HEADINGS and self._heading is not None:
            heading = " ".join("".join(self._heading).split())
            if heading:
                self.parts.append(f"\n\n{'#' * self._heading_level} {heading}\n\n")
                if self._heading_level == 1 and not self.first_h1:
                    self.first_h1 = heading
            self._heading = None
        elif tag == "pre" and self._pre_depth:
            self._pre_depth -= 1
            if self._pre_depth == 0:
                code = "".join(self.parts[self._pre_start :]).lstrip("\n").rstrip()
                self.parts[self._pre_start :] = [code, "\n```\n\n"]
        elif tag == "code" and not self._pre_depth:
            self._inline("`")
        elif tag in self._BLOCK and tag != "br":
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif self._skip_depth:
            return
        elif self._pre_depth:
            self.parts.append(data)
        else:
            self._inline(re.sub(r"\s+", " ", data))


def _fence_language(attrs: list[tuple[str, str | None]]) -> str:
    """The language a <pre>'s `lang-` class names (Stack Overflow's `lang-py`), else ''."""
    for name in (dict(attrs).get("class") or "").split():
        if name.startswith("lang-") and name != "lang-none":
            return name.removeprefix("lang-")
    return ""
