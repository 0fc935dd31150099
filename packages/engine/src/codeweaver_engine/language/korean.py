"""Korean questions read in English: the programming glossary and the reading that uses it."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from codeweaver_engine.language.script import detect_language
from codeweaver_engine.language.words import STOPWORDS

_LATIN_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*[A-Za-z0-9_]|[A-Za-z]|\d+(?:\.\d+)*")

GLOSSARY_FILE = Path(__file__).parents[1] / "data" / "korean_glossary.tsv"
"""Korean programming vocabulary by stem, with English search terms (see the file's header)."""


@cache
def korean_glossary() -> dict[str, str]:
    """Stem -> English terms, read once from `GLOSSARY_FILE`."""
    glossary: dict[str, str] = {}
    for line in GLOSSARY_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            stem, _, english = line.partition("\t")
            glossary[stem.strip()] = english.strip()
    return glossary


@cache
def _stems_by_first_char() -> dict[str, list[str]]:
    by_first: dict[str, list[str]] = {}
    for stem in sorted(korean_glossary(), key=len, reverse=True):
        by_first.setdefault(stem[0], []).append(stem)
    return by_first


def _is_hangul(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"


def english_gloss(text: str) -> str:
    """English terms for a question written in Korean, in the question's order; '' otherwise.

    The text is read left to right: at each place the longest glossary stem that starts there
    is taken (particles and endings attach to stems, so 변환하려면 gives 변환, convert), and Latin
    words (identifiers, library names) are kept where they stand. Retrieval and the offline
    engine work in English; a model, when configured, translates properly.
    """
    if detect_language(text) != "ko":
        return ""
    glossary, by_first = korean_glossary(), _stems_by_first_char()
    terms: list[str] = []
    i = 0
    while i < len(text):
        # A one-syllable stem counts only where a word starts: 키 (key) is not the end of 시키.
        starts_word = i == 0 or not _is_hangul(text[i - 1])
        stem = next(
            (
                s
                for s in by_first.get(text[i], ())
                if text.startswith(s, i) and (len(s) > 1 or starts_word)
            ),
            None,
        )
        latin = _LATIN_WORD.match(text, i) if stem is None else None
        if latin:
            terms.append(latin.group(0).lower())
            i = latin.end()
            continue
        if stem is not None:
            terms.extend(glossary[stem].split())
            i += len(stem)
        else:
            i += 1
    return " ".join(dict.fromkeys(t for t in terms if t not in STOPWORDS))
