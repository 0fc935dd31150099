"""Which third-party library a question is about, which pack answers it, and which version.

A question that names a library (`data/technologies.toml`, kind `python-library`: "pandas",
"BeautifulSoup", or code that only that library's users write, `df.loc`, `np.argmax`,
`soup.find_all`, `driver.find_element`) is answered from that library's pack and no other: the
standard library's `urllib.request` is not an answer to a question about requests, however alike
they read. When the library has no pack, what the user can do depends on their environment: an
installed library is one `codeweaver ingest` away; one that is not installed has nothing to read.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from codeweaver_engine.packs.format import Pack
from codeweaver_engine.technologies import technologies

_SCRIPT_SEAM = re.compile(
    r"(?<=[A-Za-z0-9])(?=[\uac00-\ud7a3])|(?<=[\uac00-\ud7a3])(?=[A-Za-z0-9])"
)
_VERSION = r"v?(\d+(?:\.\d+){0,2}(?:\.?(?:rc|a|b|dev|post)\d*)?)"
_NEGATED = re.compile(
    r"(?i:\b(?:without|w/o|not using|not with|no|instead of|rather than|except)\s+"
    r"(?:using\s+|the\s+)?)$"
)
"""What before a library's name says the question is not about it ("without numpy")."""


def normalized(name: str) -> str:
    """A distribution or import name as packaging compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Library:
    """A third-party Python library a question can name.

    Attributes:
        name: How answers name it (`pandas`, `Beautiful Soup`).
        distributions: Its distributions as pip shows them (`beautifulsoup4`).
        import_names: The top-level names it is imported by (`bs4`).
        pattern: What names it in a question.
        words: Other words that name it (`dataframe` for pandas, `ndarray` for NumPy).
    """

    name: str
    distributions: tuple[str, ...]
    import_names: tuple[str, ...]
    pattern: re.Pattern[str] = field(compare=False, repr=False)
    words: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @property
    def keys(self) -> frozenset[str]:
        """Its distribution and import names, normalised."""
        return frozenset(normalized(n) for n in (*self.distributions, *self.import_names))

    def matches(self, pack: Pack) -> bool:
        """Whether a pack documents this library (by distribution or import name)."""
        names = {normalized(pack.name), *(normalized(n) for n in pack.import_names)}
        return bool(names & self.keys)

    @property
    def distribution(self) -> str:
        """The distribution `codeweaver ingest --packages` is given (its first)."""
        return self.distributions[0] if self.distributions else self.name


@cache
def known_libraries() -> tuple[Library, ...]:
    """The Python libraries of the technology list that a question can name."""
    return tuple(
        Library(t.name, t.distributions, t.import_names, t.scope, (*t.words, *t.search_words))
        for t in technologies()
        if t.kind == "python-library" and t.scope is not None and t.distributions
    )


def libraries_of(pack: Pack) -> tuple[Library, ...]:
    """The known libraries a pack documents (none for the bundled Python documentation)."""
    if pack.source == "bundled":
        return ()
    return tuple(lib for lib in known_libraries() if lib.matches(pack))


def unnamed_phrase(phrase: str, pack: Pack) -> str:
    """A task phrasing of a pack as its searches read it: without the pack's library names.

    A question that names its library is searched without those names (`without_names`), so
    the phrasings it is compared with go without them too: "beautifulsoup remove elements by
    class" and "find all div with class name bs4" are read as "remove elements by class" and
    "find all div with class name", and neither gains on the other from a name the question
    no longer holds. Most of the curated phrasings of Django, Flask, requests, Selenium,
    SQLAlchemy and Beautiful Soup name their library; few of pandas' and NumPy's do.
    """
    libraries = libraries_of(pack)
    return without_names(phrase, libraries) if libraries else phrase


def libraries_named(question: str) -> tuple[Library, ...]:
    """The libraries a question names, in the technology list's order.

    A library named only to be excluded ("multiply matrices without numpy") is not one the
    question is about.
    """
    text = _SCRIPT_SEAM.sub(" ", question)
    return tuple(
        lib
        for lib in known_libraries()
        if any(
            not _NEGATED.search(text[max(0, m.start() - 30) : m.start()].replace("(", " "))
            for m in lib.pattern.finditer(text)
        )
    )


def mention(library: Library) -> str:
    """Words that name a library so `libraries_named` finds it (`pandas`, `python requests`)."""
    for words in (
        library.name,
        *library.import_names,
        *library.distributions,
        f"{library.name} library",
        f"python {library.name}",
    ):
        if library in libraries_named(words):
            return words
    return library.name


def keep_named(question: str, query: str) -> str:
    """A query that names the libraries the question names (prefixed to it when it does not).

    A later search round's query is made of the question's key terms, which can leave its
    library out ("drop rows NaN" for a pandas question): the round would then search every pack.
    """
    asked = libraries_named(question)
    missing = [lib for lib in asked if lib not in libraries_named(query)]
    return " ".join([*(mention(lib) for lib in missing), query]) if missing else query


def without_names(question: str, libraries: Sequence[Library]) -> str:
    """The question without the words that name its libraries ("pandas", "dataframe", "numpy").

    Within a library's own pack those words say nothing about the task (every unit of the pandas
    pack is pandas'), and a small embedding model weighs them as much as the words that do:
    "get the first row of each group in a pandas dataframe" read closer to "get the first row of
    a dataframe" than to "first row of each group". Code (`df.loc`, `np.where(`) is kept.
    """
    names = {
        w.lower()
        for lib in libraries
        for w in (lib.name, *lib.distributions, *lib.import_names, *lib.words)
    }
    out = question
    for word in sorted(names, key=len, reverse=True):
        out = re.sub(rf"(?i)(?<![\w.]){re.escape(word)}(?![\w(.])", " ", out)
    out = " ".join(out.split()).strip(" -:,")
    return out if re.search(r"\w", out) else question


def packs_for(libraries: Sequence[Library], packs: Sequence[Pack]) -> list[Pack]:
    """The packs that document any of the libraries, in the packs' order."""
    return [pack for pack in packs if any(lib.matches(pack) for lib in libraries)]


def version_named(question: str, library: Library) -> str | None:
    """The version of a library a question asks about ("in pandas 1.5" gives `1.5`), if any."""
    words = sorted(
        {library.name, *library.distributions, *library.import_names}, key=len, reverse=True
    )
    names = "|".join(re.escape(w) for w in words)
    found = re.search(
        rf"(?i)(?<![\w.-])(?:{names})(?:\s*(?:version|ver\.?|v)\s*|\s*[=<>~!]=?\s*|\s+){_VERSION}"
        r"(?![\w.])",
        _SCRIPT_SEAM.sub(" ", question),
    )
    return found.group(1) if found else None


def same_version(asked: str, have: str) -> bool:
    """Whether an asked version is the one a pack documents: `3` and `3.1` are 3.1.1."""
    asked = asked.lstrip("vV")
    return asked == have or have.startswith(asked + ".")


@dataclass(frozen=True)
class Environment:
    """The user's active Python environment: what `codeweaver ingest --python` would read.

    Attributes:
        python: Its interpreter.
        versions: Installed distributions' versions, by normalised distribution name.
        import_names: Installed distributions by normalised import name.
    """

    python: str
    versions: Mapping[str, str]
    import_names: Mapping[str, str] = field(default_factory=dict)

    def version_of(self, library: Library) -> tuple[str, str] | None:
        """(distribution, version) of the library as installed there; None if it is not."""
        for name in library.distributions:
            version = self.versions.get(normalized(name))
            if version is not None:
                return name, version
        for name in library.import_names:
            dist = self.import_names.get(normalized(name))
            if dist is not None and dist in self.versions:
                return dist, self.versions[dist]
        return None


def ingest_command(python: str | None, distribution: str) -> str:
    """The command that reads one library of an environment into a pack."""
    where = f" --python {shlex.quote(python)}" if python else " --python PATH"
    return f"codeweaver ingest{where} --packages {shlex.quote(distribution)}"
