"""What CodeWeaver says to the user, per language: `data/strings/<language>.toml`.

One catalogue per language (adding a language is adding a file); a text a language's file does
not have is said in English. The files document their format.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

STRINGS_DIR = Path(__file__).resolve().parent / "data" / "strings"
"""One `<ISO 639-1 code>.toml` per language; `en.toml` has every text."""
FALLBACK = "en"


class StringsError(ValueError):
    """A strings file is malformed; the message names the file and the text."""


def parse_strings(text: str, *, origin: str) -> dict[str, dict[str, str]]:
    """The texts of one strings file, by section and key.

    Raises:
        StringsError: the file is not TOML, or holds anything but tables of texts.
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StringsError(f"{origin}: {exc}") from exc
    sections: dict[str, dict[str, str]] = {}
    for section, texts in raw.items():
        if not isinstance(texts, dict):
            raise StringsError(f"{origin}: {section} is not a table of texts")
        for key, value in texts.items():
            if not isinstance(value, str):
                raise StringsError(f"{origin}: {section}.{key} is not a text")
        sections[section] = dict(texts)
    return sections


@cache
def _file(language: str) -> dict[str, dict[str, str]]:
    path = STRINGS_DIR / f"{language}.toml"
    if not path.is_file():
        return {}
    return parse_strings(path.read_text(encoding="utf-8"), origin=str(path))


def languages() -> list[str]:
    """The languages with a strings file, by code."""
    return sorted(path.stem for path in STRINGS_DIR.glob("*.toml"))


@cache
def texts(language: str, section: str) -> Mapping[str, str]:
    """A section's texts in a language, English where the language has none.

    Args:
        language: An ISO 639-1 code; a language without a file is answered in English.
        section: The table (`decline`, `answer`, `follow_up`, `turn`).

    Raises:
        KeyError: English has no such section.
    """
    english = _file(FALLBACK)[section]
    own = _file(language).get(section, {}) if language != FALLBACK else {}
    return MappingProxyType({key: own.get(key, value) for key, value in english.items()})
