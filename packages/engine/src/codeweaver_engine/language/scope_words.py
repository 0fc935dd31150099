"""Scope words and constraints: what a question limits its answer to, and what an API promises.

"How to remove leading whitespace from a string?" and "...remove all whitespace...?" differ in
one word and have different answers (`str.lstrip`; `str.replace` or `str.split` and `join`);
"a temporary directory that is deleted automatically" is `TemporaryDirectory`, whose
documentation says it is removed on completion of the context, and not `mkdtemp`, whose
documentation says "the user of mkdtemp() is responsible for deleting the temporary directory".
The scopes (all, any, only, first, last, leading, trailing, nth, both, either, duplicate, unique,
case-(in)sensitive) and constraints (preserving order, in one expression, automatically, in
place, a new copy, without an exception, by default, recursively) are data
(`data/scope_words.toml`): the words and phrases that ask for each, in English and Korean, and
the documentation phrasing that meets or contradicts it.

Two users: the answer cache serves an answer only when the questions' scopes agree
(`scope_conflicts`), and the engine does not lead with an API whose documentation contradicts a
constraint the question states, and prefers one whose documentation meets it (`fit`).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from codeweaver_engine.language.reading import read

SCOPE_FILE = Path(__file__).resolve().parents[1] / "data" / "scope_words.toml"
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_REQUIRED = frozenset({"query", "cached", "both", "none"})
_KEYS = frozenset(
    {
        "name",
        "words",
        "phrases",
        "particles",
        "unless",
        "with",
        "required",
        "opposite",
        "conflicts",
        "meets",
        "contradicts",
        "answers",
    }
)


class ScopeDataError(ValueError):
    """The scope file is malformed; the message names the scope."""


@dataclass(frozen=True)
class Scope:
    """One scope or constraint (see `data/scope_words.toml` for what each field means)."""

    name: str
    cues: tuple[tuple[str, ...], ...]
    """Its English words and phrases, each as the words a question is read into."""
    korean: tuple[re.Pattern[str], ...]
    """Its Korean words and phrases, found where a word starts (endings may follow)."""
    particles: frozenset[str]
    unless: tuple[tuple[str, ...], ...]
    korean_unless: tuple[re.Pattern[str], ...]
    together: tuple[tuple[str, ...], ...]
    """English words one of which the question must also have (`with`); none: no condition."""
    korean_together: tuple[re.Pattern[str], ...]
    required: str
    """When a cache lookup needs both questions to ask for it: "query", "cached", "both", "none"."""
    opposite: str
    """The scope that asks for the other side ("trailing" for "leading"), or ''."""
    conflicts: frozenset[str]
    meets: tuple[re.Pattern[str], ...]
    contradicts: tuple[re.Pattern[str], ...]
    answers: tuple[str, ...]
    """APIs that are this kind of question's idiom (`answers`)."""


def _read_words(text: str) -> tuple[str, ...]:
    return read(text).lowered


def _korean_cue(cue: str) -> re.Pattern[str]:
    """A Korean word or phrase where a word starts; spacing free, endings allowed after it."""
    parts = [re.escape(part) for part in cue.split()]
    return re.compile(r"(?<![\uac00-\ud7a3])" + r"\s*".join(parts))


def parse_scope_data(text: str, *, origin: str = "scope_words.toml") -> tuple[Scope, ...]:
    """The scopes of a scope file, in order.

    Raises:
        ScopeDataError: the file is not TOML, a scope lacks a field or has an unknown one, a
            regular expression does not compile, or a conflict names no scope.
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScopeDataError(f"{origin}: {exc}") from exc
    if set(raw) != {"scope"} or not isinstance(raw["scope"], list):
        raise ScopeDataError(f"{origin}: only [[scope]] tables are allowed")
    scopes = tuple(_scope(entry, origin) for entry in raw["scope"])
    names = [s.name for s in scopes]
    if len(set(names)) != len(names):
        raise ScopeDataError(f"{origin}: a scope name is used twice")
    for scope in scopes:
        unknown = (scope.conflicts | {scope.opposite}) - set(names) - {""}
        if unknown:
            raise ScopeDataError(f"{origin}: {scope.name!r} conflicts with unknown {unknown}")
    return scopes


def _scope(entry: Any, origin: str) -> Scope:
    if not isinstance(entry, dict) or set(entry) != _KEYS:
        name = entry.get("name") if isinstance(entry, dict) else entry
        raise ScopeDataError(f"{origin}: scope {name!r} needs exactly {sorted(_KEYS)}")
    name = str(entry["name"])
    if entry["required"] not in _REQUIRED:
        raise ScopeDataError(f"{origin}: scope {name!r}: required is one of {sorted(_REQUIRED)}")
    try:
        meets = tuple(re.compile(p, re.IGNORECASE) for p in entry["meets"])
        contradicts = tuple(re.compile(p, re.IGNORECASE) for p in entry["contradicts"])
    except re.error as exc:
        raise ScopeDataError(f"{origin}: scope {name!r}: {exc}") from exc
    every = [*str(entry["words"]).split(), *(str(p) for p in entry["phrases"])]
    cues = tuple(words for cue in every if not _HANGUL.search(cue) if (words := _read_words(cue)))
    korean = tuple(_korean_cue(cue) for cue in every if _HANGUL.search(cue))
    if not cues and not korean:
        raise ScopeDataError(f"{origin}: scope {name!r} has no words or phrases")
    return Scope(
        name=name,
        cues=cues,
        korean=korean,
        particles=frozenset(entry["particles"]),
        unless=tuple(
            w for u in entry["unless"] if not _HANGUL.search(u) if (w := _read_words(str(u)))
        ),
        korean_unless=tuple(_korean_cue(u) for u in entry["unless"] if _HANGUL.search(u)),
        together=tuple(
            w for t in entry["with"] if not _HANGUL.search(t) if (w := _read_words(str(t)))
        ),
        korean_together=tuple(_korean_cue(t) for t in entry["with"] if _HANGUL.search(t)),
        required=str(entry["required"]),
        opposite=str(entry["opposite"]),
        conflicts=frozenset(entry["conflicts"]),
        meets=meets,
        contradicts=contradicts,
        answers=tuple(str(a) for a in entry["answers"]),
    )


@cache
def scope_data() -> tuple[Scope, ...]:
    """The scope file, read once."""
    return parse_scope_data(SCOPE_FILE.read_text(encoding="utf-8"))


def _by_name() -> dict[str, Scope]:
    return {scope.name: scope for scope in scope_data()}


def _occurrences(words: Sequence[str], cue: tuple[str, ...]) -> Iterable[range]:
    size = len(cue)
    for i in range(len(words) - size + 1):
        if tuple(words[i : i + size]) == cue:
            yield range(i, i + size)


@lru_cache(maxsize=65536)
def scopes(text: str) -> frozenset[str]:
    """The scopes and constraints a text asks for, by name ("all", "preserving order"...)."""
    reading = read(text)
    words = reading.lowered
    found: set[str] = set()
    for scope in scope_data():
        excluded = {i for cue in scope.unless for span in _occurrences(words, cue) for i in span}
        asked = any(
            any(i not in excluded for i in span)
            for cue in scope.cues
            for span in _occurrences(words, cue)
        )
        if any(p.search(text) for p in scope.korean_unless):
            continue  # "중복을 제거" (remove duplicates) asks for no duplicates
        asked = asked or any(p.search(text) for p in scope.korean)
        if (scope.together or scope.korean_together) and not (
            any(any(True for _ in _occurrences(words, w)) for w in scope.together)
            or any(p.search(text) for p in scope.korean_together)
        ):
            continue  # "multiple values" of a function, not of a dictionary's key
        if asked or scope.particles & set(reading.particles):
            found.add(scope.name)
    # "beginning and ending with square brackets" limits the answer to neither side.
    both_sides = {s.name for s in scope_data() if s.name in found and s.opposite in found}
    return frozenset(found - both_sides)


def idioms(text: str) -> tuple[str, ...]:
    """The APIs that are the idiom of the kinds of question the text asks, in the file's order.

    "several values per key": `dict.setdefault`, `collections.defaultdict`; "by index":
    `list.pop` and `del s[i:j]` (`answers` in the scope file).
    """
    asked = scopes(text)
    return tuple(api for scope in scope_data() if scope.name in asked for api in scope.answers)


def scope_conflicts(query: str, cached: str) -> list[str]:
    """Why two questions' scopes do not let one's answer serve the other (none: they agree).

    A scope the new question asks for and the cached one did not ("remove leading whitespace"
    against "remove whitespace") conflicts when the scope says so (`required`), and so does one
    only the cached question asked for ("count each item" served to "count an item"); any scope
    conflicts with those it names on the other side ("all" against "leading", "any" against "all").
    """
    q, c = scopes(query), scopes(cached)
    by_name = _by_name()
    reasons = [
        f"scope differs: {name} (new question only)"
        for name in sorted(q - c)
        if by_name[name].required in ("query", "both")
    ]
    reasons += [
        f"scope differs: {name} (cached question only)"
        for name in sorted(c - q)
        if by_name[name].required in ("cached", "both")
    ]
    for name in sorted(q - c):
        against = sorted(by_name[name].conflicts & (c - q))
        if against:
            reasons.append(f"scope differs: {name} against {', '.join(against)}")
    return reasons


@dataclass(frozen=True)
class Fit:
    """How an API's documentation answers the scopes a question asks for."""

    met: frozenset[str]
    """Scopes the documentation says it does, and nowhere says it does not."""
    contradicted: frozenset[str]
    """Scopes the documentation says it does not do, and nowhere says it does."""

    @property
    def meets(self) -> bool:
        """It does something the question limits it to, and contradicts nothing asked."""
        return bool(self.met) and not self.contradicted

    @property
    def contradicts(self) -> bool:
        """It does not do something the question asks for, and meets nothing else asked."""
        return bool(self.contradicted) and not self.met


def fit(question: str, documentation: str) -> Fit:
    """Which of the question's scopes a text (an API's documentation, a sentence) meets or not.

    A scope the text both meets and contradicts is neither: `open` documents the mode that
    truncates a file and the one that fails if it exists, and is no answer to rule out for
    "create a file without overwriting it" (its sentence on the second mode is the one to quote).
    """
    asked = scopes(question)
    by_name = _by_name()
    met: set[str] = set()
    contradicted: set[str] = set()
    for name in asked:
        scope = by_name[name]
        meets = any(p.search(documentation) for p in scope.meets)
        contradicts = any(p.search(documentation) for p in scope.contradicts)
        if meets and not contradicts:
            met.add(name)
        elif contradicts and not meets:
            contradicted.add(name)
    return Fit(frozenset(met), frozenset(contradicted))
