"""The vocabulary the guards read questions with, read from the engine's data files.

Tables of names (languages, libraries, systems: `data/technologies.toml`), words that flip a
question (negations and opposite pairs), words that ask for the same thing (synonyms), words that
rarely decide an answer (filler), the kinds of word a difference can be (operations, data
kinds), and a light reading of Korean: particles and verb endings are cut off and common terms
map to the English word (`data/korean.tsv`), so every check reads Korean and English questions
alike. The word tables are `data/lexicon.toml`, which documents its format; this module reads
them once, at import.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from codeweaver_engine.language.korean import cache_readings
from codeweaver_engine.technologies import technologies

LEXICON_FILE = Path(__file__).resolve().parent / "data" / "lexicon.toml"
WORD_TABLES = (
    "negations",
    "message_end",
    "http_methods",
    "filler",
    "operations",
    "data_kinds",
    "positions",
    "korean_particles",
    "korean_endings",
)
"""Tables of words (`words = \"\"\"...\"\"\"`)."""
MAPPINGS = ("number_words", "synonyms", "korean_phrases")
"""Tables of words read as other words (`word = "reading"`)."""
PAIR_TABLES = ("opposites", "particle_opposites")
"""Tables of opposite pairs (`pairs = [[left, right], ...]`)."""


class LexiconError(ValueError):
    """The lexicon file is malformed; the message names the table."""


def parse_lexicon(text: str, *, origin: str = "lexicon.toml") -> dict[str, Any]:
    """Every table of a lexicon file, as word sets, mappings and pairs of word sets.

    Raises:
        LexiconError: the file is not TOML, or a table is missing, unknown or of the wrong shape.
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LexiconError(f"{origin}: {exc}") from exc
    known = {*WORD_TABLES, *MAPPINGS, *PAIR_TABLES}
    if set(raw) != known:
        missing, unknown = sorted(known - set(raw)), sorted(set(raw) - known)
        raise LexiconError(f"{origin}: tables missing {missing}, unknown {unknown}")
    tables: dict[str, Any] = {}
    for name in WORD_TABLES:
        words = raw[name].get("words") if isinstance(raw[name], dict) else None
        if not isinstance(words, str) or set(raw[name]) != {"words"} or not words.split():
            raise LexiconError(f'{origin}: [{name}] needs words = """...""" and nothing else')
        tables[name] = words.split()
    for name in MAPPINGS:
        if not all(isinstance(v, str) and v for v in raw[name].values()):
            raise LexiconError(f'{origin}: [{name}] needs word = "reading" entries')
        tables[name] = dict(raw[name])
    for name in PAIR_TABLES:
        pairs = raw[name].get("pairs") if isinstance(raw[name], dict) else None
        if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(s, str) and s.split() for s in p)
            for p in pairs
        ):
            raise LexiconError(f"{origin}: [{name}] needs pairs = [[left, right], ...]")
        tables[name] = [(frozenset(a.split()), frozenset(b.split())) for a, b in pairs]
    return tables


def _by_length(words: list[str]) -> tuple[str, ...]:
    """Longest first, so the longest particle or ending that fits is cut."""
    return tuple(sorted(dict.fromkeys(words), key=len, reverse=True))


_TABLES = parse_lexicon(LEXICON_FILE.read_text(encoding="utf-8"), origin=str(LEXICON_FILE))

NUMBER_WORDS: dict[str, str] = _TABLES["number_words"]
"""Number words read as the number they name, so "two decimals" agrees with "2 decimals"."""
NEGATIONS = frozenset(_TABLES["negations"])
"""Words that flip what a question asks; "n't" contractions count too."""
MESSAGE_END = frozenset(_TABLES["message_end"])
"""Words where the question around an error message resumes ("...not iterable mean?")."""
HTTP_METHODS = frozenset(_TABLES["http_methods"])
"""Request methods, read when written in capitals or right before "request"."""
OPPOSITES: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(_TABLES["opposites"])
"""Pairs of opposite words: one question with only the left, the other only the right."""
PARTICLE_OPPOSITES: tuple[tuple[str, str], ...] = tuple(
    (next(iter(a)), next(iter(b))) for a, b in _TABLES["particle_opposites"]
)
"""Particles that flip the verb before them ("zoom in" against "zoom out"), read only right
after the same word."""
SYNONYMS: dict[str, str] = _TABLES["synonyms"]
"""Words that ask for the same thing, folded to one form before comparing vocabularies."""
FILLER = frozenset(_TABLES["filler"])
"""Words that rarely decide an answer: left out when measuring shared vocabulary."""
OPERATIONS = frozenset(_TABLES["operations"])
"""What a question asks to do ("sort" or "parse" a query result)."""
DATA_KINDS = frozenset(_TABLES["data_kinds"])
"""Words naming a kind of data or thing ("a list" against "a list of tuples")."""
POSITIONS = frozenset(_TABLES["positions"])
"""Words asking where a thing is ("the index of the max value"), not for the thing itself."""
KOREAN_PARTICLES = _by_length(_TABLES["korean_particles"])
"""Particles that attach to a Korean word ("파일을"); cut off before reading it."""
KOREAN_ENDINGS = _by_length(_TABLES["korean_endings"])
"""Verb endings cut off after the particle ("삭제하는" reads as "삭제")."""
KOREAN_PHRASES: dict[str, str] = _TABLES["korean_phrases"]
"""Korean phrases read as one word before the question is split into words."""
KOREAN_TERMS: dict[str, str] = cache_readings()
"""Korean words (after particles and endings are cut) read as the English word they mean."""

LANGUAGES: dict[str, str] = {
    word: t.language for t in technologies() if t.language for word in t.words
}
"""Programming languages by the words that name them; a cached answer in one language never
serves another."""
AMBIGUOUS_LANGUAGES = frozenset(word for t in technologies() for word in t.ambiguous)
"""Language names that are also ordinary words or variable names: counted only when capitalised
mid-sentence ("in C", "in Go")."""
LIBRARIES = frozenset(
    word for t in technologies() if not t.language and not t.system for word in t.words
)
"""Libraries, tools and formats whose presence decides which answer applies."""
OPERATING_SYSTEMS: dict[str, str] = {
    word: t.system for t in technologies() if t.system for word in t.words
}
"""Operating systems by the words that name them."""
