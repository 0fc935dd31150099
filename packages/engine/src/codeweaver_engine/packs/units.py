"""The units of a documentation pack: one API entry or one passage of prose each.

The pack builders (`codeweaver_corpus`) write units; the engine reads, searches and quotes
them. A unit's text is Markdown with the reST roles of its source kept (`markup.rst_roles`
renders them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MEMBER_DIRECTIVES = frozenset(
    {
        "method",
        "attribute",
        "classmethod",
        "staticmethod",
        "property",
        "coroutinemethod",
        "abstractmethod",
        "awaitablemethod",
        "decoratormethod",
    }
)
"""Entries called on an instance or class (`.strftime(...)`), not through their module."""
PLAIN_NAME = re.compile(r"['\"]?[\w.-]+(\(.*\))?['\"]?|.* .*")
"""A term that is a name, a call or words (``'store'``, ``pencolor()``, ``two-pass``)."""


@dataclass
class DocUnit:
    """One answer unit of the documentation.

    Attributes:
        kind: `api` (one documented object) or `section` (a passage of prose and examples).
        doc: The page, e.g. `library/os.path`.
        doc_title: The page's title, e.g. `os.path — Common pathname manipulations`.
        section: The heading the unit sits under.
        anchor: The fragment of the page's URL that shows the unit.
        name: The qualified name of an API unit (`os.path.getsize`); empty for sections.
        directive: The Sphinx directive of an API unit (`function`, `method`, ...).
        signatures: The call forms shown for an API unit, qualified like its name.
        text: The unit's Markdown: signatures and description, or the passage.
        examples: The code blocks of the unit, in order.
        module: The module the unit belongs to (`os.path`; empty for built-ins).
        aliases: Further qualified names one directive documents (`re.I` is also
            `re.IGNORECASE`, `binascii.b2a_hex` also `binascii.hexlify`).
    """

    kind: str
    doc: str
    doc_title: str
    section: str
    anchor: str
    name: str = ""
    directive: str = ""
    signatures: list[str] = field(default_factory=list)
    text: str = ""
    examples: list[str] = field(default_factory=list)
    module: str = ""
    aliases: list[str] = field(default_factory=list)

    @property
    def target_names(self) -> tuple[str, ...]:
        """The names a task entry can point at this unit by.

        Its name and aliases, and for a piece of syntax also `page:name` (``'<'`` aligns left in
        the format specification and means little-endian in `struct`). A table row named like
        an API or a word (``int`` in a type-mapping table, ``'f'``) is reached by `page:name`
        only, so the name `int` stays the built-in's. The first is the unit's answer key.
        """
        names = (self.name, *self.aliases)
        if self.directive != "syntax":
            return names
        qualified = tuple(f"{self.doc}:{n}" for n in names)
        return qualified if PLAIN_NAME.fullmatch(self.name) else names + qualified

    @property
    def summary(self) -> str:
        """The unit's first sentence of prose: what an API does, or what a passage is about."""
        return first_sentence(prose_of(self.text))


def first_sentence(text: str) -> str:
    """The first sentence of a paragraph of prose."""
    flat = " ".join(text.split())
    match = re.search(r"(?<=[.!?])\s+(?=[A-Z`(\"'])", flat)
    return flat[: match.start()] if match else flat


def prose_of(markdown: str) -> str:
    """A Markdown text without its code blocks."""
    return re.sub(r"```.*?```", " ", markdown, flags=re.DOTALL).strip()
