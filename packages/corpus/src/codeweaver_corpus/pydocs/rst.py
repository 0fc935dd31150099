"""The Python documentation's reST sources as answer units: API entries and sections.

An answer to a programming question usually hinges on one API, so the documentation is cut
where Sphinx cuts it: each `function`, `method`, `class`, `attribute`, `data`, `exception`
(and kin) directive is one unit, with its qualified name (`os.path.getsize`,
`datetime.datetime.strftime`), its signatures and its description; the prose around them
(tutorials, how-tos, FAQ answers, module introductions) is cut by section, long sections into
passages. Text is rendered to Markdown as a reader of the HTML pages sees it: roles become
code (a `:func:` role naming `max` reads `max()`), version notes become sentences, literal
blocks and doctest sessions become fenced code, and grid tables become rows.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from codeweaver_engine.markup import grid_table_rows, rst_roles
from codeweaver_engine.packs.units import PLAIN_NAME, DocUnit

API_DIRECTIVES = frozenset(
    {
        "function",
        "method",
        "class",
        "attribute",
        "data",
        "exception",
        "decorator",
        "classmethod",
        "staticmethod",
        "coroutinefunction",
        "coroutinemethod",
        "abstractmethod",
        "decoratormethod",
        "property",
        "awaitablefunction",
        "awaitablemethod",
    }
)
PASSAGE_CHARS = 1400
"""Longest passage of prose a section is cut into (API entries are never cut)."""
SKIPPED_DOCS = ("library/test", "library/idle", "library/2to3", "library/lib2to3")
"""Pages about CPython's own test suite and tools, not about programming in Python."""

_DIRECTIVE = re.compile(r"^(\s*)\.\. (?:py:)?([\w-]+)::\s*(.*?)\s*$")
_COMMENT = re.compile(r"^(\s*)\.\.(?:\s|$)(?!\s*\w[\w-]*::)")
_LABEL = re.compile(r"^\s*\.\. _[^:]+:\s*$|^\s*\.\. \|[^|]+\|")
_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+<>:._])\1{2,}\s*$")
_LITERAL = re.compile(r"``(.+?)``")
_BULLET_ITEM = re.compile(r"^[-*+] \S")
"""An item of a bullet list, at the paragraph's indentation (the lines are dedented)."""
_TABLE_BORDER = re.compile(r"^\s*\+[-=+]+\+\s*$|^\s*=+(\s+=+)+\s*$")
_NAME = re.compile(r"^([\w.]+)")
_OPTION = re.compile(r"^\s*:[\w-]+:(\s|$)")
"""A directive option (`:noindex:`, `:synopsis: ...`), unlike a role (`:func:` + backquote)."""
_SYNTAX_TERM = re.compile(r"^(\s*)``([^`]+)``((?:,\s*``[^`]+``)*)\s*$")
r"""A definition list's term written as literals (``(?=...)``, ``\d``, ``%z``; ``*?``, ``+?``)."""
_ONE_LITERAL = re.compile(r"``([^`]+)``")
_SNAKE_NAME = re.compile(r"([a-z][a-z0-9]*(?:_[a-z0-9]+)+)")
"""A table's first cell written as a bare snake_case name: a codec (``unicode_escape``)."""
_NOTES_CELL = re.compile(r"(?:\\?\(\d+\)[\s,]*)+")
r"""A table cell that only points to numbered notes (`\(1)`, `(3), (4)`)."""
_NOTES = {
    "note": "Note:",
    "warning": "Warning:",
    "seealso": "See also:",
    "impl-detail": "CPython implementation detail:",
    "important": "Important:",
    "tip": "Tip:",
    "availability": "Availability:",
}
_VERSION_NOTES = {
    "versionadded": "New in version {}.",
    "versionchanged": "Changed in version {}:",
    "deprecated": "Deprecated since version {}:",
    "deprecated-removed": "Deprecated since version {}:",
}
_CODE_DIRECTIVES = frozenset({"code-block", "sourcecode", "code", "doctest", "testcode"})
_DROPPED = frozenset(
    {
        "index",
        "highlight",
        "testsetup",
        "testcleanup",
        "testoutput",
        "sectionauthor",
        "moduleauthor",
        "toctree",
        "include",
        "audit-event",
        "productionlist",
        "raw",
        "only",
        "literalinclude",
        "opcode",
        "pdbcommand",
        "cmdoption",
        "envvar",
        "option",
        "index-entry",
        "tabularcolumns",
        "program",
        "currentmodule",
        "module",
        "c:function",
        "c:macro",
        "c:type",
        "c:member",
        "c:var",
        "glossary",
    }
)


def slug(title: str) -> str:
    """The id Sphinx gives a section heading in HTML."""
    lowered = re.sub(r"[`*:]", "", title).lower()
    return re.sub(r"[^a-z0-9]+", "-", lowered).strip("-")


def inline(text: str) -> str:
    """Inline reST markup as Markdown: roles and literals become code spans."""
    text = rst_roles(text)
    text = _LITERAL.sub(lambda m: f"`{m.group(1)}`", text)
    return text.replace("\\ ", "").replace("\\*", "*")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _dedent(lines: list[str]) -> list[str]:
    filled = [ln for ln in lines if ln.strip()]
    if not filled:
        return []
    cut = min(_indent(ln) for ln in filled)
    return [ln[cut:] if ln.strip() else "" for ln in lines]


def _block_end(lines: list[str], start: int, indent: int) -> int:
    """The first line at or after `start` indented at most `indent` (blank lines excepted)."""
    end = start
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > indent):
        end += 1
    # Trailing blank lines belong to what follows.
    while end > start and not lines[end - 1].strip():
        end -= 1
    return end


def _table_rows(rows: list[str]) -> list[str]:
    """Grid-table rows as 'cell — cell' lines, continuation lines folded into their row."""
    return [" — ".join(c for c in cells if c) for cells in grid_table_rows(rows) if any(cells)]


def render(lines: list[str], *, bullets: bool = False) -> tuple[str, list[str]]:
    """ReST lines (already dedented) as Markdown, and the code blocks among them.

    With `bullets`, each item of a bullet list is a line of its own (`- item`), its wrapped
    lines joined; without, a list is one paragraph, as the bundled Python pack was built.
    """
    out: list[str] = []
    examples: list[str] = []
    paragraph: list[str] = []

    def flush(*, blank: bool = True) -> None:
        if paragraph:
            out.append(inline(" ".join(p.strip() for p in paragraph)))
            if blank:
                out.append("")
            paragraph.clear()

    def code(block: list[str]) -> None:
        body = "\n".join(_dedent(block)).strip("\n")
        if body:
            examples.append(body)
            out.extend(["```", body, "```", ""])

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            flush()
            i += 1
            continue
        if _TABLE_BORDER.match(line):
            flush()
            rows: list[str] = []
            while i < len(lines) and lines[i].strip():
                if not _TABLE_BORDER.match(lines[i]):
                    rows.append(lines[i])
                i += 1
            out.extend(inline(r) for r in _table_rows(rows))
            out.append("")
            continue
        directive = _DIRECTIVE.match(line)
        if directive or _LABEL.match(line) or _COMMENT.match(line):
            flush()
            indent = _indent(line)
            end = _block_end(lines, i + 1, indent)
            body = lines[i + 1 : end]
            # Directive options (:noindex:, :synopsis:) come first and are not text.
            while body and _OPTION.match(body[0]):
                body = body[1:]
            if directive is not None:
                name, argument = directive.group(2), directive.group(3)
                if name in _NOTES:
                    text, found = render(
                        _dedent([argument, *body]) if argument else _dedent(body), bullets=bullets
                    )
                    examples.extend(found)
                    out.extend([f"{_NOTES[name]} {text}".strip(), ""])
                elif name in _VERSION_NOTES:
                    version = argument.split()[0] if argument else ""
                    parts = [argument[len(version) :].strip(), *(b.strip() for b in body)]
                    rest = " ".join(p for p in parts if p)
                    sentence = _VERSION_NOTES[name].format(version)
                    out.extend([f"{sentence} {inline(rest)}".strip(), ""])
                elif name in _CODE_DIRECTIVES:
                    code(body)
                elif name == "rubric":
                    out.extend([f"**{inline(argument)}**", ""])
                elif name == "describe":
                    # An operation of a type (`d | other`, `key in d`): its form, then what it does.
                    text, found = render(_dedent(body), bullets=bullets)
                    examples.extend(found)
                    out.extend([f"`{argument}`: {text}".strip(), ""])
                elif name not in _DROPPED and name not in API_DIRECTIVES:
                    text, found = render(_dedent(body), bullets=bullets)
                    examples.extend(found)
                    if text:
                        out.extend([text, ""])
            i = end
            continue
        if stripped.startswith(">>>"):
            flush()
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            code(block)
            continue
        if stripped.endswith("::") and i + 1 < len(lines):
            # A literal block follows: "Example::" reads "Example:", a lone "::" reads nothing.
            text = stripped[:-2].rstrip()
            if text:
                # "newline. ::" drops the marker; "Example::" keeps one colon.
                paragraph.append(text if stripped[:-2].endswith(" ") else line.rstrip()[:-1])
            flush()
            end = _block_end(lines, i + 1, _indent(line))
            code(lines[i + 1 : end])
            i = end
            continue
        if _indent(line) > 0 and not paragraph:
            # A block quote or definition body: render it as its own paragraphs.
            end = _block_end(lines, i, 0)
            text, found = render(_dedent(lines[i:end]), bullets=bullets)
            examples.extend(found)
            out.extend([text, ""])
            i = end
            continue
        if bullets and paragraph and _BULLET_ITEM.match(line):
            flush(blank=False)  # the item before ends on its own line
        paragraph.append(line)
        i += 1
    flush()
    markdown = re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
    return markdown, examples


def _headings(lines: list[str]) -> dict[int, str]:
    """Line index of each section title (the line above its underline)."""
    found: dict[int, str] = {}
    for i in range(1, len(lines)):
        title = lines[i - 1]
        if (
            _ADORNMENT.match(lines[i])
            and title.strip()
            and not title.startswith((" ", ".."))
            and not _ADORNMENT.match(title)
            and len(lines[i].rstrip()) >= len(title.rstrip()) - 1
        ):
            found[i - 1] = _plain_title(title)
    return found


def _plain_title(title: str) -> str:
    """A heading as text: `:mod:` roles without backquotes, Sphinx's `---` as a dash."""
    return inline(title.strip()).replace("`", "").replace(" --- ", " — ")


def _signature(raw: str) -> str:
    return " ".join(raw.split())


@dataclass
class _Scope:
    """Where the parser is: module, known classes, and the classes a directive nests in."""

    module: str = ""
    classes: set[str] = field(default_factory=set)
    nesting: list[tuple[int, str]] = field(default_factory=list)

    def qualify(self, name: str, indent: int) -> str:
        while self.nesting and self.nesting[-1][0] >= indent:
            self.nesting.pop()
        if self.nesting and "." not in name:
            return f"{self.nesting[-1][1]}.{name}"
        head = name.split(".", 1)[0]
        if self.module and "." in name and head in self.classes:
            return f"{self.module}.{name}"
        if self.module and not name.startswith(self.module + "."):
            # `Match.group` in `re`, `chain.from_iterable` in `itertools`.
            return f"{self.module}.{name}"
        return name


def _display(signature: str, name: str, qualified: str, nested: bool) -> str:
    """A signature as called, qualified like the code that calls it.

    `getsize(path)` of `os.path` reads `os.path.getsize(path)`, and a method nested in its class
    reads with the class (`Counter.most_common([n])`).
    """
    if "." in name or qualified == name or not signature.startswith(name):
        return signature
    owner = qualified[: -len(name) - 1]
    return f"{owner.rsplit('.', 1)[-1] if nested else owner}.{signature}"


def parse_page(text: str, doc: str) -> list[DocUnit]:
    """The units of one reST page.

    Args:
        text: The page's reST source.
        doc: The page's path under the documentation root, without `.rst.txt`.
    """
    lines = text.splitlines()
    headings = _headings(lines)
    doc_title = next(iter(headings.values()), doc)
    scope = _Scope()
    units: list[DocUnit] = []
    described: set[int] = set()  # lines of `describe` directives already made units
    section = doc_title
    prose: list[str] = []

    def here() -> DocUnit:
        """The current section as a place: every unit written in it shares these fields."""
        anchor = slug(section) if section != doc_title else ""
        return DocUnit("section", doc, doc_title, section, anchor, module=scope.module)

    def flush_prose() -> None:
        markdown, examples = render(_dedent(prose) if prose else [])
        prose.clear()
        for number, passage in enumerate(_passages(markdown)):
            units.append(
                replace(
                    here(),
                    text=passage,
                    examples=[e for e in examples if e in passage],
                    directive=str(number),
                )
            )

    i = 0
    inside_entry = 0  # the end of an entry whose nested entries are being read
    while i < len(lines):
        line = lines[i]
        if i in headings:
            flush_prose()
            section = headings[i]
            i += 2
            continue
        directive = _DIRECTIVE.match(line)
        if directive and directive.group(2) in ("module", "currentmodule"):
            scope.module = directive.group(3).strip()
            scope.nesting.clear()
        if directive and directive.group(2) in API_DIRECTIVES:
            indent = len(directive.group(1))
            raw = [directive.group(3)]
            j = i + 1
            while (
                j < len(lines)
                and lines[j].strip()
                and _indent(lines[j]) > indent
                and not _OPTION.match(lines[j])
            ):
                raw.append(lines[j].strip())
                j += 1
            signatures = _join_continued(raw)
            end = _block_end(lines, j, indent)
            body = lines[j:end]
            while body and (_OPTION.match(body[0]) or not body[0].strip()):
                body = body[1:]
            match = _NAME.match(signatures[0])
            name = match.group(1) if match else signatures[0]
            qualified = scope.qualify(name, indent)
            nested = bool(scope.nesting) and "." not in name
            kind = directive.group(2)
            if kind in ("class", "exception"):
                scope.classes.add(name.rsplit(".", 1)[-1])
                scope.nesting.append((indent, qualified))
            markdown, examples = render(_dedent(body))
            shown = [_display(s, name, qualified, nested) for s in signatures]
            owner = qualified[: -len(name)]
            aliases = [
                owner + alias
                for alias in dict.fromkeys(
                    m.group(1) for m in map(_NAME.match, signatures[1:]) if m is not None
                )
                if alias != name
            ]
            units.append(
                DocUnit(
                    kind="api",
                    doc=doc,
                    doc_title=doc_title,
                    section=section,
                    anchor=qualified,
                    name=qualified,
                    directive=kind,
                    signatures=shown,
                    text=markdown,
                    examples=examples,
                    module=scope.module,
                    aliases=aliases,
                )
            )
            units.extend(_operations(lines, j, end, described, parent=units[-1]))
            # Nested entries (a class's methods) are units of their own.
            inner = _first_nested(lines, j, end, indent)
            if inner is not None:
                inside_entry = max(inside_entry, end)
                i = inner
            else:
                i = end
            continue
        if i >= inside_entry:
            # The rest of an entry's body was rendered with the entry; only prose is kept here.
            place = here()
            syntax = _syntax_item(lines, i, parent=place)
            if syntax is not None:
                units.append(syntax)
            units.extend(_table_items(lines, i, parent=place))
            if directive and directive.group(2) == "describe" and i not in described:
                units.extend(_operations(lines, i, i + 1, described, parent=place))
            prose.append(line)
        i += 1
    flush_prose()
    return units


def _operations(
    lines: list[str], start: int, end: int, described: set[int], *, parent: DocUnit
) -> Iterator[DocUnit]:
    """The operations a type documents with `describe` (`key in d`, `d | other`) as API units.

    They stay in their type's entry too, but as units of their own a question about one
    ("check if a key is in a dict") finds the operation and its sentence, not the whole type.
    The docs give them no anchor: they link to where they are written (the type's entry).
    """
    for k in range(start, end):
        found = _DIRECTIVE.match(lines[k])
        if not found or found.group(2) != "describe" or k in described:
            continue
        described.add(k)
        form = _signature(found.group(3))
        body = lines[k + 1 : _block_end(lines, k + 1, len(found.group(1)))]
        markdown, examples = render(_dedent(body))
        if not markdown:
            continue  # the first of two forms that share one description
        yield replace(
            parent,
            kind="api",
            name=form,
            directive="describe",
            signatures=[form],
            text=markdown,
            examples=examples,
            aliases=[],
        )


def _syntax_item(lines: list[str], i: int, *, parent: DocUnit) -> DocUnit | None:
    r"""A piece of syntax a definition list explains (``(?=...)``, ``\d``) as a unit of its own.

    The regular-expression syntax is written this way, one term per special character or
    sequence: as one passage of its section, a question about a lookahead finds 1,400
    characters about many of them, and an answer names `re.search` instead of `(?=...)`. The
    item stays in its section's passage too. Terms that are names (``'store'``) are not syntax;
    a term of several literals (``*?``, ``+?``, ``??``) is one unit named by the first.
    """
    term = _SYNTAX_TERM.match(lines[i])
    if term is None or i + 1 >= len(lines):
        return None
    name, *aliases = [term.group(2), *re.findall(r"``([^`]+)``", term.group(3))]
    if any(PLAIN_NAME.fullmatch(literal) for literal in (name, *aliases)):
        return None
    indent = len(term.group(1))
    if not lines[i + 1].strip() or _indent(lines[i + 1]) <= indent:
        return None
    body = lines[i + 1 : _block_end(lines, i + 1, indent)]
    markdown, examples = render(_dedent(body))
    if not markdown:
        return None
    return replace(
        parent,
        kind="api",
        name=name,
        aliases=aliases,
        directive="syntax",
        signatures=[", ".join((name, *aliases))],
        text=markdown,
        examples=examples,
    )


def _table_items(lines: list[str], i: int, *, parent: DocUnit) -> Iterator[DocUnit]:
    r"""The rows of a table that starts at line `i` and documents literals, as units of their own.

    A row whose first cell is one literal (``%B`` of the strftime codes, ``'<'`` of the format
    specification) or a bare snake_case name (the codec `unicode_escape`) is that literal's
    entry: its other cells (what it means, an example; not the notes column) are its text. As
    one passage, "month name" finds 1,200 characters about every code; as a unit it finds `%B`
    and its sentence. The rows stay in their section's passage too.
    """
    if i and lines[i - 1].strip()[:1] in ("+", "|", "="):
        return  # not the table's first line
    for first, *rest in _table_cells(lines, i):
        literal = _ONE_LITERAL.fullmatch(first) or _SNAKE_NAME.fullmatch(first)
        described = [inline(c) for c in rest if c and not _NOTES_CELL.fullmatch(c)]
        if literal is None or not described:
            continue
        name = literal.group(1)
        yield replace(
            parent,
            kind="api",
            name=name,
            directive="syntax",
            signatures=[name],
            text=" — ".join(described),
            examples=[],
            aliases=[],
        )


def _table_cells(lines: list[str], i: int) -> list[list[str]]:
    """The rows of the grid or simple table whose top border is line `i`, as cell texts.

    Columns are read by position from the border (`+----+---+`, `==== ===`), so a cell that
    holds a `|` line block (the strftime table's examples) stays one cell; a row's lines are
    joined cell by cell.
    """
    border = lines[i] if i < len(lines) else ""
    if not _TABLE_BORDER.match(border):
        return []
    grid = border.lstrip().startswith("+")
    spans: list[tuple[int, int | None]]
    if grid:
        cuts = [k for k, ch in enumerate(border) if ch == "+"]
        spans = [(a + 1, b) for a, b in itertools.pairwise(cuts)]
    else:
        cuts = [m.start() for m in re.finditer(r"=+", border)]
        spans = list(zip(cuts, [*cuts[1:], None], strict=True))
    rows: list[list[list[str]]] = []
    after_border = True
    borders = 1
    for line in lines[i + 1 :]:
        if not line.strip():
            if not grid and borders >= 2:
                break
            continue
        if _TABLE_BORDER.match(line):
            borders += 1
            after_border = True
            continue
        if grid and not line.strip().startswith("|"):
            break
        cells = [line[a:b].strip() for a, b in spans]
        cells = [c[1:].strip() if c.startswith("|") else c for c in cells]
        # A grid row starts after a border; a simple table's where its first column has text.
        if (after_border if grid else bool(cells[0])) or not rows:
            rows.append([[c] for c in cells])
            after_border = False
        else:
            for kept, cell in zip(rows[-1], cells, strict=False):
                kept.append(cell)
    return [[" ".join(p for p in cell if p) for cell in row] for row in rows]


def _join_continued(raw: list[str]) -> list[str]:
    """Signature lines, with lines ending in a backslash joined to the next."""
    joined: list[str] = []
    carry = ""
    for part in raw:
        if part.endswith("\\"):
            carry += part[:-1] + " "
            continue
        joined.append(_signature(carry + part))
        carry = ""
    if carry:
        joined.append(_signature(carry))
    return joined


def _first_nested(lines: list[str], start: int, end: int, indent: int) -> int | None:
    """The line of the first API directive nested in an entry's body, if any."""
    for k in range(start, end):
        nested = _DIRECTIVE.match(lines[k])
        if nested and nested.group(2) in API_DIRECTIVES and len(nested.group(1)) > indent:
            return k
    return None


def _passages(markdown: str) -> Iterator[str]:
    """A section's Markdown in passages of at most `PASSAGE_CHARS`, never inside a code block."""
    current = ""
    for block in _blocks(markdown):
        if not block:
            continue
        if current and len(current) + len(block) + 2 > PASSAGE_CHARS:
            yield current
            current = ""
        current = f"{current}\n\n{block}" if current else block
    if current.strip():
        yield current


def _blocks(markdown: str) -> Iterator[str]:
    """Paragraphs and whole code blocks of a Markdown text."""
    block: list[str] = []
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not line.strip() and not fenced:
            if block:
                yield "\n".join(block)
                block = []
            continue
        block.append(line)
    if block:
        yield "\n".join(block)


def parse_tree(root: Path) -> list[DocUnit]:
    """Every unit of the documentation under `root` (its `*.rst.txt` files), in a stable order."""
    units: list[DocUnit] = []
    for path in sorted(root.rglob("*.rst.txt")):
        doc = path.relative_to(root).as_posix().removesuffix(".rst.txt")
        if "/" not in doc or doc.startswith(SKIPPED_DOCS):
            continue
        units.extend(parse_page(path.read_text(encoding="utf-8"), doc))
    return units
