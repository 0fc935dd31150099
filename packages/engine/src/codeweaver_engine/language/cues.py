"""Cue phrases, per language: how a message asks for something (`data/cues/<language>.toml`).

A cue (a follow-up, a request for code, an error, a request for review, code the question points
at, another question starting) is said differently in each language. Each language's file lists
its ways of saying each cue as regular expressions; a cue's pattern tries them all, English
first, so one question may mix languages. Adding a language is adding a file.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path

CUES_DIR = Path(__file__).resolve().parents[1] / "data" / "cues"
FIRST = "en"


class CueFileError(ValueError):
    """A cue file is malformed; the message names the file and the cue."""


def parse_cues(text: str, *, origin: str) -> dict[str, list[str]]:
    """The cues of one file: each cue's regular expressions, in order.

    Raises:
        CueFileError: the file is not TOML, a cue is not a list of texts, or an entry does not
            compile.
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CueFileError(f"{origin}: {exc}") from exc
    cues: dict[str, list[str]] = {}
    for name, entries in raw.items():
        if not isinstance(entries, list) or not all(isinstance(e, str) and e for e in entries):
            raise CueFileError(f"{origin}: {name} is not a list of regular expressions")
        for entry in entries:
            try:
                re.compile(entry)
            except re.error as exc:
                raise CueFileError(f"{origin}: {name}: {entry!r}: {exc}") from exc
        cues[name] = list(entries)
    return cues


@cache
def _files() -> list[dict[str, list[str]]]:
    paths = sorted(CUES_DIR.glob("*.toml"), key=lambda p: (p.stem != FIRST, p.stem))
    return [parse_cues(p.read_text(encoding="utf-8"), origin=str(p)) for p in paths]


def alternatives(name: str) -> str:
    """A cue's ways of saying it in every language, as one regular expression's alternatives.

    Raises:
        KeyError: no language has the cue.
    """
    found = [entry for cues in _files() for entry in cues.get(name, ())]
    if not found:
        raise KeyError(f"no cue file says {name!r}")
    return "|".join(found)


def cue(name: str) -> re.Pattern[str]:
    """A cue's pattern: any of its ways of saying it, case ignored."""
    return re.compile(alternatives(name), re.IGNORECASE)
