"""How a question's words are read for comparing it with another.

The cache's guards compare two questions word by word, and the engine reads which way a question
goes and what it limits its answer to (`direction.py`, `scope_words.py`) from the same reading:
quoted literals are set aside, "n't" is split off, Korean phrases are joined and Korean words
read in English through the vocabulary (particles and verb endings cut off), and every word is
stemmed to one form per meaning (synonyms folded).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from codeweaver_engine.language.words import stem
from codeweaver_engine.lexicon import (
    FILLER,
    KOREAN_ENDINGS,
    KOREAN_PARTICLES,
    KOREAN_PHRASES,
    KOREAN_TERMS,
    SYNONYMS,
)

_QUOTED = re.compile(
    r"`([^`]+)`"
    r"|(?<![\w'])'([^'\n]+)'(?!\w)"
    r'|"([^"\n]+)"'
    r"|‘([^’\n]+)’"
    r"|“([^”\n]+)”"
)
_TOKEN = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?:\(\))?"  # dotted: os.path.join
    r"|(?<![\w-])--?[a-z][a-z0-9-]+"  # command-line flags, not the tail of "x-axis"
    r"|[A-Za-z_][A-Za-z0-9_+#]*(?:\(\))?"  # words, identifiers, c++, c#
    r"|\d+(?:\.\d+)*"  # numbers and versions
    r"|[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]+"  # CJK and Hangul runs
)
HANGUL = re.compile(r"[\uac00-\ud7a3]")


_STEMMED_SYNONYMS = {stem(word): canonical for word, canonical in SYNONYMS.items()}
"""Synonyms by their stem, so "removing" maps like "remove"."""


def canonical_stem(word: str) -> str:
    """The stem (`words.stem`) of the word or of the lexicon's synonym for it.

    "removing", "deleted" and "remove" give one stem, so two phrasings of one operation agree.
    """
    canonical = SYNONYMS.get(word)
    if canonical is None:
        stemmed = stem(word)
        canonical = SYNONYMS.get(stemmed) or _STEMMED_SYNONYMS.get(stemmed)
        if canonical is None:
            return stemmed
    return stem(canonical)


def _cut(word: str, suffixes: tuple[str, ...]) -> str:
    for suffix in suffixes:
        if word.endswith(suffix) and len(word) > len(suffix):
            return word[: -len(suffix)]
    return word


def korean_word(token: str) -> tuple[str, str]:
    """(the word a Korean token stands for, its particle).

    The word is the English term when the lexicon knows it ("파일을" reads as "file"), else
    the token without its particle and verb ending ("텍스트를" as "텍스트").
    """
    without_particle = _cut(token, KOREAN_PARTICLES)
    particle = token[len(without_particle) :]
    forms = (
        token,
        without_particle,
        _cut(without_particle, KOREAN_ENDINGS),
        _cut(token, KOREAN_ENDINGS),
    )
    for form in forms:
        if form in KOREAN_TERMS:
            return KOREAN_TERMS[form], particle if form != token else ""
        if form in FILLER:
            return form, ""
    return forms[2], particle


def _quoted_literals(text: str) -> tuple[list[str], str]:
    literals: list[str] = []

    def keep(match: re.Match[str]) -> str:
        literal = next(g for g in match.groups() if g is not None)
        literals.append(literal.strip())
        return " "

    return literals, _QUOTED.sub(keep, text)


def _split_contractions(text: str) -> tuple[str, bool]:
    negated = bool(re.search(r"\b\w+n['’]t\b", text, flags=re.IGNORECASE))
    return re.sub(r"(\w+)n['’]t\b", r"\1", text), negated


def _tokens(text: str) -> tuple[list[str], list[str], list[str]]:
    """(raw tokens, lower-cased words with Korean read in English, each word's Korean particle)."""
    raw: list[str] = []
    lowered: list[str] = []
    particles: list[str] = []
    for token in _TOKEN.findall(text):
        if not HANGUL.search(token):
            raw.append(token)
            lowered.append(token.lower())
            particles.append("")
            continue
        if token in KOREAN_PARTICLES:
            if particles:  # "list를": the particle belongs to the word before it
                particles[-1] = particles[-1] or token
            continue
        word, particle = korean_word(token)
        raw.append(word)
        lowered.append(word)
        particles.append(particle)
    return raw, lowered, particles


@dataclass(frozen=True)
class Reading:
    """A question's words, as the guards, the direction and the scope words read them.

    Attributes:
        text: The question with Korean phrases joined into one word ("압축 해제").
        literals: The quoted literals, set aside.
        contracted_negation: The question negates with "n't".
        raw: The tokens as written (Korean words as their English reading).
        lowered: The tokens lower-cased.
        particles: Each token's Korean particle ('' for none).
        stems: Each token's canonical stem (`canonical_stem`).
    """

    text: str
    literals: tuple[str, ...]
    contracted_negation: bool
    raw: tuple[str, ...]
    lowered: tuple[str, ...]
    particles: tuple[str, ...]
    stems: tuple[str, ...]


@lru_cache(maxsize=65536)
def read(question: str) -> Reading:
    """Read a question's words (memoised: questions repeat)."""
    for phrase, word in KOREAN_PHRASES.items():
        question = question.replace(phrase, word)
    literals, bare = _quoted_literals(question)
    bare, contracted_negation = _split_contractions(bare)
    raw, lowered, particles = _tokens(bare)
    stems = [canonical_stem(w) for w in lowered]
    return Reading(
        text=question,
        literals=tuple(literals),
        contracted_negation=contracted_negation,
        raw=tuple(raw),
        lowered=tuple(lowered),
        particles=tuple(particles),
        stems=tuple(stems),
    )
