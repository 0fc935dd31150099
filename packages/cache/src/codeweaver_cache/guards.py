"""Answer-determining details: what two questions must agree on before one's answer serves both.

Embeddings see "How do I reverse a list in Python?" and "...in Python 2?" as the same question
(cosine 0.985), and "Convert hex string to int" and "convert an int to a hex string" as well
(0.988). The checks here read the questions' surface instead: versions, numbers, identifiers and
quoted names, error codes and exception names, library, language and OS names, negation and
polarity, and the direction of a conversion. Each check names the detail that differs, so every
miss can say why.

All checks are pure and deterministic; `compare` runs them all and also measures how much of
each question's vocabulary the other covers, which the lookup thresholds use.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


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
_CAMEL = re.compile(r"^[A-Za-z][a-z0-9]+[A-Z][A-Za-z0-9]*$|^[A-Z]{2,}[a-z][A-Za-z0-9]*$")
_ERROR_NAME = re.compile(r"^[A-Za-z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Fault)$")
_ERROR_CODE = re.compile(r"^(?:[A-Z]{1,4}\d{3,5}|0x[0-9a-fA-F]+|E[A-Z]{3,})$")
_STATUS_CONTEXT = frozenset({"http", "status", "error", "errno", "code", "exit", "return"})

NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "single": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "hundred": "100",
    "thousand": "1000",
    "twice": "2",
    "half": "0.5",
    "first": "1st",
    "second": "2nd",
    "third": "3rd",
}
"""Number words read as the number they name, so "two decimals" agrees with "2 decimals"."""

LANGUAGES = {
    "python": "python",
    "py": "python",
    "python2": "python",
    "python3": "python",
    "java": "java",
    "javascript": "javascript",
    "js": "javascript",
    "node": "javascript",
    "nodejs": "javascript",
    "typescript": "typescript",
    "ts": "typescript",
    "c": "c",
    "c++": "c++",
    "cpp": "c++",
    "c#": "c#",
    "csharp": "c#",
    "go": "go",
    "golang": "go",
    "rust": "rust",
    "ruby": "ruby",
    "php": "php",
    "perl": "perl",
    "kotlin": "kotlin",
    "swift": "swift",
    "scala": "scala",
    "haskell": "haskell",
    "r": "r",
    "matlab": "matlab",
    "bash": "shell",
    "shell": "shell",
    "powershell": "powershell",
    "sql": "sql",
    "lua": "lua",
    "dart": "dart",
    "julia": "julia",
    "elixir": "elixir",
    "파이썬": "python",
    "자바": "java",
    "자바스크립트": "javascript",
    "パイソン": "python",
    "ジャバ": "java",
}
"""Programming languages; a cached answer in one language never serves another."""

LIBRARIES = _words(
    """
    numpy pandas scipy matplotlib pyplot seaborn plotly django flask fastapi sqlalchemy
    requests httpx aiohttp asyncio tkinter pyqt pyqt5 pyside qt wx wxpython pygame
    selenium beautifulsoup bs4 scrapy lxml tensorflow keras pytorch torch sklearn scikit
    jax opencv cv2 pil pillow boto3 celery redis mongodb pymongo mysql postgres postgresql
    sqlite sqlite3 pytest unittest regex re json yaml xml csv openpyxl xlrd xlwt urllib
    urllib2 subprocess jinja2 react angular angularjs vue jquery spring hibernate dotnet
    rails numba cython pydantic langchain langgraph networkx sympy nltk spacy gensim
    docker kubernetes git npm pip conda poetry uv webpack
    """
)
"""Libraries and tools whose presence decides which answer applies."""

OPERATING_SYSTEMS = {
    "windows": "windows",
    "win32": "windows",
    "linux": "linux",
    "ubuntu": "linux",
    "debian": "linux",
    "centos": "linux",
    "macos": "macos",
    "osx": "macos",
    "mac": "macos",
    "ios": "ios",
    "android": "android",
    "unix": "unix",
    "freebsd": "freebsd",
}

NEGATIONS = _words(
    """
    not no without never disable disabled disabling exclude excluding except unless
    neither nor non cannot none ignore ignoring skip skipping omit omitting avoid prevent
    """
)
"""Words that flip what a question asks; "n't" contractions count too."""

OPPOSITES: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(a.split()), frozenset(b.split()))
    for a, b in (
        ("enable enabled enabling", "disable disabled disabling"),
        ("include including", "exclude excluding"),
        ("show display", "hide"),
        ("upper uppercase capital capitalize", "lower lowercase"),
        ("ascending ascend", "descending descend reverse reversed"),
        ("first beginning start leading prefix head", "last end ending trailing suffix tail"),
        ("max maximum largest biggest highest greatest", "min minimum smallest lowest least"),
        ("encode encoding", "decode decoding"),
        ("import importing", "export exporting"),
        ("increase increment", "decrease decrement"),
        ("before", "after"),
        ("horizontal horizontally", "vertical vertically"),
        ("row rows", "column columns"),
        ("true", "false"),
        ("even", "odd"),
        ("serialize serialise dump dumps", "deserialize deserialise load loads"),
        ("zip", "unzip"),
        ("compress", "decompress"),
        ("encrypt", "decrypt"),
        ("lock", "unlock"),
        ("sync synchronous synchronously", "async asynchronous asynchronously"),
    )
)
"""Pairs of opposite words: one question with only the left, the other only the right."""

_AMBIGUOUS_LANGUAGES = frozenset({"c", "r", "go", "py", "ts", "node", "js"})
"""Language names that are also ordinary words or variable names: counted only when capitalised
mid-sentence ("in C", "in Go")."""

_DIRECTION_PIVOTS = frozenset({"to", "into", "2"})
_REVERSED_PIVOTS = frozenset({"from"})
"""Words that split a conversion into what it starts from and what it produces."""

_CONVERSION_VERBS = _words(
    """
    convert converting conversion converted turn turning transform transforming cast
    casting change changing parse parsing translate map encode decode
    """
)

SYNONYMS = {
    "integer": "int",
    "integers": "int",
    "ints": "int",
    "str": "string",
    "strings": "string",
    "dict": "dictionary",
    "dicts": "dictionary",
    "dictionaries": "dictionary",
    "remove": "delete",
    "drop": "delete",
    "erase": "delete",
    "folder": "directory",
    "dir": "directory",
    "directories": "directory",
    "folders": "directory",
    "retrieve": "get",
    "obtain": "get",
    "fetch": "get",
    "find": "get",
    "extract": "get",
    "return": "get",
    "char": "character",
    "chars": "character",
    "characters": "character",
    "letter": "character",
    "letters": "character",
    "arr": "array",
    "arrays": "array",
    "create": "make",
    "generate": "make",
    "build": "make",
    "construct": "make",
    "merge": "combine",
    "concatenate": "combine",
    "concat": "combine",
    "join": "combine",
    "loop": "iterate",
    "traverse": "iterate",
    "invert": "reverse",
    "quit": "exit",
    "terminate": "exit",
    "abort": "exit",
    "kill": "exit",
    "df": "dataframe",
    "frame": "dataframe",
    "verify": "check",
    "test": "check",
    "determine": "check",
    "transform": "convert",
    "turn": "convert",
    "cast": "convert",
    "change": "convert",
    "number": "num",
    "numbers": "num",
    "nums": "num",
    "numeric": "num",
    "digits": "digit",
    "filename": "file",
    "path": "file",
    "elements": "item",
    "element": "item",
    "entries": "item",
    "entry": "item",
    "items": "item",
    "keys": "key",
    "obj": "object",
    "objects": "object",
    "func": "function",
    "method": "function",
    "methods": "function",
    "functions": "function",
}
"""Words that ask for the same thing, folded to one form before comparing vocabularies."""

FILLER = _words(
    """
    a an the of in on at to for from by with into onto as is are be been was were do does
    did how what which who whom why when where can could should would will shall may might
    must i me my we our you your it its this that these those there here and or but if
    then than so such some any all each every other another same just only also very too
    more most much many way ways best good better simple simplest easy easiest elegant
    elegantly pythonic efficient efficiently fast fastest quick quickly proper properly
    correct correctly right possible using use used get gets getting want need trying try
    tried like please thanks hi hello python code program script value values variable
    variables given specific particular certain one new existing whole entire
    """
)
"""Words that rarely decide an answer: left out when measuring shared vocabulary."""


@dataclass(frozen=True)
class Details:
    """The answer-determining details read from one question."""

    versions: frozenset[str]
    numbers: frozenset[str]
    identifiers: frozenset[str]
    quoted: frozenset[str]
    errors: frozenset[str]
    languages: frozenset[str]
    libraries: frozenset[str]
    systems: frozenset[str]
    negated: bool
    tokens: frozenset[str]
    """Every word, lower-cased (quoted literals excluded)."""
    words: frozenset[str]
    """Every word, lower-cased and stemmed (quoted literals excluded)."""
    vocabulary: frozenset[str]
    """Content stems: `words` without filler; what shared-vocabulary coverage is measured on."""
    direction: tuple[frozenset[str], frozenset[str]] | None
    """(what is converted, what it becomes) when the question is a conversion."""


@dataclass(frozen=True)
class Comparison:
    """How a query and a cached question compare on their details."""

    conflicts: tuple[str, ...] = field(default_factory=tuple)
    query_coverage: float = 1.0
    """Share of the query's content stems the cached question also has."""
    cached_coverage: float = 1.0
    """Share of the cached question's content stems the query also has."""

    @property
    def agree(self) -> bool:
        """True when no answer-determining detail differs."""
        return not self.conflicts

    @property
    def coverage(self) -> float:
        """The lower of the two coverages: a question that adds or drops words covers less."""
        return min(self.query_coverage, self.cached_coverage)


def stem(word: str) -> str:
    """A light, deterministic stem: plural, -ing and -ed endings folded, synonyms mapped."""
    word = SYNONYMS.get(word, word)
    if len(word) > 4 and not word.isdigit():
        if word.endswith("ies"):
            word = word[:-3] + "y"
        elif word.endswith("ing") and len(word) > 5:
            word = word[:-3]
        elif (word.endswith("ed") and len(word) > 4) or (word.endswith("es") and word[-3] in "sxz"):
            word = word[:-2]
        elif word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        if len(word) > 3 and word.endswith("e"):
            word = word[:-1]
        if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "ls":
            word = word[:-1]
    return SYNONYMS.get(word, word)


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


@lru_cache(maxsize=65536)
def details(question: str) -> Details:
    """Read the answer-determining details of a question (memoised: questions repeat)."""
    literals, bare = _quoted_literals(question)
    bare, contracted_negation = _split_contractions(bare)
    raw_tokens = _TOKEN.findall(bare)
    lowered = [t.lower() for t in raw_tokens]

    versions: set[str] = set()
    numbers: set[str] = set()
    identifiers: set[str] = set()
    errors: set[str] = set()
    languages: set[str] = set()
    libraries: set[str] = set()
    systems: set[str] = set()
    consumed: set[int] = set()

    for i, (raw, low) in enumerate(zip(raw_tokens, lowered, strict=True)):
        following = lowered[i + 1] if i + 1 < len(lowered) else ""
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
            language not in _AMBIGUOUS_LANGUAGES or (i > 0 and raw[:1].isupper())
        ):
            languages.add(LANGUAGES[language])
        if low in LIBRARIES:
            libraries.add(low)
        if low in OPERATING_SYSTEMS:
            systems.add(OPERATING_SYSTEMS[low])
        if i in consumed:
            continue
        if re.fullmatch(r"\d+(?:\.\d+){2,}|v\d+(?:\.\d+)*", low):
            versions.add(low.lstrip("v"))
        elif re.fullmatch(r"\d+(?:\.\d+)?", low):
            preceding = lowered[i - 1] if i else ""
            if preceding in _STATUS_CONTEXT and len(low) == 3:
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

    stems = [stem(w) for w in lowered]
    words = frozenset(stems)
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
        languages=frozenset(languages),
        libraries=frozenset(libraries),
        systems=frozenset(systems),
        negated=negated,
        tokens=frozenset(lowered),
        words=words,
        vocabulary=vocabulary,
        direction=_direction(lowered, stems),
    )


def _normalise_literal(literal: str) -> str:
    return " ".join(literal.lower().split())


def _direction(
    lowered: list[str], stems: list[str]
) -> tuple[frozenset[str], frozenset[str]] | None:
    """Split a conversion question around its pivot into (source words, target words)."""
    if not any(w in _CONVERSION_VERBS for w in lowered):
        return None
    pivots = _DIRECTION_PIVOTS | _REVERSED_PIVOTS
    if not any(w in pivots for w in lowered):
        # "Converting byte string in unicode string": with no to/into/from, `in` is the pivot.
        pivots = frozenset({"in"})
    for i, word in enumerate(lowered):
        if word in pivots:
            before = frozenset(s for s in stems[:i] if s not in FILLER)
            after = frozenset(s for s in stems[i + 1 :] if s not in FILLER)
            if word in _REVERSED_PIVOTS:
                # "get an int from a hex string": what comes after `from` is the source.
                following_pivot = [j for j in range(i + 1, len(lowered)) if lowered[j] == "to"]
                if following_pivot:
                    j = following_pivot[0]
                    return (
                        frozenset(s for s in stems[i + 1 : j] if s not in FILLER),
                        frozenset(s for s in stems[j + 1 :] if s not in FILLER),
                    )
                return after, before
            return before, after
    return None


def _differ(name: str, a: Iterable[str], b: Iterable[str]) -> str:
    left, right = sorted(a), sorted(b)
    return f"{name} differ: {', '.join(left) or '-'} vs {', '.join(right) or '-'}"


OPERATIONS = _words(
    """
    sort reverse shuffle split combine delete add append insert pop read write save load parse
    count sum average filter replace compare copy print round flatten group download upload
    install uninstall upgrade rename move encode decode serialize compress decompress hash
    encrypt decrypt validate truncate pad strip capitalize lowercase uppercase escape unescape
    """
)
"""What a question asks to do. Two questions about the same object that ask to do different
things ("sort" or "parse" a query result) have different answers, however alike they read."""


def _operations(words: frozenset[str]) -> frozenset[str]:
    return frozenset(w for w in words if w in _OPERATION_STEMS)


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
    # Numbers, identifiers and named languages or libraries must match when the query states
    # them; a cached question that is more specific than the query is checked by coverage.
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
    for left, right in OPPOSITES:
        q_left, q_right = bool(q.tokens & left), bool(q.tokens & right)
        c_left, c_right = bool(c.tokens & left), bool(c.tokens & right)
        if (q_left and not q_right and c_right and not c_left) or (
            q_right and not q_left and c_left and not c_right
        ):
            shown = sorted((q.tokens | c.tokens) & (left | right))
            conflicts.append(f"opposite terms: {', '.join(shown)}")
    q_ops, c_ops = _operations(q.words), _operations(c.words)
    if q_ops and c_ops and q_ops != c_ops:
        conflicts.append(_differ("operations", q_ops, c_ops))
    if q.direction and c.direction and _reversed(q.direction, c.direction):
        conflicts.append("direction differs: the conversion goes the other way")

    return Comparison(
        conflicts=tuple(conflicts),
        query_coverage=_share(q.vocabulary, c.vocabulary),
        cached_coverage=_share(c.vocabulary, q.vocabulary),
    )


_OPERATION_STEMS = frozenset(stem(w) for w in OPERATIONS)


def _reversed(
    a: tuple[frozenset[str], frozenset[str]], b: tuple[frozenset[str], frozenset[str]]
) -> bool:
    """True when some word moves from source to target and another from target to source."""
    a_src, a_dst = a[0] - a[1], a[1] - a[0]
    b_src, b_dst = b[0] - b[1], b[1] - b[0]
    return bool(a_src & b_dst) and bool(a_dst & b_src)


def _share(part: frozenset[str], whole: frozenset[str]) -> float:
    if not part:
        return 1.0
    return len(part & whole) / len(part)
