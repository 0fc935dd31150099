"""Search one documentation pack: answer units ranked by how well they answer.

A unit's relevance to a question is the better of two similarities: the question against the
unit itself (its name or heading and opening prose), and the question against the task index's
phrasings of the tasks the unit does (`tasks.py`), which bridges "make a time delay" to
`time.sleep`. A question that names an API (`re.sub`, `os.system()`, `strftime`) lifts that
API's units. All of it is a few matrix products over vectors computed when the package was
built, so a search costs milliseconds and no start-up work beyond loading the files.
"""

from __future__ import annotations

import gzip
import json
import re
import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from codeweaver_engine.language.direction import conversion, reverses
from codeweaver_engine.language.scope_words import idioms
from codeweaver_engine.language.words import content_words
from codeweaver_engine.libraries import unnamed_phrase
from codeweaver_engine.packs import BUNDLED_PACK
from codeweaver_engine.packs.format import (
    FORMAT_VERSION,
    MANIFEST_FILE,
    TASK_VECTORS_FILE,
    TASKS_FILE,
    UNITS_FILE,
    VECTORS_FILE,
    Pack,
    embedding_text,
    sha256_of,
)
from codeweaver_engine.packs.units import MEMBER_DIRECTIVES, DocUnit

Matrix = NDArray[np.float32]
EmbedTexts = Callable[[Sequence[str]], Matrix]

ALTERNATIVE_DECAY = 0.97
"""A task's later targets (alternatives) score this much of its first."""
NAMED_API_BONUS = 0.12
"""Added to units whose API the question names in code form (`re.sub`, `getsize()`)."""
PHRASE_WORDS_WEIGHT = 0.1
"""Added to a task phrase's similarity for the words it shares with the question (`word_overlap`):
a small model confuses opposite tasks ("base64 encode" and "base64 decode"), the words do not."""
_NOT_THE_TASK = frozenset(
    {"python", "python3", "pythonic", "py", "way", "best", "easiest", "simple", "simplest"}
    | {"fastest"}
)
"""Words in how a question is asked, not in what it asks: they say nothing about the task."""
PASSAGE_PENALTY = 0.03
"""Taken from passages (tutorial, FAQ and module prose): when a passage and an API entry match
about as well, the entry answers more directly."""
OWN_SIMILARITY_TIEBREAK = 0.001
"""A phrase lifts every passage of its section to one score; this share of each unit's own
similarity to the question orders them ("loop over the file object" before "f.seek"), in the
score itself, so every later sort by score keeps that order."""
IDIOM_LEAD = 0.01
"""How far above the best-scoring unit a kind of question's idiom is put (`search`)."""
UNFAMILIAR_PENALTY = 0.05
"""Taken from an installed library's units outside every class and module its tasks name
(`unfamiliar_units`)."""
MODULE_BONUS = 0.04
"""Added to the units of a standard-library module the question names in plain words."""
PASSAGE_CONTEXT_CHARS = 3000
"""How much of its section a passage is read with: a long section is cut into several passages,
and an example often sits in the passage after the sentence that says what it shows ("and it's
equivalent to:")."""
_ENGLISH_MODULE_NAMES = frozenset(
    {"time", "string", "random", "copy", "select", "code", "types", "test", "site", "array"}
    | {"queue", "signal", "token", "keyword", "operator", "platform", "locale", "calendar"}
    | {"email", "html", "io", "re", "this", "trace", "dis", "wave", "resource", "numbers", "abc"}
    | {"secrets", "enum", "inspect", "glob", "shelve", "statistics", "turtle", "symtable"}
)
"""Module names that are also everyday English words: named plainly, they mean the word.

`glob` is here because "glob" names the pattern as often as the module."""
_CALL = re.compile(r"(?<![\w.])((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\s*\(|\.([A-Za-z_]\w*)\b")
_CODE_NAME = re.compile(
    r"\b[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+|\b[A-Za-z_]\w*(?=\()|`([^`]+)`"
    r"|\b[A-Z][a-z]\w*(?:Error|Exception|Warning|Exit|Interrupt)\b"
)
_SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


class IndexError_(RuntimeError):
    """A pack is missing, damaged, or written in another format."""


@dataclass(frozen=True)
class DocHit:
    """A unit of a pack and how well it matches the question.

    Attributes:
        unit: The documentation unit.
        index: Its position in its pack (stable for a given build).
        score: Relevance, on the scale of cosine similarity (about 0.3 unrelated, 0.9 exact).
        pack: The pack the unit is in.
        via_task: The task phrasing that matched, when the task index decided the score.
        asked_as: The alias that task named, when it named one of an entry's other names
            (`sys.stdout` in the entry of `sys.stdin`, `codecs.BOM_UTF8` in that of `codecs.BOM`).
    """

    unit: DocUnit
    index: int
    score: float
    pack: Pack
    via_task: str | None = None
    asked_as: str | None = None

    @property
    def url(self) -> str | None:
        """The unit's address online (docs.python.org for the bundled pack), if it has one."""
        if self.pack.url is None:
            return None
        page = f"{self.pack.url}{self.unit.doc}.html"
        return f"{page}#{self.unit.anchor}" if self.unit.anchor else page


class DocsIndex:
    """One pack in memory: its units with their vectors, and its task index."""

    def __init__(
        self,
        units: list[DocUnit],
        vectors: Matrix,
        tasks: list[dict[str, list[str]]],
        task_vectors: Matrix,
        *,
        pack: Pack,
    ) -> None:
        """Hold a pack in memory (see `read_index` and `load_index` to read one).

        Args:
            units: The documentation units.
            vectors: One unit-length vector per unit.
            tasks: The task index: each task's `targets` and `phrases`.
            task_vectors: One vector per phrase, in task order.
            pack: What the pack is (its manifest), the embedding model of the vectors included.
        """
        self.units = units
        self.vectors = vectors
        self.tasks = tasks
        self.task_vectors = task_vectors
        self.pack = pack
        by_name: dict[str, list[int]] = defaultdict(list)
        by_last: dict[str, list[int]] = defaultdict(list)
        by_section: dict[str, list[int]] = defaultdict(list)
        # A piece of syntax (`$`, `\d`) is a task's target, never an API a question names:
        # "split on '$'" is about `str.split`, not the end-of-string anchor.
        self._syntax = frozenset(i for i, u in enumerate(units) if u.directive == "syntax")
        for i, unit in enumerate(units):
            if unit.kind == "api":
                for name in unit.target_names:
                    by_name[name].append(i)
                for name in (unit.name, *unit.aliases):
                    if i not in self._syntax:
                        by_last[name.rsplit(".", 1)[-1].lower()].append(i)
            else:
                by_section[f"{unit.doc}#{unit.anchor}"].append(i)
        self._by_name = dict(by_name)
        self._by_last = dict(by_last)
        self._by_section = dict(by_section)
        # Each phrase scores every unit of every target of its task.
        phrase_targets: list[list[tuple[int, float, str | None]]] = []
        self.phrases: list[str] = []
        for task in tasks:
            targets: list[tuple[int, float, str | None]] = []
            for rank, target in enumerate(task["targets"]):
                found = by_name.get(target) or by_section.get(target) or []
                targets += [
                    (i, ALTERNATIVE_DECAY**rank, target if target in units[i].aliases else None)
                    for i in found
                ]
            for phrase in task["phrases"]:
                self.phrases.append(phrase)
                phrase_targets.append(targets)
        self._phrase_targets = phrase_targets
        # Installed packs' phrasings are compared without their library's names, as their
        # vectors were embedded (`libraries.unnamed_phrase`).
        self._phrase_words = [
            frozenset(stemmed_words(unnamed_phrase(p, pack))) for p in self.phrases
        ]
        self._phrase_conversions = [conversion(p) for p in self.phrases]
        by_module: dict[str, list[int]] = defaultdict(list)
        for i, unit in enumerate(units):
            if unit.module:
                by_module[unit.module.lower()].append(i)
        self._by_module = dict(by_module)
        self._passages = np.array([u.kind != "api" for u in units], dtype=np.float32)
        self._unfamiliar = unfamiliar_units(units, tasks, pack)
        self._examples_using: dict[str, list[int]] | None = None
        self._by_url: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self.units)

    @property
    def version(self) -> str:
        """The version the pack documents."""
        return self.pack.version

    @property
    def embedding_model(self) -> str:
        """The model the vectors come from."""
        return self.pack.embedding_model

    def hit(
        self, index: int, score: float, *, via_task: str | None = None, asked_as: str | None = None
    ) -> DocHit:
        """The unit at a position as a hit of this pack with the given score."""
        return DocHit(self.units[index], index, score, self.pack, via_task, asked_as)

    def positions(self, target: str) -> list[int]:
        """The positions of the units a task target names, as the task index resolves them.

        An API's name or alias (`os.remove`, `library/string:'<'` for a piece of syntax), else
        a section (`page#anchor`, every passage of it, in order); none for an unknown target.
        """
        return list(self._by_name.get(target) or self._by_section.get(target) or ())

    def search(self, query_vector: Matrix, question: str, *, k: int = 8) -> list[DocHit]:
        """The best `k` units for a question, best first.

        Args:
            query_vector: The question's unit-length vector (same model as the index).
            question: The question's text, for the APIs it names.
            k: How many units to return.
        """
        query = np.asarray(query_vector, dtype=np.float32)
        dense = self.vectors @ query
        scores = dense.copy()
        via: dict[int, str] = {}
        asked_as: dict[int, str | None] = {}
        best = float(dense.max()) if len(dense) else 0.0
        if len(self.phrases):
            phrase_scores = self.task_vectors @ query
            asked = frozenset(stemmed_words(question))
            converts = conversion(question)
            # Only phrases close to the question can decide a unit's score.
            for p in np.argsort(-phrase_scores)[:64]:
                if reverses(converts, self._phrase_conversions[p], kinds_swap=True):
                    # "A string to a list" is not "a list of characters to a string", nor "a
                    # Unix timestamp to a datetime" "a datetime to a Unix timestamp", however
                    # alike the two read to a small model (`language.direction`).
                    continue
                shared = word_overlap(asked, self._phrase_words[p])
                phrase_score = float(phrase_scores[p]) + PHRASE_WORDS_WEIGHT * shared
                for i, weight, alias in self._phrase_targets[p]:
                    value = phrase_score * weight + OWN_SIMILARITY_TIEBREAK * float(dense[i])
                    best = max(best, value)
                    if value > scores[i]:
                        scores[i] = value
                        via[i] = self.phrases[p]
                        asked_as[i] = alias
        for rank, api in enumerate(idioms(question)):
            # A kind of question whose answer is an idiom ("several values per key":
            # `dict.setdefault`; "remove by index": `list.pop`, `del s[i:j]`) gets it first,
            # however the small model reads its words (`language.scope_words`).
            for i in self._by_name.get(api, ()):
                lifted = best + IDIOM_LEAD * ALTERNATIVE_DECAY**rank
                if lifted > scores[i]:
                    scores[i] = lifted
                    via.pop(i, None)
        for i in self.named_units(question):
            scores[i] += NAMED_API_BONUS
        for i in self.module_units(question):
            scores[i] += MODULE_BONUS
        scores -= PASSAGE_PENALTY * self._passages
        scores -= UNFAMILIAR_PENALTY * self._unfamiliar
        top = self._distinct(np.argsort(-scores, kind="stable"), k)
        return [
            self.hit(
                int(i), float(scores[i]), via_task=via.get(int(i)), asked_as=asked_as.get(int(i))
            )
            for i in top
        ]

    def _distinct(self, order: NDArray[np.intp], k: int) -> list[int]:
        """The first `k` units of `order` that are not the same answer again.

        One API can have two entries (`range` in the built-in functions and in the built-in
        types) and a long section is split into several units, which one task phrase lifts
        alike: the best of each is enough, and the other places go to other answers.
        """
        chosen: list[int] = []
        seen: set[str] = set()
        for i in order:
            unit = self.units[int(i)]
            key = unit.target_names[0] if unit.kind == "api" else f"{unit.doc}#{unit.anchor}"
            if key not in seen:
                seen.add(key)
                chosen.append(int(i))
                if len(chosen) == k:
                    break
        return chosen

    def named_units(self, question: str) -> set[int]:
        """Units of the APIs a question names in code form.

        Dotted, called, snake_case, quoted, or an exception's name (`KeyError`, as a
        traceback's last line gives it).
        """
        named: set[int] = set()
        for match in _CODE_NAME.finditer(question):
            text = (match.group(1) or match.group(0)).strip().rstrip("()")
            if text in self._by_name:
                named.update(self._by_name[text])
            else:
                named.update(self._by_last.get(text.rsplit(".", 1)[-1].lower(), ()))
        for word in _SNAKE.findall(question):
            named.update(self._by_last.get(word, ()))
        return named - self._syntax

    def example_for(self, hit: DocHit) -> int | None:
        """A unit whose code uses the hit's API, when the hit's own entry has no example.

        Same page first, then the shortest example: an entry like `os.remove` has none, but a
        tutorial or another entry shows the call.
        """
        unit = hit.unit
        if unit.kind != "api" or unit.examples:
            return None
        if self._examples_using is None:
            using: dict[str, list[int]] = defaultdict(list)
            for i, candidate in enumerate(self.units):
                for key in {k for block in candidate.examples for k in call_keys(block)}:
                    using[key].append(i)
            self._examples_using = dict(using)
        key = use_key(unit)
        found = [i for i in self._examples_using.get(key, ()) if i != hit.index]
        if not found:
            return None

        def readability(i: int) -> tuple[bool, bool, int]:
            # Same page first; then an interactive session that shows the call; then the shortest.
            blocks = [b for b in self.units[i].examples if key in call_keys(b)]
            best = min(blocks, key=lambda b: (not b.lstrip().startswith(">>>"), len(b)))
            return self.units[i].doc != unit.doc, not best.lstrip().startswith(">>>"), len(best)

        return min(found, key=readability)

    def module_units(self, question: str) -> set[int]:
        """Units of the modules a question names as words (`argparse`, `shutil`, `os.path`)."""
        named: set[int] = set()
        for word in re.findall(r"[a-z_][a-z0-9_.]*[a-z0-9_]", question.lower()):
            if word not in _ENGLISH_MODULE_NAMES:
                named.update(self._by_module.get(word, ()))
        return named

    def by_url(self, url: str) -> DocHit | None:
        """The unit an address points to (docs.python.org), as a hit of no particular score.

        An API entry's address names it; a section's names its first passage.
        """
        if self._by_url is None:
            found: dict[str, int] = {}
            for i in range(len(self.units)):
                address = self.hit(i, 0.0).url
                if address is not None:
                    found.setdefault(address, i)
            self._by_url = found
        index = self._by_url.get(url)
        return self.hit(index, 0.0) if index is not None else None

    def unit(self, index: int) -> DocUnit:
        """The unit at a position."""
        return self.units[index]

    def in_context(self, index: int, limit: int = PASSAGE_CONTEXT_CHARS) -> str:
        """A unit's text; a passage's with the passages either side of it in its section.

        Neighbours are the adjacent passages of the same section (two sections of a page can
        share an anchor), added alternately, before then after, while the whole stays within
        `limit` characters (the unit itself always whole).
        """
        unit = self.units[index]
        if unit.kind == "api":
            return unit.text

        def joins(i: int, size: int) -> bool:
            # An adjacent passage of the same section, with room for it.
            if not 0 <= i < len(self.units):
                return False
            other = self.units[i]
            return (
                other.kind != "api"
                and (other.doc, other.anchor, other.section)
                == (unit.doc, unit.anchor, unit.section)
                and size + len(other.text) <= limit
            )

        first = last = index
        size = len(unit.text)
        grew = True
        while grew:
            grew = False
            if joins(first - 1, size):
                first -= 1
                size += len(self.units[first].text)
                grew = True
            if joins(last + 1, size):
                last += 1
                size += len(self.units[last].text)
                grew = True
        return "\n\n".join(self.units[i].text for i in range(first, last + 1))

    def by_name(self, name: str) -> list[DocUnit]:
        """The API units of a qualified name or alias."""
        return [self.units[i] for i in self._by_name.get(name, ())]


def unfamiliar_units(
    units: Sequence[DocUnit], tasks: Sequence[dict[str, list[str]]], pack: Pack
) -> NDArray[np.float32]:
    """1 for an installed library's units outside every class and module its tasks name, else 0.

    A library's pack holds its whole importable API, internals included (`pandas.core.*`,
    `matplotlib.backends.*`: 1,149 of pandas' 3,540 units), and a small model finds some of
    them close to a question ("parse dates" and `pandas.core.arrays.period.parsing`). The
    curated tasks name the APIs people use: a unit that is no task's target and whose owner
    (its name without the last part: `pandas.DataFrame`, `matplotlib.pyplot`) owns no target
    is one few questions are about. The bundled documentation is all public, and a pack
    without tasks says nothing of the kind: none of their units is unfamiliar.
    """
    flags = np.zeros(len(units), dtype=np.float32)
    if pack.source == "bundled" or not tasks:
        return flags
    targets = {t for task in tasks for t in task["targets"]}
    owners = {t.rsplit(".", 1)[0] for t in targets}
    for i, unit in enumerate(units):
        names = (unit.name, *unit.aliases)
        if unit.kind == "api" and not any(
            n in targets or n in owners or n.rsplit(".", 1)[0] in owners for n in names
        ):
            flags[i] = 1.0
    return flags


def stemmed_words(text: str) -> list[str]:
    """Content words, crudely stemmed (plural and verb endings), for comparing phrasings.

    Not `language.words.stem`: its folding ("spaces" and "space" meet, with or without
    verb endings) lifts phrase matches the relevance floor was calibrated without, and the
    answers evaluation then answers one more train question wrongly.
    """
    stems = []
    for word in content_words(text):
        for suffix in ("ing", "ed", "es", "s"):
            if len(word) > len(suffix) + 2 and word.endswith(suffix):
                word = word[: -len(suffix)]
                break
        stems.append(word)
    return stems


def word_overlap(asked: frozenset[str], phrase: frozenset[str]) -> float:
    """How much of a question and a task phrase are the same words, 0 to 1 (Dice coefficient).

    Both sides count: a short phrase whose words all appear in a longer question ("date
    object") shares less with it than a phrase that says what the question says, so generic
    phrasings do not take over every question that mentions their words. "Python", "best way"
    and the like are left out on both sides.
    """
    asked, phrase = asked - _NOT_THE_TASK, phrase - _NOT_THE_TASK
    if not asked or not phrase:
        return 0.0
    return 2 * len(asked & phrase) / (len(asked) + len(phrase))


def call_keys(code: str) -> set[str]:
    """How code uses names.

    `os.remove(p)` uses `os.remove` and `.remove`; `x.remove(v)` uses `.remove` alone.
    """
    keys: set[str] = set()
    for dotted, attribute in _CALL.findall(code):
        if dotted:
            keys.add(dotted)
            if "." in dotted:
                keys.add("." + dotted.rsplit(".", 1)[-1])
        if attribute:
            keys.add("." + attribute)
    return keys


def use_key(unit: DocUnit) -> str:
    """The `call_keys` entry that shows a unit's API in use.

    Its qualified call for a module's function or class (`os.remove`), its name for a built-in
    (`max`), `.name` for a method or attribute.
    """
    if unit.directive in MEMBER_DIRECTIVES:
        return "." + unit.name.rsplit(".", 1)[-1]
    return unit.name


def read_index(folder: Path, *, verify: bool = True) -> DocsIndex:
    """Read a pack (see `format.py`; `codeweaver_corpus` writes them).

    Args:
        folder: The pack's folder.
        verify: Check every file against the manifest's SHA-256 first.

    Raises:
        IndexError_: a file is missing or differs from the manifest, the format is unknown, or
            the manifest does not say what the pack is.
    """
    try:
        manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise IndexError_(f"no readable documentation index in {folder}: {exc}") from exc
    if manifest.get("format") != FORMAT_VERSION:
        raise IndexError_(f"index format {manifest.get('format')} is not {FORMAT_VERSION}")
    try:
        pack = Pack.from_manifest(manifest)
    except KeyError as exc:
        raise IndexError_(f"{folder / MANIFEST_FILE} does not say {exc}") from exc
    files: dict[str, str] = manifest["files"]
    if verify:
        for name, expected in files.items():
            path = folder / name
            if not path.is_file() or sha256_of(path) != expected:
                raise IndexError_(f"{path} is missing or damaged (SHA-256 differs from manifest)")
    with gzip.open(folder / UNITS_FILE, "rt", encoding="utf-8") as handle:
        units = [DocUnit(**json.loads(line)) for line in handle]
    vectors = np.load(folder / VECTORS_FILE).astype(np.float32)
    tasks = json.loads((folder / TASKS_FILE).read_text(encoding="utf-8"))
    task_vectors = np.load(folder / TASK_VECTORS_FILE).astype(np.float32)
    if len(units) != len(vectors) or sum(len(t["phrases"]) for t in tasks) != len(task_vectors):
        raise IndexError_(f"{folder}: vectors and units do not line up")
    return DocsIndex(units, vectors, tasks, task_vectors, pack=pack)


def reembedded(index: DocsIndex, embed: EmbedTexts, model_id: str) -> DocsIndex:
    """The same index with vectors of another embedding model (minutes for the whole docs)."""
    vectors = np.asarray(embed([embedding_text(u) for u in index.units]), dtype=np.float32)
    task_vectors = np.asarray(embed(index.phrases), dtype=np.float32).reshape(
        len(index.phrases), vectors.shape[1]
    )
    return DocsIndex(
        index.units,
        vectors,
        index.tasks,
        task_vectors,
        pack=replace(index.pack, embedding_model=model_id),
    )


_LOADED: dict[Path, DocsIndex] = {}
_LOCK = threading.Lock()


def load_index(folder: Path = BUNDLED_PACK) -> DocsIndex:
    """The pack in `folder` (default: the bundled one), read once per process."""
    with _LOCK:
        if folder not in _LOADED:
            _LOADED[folder] = read_index(folder)
        return _LOADED[folder]
