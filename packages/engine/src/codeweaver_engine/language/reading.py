"""How a question's words are read for comparing it with another, and which way it converts.

The cache's guards compare two questions word by word, and the composer ranks down evidence
found through a task that converts the other way ("unicode to bytes" against "bytes to
unicode"): both read a question the same way, here. Quoted literals are set aside, "n't" is
split off, Korean phrases are joined and Korean words read in English through the vocabulary
(particles and verb endings cut off), and every word is stemmed to one form per meaning
(synonyms folded).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from codeweaver_engine.language.words import stem
from codeweaver_engine.lexicon import (
    CONVERSION_VERBS,
    DIRECTION_PIVOTS,
    FILLER,
    KOREAN_ENDINGS,
    KOREAN_PARTICLES,
    KOREAN_PHRASES,
    KOREAN_SOURCE_PARTICLES,
    KOREAN_TARGET_PARTICLES,
    KOREAN_TERMS,
    REVERSED_PIVOTS,
    SYNONYMS,
)

Direction = tuple[frozenset[str], frozenset[str]]
"""(what is converted, what it becomes), as content stems."""

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
    """A question's words, as the guards and the direction check read them.

    Attributes:
        text: The question with Korean phrases joined into one word ("압축 해제").
        literals: The quoted literals, set aside.
        contracted_negation: The question negates with "n't".
        raw: The tokens as written (Korean words as their English reading).
        lowered: The tokens lower-cased.
        particles: Each token's Korean particle ('' for none).
        stems: Each token's canonical stem (`canonical_stem`).
        direction: What a conversion converts and into what, when the question is one.
    """

    text: str
    literals: tuple[str, ...]
    contracted_negation: bool
    raw: tuple[str, ...]
    lowered: tuple[str, ...]
    particles: tuple[str, ...]
    stems: tuple[str, ...]
    direction: Direction | None


@lru_cache(maxsize=65536)
def read(question: str) -> Reading:
    """Read a question's words (memoised: questions repeat)."""
    for phrase, word in KOREAN_PHRASES.items():
        question = question.replace(phrase, word)
    literals, bare = _quoted_literals(question)
    bare, contracted_negation = _split_contractions(bare)
    raw, lowered, particles = _tokens(bare)
    stems = [canonical_stem(w) for w in lowered]
    direction = _direction(lowered, stems) or _korean_direction(lowered, stems, particles)
    return Reading(
        text=question,
        literals=tuple(literals),
        contracted_negation=contracted_negation,
        raw=tuple(raw),
        lowered=tuple(lowered),
        particles=tuple(particles),
        stems=tuple(stems),
        direction=direction,
    )


def content(stems: Iterable[str]) -> frozenset[str]:
    """The stems that are not filler."""
    return frozenset(s for s in stems if s not in FILLER)


def _direction(lowered: list[str], stems: list[str]) -> Direction | None:
    """Split a conversion question around its pivot into (source words, target words).

    A question is a conversion when it has a conversion verb, or says both "from" and "to".
    """
    has_verb = any(w in CONVERSION_VERBS for w in lowered)
    from_to = "from" in lowered and "to" in lowered
    if not (has_verb or from_to):
        return None
    pivots = DIRECTION_PIVOTS | REVERSED_PIVOTS
    if not any(w in pivots for w in lowered):
        # "Converting byte string in unicode string": with no to/into/from, `in` is the pivot.
        pivots = frozenset({"in"})
    for i, word in enumerate(lowered):
        if word in pivots:
            if word in REVERSED_PIVOTS:
                # "get an int from a hex string": what comes after `from` is the source.
                following_pivot = [j for j in range(i + 1, len(lowered)) if lowered[j] == "to"]
                if following_pivot:
                    j = following_pivot[0]
                    return content(stems[i + 1 : j]), content(stems[j + 1 :])
                return content(stems[i + 1 :]), content(stems[:i])
            return content(stems[:i]), content(stems[i + 1 :])
    return None


def _korean_direction(
    lowered: list[str], stems: list[str], particles: list[str]
) -> Direction | None:
    """A Korean conversion: the object particle (을/를) marks the source, 로/으로 the target."""
    if not any(w in CONVERSION_VERBS for w in lowered):
        return None
    source = content(
        s for s, p in zip(stems, particles, strict=True) if p in KOREAN_SOURCE_PARTICLES
    )
    target = content(
        s for s, p in zip(stems, particles, strict=True) if p in KOREAN_TARGET_PARTICLES
    )
    return (source, target) if source and target else None


def converts_the_other_way(question: str, other: str) -> bool:
    """Whether two texts ask for one conversion in opposite directions.

    "Convert unicode string to byte string" and "convert a byte string to a unicode string"
    share every word, and embeddings score them as near-duplicates; their answers are opposite
    (`str.encode`, `bytes.decode`).
    """
    a, b = read(question).direction, read(other).direction
    return bool(a and b and reversed_direction(a, b))


def reversed_direction(a: Direction, b: Direction) -> bool:
    """True when some word moves from source to target and another from target to source."""
    a_src, a_dst = a[0] - a[1], a[1] - a[0]
    b_src, b_dst = b[0] - b[1], b[1] - b[0]
    return bool(a_src & b_dst) and bool(a_dst & b_src)
