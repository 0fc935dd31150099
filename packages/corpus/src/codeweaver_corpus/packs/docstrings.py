"""Docstrings as Markdown: griffe's section parsers, rendered the way the Python pack reads.

A library's docstring is numpydoc (pandas, NumPy, SciPy, matplotlib), Google style, or reST
with Sphinx fields (requests, Flask, SQLAlchemy). griffe parses all three into sections; each
package's style is detected once from a sample of its docstrings (`package_style`) and tried
first for every docstring of the package, so a stray "Example:" line in a numpydoc package is
not read as a Google section. The Markdown has the summary and description first (what an
answer quotes and the unit's vector encodes), then Parameters, Returns, Raises, See also, Notes
(trimmed) and Examples as fenced code; the examples are also returned as runnable blocks in
their `>>>` form, as the Python pack keeps them.
"""

from __future__ import annotations

import logging
import re
import textwrap
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from griffe import (
    Docstring,
    DocstringSection,
    DocstringSectionKind,
    Parser,
    infer_docstring_style,
    parse_auto,
)

from codeweaver_corpus.pydocs.rst import inline, render
from codeweaver_engine.language.prose import is_code_line
from codeweaver_engine.packs.units import first_sentence

STYLES = (Parser.numpy, Parser.google, Parser.sphinx)
DESCRIPTION_CHARS = 400
"""Longest description of one parameter, return value or exception kept."""
NOTES_CHARS = 700
"""Longest Notes section kept: notes explain the implementation more often than the use."""
EXAMPLE_BLOCKS = 6
"""Most example blocks a unit keeps."""
EXAMPLE_CHARS = 2400
"""Most characters of example code a unit keeps (whole blocks only; the first always)."""
_SKIPPED_SECTIONS = frozenset(
    {
        DocstringSectionKind.attributes,
        DocstringSectionKind.functions,
        DocstringSectionKind.classes,
        DocstringSectionKind.modules,
        DocstringSectionKind.type_aliases,
        DocstringSectionKind.type_parameters,
        DocstringSectionKind.receives,
    }
)
"""Sections that list members: each member is a unit of its own."""
_SKIPPED_ADMONITIONS = frozenset({"references", "methods", "attributes", "index"})
_SIGNATURE_LINE = re.compile(r"^\s*([A-Za-z_][\w.]*)\((.*)\)\s*(->.*)?$")
_FENCE = re.compile(r"^```")

logging.getLogger("griffe").setLevel(logging.ERROR)


@dataclass
class Rendered:
    """A docstring as a unit's Markdown.

    Attributes:
        text: The Markdown.
        examples: The code blocks, `>>>` sessions in that form.
        summary: The first sentence.
        signatures: The call forms the docstring's first lines gave (`add(x1, x2, /, ...)`, as
            compiled functions write them), taken out of the text.
    """

    text: str
    examples: list[str] = field(default_factory=list)
    summary: str = ""
    signatures: list[str] = field(default_factory=list)


def package_style(docstrings: Iterable[Docstring], *, sample: int = 400) -> Parser:
    """The docstring style most of a package's docstrings show (numpy when none shows one)."""
    votes: Counter[Parser] = Counter()
    for count, docstring in enumerate(docstrings):
        if count >= sample:
            break
        style, _ = infer_docstring_style(docstring, style_order=list(STYLES))
        if style is not None:
            votes[style] += 1
    return votes.most_common(1)[0][0] if votes else Parser.numpy


def _style_order(style: Parser) -> list[Parser]:
    return [style, *(s for s in STYLES if s is not style)]


def parse(docstring: Docstring, style: Parser) -> list[DocstringSection]:
    """The sections of a docstring, the package's style tried first."""
    try:
        return parse_auto(docstring, default=style, style_order=_style_order(style))
    except Exception:  # noqa: BLE001 - a parser bug on one docstring must not lose the package
        return [_text_section(docstring.value)]


def _text_section(text: str) -> DocstringSection:
    from griffe import DocstringSectionText

    return DocstringSectionText(text)


def leading_signatures(text: str, name: str) -> tuple[list[str], str]:
    """The call forms on a docstring's first lines (`a.reshape(shape, /, *, order='C')`).

    Compiled functions have no introspectable signature and write theirs, one form a line,
    at the top of their docstring; they are taken out of the text, as `(...)` forms.
    """
    forms: list[str] = []
    lines = text.split("\n")
    while lines:
        match = _SIGNATURE_LINE.match(lines[0])
        if not match or match.group(1).rsplit(".", 1)[-1] != name.rsplit(".", 1)[-1]:
            break
        forms.append(f"({match.group(2)})")
        lines.pop(0)
    return forms, "\n".join(lines).lstrip("\n") if forms else text


_ADORNMENT = re.compile(r"^([=\-~^*#+`'\":.])\1{2,}\s*$")


def _without_titles(text: str) -> str:
    """The prose without its reST titles ("requests.exceptions" over a line of `~`).

    A module's docstring often opens with one: its words are the module's name, already the
    unit's title, and joined to the first sentence they made summaries such as
    "NumPy ===== Provides 1.". A title is a line whose next line adorns it at least as long.
    """
    lines = text.splitlines()
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        under = lines[i + 1] if i + 1 < len(lines) else ""
        if (
            line.strip()
            and not _ADORNMENT.match(line.strip())
            and _ADORNMENT.match(under.strip())
            and len(under.strip()) >= len(line.strip())
        ):
            if kept and _ADORNMENT.match(kept[-1].strip()):
                kept.pop()  # its overline
            i += 2
            continue
        kept.append(line)
        i += 1
    return "\n".join(kept)


_HIDDEN_FIELD = re.compile(r"^[ \t]*:(?:meta [\w ]+|internal|private):[ \t]*$\n?", re.M)
_FIELD = re.compile(r"^([ \t]*):([A-Za-z][\w ]*):(?=\s)", re.M)


def _without_fields(text: str) -> str:
    """Prose without reST field markers.

    `:meta private:` and `:internal:` go (Sphinx hides them); `:kwargs: Additional filters`
    reads "kwargs: Additional filters".
    """
    return _FIELD.sub(r"\1\2:", _HIDDEN_FIELD.sub("", text))


def module_summary(text: str) -> str:
    """What a module's page title says after its name: its docstring's first sentence.

    Its reST title is not part of it ("NumPy ===== Provides 1." read that way); a sentence of
    fewer than three words ("Provides 1.") gives way to that title ("NumPy").
    """
    sentence = first_sentence(_without_titles(text)).strip()
    if len(sentence.split()) >= 3:
        return sentence
    lines = [line.strip() for line in text.strip().splitlines()]
    if lines and _ADORNMENT.match(lines[0]):
        lines = lines[1:]
    if len(lines) > 1 and lines[0] and _ADORNMENT.match(lines[1]):
        return lines[0]
    return sentence


def _markdown(text: str) -> tuple[str, list[str]]:
    """Docstring prose (reST or Markdown) as Markdown, and its code blocks."""
    lines = text.splitlines()
    if any(_FENCE.match(line.strip()) for line in lines):
        return _markdown_fenced(lines)
    markdown, blocks = render(lines, bullets=True)
    return markdown, blocks


def _markdown_fenced(lines: Sequence[str]) -> tuple[str, list[str]]:
    """Prose already in Markdown: fenced blocks kept as they are, the rest read as reST."""
    out: list[str] = []
    blocks: list[str] = []
    prose: list[str] = []
    code: list[str] | None = None
    for line in lines:
        if _FENCE.match(line.strip()):
            if code is None:
                if prose:
                    out.append(render(prose, bullets=True)[0])
                    prose = []
                code = []
            else:
                body = "\n".join(code).strip("\n")
                if body:
                    blocks.append(body)
                    out.append(f"```\n{body}\n```")
                code = None
        elif code is not None:
            code.append(line)
        else:
            prose.append(line)
    if prose:
        out.append(render(prose, bullets=True)[0])
    return "\n\n".join(part for part in out if part), blocks


_FIELD_NOTES = (
    (re.compile(r"\.\. versionadded:: *(\S+)"), r"New in version \1."),
    (re.compile(r"\.\. versionchanged:: *(\S+)"), r"Changed in version \1:"),
    (re.compile(r"\.\. deprecated:: *(\S+)"), r"Deprecated since version \1:"),
)
_LINK = re.compile(r"`([^`<]+?)\s*<[^>]+>`__?")
_FLAT_DIRECTIVE = re.compile(r"\.\. ([a-z][a-z-]*)::[ \t]*(\S*)")
_ADMONITION_WORDS = {
    "note": "Note:",
    "warning": "Warning:",
    "caution": "Caution:",
    "important": "Important:",
    "tip": "Tip:",
    "hint": "Hint:",
    "attention": "Attention:",
    "danger": "Danger:",
    "seealso": "See also:",
}
_CODE_DIRECTIVES = frozenset(
    {"code-block", "code", "sourcecode", "highlight", "doctest", "testcode"}
)
"""A directive run into a flattened line reads as the word it stands for (`.. note::` as
"Note:"); any other (`.. math::`) leaves its content without the marker, and a code directive's
argument (`.. code-block:: python`) goes with it."""


def _flat_directive(match: re.Match[str]) -> str:
    name, argument = match.group(1), match.group(2)
    word = _ADMONITION_WORDS.get(name, "")
    if name in _CODE_DIRECTIVES:
        argument = ""
    return f"{word} {argument}".strip()


def _flat(text: str, limit: int) -> str:
    """A parameter's or a note's description as one line of Markdown within `limit`."""
    for pattern, replacement in _FIELD_NOTES:
        text = pattern.sub(replacement, text)
    text = _FLAT_DIRECTIVE.sub(_flat_directive, text)
    return inline(_LINK.sub(r"\1", _clip(text, limit)))


def _clip(text: str, limit: int) -> str:
    """Text cut at a sentence end within `limit` characters (or at a word, with an ellipsis)."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit]
    end = max(cut.rfind(". "), cut.rfind(".) "))
    if end > limit // 3:
        return cut[: end + 1]
    return cut.rsplit(" ", 1)[0] + " …"


def _item(name: str, annotation: object, description: str) -> str:
    """One entry of a Parameters, Returns or Raises list."""
    annotation_text = "" if annotation in (None, "None", "") else inline(str(annotation))
    described = _flat(description, DESCRIPTION_CHARS) if description.strip() else ""
    name = name.replace("\\*", "*").strip()
    if name and name != "None":
        head = f"`{name}`" + (f" ({annotation_text})" if annotation_text else "")
    else:
        head = f"`{annotation_text}`" if annotation_text else ""
    if head and described:
        return f"- {head}: {described}"
    return f"- {head or described}"


def _type_spec(text: str, name: str) -> str | None:
    """A numpydoc parameter's type as written (`{0 or 'index', 1}, default 0`).

    griffe splits choices and defaults out of it (`0 or 'index', 1`); the line says it better.
    """
    match = re.search(rf"^[ \t]*{re.escape(name)}[ \t]+:[ \t]+(\S.*)$", text, flags=re.MULTILINE)
    return match.group(1).strip() if match else None


def _see_also(text: str) -> list[str]:
    """The See Also entries of numpydoc (`name : what it does`) as list items."""
    items: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if raw.startswith((" ", "\t")) and items:
            items[-1] += " " + inline(line)
            continue
        names, sep, description = line.partition(" : ")
        if not sep:
            names, sep, description = line.partition(": ")
        names_text = ", ".join(f"`{n.strip()}`" for n in names.split(",") if n.strip())
        items.append(f"- {names_text}: {inline(description)}" if sep else f"- {inline(line)}")
    return items


_STATEMENT = re.compile(r"^\s*[^#\s].*[(=]")
"""A line of code that does something (a call, an assignment), not a comment or "For example:"."""
_LITERAL = re.compile(r"^(\s*)``?(.+?)``?\s*$")
_EXAMPLE_TITLES = frozenset({"example", "examples", "usage", "example usage"})
"""Google-style section titles griffe reads as admonitions that are examples (`Example:`)."""


def _examples(value: Sequence[tuple[DocstringSectionKind, str]]) -> tuple[list[str], list[str]]:
    """An Examples section's Markdown lines and its code blocks, within the limits."""
    lines: list[str] = []
    blocks: list[str] = []
    size = 0
    for kind, text in value:
        if kind is DocstringSectionKind.examples:
            code = text.strip("\n")
            if blocks and (len(blocks) >= EXAMPLE_BLOCKS or size + len(code) > EXAMPLE_CHARS):
                break
            blocks.append(code)
            size += len(code)
            lines += ["```", code, "```", ""]
        else:
            markdown, found = _prose_and_code(text)
            for code in found:
                if len(blocks) < EXAMPLE_BLOCKS and size + len(code) <= EXAMPLE_CHARS:
                    blocks.append(code)
                    size += len(code)
            if markdown:
                lines += [markdown, ""]
    return lines, blocks


def _prose_and_code(text: str) -> tuple[str, list[str]]:
    """An example's text as Markdown, and its code blocks: code written without `>>>` or `::`.

    Google-style examples are often plain code under the section's title (Selenium's
    `Example:` then `element = driver.find_element(By.ID, "foo")` and `element.click()`);
    read as reST, those lines run together into one paragraph of prose. A paragraph whose
    lines all read as code (`is_code_line`, comments included) is a code block; the prose
    around it ("To send a simple key event::") is read as reST.
    """
    parts: list[str] = []
    blocks: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        if prose:
            markdown, found = _markdown("\n\n".join(prose))
            parts.append(markdown)
            blocks.extend(found)
            prose.clear()

    for paragraph in re.split(r"\n[ \t]*\n", text.strip("\n")):
        # Written as a reST literal (``x = f()`` or `x = f()`), a line's code is what is inside.
        lines = [_LITERAL.sub(r"\1\2", line) for line in paragraph.splitlines() if line.strip()]
        if (
            lines
            and all(is_code_line(line) for line in lines)
            and any(_STATEMENT.search(line) for line in lines)
        ):
            flush()
            code = textwrap.dedent("\n".join(lines))
            blocks.append(code)
            parts.append(f"```\n{code}\n```")
        elif lines:
            prose.append(re.sub(r"::[ \t]*$", ":", paragraph.rstrip(), flags=re.MULTILINE))
    flush()
    return "\n\n".join(part for part in parts if part), blocks


def render_docstring(text: str, *, name: str, style: Parser) -> Rendered:
    """A docstring's Markdown, examples and summary.

    Args:
        text: The docstring, cleaned of its indentation.
        name: The object's name (a leading call form naming it is taken as its signature).
        style: The package's docstring style.
    """
    signatures, text = leading_signatures(text.strip("\n"), name)
    sections = parse(Docstring(text), style)
    out: list[str] = []
    examples: list[str] = []
    summary = ""
    for section in sections:
        kind = section.kind
        value = section.value
        if kind in _SKIPPED_SECTIONS:
            continue
        if kind is DocstringSectionKind.text:
            markdown, blocks = _markdown(_without_fields(_without_titles(str(value))))
            if markdown:
                out += [markdown, ""]
                summary = summary or first_sentence(markdown)
            examples += blocks
        elif kind in (DocstringSectionKind.parameters, DocstringSectionKind.other_parameters):
            title = "Parameters" if kind is DocstringSectionKind.parameters else "Other parameters"
            items = [
                _item(p.name, _type_spec(text, p.name) or p.annotation, p.description)
                for p in value
            ]
            out += [f"**{title}**", "", *items, ""]
        elif kind in (DocstringSectionKind.returns, DocstringSectionKind.yields):
            title = "Returns" if kind is DocstringSectionKind.returns else "Yields"
            items = [_item(r.name, r.annotation, r.description) for r in value]
            out += [f"**{title}**", "", *items, ""]
        elif kind in (DocstringSectionKind.raises, DocstringSectionKind.warns):
            title = "Raises" if kind is DocstringSectionKind.raises else "Warns"
            items = [_item("", r.annotation, r.description) for r in value]
            out += [f"**{title}**", "", *items, ""]
        elif kind is DocstringSectionKind.examples:
            lines, blocks = _examples(value)
            if lines:
                out += ["**Examples**", "", *lines]
            examples += blocks
        elif kind is DocstringSectionKind.deprecated:
            out += [f"Deprecated since version {value.version}: {inline(value.description)}", ""]
        elif kind is DocstringSectionKind.admonition:
            title = str(section.title or value.kind or "").strip()
            if title.lower() in _SKIPPED_ADMONITIONS:
                continue
            if str(value.kind) == "see-also" or title.lower() == "see also":
                out += ["**See also**", "", *_see_also(value.description), ""]
            elif title.lower() in _EXAMPLE_TITLES:
                lines, blocks = _examples([(DocstringSectionKind.text, value.description)])
                out += ["**Examples**", "", *lines] if lines else []
                examples += blocks
            elif title.lower() == "notes":
                out += ["**Notes**", "", _flat(value.description, NOTES_CHARS), ""]
            else:
                markdown, blocks = _markdown(value.description)
                out += [f"{title}: {markdown}".strip(), ""]
                examples += blocks
    text_out = re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
    return Rendered(
        text=text_out,
        examples=_unique(examples)[:EXAMPLE_BLOCKS],
        summary=summary,
        signatures=signatures,
    )


def _unique(blocks: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(b for b in blocks if b.strip()))
