"""Korean questions read in English: the Korean vocabulary and the glossing that uses it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from codeweaver_engine.language.script import detect_language
from codeweaver_engine.language.words import STOPWORDS

_LATIN_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*[A-Za-z0-9_]|[A-Za-z]|\d+(?:\.\d+)*")

VOCABULARY_FILE = Path(__file__).parents[1] / "data" / "korean.tsv"
"""The Korean vocabulary: stems, their English search terms and the cache's reading (the file's
header says the format)."""
_HANGUL = re.compile(r"[\uac00-\ud7a3]")


class VocabularyError(ValueError):
    """The vocabulary file is malformed; the message names the line."""


@dataclass(frozen=True)
class KoreanWord:
    """One entry of the Korean vocabulary.

    Attributes:
        stem: The word without its particles and endings.
        search_terms: The English terms a question is searched with; empty: none.
        cache_reading: The English word the cache's guards read it as; None: they leave it.
    """

    stem: str
    search_terms: tuple[str, ...]
    cache_reading: str | None


def parse_vocabulary(text: str, *, origin: str = "korean.tsv") -> list[KoreanWord]:
    """The entries of a vocabulary file (`VOCABULARY_FILE`'s format).

    Raises:
        VocabularyError: a line without two or three columns, a stem without Hangul or that
            appears twice, an entry no reader reads, or a cache reading of several words.
    """
    entries: list[KoreanWord] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        columns = line.split("\t")
        if len(columns) not in (2, 3):
            raise VocabularyError(f"{origin}:{number}: expected stem, search terms, cache reading")
        stem, terms, reading = (c.strip() for c in (*columns, "")[:3])
        if not _HANGUL.search(stem):
            raise VocabularyError(f"{origin}:{number}: the stem {stem!r} has no Korean in it")
        if stem in seen:
            raise VocabularyError(f"{origin}:{number}: {stem} appears twice")
        if not terms and not reading:
            raise VocabularyError(f"{origin}:{number}: {stem} has no search terms and no reading")
        if len(reading.split()) > 1:
            raise VocabularyError(f"{origin}:{number}: the cache reads {stem} as one word")
        seen.add(stem)
        entries.append(KoreanWord(stem, tuple(terms.split()), reading or None))
    return entries


@cache
def korean_vocabulary() -> tuple[KoreanWord, ...]:
    """The vocabulary, read once from `VOCABULARY_FILE`."""
    text = VOCABULARY_FILE.read_text(encoding="utf-8")
    return tuple(parse_vocabulary(text, origin=str(VOCABULARY_FILE)))


@cache
def korean_glossary() -> dict[str, str]:
    """Stem -> English search terms, for the stems the search reads."""
    return {w.stem: " ".join(w.search_terms) for w in korean_vocabulary() if w.search_terms}


@cache
def cache_readings() -> dict[str, str]:
    """Stem -> the English word the cache's guards read it as."""
    return {w.stem: w.cache_reading for w in korean_vocabulary() if w.cache_reading}


@cache
def _stems_by_first_char() -> dict[str, list[str]]:
    by_first: dict[str, list[str]] = {}
    for stem in sorted(korean_glossary(), key=len, reverse=True):
        by_first.setdefault(stem[0], []).append(stem)
    return by_first


def _is_hangul(ch: str) -> bool:
    return 0xAC00 <= ord(ch) <= 0xD7A3


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
