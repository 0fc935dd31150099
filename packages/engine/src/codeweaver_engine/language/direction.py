"""Which way a question goes: what it converts into what, and which side of a pair it asks for.

"How to convert a Unix timestamp to a datetime?" and "How to convert a datetime to a Unix
timestamp?" share every word; embeddings score them as duplicates (0.99), and their answers are
opposite (`datetime.fromtimestamp`, `datetime.timestamp`). What tells them apart is the order of
two *phrases* around a pivot: "X to Y", "X into Y", "Y from X", "from X to Y", "convert X ... as
Y", and in Korean "X를 Y로", "X에서 Y로", "X에서 Y를 얻는". A phrase is several words ("a list of
strings", "a Unix timestamp", "유닉스 타임스탬프"), read for its content words and for the kinds of
value it names (`data/direction.toml`), so "a byte string" and "bytes" agree.

The same file names the sides of opposite pairs (the start and the end of a string, encode and
decode, upper and lower case, adding and removing, joining and splitting...) and the APIs that do
each side (`removeprefix`, `removesuffix`), and what some APIs convert into what
(`fromtimestamp`: a timestamp to a datetime).

One reading, two users: the answer cache's guards refuse to serve the answer of a conversion the
other way round (`reverses`), and the engine ranks down an API whose side or conversion is the
question's opposite (`opposed_api`).
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
from codeweaver_engine.lexicon import FILLER

DIRECTION_FILE = Path(__file__).resolve().parents[1] / "data" / "direction.toml"
WORD_TABLES = (
    "conversion_verbs",
    "producing_verbs",
    "as_verbs",
    "pivots",
    "infinitive_cues",
    "phrase_ends",
    "round_trip",
)
KOREAN_KEYS = (
    "object_particles",
    "from_particles",
    "target_particles",
    "from_forms",
    "conversion_verbs",
    "producing_verbs",
)
_KIND = "kind:"
"""Prefix of a kind among a phrase's words, so the kind `str` is not the word "str"."""
_PHRASE_WORDS = 6
"""How many words either side of a pivot a phrase holds at most."""
_CLAUSE_BREAK = re.compile(r"[;:?!？。]|\.(?=\s|$)|\s-\s")
"""Where a clause ends. Not at a comma: "seconds to hours, minutes and seconds" is one phrase."""
_HANGUL = re.compile(r"[\uac00-\ud7a3]")


class DirectionDataError(ValueError):
    """The direction file is malformed; the message names the table."""


@dataclass(frozen=True)
class Side:
    """One side of an opposite pair: the words that ask for it and the APIs that do it."""

    name: str
    opposite: str
    words: frozenset[str]
    apis: frozenset[str]


@dataclass(frozen=True)
class DirectionData:
    """The parsed direction file (see its header)."""

    words: dict[str, frozenset[str]]
    korean: dict[str, tuple[str, ...]]
    kinds: dict[tuple[str, ...], str]
    """Each spelling, as read words, and the kind it names."""
    sides: tuple[Side, ...]
    api_conversions: dict[str, tuple[frozenset[str], frozenset[str]]]
    """API name's last component -> (source kinds, target kinds)."""


@dataclass(frozen=True)
class Conversion:
    """What a conversion starts from and what it produces, as words and kinds.

    Attributes:
        source: The content stems of the phrase converted, with its kinds (`kind:str`).
        target: Those of the phrase it becomes.
    """

    source: frozenset[str]
    target: frozenset[str]

    @property
    def source_kinds(self) -> frozenset[str]:
        """The kinds the source phrase names (`str`, `list`, `timestamp`...)."""
        return frozenset(w.removeprefix(_KIND) for w in self.source if w.startswith(_KIND))

    @property
    def target_kinds(self) -> frozenset[str]:
        """The kinds the target phrase names."""
        return frozenset(w.removeprefix(_KIND) for w in self.target if w.startswith(_KIND))


def parse_direction_data(text: str, *, origin: str = "direction.toml") -> DirectionData:
    """Every table of a direction file.

    Raises:
        DirectionDataError: the file is not TOML, or a table is missing or of the wrong shape.
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DirectionDataError(f"{origin}: {exc}") from exc
    known = {*WORD_TABLES, "korean", "kinds", "side", "api_conversion"}
    if set(raw) != known:
        missing, unknown = sorted(known - set(raw)), sorted(set(raw) - known)
        raise DirectionDataError(f"{origin}: tables missing {missing}, unknown {unknown}")
    words: dict[str, frozenset[str]] = {}
    for name in WORD_TABLES:
        table = raw[name]
        if set(table) != {"words"} or not str(table["words"]).split():
            raise DirectionDataError(f'{origin}: [{name}] needs words = """...""" only')
        words[name] = frozenset(str(table["words"]).lower().split())
    korean_table = raw["korean"]
    if set(korean_table) != set(KOREAN_KEYS):
        raise DirectionDataError(f"{origin}: [korean] needs {', '.join(KOREAN_KEYS)}")
    korean = {key: tuple(str(korean_table[key]).split()) for key in KOREAN_KEYS}
    kinds: dict[tuple[str, ...], str] = {}
    for kind, entry in raw["kinds"].items():
        spellings = entry.get("spellings") if isinstance(entry, dict) else None
        if not isinstance(spellings, list) or not spellings:
            raise DirectionDataError(f"{origin}: kind {kind!r} needs spellings = [...]")
        for spelling in spellings:
            kinds[_read_words(str(spelling))] = kind
    sides = tuple(_side(entry, origin) for entry in raw["side"])
    names = {side.name for side in sides}
    for side in sides:
        if side.opposite not in names:
            raise DirectionDataError(f"{origin}: side {side.name!r}: no side {side.opposite!r}")
    api_conversions: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    for entry in raw["api_conversion"]:
        if set(entry) != {"apis", "source", "target"}:
            raise DirectionDataError(f"{origin}: [[api_conversion]] needs apis, source, target")
        source, target = frozenset(entry["source"].split()), frozenset(entry["target"].split())
        unknown_kinds = (source | target) - set(kinds.values())
        if unknown_kinds:
            raise DirectionDataError(f"{origin}: unknown kinds {sorted(unknown_kinds)}")
        for api in entry["apis"].split():
            api_conversions[api.lower()] = (source, target)
    return DirectionData(words, korean, kinds, sides, api_conversions)


def _side(entry: Any, origin: str) -> Side:
    if not isinstance(entry, dict) or set(entry) != {"name", "opposite", "words", "apis"}:
        raise DirectionDataError(f"{origin}: [[side]] needs name, opposite, words, apis")
    words = frozenset(w for spelling in entry["words"].split() for w in _read_words(spelling))
    return Side(
        name=entry["name"],
        opposite=entry["opposite"],
        words=words,
        apis=frozenset(api.lower() for api in entry["apis"].split()),
    )


@cache
def direction_data() -> DirectionData:
    """The direction file, read once."""
    return parse_direction_data(DIRECTION_FILE.read_text(encoding="utf-8"))


def _read_words(text: str) -> tuple[str, ...]:
    """Words as a question's are read (Korean in English where the lexicon knows the word)."""
    return read(text).lowered


# --- reading a clause --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Clause:
    words: tuple[str, ...]
    """Lower-cased words, Korean read in English where the lexicon knows them."""
    stems: tuple[str, ...]
    particles: tuple[str, ...]
    """Each word's Korean particle ('' for none)."""
    korean: bool


def _clauses(text: str) -> list[_Clause]:
    """The text cut at punctuation, each piece read word by word."""
    data = direction_data()
    for form in data.korean["from_forms"]:
        text = text.replace(form, data.korean["from_particles"][0])
    text = text.replace("->", " to ").replace("→", " to ")
    clauses = []
    for piece in _CLAUSE_BREAK.split(text):
        if not piece.strip():
            continue
        reading = read(piece)
        clauses.append(
            _Clause(reading.lowered, reading.stems, reading.particles, bool(_HANGUL.search(piece)))
        )
    return clauses


def _kinds_named(words: Sequence[str]) -> set[str]:
    """The kinds a phrase's words name, longest spelling first."""
    kinds = direction_data().kinds
    longest = max(len(spelling) for spelling in kinds)
    found: set[str] = set()
    i = 0
    while i < len(words):
        for size in range(min(longest, len(words) - i), 0, -1):
            kind = kinds.get(tuple(words[i : i + size]))
            if kind is not None:
                found.add(kind)
                i += size
                break
        else:
            i += 1
    return found


def _phrase(clause: _Clause, start: int, end: int) -> frozenset[str]:
    """A phrase's content stems and kinds (words `start` to `end` of a clause)."""
    words = clause.words[start:end]
    stems = {
        s
        for w, s in zip(words, clause.stems[start:end], strict=True)
        if w not in FILLER and s not in FILLER
    }
    return frozenset(stems | {_KIND + k for k in _kinds_named(words)})


def _is_verb(word: str) -> bool:
    words = direction_data().words
    return (
        word in words["conversion_verbs"]
        or word in words["producing_verbs"]
        or word in words["as_verbs"]
    )


def _left_edge(clause: _Clause, pivot: int, floor: int) -> int:
    """Where the phrase before a pivot starts: after a verb, a phrase end or `floor`."""
    ends = direction_data().words["phrase_ends"]
    start = pivot
    while start > floor and pivot - start < _PHRASE_WORDS:
        word = clause.words[start - 1]
        if word in ends or _is_verb(word) or word in ("to", "from", "how", "what", "can", "do"):
            break
        start -= 1
    return start


def _right_edge(clause: _Clause, pivot: int) -> int:
    """Where the phrase after a pivot ends: at a phrase end, a verb or the clause's end."""
    data = direction_data()
    end = pivot + 1
    while end < len(clause.words) and end - pivot <= _PHRASE_WORDS:
        word = clause.words[end]
        if word in data.words["phrase_ends"] or _is_verb(word) or word in data.words["pivots"]:
            break
        end += 1
    return end


def _is_infinitive(clause: _Clause, i: int) -> bool:
    """Whether the "to" at `i` starts a verb ("how to convert") rather than a target."""
    words = direction_data().words
    before = clause.words[i - 1] if i else ""
    after = clause.words[i + 1] if i + 1 < len(clause.words) else ""
    return before in words["infinitive_cues"] or _is_verb(after) or after in ("be", "do")


def _english(clause: _Clause) -> Conversion | None:
    data = direction_data()
    words = clause.words
    if any(w in data.words["round_trip"] for w in words):
        return None
    verbs = [i for i, w in enumerate(words) if w in data.words["conversion_verbs"]]
    producing = [i for i, w in enumerate(words) if w in data.words["producing_verbs"]]
    as_verbs = [i for i, w in enumerate(words) if w in data.words["as_verbs"]]
    for i, word in enumerate(words):
        if word in data.words["pivots"] and not (word == "to" and _is_infinitive(clause, i)):
            before = [v for v in verbs if v < i]
            if before and i - before[-1] <= _PHRASE_WORDS + 2:
                # "converting epoch time with milliseconds to datetime": what the verb takes.
                start = before[-1] + 1
            else:
                start = _left_edge(clause, i, before[-1] + 1 if before else 0)
            source = _phrase(clause, start, i)
            target = _phrase(clause, i + 1, _right_edge(clause, i))
            if not before and not _kinds_change(source, target):
                continue  # "add a key to a dictionary", "copy a list to a list": no conversion
            found = _conversion(source, target)
            if found:
                return found
        elif word == "from":
            later = [
                j
                for j in range(i + 1, min(len(words), i + 2 + _PHRASE_WORDS))
                if words[j] in data.words["pivots"] and not _is_infinitive(clause, j)
            ]
            if later:
                j = later[0]
                found = _conversion(
                    _phrase(clause, i + 1, j), _phrase(clause, j + 1, _right_edge(clause, j))
                )
            else:
                before = [v for v in producing if v < i]
                if not before:
                    continue  # "remove whitespace from a string" makes nothing
                target = _phrase(clause, before[-1] + 1, i)
                found = _conversion(_phrase(clause, i + 1, _right_edge(clause, i)), target)
            if found:
                return found
        elif word in ("as", "like"):
            before = [v for v in as_verbs if v < i and i - v <= _PHRASE_WORDS]
            target = _phrase(clause, i + 1, _right_edge(clause, i))
            if before:
                found = _conversion(_phrase(clause, before[-1] + 1, i), target)
            elif i and not words[i - 1].endswith("ed"):
                # "yesterday's date as a string"; not "numbers stored as strings".
                source = _phrase(clause, _left_edge(clause, i, 0), i)
                found = _conversion(source, target) if _kinds_change(source, target) else None
            else:
                found = None
            if found:
                return found
    return None


def _korean(clause: _Clause) -> Conversion | None:
    """X를 Y로 (변환), X에서 Y로, X에서 Y를 (만드는): particles mark the source and target."""
    data = direction_data()
    korean = data.korean

    def has(verbs: Iterable[str], english: str) -> bool:
        stems = tuple(verbs)
        return any(
            w in data.words[english] or (_HANGUL.search(w) and w.startswith(stems))
            for w in clause.words
        )

    def phrase_ending(particles: Iterable[str], *, last: bool = False) -> frozenset[str] | None:
        marks = tuple(particles)
        order = list(enumerate(clause.particles))
        for i, particle in reversed(order) if last else order:
            if particle in marks:
                start = i
                while (
                    start > 0
                    and not clause.particles[start - 1]
                    and not _is_verb(clause.words[start - 1])
                ):
                    start -= 1
                return _phrase(clause, start, i + 1)
        return None

    objects, origins = korean["object_particles"], korean["from_particles"]
    if has(korean["conversion_verbs"], "conversion_verbs"):
        # The target is the 로 phrase nearest the verb: in "공백으로 구분된 정수 문자열을 int
        # 리스트로 바꾸기" the first 으로 says how the string is separated, not what it becomes.
        target = phrase_ending(korean["target_particles"], last=True)
        source = phrase_ending(objects) or phrase_ending(origins)
        if source and target:
            return _conversion(source, target)
    if has(korean["producing_verbs"], "producing_verbs"):
        source, target = phrase_ending(origins), phrase_ending(objects)
        if source and target:
            return _conversion(source, target)
    return None


def _kinds(phrase: frozenset[str]) -> frozenset[str]:
    return frozenset(w for w in phrase if w.startswith(_KIND))


def _kinds_change(source: frozenset[str], target: frozenset[str]) -> bool:
    """Both phrases name a kind of value, and not the same ones: a conversion without a verb."""
    return bool(_kinds(source)) and bool(_kinds(target)) and _kinds(source) != _kinds(target)


def _conversion(source: frozenset[str], target: frozenset[str]) -> Conversion | None:
    if not source or not target or source == target:
        return None
    return Conversion(source, target)


@lru_cache(maxsize=65536)
def conversion(text: str) -> Conversion | None:
    """What a question converts into what, when it asks for a conversion (memoised).

    "How to convert a Unix timestamp to a datetime in Python?" gives ({unix, timestamp,
    kind:timestamp}, {datetim, kind:datetime}); "get the datetime from a Unix timestamp" the
    same; "유닉스 타임스탬프를 datetime으로 변환" too. "How to ..." is no conversion, nor is "remove
    whitespace from a string", nor "convert int to ASCII and back" (both ways).
    """
    for clause in _clauses(text):
        found = _korean(clause) if clause.korean else None
        found = found or _english(clause)
        if found:
            return found
    return None


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def reverses(
    asked: Conversion | None, other: Conversion | None, *, kinds_swap: bool = False
) -> bool:
    """Whether two conversions go opposite ways: each one's source is more the other's target.

    "a list of strings to a string" reverses "a string to a list of strings" (`join`, `split`);
    "a string to a list" does not reverse "a string to a list of characters".

    Args:
        asked: One conversion (None: no conversion, nothing reverses it).
        other: The other.
        kinds_swap: Also require, when both name kinds of value on both sides, that a kind one
            converts from is one the other converts to and the other way round ("a string to a
            list" and "a list of characters to a string"), not only that the phrases trade
            places: "get tuples from lists" and "a list of tuples into separate lists" trade
            places, and `zip` does both. The engine ranks with this; the answer cache, which
            must never serve the other question's answer, without it.
    """
    if asked is None or other is None:
        return False
    source_first = _overlap(asked.source, other.target) > _overlap(asked.source, other.source)
    target_first = _overlap(asked.target, other.source) > _overlap(asked.target, other.target)
    trade = source_first and target_first
    kinds = (asked.source_kinds, asked.target_kinds, other.source_kinds, other.target_kinds)
    if not (trade and kinds_swap and all(kinds)):
        return trade
    a_from, a_to = kinds[0] - kinds[1], kinds[1] - kinds[0]
    b_from, b_to = kinds[2] - kinds[3], kinds[3] - kinds[2]
    return bool(a_from & b_to and a_to & b_from)


def converts_the_other_way(question: str, other: str, *, kinds_swap: bool = False) -> bool:
    """Whether two texts ask for one conversion in opposite directions (see `reverses`)."""
    return reverses(conversion(question), conversion(other), kinds_swap=kinds_swap)


# --- sides and APIs ----------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def sides(text: str) -> frozenset[str]:
    """The sides of opposite pairs a text asks for (its words), both of a pair included."""
    words = {w for clause in _clauses(text) for w in clause.words}
    return frozenset(side.name for side in direction_data().sides if side.words & words)


def asked_sides(text: str) -> frozenset[str]:
    """The sides a text asks for without their opposite ("the end", not "the start and end")."""
    found = sides(text)
    by_name = {side.name: side for side in direction_data().sides}
    return frozenset(s for s in found if by_name[s].opposite not in found)


def api_key(api: str) -> str:
    """The last component of an API's name, lower-cased: `removeprefix` for `str.removeprefix`."""
    return api.split("(", 1)[0].rstrip().rsplit(".", 1)[-1].lower()


def api_sides(api: str) -> frozenset[str]:
    """The sides an API does by its name (`str.removeprefix`: the start)."""
    key = api_key(api)
    return frozenset(side.name for side in direction_data().sides if key in side.apis)


def api_conversion(api: str) -> Conversion | None:
    """What an API converts into what, when the direction file says (`fromtimestamp`)."""
    found = direction_data().api_conversions.get(api_key(api))
    if found is None:
        return None
    source, target = found
    return Conversion(frozenset(_KIND + k for k in source), frozenset(_KIND + k for k in target))


def opposed_text(question: str, text: str) -> bool:
    """Whether a text asks only for the opposite side of one the question asks for.

    The prose that introduces an example ("Drop the columns where at least one element is
    missing.") says what it shows; for "drop rows with NaN values" that is the other side.
    """
    asked = asked_sides(question)
    by_name = {side.name: side for side in direction_data().sides}
    return any(s not in asked and by_name[s].opposite in asked for s in asked_sides(text))


def opposed_api(question: str, api: str) -> str | None:
    """Why an API does the opposite of what the question asks, or None when it does not.

    By side: "remove a substring from the end of a string" asks for the end, and
    `str.removeprefix` does the start. By conversion: "convert a datetime to a Unix timestamp"
    goes the other way from `datetime.fromtimestamp`.
    """
    asked = asked_sides(question)
    by_name = {side.name: side for side in direction_data().sides}
    for side in sorted(api_sides(api)):
        if side not in asked and by_name[side].opposite in asked:
            return f"{api} does the {side}; the question asks for the {by_name[side].opposite}"
    if reverses(conversion(question), api_conversion(api)):
        return f"{api} converts the other way"
    return None
