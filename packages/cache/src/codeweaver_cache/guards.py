"""Answer-determining details: what two questions must agree on before one's answer serves both.

Embeddings see "How do I reverse a list in Python?" and "...in Python 2?" as the same question
(cosine 0.985), "Convert hex string to int" and "convert an int to a hex string" as well (0.988),
and "TypeError: 'NoneType' object is not iterable" as the "...not subscriptable" one (0.78). The
checks here read the questions' surface instead: versions, numbers, identifiers and quoted
names, error codes, exception names and their messages, request methods, library, language and
OS names, negation, opposite operations and directions, the direction of a conversion between
phrases ("a Unix timestamp to a datetime", "a datetime from a Unix timestamp") and the scope
words and constraints (all or leading, any or all, preserving order, in one expression), the last
two read as the engine reads them (`codeweaver_engine.language.direction`, `scope_words`). Each
check names the detail that differs, so every miss can say why.

All checks are pure and deterministic. `compare` runs them all and also lists the content words
only one question has, which the hit decision weighs and, when one question puts other words in
the other's place, requires to be paraphrases (`swapped_words`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from codeweaver_engine.language.direction import Conversion, conversion, reverses
from codeweaver_engine.language.reading import HANGUL, canonical_stem, read
from codeweaver_engine.language.scope_words import scope_conflicts
from codeweaver_engine.lexicon import (
    AMBIGUOUS_LANGUAGES,
    DATA_KINDS,
    FILLER,
    HTTP_METHODS,
    LANGUAGES,
    LIBRARIES,
    MESSAGE_END,
    NEGATIONS,
    NUMBER_WORDS,
    OPERATING_SYSTEMS,
    OPERATIONS,
    OPPOSITES,
    PARTICLE_OPPOSITES,
    POSITIONS,
)

_CAMEL = re.compile(r"^[A-Za-z][a-z0-9]+[A-Z][A-Za-z0-9]*$|^[A-Z]{2,}[a-z][A-Za-z0-9]*$")
_ERROR_NAME = re.compile(r"^[A-Za-z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Fault)$")
_ERROR_CODE = re.compile(r"^(?:[A-Z]{1,4}\d{3,5}|0x[0-9a-fA-F]+|E[A-Z]{3,})$")
_STATUS_CONTEXT = frozenset({"http", "status", "error", "errno", "code", "exit", "return"})
_CODE_CONTEXT = frozenset({"status", "errno", "code"})
"""After these words a number of any length is a code ("exit status 1"), not a quantity."""

_MESSAGE = re.compile(
    r"(?P<open>[\"'`‘“]?)"
    r"\b(?P<name>[A-Za-z_][\w.]*(?:Error|Exception|Warning)|error|fatal|warning)"
    r"\s*:\s*(?P<text>[^\n?？]*)"
)
_CLOSING = {'"': '"', "'": "'", "`": "`", "‘": "’", "“": "”"}
_MESSAGE_FILLER = frozenset({"is", "are", "a", "an", "the"})


@dataclass(frozen=True)
class Details:
    """The answer-determining details read from one question."""

    versions: frozenset[str]
    numbers: frozenset[str]
    identifiers: frozenset[str]
    quoted: frozenset[str]
    errors: frozenset[str]
    """Exception names and error, exit and HTTP status codes."""
    messages: frozenset[tuple[str, ...]]
    """Error messages ("TypeError: <message>"), as normalised word sequences."""
    methods: frozenset[str]
    """HTTP request methods (GET, POST...)."""
    languages: frozenset[str]
    libraries: frozenset[str]
    systems: frozenset[str]
    negated: bool
    tokens: frozenset[str]
    """Every word, lower-cased (quoted literals excluded; Korean words read in English)."""
    words: frozenset[str]
    """Every word, lower-cased and stemmed (quoted literals excluded)."""
    vocabulary: frozenset[str]
    """Content stems: `words` without filler; what shared vocabulary is measured on."""
    sequence: tuple[str, ...]
    """Every stem, in the question's order."""
    kinds: frozenset[str]
    """Stems naming a kind of data or thing (list, file, key, value...), filler or not."""
    surface: tuple[tuple[str, str], ...]
    """(stem, a word of the question it comes from) for content and kind stems."""
    direction: Conversion | None
    """What the question converts into what, when it asks for a conversion
    (`codeweaver_engine.language.direction`)."""


@dataclass(frozen=True)
class Comparison:
    """How a query and a cached question compare on their details."""

    conflicts: tuple[str, ...] = field(default_factory=tuple)
    shared: tuple[str, ...] = ()
    """Content words both questions have (as the query writes them)."""
    query_only: tuple[str, ...] = ()
    """Content words only the query has (one word per stem, sorted)."""
    cached_only: tuple[str, ...] = ()
    """Content words only the cached question has."""
    query_only_kinds: int = 0
    """How many of `query_only` name a kind of data or thing (`lexicon.DATA_KINDS`)."""
    cached_only_kinds: int = 0
    """How many of `cached_only` name a kind of data or thing."""
    swap: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    """(query words, cached words) when each question has words the other lacks, few enough to
    be one thing said for another; see `swapped_words`."""

    @property
    def agree(self) -> bool:
        """True when no answer-determining detail differs."""
        return not self.conflicts

    @property
    def query_coverage(self) -> float:
        """Share of the query's content stems the cached question also has."""
        total = len(self.shared) + len(self.query_only)
        return len(self.shared) / total if total else 1.0

    @property
    def cached_coverage(self) -> float:
        """Share of the cached question's content stems the query also has."""
        total = len(self.shared) + len(self.cached_only)
        return len(self.shared) / total if total else 1.0

    @property
    def coverage(self) -> float:
        """The lower of the two coverages: a question that adds or drops words covers less."""
        return min(self.query_coverage, self.cached_coverage)


def error_messages(question: str) -> frozenset[tuple[str, ...]]:
    """The error messages a question quotes, e.g. ("nonetype", "object", "not", "iterable").

    A message runs from `SomeError:` (or `error:`, `fatal:`, `warning:`) to its closing quote
    when the error is quoted, else to the end of the sentence, to Korean text, or to a word
    where the question resumes ("mean", "when"...). Quotes, case and `is`/`a`/`the` are
    ignored; everything else must agree.
    """
    messages: set[tuple[str, ...]] = set()
    for match in _MESSAGE.finditer(question):
        text = match.group("text")
        opening = match.group("open")
        if opening:
            text = text.split(_CLOSING[opening], 1)[0]
        hangul = HANGUL.search(text)
        if hangul:
            text = text[: hangul.start()]
        words: list[str] = []
        for word in re.findall(r"[\w.+-]+", text.lower()):
            word = word.strip(".")
            if word in MESSAGE_END:
                break
            if word and word not in _MESSAGE_FILLER:
                words.append(word)
        if words:
            messages.add(tuple(words))
    return frozenset(messages)


def _messages_agree(a: frozenset[tuple[str, ...]], b: frozenset[tuple[str, ...]]) -> bool:
    """True when every message on each side has one on the other that it extends or begins."""

    def matched(m: tuple[str, ...], others: frozenset[tuple[str, ...]]) -> bool:
        return any(m[: len(o)] == o or o[: len(m)] == m for o in others)

    return all(matched(m, b) for m in a) and all(matched(m, a) for m in b)


@lru_cache(maxsize=65536)
def details(question: str) -> Details:
    """Read the answer-determining details of a question (memoised: questions repeat)."""
    reading = read(question)
    messages = error_messages(reading.text)
    literals, contracted_negation = reading.literals, reading.contracted_negation
    raw_tokens, lowered = reading.raw, reading.lowered

    versions: set[str] = set()
    numbers: set[str] = set()
    identifiers: set[str] = set()
    errors: set[str] = set()
    methods: set[str] = set()
    languages: set[str] = set()
    libraries: set[str] = set()
    systems: set[str] = set()
    consumed: set[int] = set()

    for i, (raw, low) in enumerate(zip(raw_tokens, lowered, strict=True)):
        following = lowered[i + 1] if i + 1 < len(lowered) else ""
        preceding = lowered[i - 1] if i else ""
        glued = re.fullmatch(r"([a-z+#]+?)(\d+(?:\.\d+)*)", low)
        if low in LANGUAGES and re.fullmatch(r"\d+(?:\.\d+)*", following):
            versions.add(f"{LANGUAGES[low]} {following}")
            consumed.add(i + 1)
        elif glued and glued.group(1) in LANGUAGES and low not in LIBRARIES:
            versions.add(f"{LANGUAGES[glued.group(1)]} {glued.group(2)}")
        elif low in LIBRARIES and re.fullmatch(r"\d+(?:\.\d+)*", following):
            versions.add(f"{low} {following}")
            consumed.add(i + 1)
        language = glued.group(1) if glued and glued.group(1) in LANGUAGES else low
        if language in LANGUAGES and (
            language not in AMBIGUOUS_LANGUAGES or (i > 0 and raw[:1].isupper())
        ):
            languages.add(LANGUAGES[language])
        if low in LIBRARIES:
            libraries.add(low)
        if low in OPERATING_SYSTEMS:
            systems.add(OPERATING_SYSTEMS[low])
        if raw in HTTP_METHODS or (
            low.upper() in HTTP_METHODS and low != "get" and following in ("request", "requests")
        ):
            methods.add(low.upper())
        if i in consumed:
            continue
        if re.fullmatch(r"\d+(?:\.\d+){2,}|v\d+(?:\.\d+)*", low):
            versions.add(low.lstrip("v"))
        elif re.fullmatch(r"\d+(?:\.\d+)?", low):
            if (preceding in _STATUS_CONTEXT and len(low) == 3) or preceding in _CODE_CONTEXT:
                errors.add(low)
            else:
                numbers.add(low)
        elif low in NUMBER_WORDS:
            numbers.add(NUMBER_WORDS[low])
        if _ERROR_NAME.match(raw) or _ERROR_CODE.match(raw):
            errors.add(low)
        elif (
            ("." in raw and not re.fullmatch(r"[\d.]+", raw))
            or "_" in raw.strip("_")
            or raw.endswith("()")
            or raw.startswith("-")
            or _CAMEL.match(raw)
        ):
            identifiers.add(low.removesuffix("()"))

    stems = reading.stems
    kinds = frozenset(s for s in stems if s in _KIND_STEMS)
    surface: dict[str, str] = {}
    for word, stemmed in zip(lowered, stems, strict=True):
        if (word not in FILLER and stemmed not in FILLER) or stemmed in kinds:
            surface.setdefault(stemmed, word)
    vocabulary = frozenset(
        s for w, s in zip(lowered, stems, strict=True) if w not in FILLER and s not in FILLER
    )
    negated = contracted_negation or any(w in NEGATIONS for w in lowered)
    return Details(
        versions=frozenset(versions),
        numbers=frozenset(numbers),
        identifiers=frozenset(identifiers),
        quoted=frozenset(_normalise_literal(lit) for lit in literals if lit),
        errors=frozenset(errors),
        messages=messages,
        methods=frozenset(methods),
        languages=frozenset(languages),
        libraries=frozenset(libraries),
        systems=frozenset(systems),
        negated=negated,
        tokens=frozenset(lowered),
        words=frozenset(stems),
        vocabulary=vocabulary,
        sequence=tuple(stems),
        kinds=kinds,
        surface=tuple(sorted(surface.items())),
        direction=conversion(question),
    )


def _normalise_literal(literal: str) -> str:
    return " ".join(literal.lower().split())


def _differ(name: str, a: Iterable[str], b: Iterable[str]) -> str:
    left, right = sorted(a), sorted(b)
    return f"{name} differ: {', '.join(left) or '-'} vs {', '.join(right) or '-'}"


def _operations(words: frozenset[str]) -> frozenset[str]:
    return frozenset(w for w in words if w in _OPERATION_STEMS)


_COMPARISON = next((pair for pair in OPPOSITES if "greater" in pair[0] | pair[1]), None)
"""The opposites that compare (greater, larger, above against less, smaller, below). Unlike other
opposites, one of them on one side only is a conflict too: it is a condition the answer writes
("filter greater than or equal to a date" is `__gte`, not the `__year` of "filter by the year of
a date"), where other words of a pair often come and go in a rewording ("remove" and "strip")."""


def _opposites(q: Details, c: Details) -> list[str]:
    conflicts = []
    q_words, c_words = q.tokens | q.words, c.tokens | c.words
    for left, right in OPPOSITES:
        q_left, q_right = bool(q_words & left), bool(q_words & right)
        c_left, c_right = bool(c_words & left), bool(c_words & right)
        if (q_left and not q_right and c_right and not c_left) or (
            q_right and not q_left and c_left and not c_right
        ):
            shown = sorted((q.tokens | c.tokens) & (left | right)) or sorted(left | right)[:2]
            conflicts.append(f"opposite terms: {', '.join(shown)}")
        elif (left, right) == _COMPARISON and (q_left or q_right) != (c_left or c_right):
            shown = sorted((q.tokens | c.tokens) & (left | right))
            conflicts.append(f"comparison on one side only: {', '.join(shown)}")
    q_pairs, c_pairs = _bigrams(q.sequence), _bigrams(c.sequence)
    for one, other in PARTICLE_OPPOSITES:
        for word, particle in q_pairs:
            flipped = {one: other, other: one}.get(particle)
            if flipped and (word, flipped) in c_pairs and (word, particle) not in c_pairs:
                conflicts.append(f"opposite terms: {word} {particle}, {word} {flipped}")
    return conflicts


def _bigrams(sequence: tuple[str, ...]) -> frozenset[tuple[str, str]]:
    return frozenset(pairwise(sequence))


@lru_cache(maxsize=65536)
def compare(query: str, cached: str) -> Comparison:
    """Compare a query with a cached question on every answer-determining detail (memoised)."""
    q, c = details(query), details(cached)
    conflicts: list[str] = []

    # Versions, error codes and OS names decide answers even when only one side states them:
    # an answer written for "Python" may be wrong for "Python 2".
    if q.versions != c.versions:
        conflicts.append(_differ("versions", q.versions, c.versions))
    if q.errors != c.errors:
        conflicts.append(_differ("error codes or exceptions", q.errors, c.errors))
    if q.systems != c.systems:
        conflicts.append(_differ("operating systems", q.systems, c.systems))
    # An error message decides the answer word for word: "not iterable" is not "not
    # subscriptable", and an answer to one message is no answer to a question without one.
    if not _messages_agree(q.messages, c.messages):
        shown = [" ".join(m) for m in q.messages], [" ".join(m) for m in c.messages]
        conflicts.append(_differ("error messages", *shown))
    if q.methods and c.methods and q.methods != c.methods:
        conflicts.append(_differ("request methods", q.methods, c.methods))
    # Numbers, identifiers and named languages or libraries must match when the query states
    # them; a cached question that is more specific than the query is checked by the hit model.
    for name, qs, cs in (
        ("numbers", q.numbers, c.numbers),
        ("identifiers", q.identifiers, c.identifiers),
        ("languages", q.languages, c.languages),
        ("libraries", q.libraries, c.libraries),
    ):
        if qs - cs or (qs and cs and qs != cs):
            conflicts.append(_differ(name, qs, cs))
    # Quoted names: when both questions quote names, they must quote the same ones.
    if q.quoted and c.quoted and q.quoted != c.quoted:
        conflicts.append(_differ("quoted names", q.quoted, c.quoted))
    if q.negated != c.negated:
        conflicts.append("polarity differs: one question is negated (not/without/disable)")
    conflicts.extend(_opposites(q, c))
    # "The index of the max value" is not "the max value": where a thing is, asked on one side.
    q_where = (q.tokens | q.words) & _POSITION_FORMS
    c_where = (c.tokens | c.words) & _POSITION_FORMS
    if bool(q_where) != bool(c_where):
        conflicts.append(f"position asked on one side only: {', '.join(sorted(q_where | c_where))}")
    q_ops, c_ops = _operations(q.words), _operations(c.words)
    if q_ops and c_ops and q_ops != c_ops:
        conflicts.append(_differ("operations", q_ops, c_ops))
    if reverses(q.direction, c.direction):
        conflicts.append("direction differs: the conversion goes the other way")
    # "All" whitespace is not the "leading" whitespace, nor is "preserving order" any order.
    conflicts.extend(scope_conflicts(query, cached))

    q_surface, c_surface = dict(q.surface), dict(c.surface)
    query_only = sorted(q.vocabulary - c.vocabulary)
    cached_only = sorted(c.vocabulary - q.vocabulary)
    swap = _substitution(q, c)
    return Comparison(
        conflicts=tuple(conflicts),
        shared=tuple(q_surface[s] for s in sorted(q.vocabulary & c.vocabulary)),
        query_only=tuple(q_surface[s] for s in query_only),
        cached_only=tuple(c_surface[s] for s in cached_only),
        query_only_kinds=sum(s in _KIND_STEMS for s in query_only),
        cached_only_kinds=sum(s in _KIND_STEMS for s in cached_only),
        swap=(
            (tuple(q_surface[w] for w in swap[0]), tuple(c_surface[w] for w in swap[1]))
            if swap
            else None
        ),
    )


def _swappable(d: Details) -> frozenset[str]:
    """Content and kind words, without the names and numbers other checks compare."""
    return frozenset(
        w
        for w in d.vocabulary | d.kinds
        if (len(w) > 1 or is_korean(w))
        and not w.isdigit()
        and w not in LANGUAGES
        and w not in LIBRARIES
        and w not in OPERATING_SYSTEMS
        and w not in NUMBER_WORDS
    )


def _substitution(q: Details, c: Details) -> tuple[list[str], list[str]] | None:
    """The words one question says where the other says something else, if that is all.

    Three shapes count: one word each, anywhere ("delete a file" / "delete a folder"); one word
    against two in the same place between identical words ("get the home directory" / "get
    the current working directory"); and, in Korean, which the embedding model cannot compare,
    any words on both sides. Longer rewrites are left to the hit model: the paraphrase data
    shows that rewording a question changes several words at once without changing it.
    """
    q_words, c_words = _swappable(q), _swappable(c)
    q_only, c_only = sorted(q_words - c_words), sorted(c_words - q_words)
    if not (q_only and c_only):
        return None
    korean = any(is_korean(w) for _, w in (*q.surface, *c.surface))
    if korean or len(q_only) == len(c_only) == 1:
        return q_only, c_only
    a, b = q.sequence, c.sequence
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    middle_a, middle_b = a[start : len(a) - end], b[start : len(b) - end]
    around = [w for w in (*a[:start], *a[len(a) - end :]) if w in q_words]
    slot_a = sorted({w for w in middle_a if w in q_words and w not in c_words})
    slot_b = sorted({w for w in middle_b if w in c_words and w not in q_words})
    # "time zone" and "timezone" are one word written two ways, not a substitution.
    joined_a = canonical_stem("".join(w for w in middle_a if w not in FILLER))
    joined_b = canonical_stem("".join(w for w in middle_b if w not in FILLER))
    if (
        around
        and slot_a
        and slot_b
        and sorted((len(slot_a), len(slot_b))) == [1, 2]
        and joined_a != joined_b
    ):
        return slot_a, slot_b
    return None


def swapped_words(comparison: Comparison) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(query words, cached words) when one question puts other words in the other's place.

    See `_substitution` for the shapes that count. Two questions alike but for a word swapped
    for another ("delete a file" and "delete a folder") ask the same only if the words are
    paraphrases; the hit decision checks that.
    """
    return comparison.swap


def is_korean(word: str) -> bool:
    """True for a word in Hangul (which the embedding model cannot compare)."""
    return bool(HANGUL.search(word))


_POSITION_FORMS = POSITIONS | frozenset(canonical_stem(w) for w in POSITIONS)
_OPERATION_STEMS = frozenset(canonical_stem(w) for w in OPERATIONS)
_KIND_STEMS = frozenset(canonical_stem(w) for w in DATA_KINDS)
