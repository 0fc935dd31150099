"""Answer-determining details: what two questions must agree on before one's answer serves both.

Embeddings see "How do I reverse a list in Python?" and "...in Python 2?" as the same question
(cosine 0.985), "Convert hex string to int" and "convert an int to a hex string" as well (0.988),
and "TypeError: 'NoneType' object is not iterable" as the "...not subscriptable" one (0.78). The
checks here read the questions' surface instead: versions, numbers, identifiers and quoted
names, error codes, exception names and their messages, request methods, library, language and
OS names, negation, opposite operations and directions, and the direction of a conversion. Each
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

from codeweaver_cache.lexicon import (
    AMBIGUOUS_LANGUAGES,
    CONVERSION_VERBS,
    DATA_KINDS,
    DIRECTION_PIVOTS,
    FILLER,
    HTTP_METHODS,
    KOREAN_ENDINGS,
    KOREAN_PARTICLES,
    KOREAN_PHRASES,
    KOREAN_TERMS,
    LANGUAGES,
    LIBRARIES,
    MESSAGE_END,
    NEGATIONS,
    NUMBER_WORDS,
    OPERATING_SYSTEMS,
    OPERATIONS,
    OPPOSITES,
    PARTICLE_OPPOSITES,
    REVERSED_PIVOTS,
    SYNONYMS,
)
from codeweaver_runtime.text import stem

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
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
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
    direction: tuple[frozenset[str], frozenset[str]] | None
    """(what is converted, what it becomes) when the question is a conversion."""


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


_STEMMED_SYNONYMS = {stem(word): canonical for word, canonical in SYNONYMS.items()}
"""Synonyms by their stem, so "removing" maps like "remove"."""


def canonical_stem(word: str) -> str:
    """The stem (`codeweaver_runtime.text.stem`) of the word or of the lexicon's synonym for it.

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
        hangul = _HANGUL.search(text)
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


def _tokens(text: str) -> tuple[list[str], list[str], list[str]]:
    """(raw tokens, lower-cased words with Korean read in English, each word's Korean particle)."""
    raw: list[str] = []
    lowered: list[str] = []
    particles: list[str] = []
    for token in _TOKEN.findall(text):
        if not _HANGUL.search(token):
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


@lru_cache(maxsize=65536)
def details(question: str) -> Details:
    """Read the answer-determining details of a question (memoised: questions repeat)."""
    for phrase, word in KOREAN_PHRASES.items():
        question = question.replace(phrase, word)
    messages = error_messages(question)
    literals, bare = _quoted_literals(question)
    bare, contracted_negation = _split_contractions(bare)
    raw_tokens, lowered, particles = _tokens(bare)

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

    stems = [canonical_stem(w) for w in lowered]
    kinds = frozenset(s for s in stems if s in _KIND_STEMS)
    surface: dict[str, str] = {}
    for word, stemmed in zip(lowered, stems, strict=True):
        if (word not in FILLER and stemmed not in FILLER) or stemmed in kinds:
            surface.setdefault(stemmed, word)
    vocabulary = frozenset(
        s for w, s in zip(lowered, stems, strict=True) if w not in FILLER and s not in FILLER
    )
    negated = contracted_negation or any(w in NEGATIONS for w in lowered)
    direction = _direction(lowered, stems) or _korean_direction(lowered, stems, particles)
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
        direction=direction,
    )


def _normalise_literal(literal: str) -> str:
    return " ".join(literal.lower().split())


def _content(stems: Iterable[str]) -> frozenset[str]:
    return frozenset(s for s in stems if s not in FILLER)


def _direction(
    lowered: list[str], stems: list[str]
) -> tuple[frozenset[str], frozenset[str]] | None:
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
                    return _content(stems[i + 1 : j]), _content(stems[j + 1 :])
                return _content(stems[i + 1 :]), _content(stems[:i])
            return _content(stems[:i]), _content(stems[i + 1 :])
    return None


def _korean_direction(
    lowered: list[str], stems: list[str], particles: list[str]
) -> tuple[frozenset[str], frozenset[str]] | None:
    """A Korean conversion: the object particle (을/를) marks the source, 로/으로 the target."""
    if not any(w in CONVERSION_VERBS for w in lowered):
        return None
    source = _content(s for s, p in zip(stems, particles, strict=True) if p in ("을", "를"))
    target = _content(s for s, p in zip(stems, particles, strict=True) if p in ("로", "으로"))
    return (source, target) if source and target else None


def _differ(name: str, a: Iterable[str], b: Iterable[str]) -> str:
    left, right = sorted(a), sorted(b)
    return f"{name} differ: {', '.join(left) or '-'} vs {', '.join(right) or '-'}"


def _operations(words: frozenset[str]) -> frozenset[str]:
    return frozenset(w for w in words if w in _OPERATION_STEMS)


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
    q_ops, c_ops = _operations(q.words), _operations(c.words)
    if q_ops and c_ops and q_ops != c_ops:
        conflicts.append(_differ("operations", q_ops, c_ops))
    if q.direction and c.direction and _reversed(q.direction, c.direction):
        conflicts.append("direction differs: the conversion goes the other way")

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
    return bool(_HANGUL.search(word))


_OPERATION_STEMS = frozenset(canonical_stem(w) for w in OPERATIONS)
_KIND_STEMS = frozenset(canonical_stem(w) for w in DATA_KINDS)


def converts_the_other_way(question: str, other: str) -> bool:
    """Whether two texts ask for one conversion in opposite directions.

    "Convert unicode string to byte string" and "convert a byte string to a unicode string"
    share every word, and embeddings score them as near-duplicates; their answers are opposite
    (`str.encode`, `bytes.decode`).
    """
    a, b = details(question).direction, details(other).direction
    return bool(a and b and _reversed(a, b))


def _reversed(
    a: tuple[frozenset[str], frozenset[str]], b: tuple[frozenset[str], frozenset[str]]
) -> bool:
    """True when some word moves from source to target and another from target to source."""
    a_src, a_dst = a[0] - a[1], a[1] - a[0]
    b_src, b_dst = b[0] - b[1], b[1] - b[0]
    return bool(a_src & b_dst) and bool(a_dst & b_src)
