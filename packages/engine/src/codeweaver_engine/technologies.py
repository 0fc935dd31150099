"""The technologies CodeWeaver recognises in a question, read from `data/technologies.toml`.

One list, read three ways: the scope check (`scope.py`) declines what the packs do not cover, the
answer cache's guards (`lexicon.py`) keep answers about one language, library or system from
serving another, and the search's documentation source restricts itself to the official sites
of what a question names. The file documents its format.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

TECHNOLOGIES_FILE = Path(__file__).resolve().parent / "data" / "technologies.toml"
KINDS = frozenset(
    {"language", "python-library", "library", "tool", "platform", "database", "format", "stdlib"}
)
_FIELDS = frozenset(
    {"name", "kind", "covered", "scope", "words", "ambiguous", "language", "system"}
    | {"search_words", "domains", "github_language", "distributions", "import_names"}
)
_LIST_FIELDS = ("words", "ambiguous", "search_words", "domains", "distributions", "import_names")
_WORD = re.compile(r"\S+")


class TechnologyFileError(ValueError):
    """The technology file is malformed; the message names the entry."""


@dataclass(frozen=True)
class Technology:
    """One technology (see the file's header for what each field means)."""

    name: str
    kind: str
    covered: bool
    scope: re.Pattern[str] | None = None
    words: tuple[str, ...] = ()
    ambiguous: tuple[str, ...] = ()
    language: str | None = None
    system: str | None = None
    search_words: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()
    github_language: str | None = None
    distributions: tuple[str, ...] = ()
    import_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Technologies:
    """The whole file: every technology in order, and the domains searched when none is named."""

    technologies: tuple[Technology, ...]
    default_domains: tuple[str, ...]


def _technology(raw: dict[str, Any], where: str) -> Technology:
    unknown = set(raw) - _FIELDS
    if unknown:
        raise TechnologyFileError(f"{where}: unknown fields {sorted(unknown)}")
    for required in ("name", "kind", "covered"):
        if required not in raw:
            raise TechnologyFileError(f"{where}: no {required}")
    if raw["kind"] not in KINDS:
        raise TechnologyFileError(f"{where}: kind {raw['kind']!r} is not one of {sorted(KINDS)}")
    lists: dict[str, tuple[str, ...]] = {}
    for name in _LIST_FIELDS:
        value = raw.get(name, [])
        if not isinstance(value, list) or not all(
            isinstance(v, str) and _WORD.fullmatch(v) for v in value
        ):
            raise TechnologyFileError(f"{where}: {name} must be a list of single words")
        lists[name] = tuple(value)
    for name in ("words", "search_words"):
        if any(w != w.lower() for w in lists[name]):
            raise TechnologyFileError(f"{where}: {name} must be lower-case")
    if not set(lists["ambiguous"]) <= set(lists["words"]):
        raise TechnologyFileError(f"{where}: ambiguous words must be among its words")
    if raw.get("language") and raw.get("system"):
        raise TechnologyFileError(f"{where}: the guards read its words as a language or a system")
    try:
        scope = re.compile(raw["scope"]) if raw.get("scope") else None
    except re.error as exc:
        raise TechnologyFileError(f"{where}: scope does not compile: {exc}") from exc
    return Technology(
        name=str(raw["name"]),
        kind=str(raw["kind"]),
        covered=bool(raw["covered"]),
        scope=scope,
        language=raw.get("language"),
        system=raw.get("system"),
        github_language=raw.get("github_language"),
        **lists,
    )


def parse_technologies(text: str, *, origin: str = "technologies.toml") -> Technologies:
    """The technologies of a file in `TECHNOLOGIES_FILE`'s format.

    Raises:
        TechnologyFileError: the file is not TOML, or an entry has an unknown field, misses a
            required one, or holds a value of the wrong shape or a pattern that does not compile.
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TechnologyFileError(f"{origin}: {exc}") from exc
    entries = raw.get("technology", [])
    found = tuple(
        _technology(entry, f"{origin}: technology {i + 1} ({entry.get('name', '?')})")
        for i, entry in enumerate(entries)
    )
    names = [t.name for t in found]
    if len(set(names)) != len(names):
        raise TechnologyFileError(f"{origin}: a technology appears twice")
    return Technologies(found, tuple(raw.get("default_domains", ())))


@cache
def catalogue() -> Technologies:
    """The technology file, read once."""
    return parse_technologies(
        TECHNOLOGIES_FILE.read_text(encoding="utf-8"), origin=str(TECHNOLOGIES_FILE)
    )


def technologies() -> tuple[Technology, ...]:
    """Every technology, in the file's order (the order the checks try them)."""
    return catalogue().technologies
