"""The offline engine's answer: the API or passage that answers, quoted and cited, or a decline.

Nothing here is invented: every cited sentence and code block is quoted from the evidence item
its `[n]` points to, which is why an offline answer passes the grounding check. What matters is
choosing what to quote:

- The best evidence decides, and only when it is relevant enough (`RELEVANCE_FLOOR`, calibrated
  on real Stack Overflow questions by `codeweaver eval answers`). Below the floor, or for a
  question about a technology the corpus does not cover (`scope.py`), the engine declines
  (`decline.py`): an honest "I could not find it" beats a confident quote that does not answer.
- An API entry leads with the API as code (its signature), then its description, an example
  that uses it (from its entry, else from another item of the evidence), and at most one close
  alternative, itself explained.
- A passage (a tutorial or FAQ section, a Stack Overflow answer, the user's own documents) gives
  its sentences that best match the question and its most relevant code block.
- An error or traceback gets the debugging layout: what the exception means, then the fix.
- A question that names a third-party library (`libraries.py`) is answered from that library's
  pack alone, or declined with what the user can do: read it with `codeweaver ingest` when it
  is installed, install it when it is not. Every answer says which packs and versions it quotes.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from codeweaver_engine.decline import MissingLibrary, decline
from codeweaver_engine.language.direction import (
    converts_the_other_way,
    opposed_api,
    opposed_text,
)
from codeweaver_engine.language.injection import addresses_assistant
from codeweaver_engine.language.korean import english_gloss
from codeweaver_engine.language.prose import is_code_line
from codeweaver_engine.language.scope_words import Fit, fit, scopes
from codeweaver_engine.language.words import (
    collapse_whitespace,
    content_words,
    split_sentences,
    stem,
)
from codeweaver_engine.libraries import (
    Environment,
    Library,
    libraries_named,
    packs_for,
    same_version,
    version_named,
    without_names,
)
from codeweaver_engine.markup import default_role_names, grid_table_rows, rst_roles
from codeweaver_engine.packs import DOCS_VERSION
from codeweaver_engine.packs.format import Pack
from codeweaver_engine.packs.retrieval import is_reference
from codeweaver_engine.scope import scope_of
from codeweaver_engine.strings import texts
from codeweaver_runtime import Embedder
from codeweaver_schema import Analysis, Answer, Citation, ErrorRecord, Evidence, LocalMeta
from codeweaver_schema.render import escape_markdown

RELEVANCE_FLOOR = 0.80
"""Relevance below which the best evidence is not quoted as an answer: the engine declines.

The lowest floor whose wrong rate on the questions the project has seen stays near half of what
a user can bear, since questions it has not seen go wrong about twice as often at any floor.
Read it off the curve `codeweaver eval answers --floors` prints; docs/ANSWERS.md keeps the
figures and how they moved."""
GLOSSED_SCORE_LOSS = 0.07
"""How much lower a question read through the Korean glossary scores than its English original
for the same answer (the median over Korean/English pairs of one question; docs/ANSWERS.md). The
English wording is rebuilt word by word, so it matches the task phrasings less closely: a
glossed question's best evidence is held to the floor on the English scale, `floor - 0.07`."""
LIBRARY_FLOOR_OFFSET = 0.02
"""How much higher than `RELEVANCE_FLOOR` an answer from an installed library's pack must score.

A library's pack scores on its own scale (its name left out of the question, its task index its
own), and its questions go wrong at a higher score than the standard library's. Chosen by
cross-validation as the standard library's floor was (`scripts/library_floor_cv.py`: the lowest
floor whose wrong rate is at most 0.12 on four fifths of the third-party dev questions, scored on
the fifth left out, 5 folds x 20 shuffles), with the answer's coverage weighed in
(`COVERAGE_WEIGHT`): 0.77 to 0.84, 0.820 on average since answers quote neither a list run into
one paragraph nor the headings and captions between an entry's examples; 0.829 before that,
0.02 before coverage was."""
ALTERNATIVE_MARGIN = 0.15
"""Another API is offered only when its relevance is this close to the first's.

Many questions need two APIs together ("a string of numbers to a list of ints": `str.split`,
then `map` and `int`); past this margin, offering more stops adding what questions need
(docs/ANSWERS.md)."""
MAX_ALTERNATIVES = 2
"""How many other APIs an answer offers at most (each one line: signature and first sentence)."""
REVERSED_TASK_PENALTY = 0.2
"""Evidence found through a task converting the other way ranks this much lower; so does an API
that does the question's opposite (`str.removeprefix` for "remove ... from the end of a string",
`datetime.fromtimestamp` for "a datetime to a Unix timestamp": `language.direction`)."""
CONTRADICTED_SCOPE_PENALTY = 0.2
"""An API whose documentation contradicts a constraint the question states ranks this much lower
(`tempfile.mkdtemp`, "the user ... is responsible for deleting", for a directory "deleted
automatically"; `language.scope_words`)."""
MET_SCOPE_BONUS = 0.05
"""An API whose documentation says it does what the question's scope words ask ("trailing",
"preserving order", "in one expression") ranks this much higher: among candidates about as
relevant, the one that meets the constraint leads. Its sentences that say so are quoted first."""
SCOPE_SENTENCE_WEIGHT = 0.3
"""How much more a sentence counts when it says the entry meets the question's constraint."""
MAX_SENTENCES = 3
LEAD_IN_WEIGHT = 1.0
"""How much the prose that introduces an example counts when choosing the example."""
OPPOSED_EXAMPLE_PENALTY = 1.0
"""Taken from an example whose introducing prose does the opposite side of the question
(`opposed_text`): shown only when every example does."""
LEAD_IN_CHARS = 300
MAX_EXAMPLE_LINES = 14
UNEXPLAINED_WEIGHT = 0.3
"""How much a sentence or example counts for the question's words the answer has not yet
explained: "sort a list of dicts by a key" is answered by `sorted` and its first sentence as far
as "sort" goes; the sentence about *key* is the one that says the rest."""

_FENCED = re.compile(r"```[^\n]*\n(.*?)```", re.DOTALL)
_TABLE_BORDER = re.compile(r"^\s*[+|]?[-=+]{3,}[-=+|\s]*$")
_SIMPLE_TABLE_ROW = re.compile(r"^(\S.*?\S) {3,}(\S.*)$")
_DOUBLE_BACKTICK = re.compile(r"``([^`]+)``")
_FOOTNOTE = re.compile(r"\(\d+\)")
_WORD = re.compile(r"[A-Za-z\uac00-\ud7a3]{2,}")
_CONTINUES = re.compile(
    r"^(?:This|These|That|Those|Such|Otherwise|However|Then|Here|If (?:set|so|not|omitted)"
    r"|In (?:this|that|which|either) case)\b"
)
"""Openings of a sentence that leans on the one before it: quoted alone it misleads."""
_VERSION_NOTE = re.compile(r"^(New in version|Changed in version|Deprecated since version)")
_SIGNATURE_BLOCK = re.compile(r"^[A-Za-z_][\w.]*\((?:.*,)?\s*[*/]\s*(?:,.*)?\)$", re.DOTALL)
"""A call form with a bare `*` or `/` among its arguments: a signature (matplotlib's "Call
signature::" blocks), which no call can be."""


def _is_signature(block: str) -> bool:
    """Whether a code block is a signature written out, not code that runs (`_SIGNATURE_BLOCK`)."""
    return bool(_SIGNATURE_BLOCK.match(" ".join(block.split())))


_FAILS = re.compile(r"^\s*Traceback \(most recent call last\)", re.MULTILINE)
"""An example whose output is an exception: it shows the call failing."""
_ASKS_ABOUT_FAILURE = re.compile(
    r"\b(?:errors?|exceptions?|raises?|raising|fails?|failing|traceback)\b", re.IGNORECASE
)
"""A question about how a call fails (these words, or an exception's name: `_EXCEPTION_NAME`):
its failing examples are what it asks to see (a Korean question's glossed words included: 오류
reads "error")."""
_EXCEPTION_NAME = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt))\b")


BUNDLED_PACK_NAME = "python"
"""The bundled pack's name: what its units' evidence says they quote."""


def packs_quoted(language: str, evidence: Sequence[Evidence]) -> str:
    """The packs and versions evidence quotes, as an answer names them.

    "the Python 3.11 documentation", "pandas 3.1.1, installed"; "the sources cited" for
    evidence of no pack (the web, ingested documents).
    """
    said = texts(language, "answer")
    named: list[str] = []
    for item in evidence:
        meta = item.meta
        if not isinstance(meta, LocalMeta) or meta.pack is None:
            label = said["sources_cited"]
        elif meta.pack == BUNDLED_PACK_NAME:
            label = said["bundled_pack"].format(title="Python", version=meta.version)
        else:
            label = said["installed_pack"].format(title=meta.pack, version=meta.version)
        if label not in named:
            named.append(label)
    return "; ".join(named) or said["sources_cited"]


def offline_note(
    language: str, evidence: list[Evidence] | None = None, *, running: str | None = None
) -> str:
    """The line that says the answer was quoted, not generated, and from which packs.

    Args:
        language: The answer's language.
        evidence: What the answer cites: the packs and versions it quotes are named, and a
            note on the documentation's version is added when it cites the bundled
            documentation and `running` is another version.
        running: The running Python's `major.minor`; default: this interpreter's.
    """
    said = texts(language, "answer")
    note = said["offline_note"].format(packs=packs_quoted(language, evidence or []))
    running = running or f"{sys.version_info.major}.{sys.version_info.minor}"
    if evidence and running != DOCS_VERSION and any(is_reference(e) for e in evidence):
        note += "\n" + said["docs_note"].format(docs=DOCS_VERSION, running=running)
    return note


@dataclass(frozen=True)
class Libraries:
    """What the engine knows of the user's libraries, for questions that name one.

    Attributes:
        packs: The installed packs in use (`codeweaver ingest --python`).
        environment: Reads the user's active environment (the interpreter `codeweaver ingest
            --python` defaults to, and what it has installed); blocking, so it runs off the
            event loop, and only for a question about a library that has no pack. None: unknown.
    """

    packs: Sequence[Pack] = ()
    environment: Callable[[], Environment | None] | None = None


@dataclass
class _Citations:
    evidence: list[Evidence]
    numbers: dict[int, int] = field(default_factory=dict)

    def cite(self, item: int) -> str:
        if item not in self.numbers:
            self.numbers[item] = len(self.numbers) + 1
        return f"[{self.numbers[item]}]"

    def build(self) -> list[Citation]:
        ordered = sorted(self.numbers.items(), key=lambda kv: kv[1])
        return [Citation.of(n, self.evidence[item]) for item, n in ordered]

    def cited(self) -> list[Evidence]:
        return [self.evidence[item] for item in self.numbers]


# --- reading evidence ------------------------------------------------------------------------


def _table_rows(lines: list[str]) -> list[str]:
    """Grid-table rows as 'cell — cell', continuation lines folded into the row above."""
    rows = grid_table_rows(lines)
    return [" — ".join(c for c in row if c and not _FOOTNOTE.fullmatch(c)) for row in rows]


def plain(text: str) -> str:
    """Text with reST roles and grid tables reduced to readable prose; code untouched."""
    out: list[str] = []
    table: list[str] = []
    for line in text.splitlines():
        if _TABLE_BORDER.match(line):
            continue
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            table.append(line)
            continue
        if table:
            out += _table_rows(table)
            table = []
        row = _SIMPLE_TABLE_ROW.match(line)
        if row and not is_code_line(line):
            # A row of a simple table ("`'a'`   open for writing, appending ..."): its own
            # statement, "cell — cell", not a run-on with the rows around it.
            out += ["", f"{row.group(1)} — {re.sub(' {3,}', ' — ', row.group(2))}", ""]
            continue
        out.append(line)
    out += _table_rows(table)
    # Fenced code stays as it is: its ``` must not read as a ``literal``.
    parts = re.split(r"(```[^\n]*\n.*?```)", "\n".join(out), flags=re.DOTALL)
    return "".join(
        part if i % 2 else _DOUBLE_BACKTICK.sub(r"`\1`", default_role_names(rst_roles(part)))
        for i, part in enumerate(parts)
    )


def _looks_like_code(lines: list[str]) -> bool:
    # Indentation alone also marks definition lists and quotes in reST: code has code syntax on
    # most lines, and no line of it reads like a sentence.
    coded = sum(is_code_line(line) for line in lines)
    prose = sum(len(line.split()) > 6 and not is_code_line(line) for line in lines)
    return coded / len(lines) >= 0.6 and prose == 0


def code_blocks(text: str) -> list[str]:
    """Fenced blocks, doctest sessions, and indented blocks that read as code, not prose."""
    blocks = [b.strip("\n") for b in _FENCED.findall(text)]
    rest = _FENCED.sub("\n", text)
    current: list[str] = []
    for line in rest.splitlines():
        stripped = line.strip()
        if stripped.startswith(">>>") or (current and stripped and not stripped.startswith("|")):
            current.append(stripped)
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    run: list[str] = []

    def flush() -> None:
        body = [ln for ln in run if ln.strip()]
        if body and not any(">>>" in ln for ln in body) and _looks_like_code(body):
            indent = min(len(ln) - len(ln.lstrip()) for ln in body)
            blocks.append("\n".join(ln[indent:] for ln in run).strip("\n"))
        run.clear()

    for line in rest.splitlines():
        if line.startswith(("   ", "\t")) and line.strip():
            run.append(line)
        elif not line.strip() and run:
            run.append("")
        else:
            flush()
    flush()
    return [b for b in blocks if 0 < len(b) <= 1200]


def _prose(text: str) -> str:
    without_fences = _FENCED.sub("\n\n", text)
    kept = [
        ln
        for ln in without_fences.splitlines()
        if not ln.lstrip().startswith((">>>", "...")) and not ln.startswith(("    ", "\t"))
    ]
    return "\n".join(kept)


_BULLET_ITEM = re.compile(r"(?:^|\n)[-*+] (?=\S)")
"""Where an item of a bullet list starts (`- item` on a line of its own), its marker with it."""


def sentences_of(evidence: Evidence) -> list[str]:
    """The quotable sentences of an item: prose, not code, version notes or injected orders."""
    found: list[str] = []
    # An item of a bullet list is a statement of its own, not the end of the sentence before.
    items = _BULLET_ITEM.split(_prose(plain(evidence.content)))
    for sentence in (s for item in items for s in split_sentences(item)):
        flat = collapse_whitespace(sentence)
        if found and _CONTINUES.match(flat) and len(f"{found[-1]} {flat}".split()) <= 80:
            # "*reverse* is a boolean value. If set to True, ..." is one statement.
            found[-1] = f"{found[-1]} {flat}"
            continue
        if (
            len(_WORD.findall(flat)) >= 3
            and len(flat.split()) <= 80
            and not flat.startswith("```")
            and not _VERSION_NOTE.match(flat)
            and not addresses_assistant(flat)
        ):
            found.append(flat)
    return found


def _api_parts(evidence: Evidence) -> tuple[list[str], str]:
    """An API entry's signatures and the description after them."""
    match = re.match(r"```\n(.*?)\n```\n*(.*)", evidence.content, flags=re.DOTALL)
    if not match:
        return [], evidence.content
    return match.group(1).splitlines(), match.group(2)


def _short_name(api: str) -> str:
    return api.rsplit(".", 1)[-1]


_BUILTIN_TYPES = frozenset(
    {"str", "bytes", "bytearray", "list", "dict", "set", "frozenset", "tuple", "int", "float"}
    | {"complex", "memoryview", "object", "range", "type"}
)


def _call_form(evidence: Evidence, api: str) -> str:
    """How code uses the API: `os.remove` for a module's function, `.strftime` for a method.

    An entry's signature names a method with its class (`datetime.strftime(format)`), not with
    the module that qualifies the API's name; built-in types' methods read `str.replace(...)`.
    """
    signatures, _ = _api_parts(evidence)
    called = signatures[0].split("(", 1)[0].strip() if signatures else api
    owner = api.rsplit(".", 1)[0] if "." in api else ""
    # An installed library's method is named in full (`pandas.DataFrame.dropna(...)`) and
    # called on an instance (`df.dropna()`): its owner is a class, by its capital.
    if called != api or owner in _BUILTIN_TYPES or _short_name(owner)[:1].isupper():
        return "." + _short_name(api)
    return api


_MODULE_CHAIN = re.compile(r"([A-Za-z_][\w.]*)$")


def _uses(block: str, form: str) -> bool:
    """Whether a code block uses an API in its call form (see `_call_form`).

    A method's form (`.join`) is not a module's function of the same name: `os.path.join(...)`
    does not use `str.join`.
    """
    if form.startswith("."):
        for match in re.finditer(rf"{re.escape(form)}\b", block):
            owner = _MODULE_CHAIN.search(block[: match.start()])
            if owner is None or owner.group(1).split(".")[0] not in sys.stdlib_module_names:
                return True
        return False
    short = re.escape(_short_name(form))
    qualified = rf"(?<![\w.]){re.escape(form)}\b"
    bare = rf"(?<![\w.]){short}\s*\(" if "." not in form else qualified
    return re.search(f"{qualified}|{bare}", block) is not None


def _example(block: str) -> str:
    lines = block.splitlines()
    if len(lines) > MAX_EXAMPLE_LINES:
        lines = [*lines[:MAX_EXAMPLE_LINES], "..."]
    return "\n".join(lines)


# --- scoring ---------------------------------------------------------------------------------


def _relevance(evidence: Evidence) -> float:
    return evidence.rerank_score if evidence.rerank_score is not None else evidence.score


def _direction_penalty(question: str, evidence: Evidence) -> float:
    """How far evidence that goes the question's opposite way ranks down.

    "Convert unicode string to byte string" matches the task "convert a byte string to a
    unicode string" (`bytes.decode`) about as well as "convert a unicode string to bytes"
    (`str.encode`): the words are the same, only their order tells the answer. An API can also
    do the opposite by itself: "remove a substring from the end of a string" is not
    `str.removeprefix`, whatever task found it.
    """
    if not isinstance(evidence.meta, LocalMeta):
        return 0.0
    task, api = evidence.meta.task, evidence.meta.api
    if task and converts_the_other_way(question, task, kinds_swap=True):
        return REVERSED_TASK_PENALTY
    return REVERSED_TASK_PENALTY if api and opposed_api(question, api) else 0.0


def _scope_fit(question: str, evidence: Evidence) -> Fit:
    """How an API entry's documentation answers the question's scope words and constraints."""
    if not (isinstance(evidence.meta, LocalMeta) and evidence.meta.api):
        return Fit(frozenset(), frozenset())
    return fit(question, plain(_api_parts(evidence)[1]))


def _scope_adjustment(question: str, evidence: Evidence) -> float:
    """Up for an API that meets the question's scope words, down for one that contradicts them.

    See `MET_SCOPE_BONUS` and `CONTRADICTED_SCOPE_PENALTY`.
    """
    found = _scope_fit(question, evidence)
    if found.contradicts:
        return -CONTRADICTED_SCOPE_PENALTY
    return MET_SCOPE_BONUS if found.meets else 0.0


def _ranking(question: str, evidence: Evidence) -> float:
    """What orders the evidence: relevance, less a wrong direction, with the scope's fit."""
    return (
        _relevance(evidence)
        - _direction_penalty(question, evidence)
        + _scope_adjustment(question, evidence)
    )


def _stems(text: str) -> set[str]:
    return {stem(word) for word in content_words(text)}


async def _rank_texts(
    basis: str, texts: list[str], embedder: Embedder | None, *, explained: str = ""
) -> list[float]:
    """Similarity of each text to the question: embedding cosine plus shared words.

    Args:
        basis: The question.
        texts: What to rank.
        embedder: Ranks by meaning; without it, by shared words alone.
        explained: What the answer already says (the API's name, its first sentence): the
            question's words it leaves unexplained count `UNEXPLAINED_WEIGHT` more.
    """
    if not texts:
        return []
    asked = _stems(basis)
    unexplained = asked - _stems(explained) if explained else set()
    found = [_stems(t) for t in texts]
    overlap = [
        0.25 * len(asked & words) / max(len(asked), 1)
        + UNEXPLAINED_WEIGHT * len(unexplained & words) / max(len(unexplained), 1)
        for words in found
    ]
    if embedder is None:
        return overlap
    vectors = await embedder.embed([basis, *(t[:600] for t in texts)])
    sims = np.asarray(vectors[1:] @ vectors[0], dtype=np.float64)
    return [float(s) + o for s, o in zip(sims, overlap, strict=True)]


async def _best_sentences(
    basis: str, sentences: list[str], embedder: Embedder | None, k: int, *, explained: str = ""
) -> list[str]:
    """The k sentences that match the question best, in their original order.

    A sentence that says the entry does what the question's scope words or constraints ask
    ("`'x'` — open for exclusive creation, failing if the file already exists" for a file
    created "without overwriting" one) counts `SCOPE_SENTENCE_WEIGHT` more.
    """
    scores = await _rank_texts(basis, sentences, embedder, explained=explained)
    if scopes(basis):
        scores = [
            score + SCOPE_SENTENCE_WEIGHT * bool(fit(basis, sentence).met)
            for score, sentence in zip(scores, sentences, strict=True)
        ]
    best = sorted(range(len(sentences)), key=lambda i: -scores[i])[:k]
    return [sentences[i] for i in sorted(best)]


# --- composing -------------------------------------------------------------------------------


@dataclass
class _Draft:
    basis: str
    language: str
    evidence: list[Evidence]
    embedder: Embedder | None
    cites: _Citations

    @property
    def said(self) -> Mapping[str, str]:
        """The answer's headings in the user's language."""
        return texts(self.language, "answer")


def _api_evidence(evidence: list[Evidence]) -> list[tuple[int, str]]:
    return [
        (i, e.meta.api)
        for i, e in enumerate(evidence)
        if isinstance(e.meta, LocalMeta) and e.meta.api
    ]


async def _compose_api(draft: _Draft, item: int, api: str) -> list[str]:
    said, evidence = draft.said, draft.evidence
    primary = evidence[item]
    signatures, description = _api_parts(primary)
    mark = draft.cites.cite(item)
    prose = _without_captions(_LISTS.sub("", description))
    sentences = [s for s in sentences_of(primary.model_copy(update={"content": prose}))]
    lead = sentences[:1]
    more = await _best_sentences(
        draft.basis,
        sentences[1:],
        draft.embedder,
        MAX_SENTENCES - 1,
        explained=" ".join([api.replace(".", " "), *lead]),
    )
    out = [f"**{said['use']} `{api}`** {mark}"]
    if signatures:
        out += ["", "```python", *signatures[:3], "```"]
    if lead or more:
        out += ["", " ".join([*lead, *more]) + f" {mark}"]
    explained = " ".join([api.replace(".", " "), *lead, *more])
    keywords: list[str] = []
    values: list[str | None] = []
    for _ in range(MAX_PARAMETERS):
        parameter = await _parameter_for(draft, description, explained=explained, shown=keywords)
        if parameter is None:
            break
        name, kind, text = parameter
        value = switched_value(name, kind, description, signatures)
        if name == "axis":
            value = axis_asked(draft.basis)
        # A keyword with the value the question needs is shown as the call to write.
        call = f"{_short_name(api)}({name}={value})" if value else f"{name}="
        shown = f"`{call}`" + (f" ({kind})" if kind else "")
        out += ["", f"{shown} — {text} {mark}"]
        keywords.append(name)
        values.append(value)
        # A second keyword only for what the first leaves unexplained ("send a file and JSON
        # in one request": `files=` and `json=`).
        spelled = " ".join(_spelled_by(name, _stems(draft.basis)))
        explained = f"{explained} {name.replace('_', ' ')} {spelled} {text}"
    lookup = _lookup_asked(draft, api)
    if lookup is not None:
        where, name = lookup
        # Cited with the query's entry too: the call is its, the keyword the lookup's.
        written = f"`{_short_name(api)}(<field>__{name}=...)`"
        out += ["", f"{written} {mark}{draft.cites.cite(where)}"]
    example = await _example_for(
        draft, item, api, keyword=(keywords[0], values[0]) if keywords else None
    )
    if example is not None:
        where, block = example
        out += ["", f"**{said['example']}** {draft.cites.cite(where)}", "```python", block, "```"]
    return out + _also(draft, item, api, shown=lookup[0] if lookup else None)


def _also(draft: _Draft, item: int, api: str | None, *, shown: int | None = None) -> list[str]:
    """One line for each other API about as relevant as the answer (`_alternatives`).

    A field lookup reads as the keyword a query takes (`<field>__gt=...`); one the answer
    already wrote (`shown`) is not listed again.
    """
    said, evidence = draft.said, draft.evidence
    out: list[str] = []
    for other, other_api in _alternatives(evidence, item, api, draft.basis):
        if other == shown:
            continue
        other_signatures, other_description = _api_parts(evidence[other])
        lookup = field_lookup(other_api, evidence[other].content)
        if lookup is not None:
            line = f"**{said['also']}:** `<field>__{lookup}=...` — `{other_api}`"
            out += ["", f"{line} {draft.cites.cite(other)}"]
            continue
        summary = sentences_of(evidence[other].model_copy(update={"content": other_description}))
        line = f"**{said['also']}:** `{other_signatures[0] if other_signatures else other_api}`"
        if summary:
            line += f" — {summary[0]}"
        out += ["", f"{line} {draft.cites.cite(other)}"]
    return out


_LOOKUP_NAME = re.compile(r'`lookup_name = "(\w+)"`')
"""How an installed pack's unit quotes the name a class sets for itself in a query."""
FIELD_LOOKUPS = re.compile(
    r"^django\.db\.models\.(?:lookups\.\w+|functions\.(?:datetime\.)?(?:Extract\w+|Trunc(?:Date|Time)))$"
)
"""Django's lookups and transforms that every model field of their kind takes by default: those
of `django.db.models.lookups` (`__lte`, `__icontains`, `__in`), the date parts
(`ExtractHour`: `__hour`) and `TruncDate` and `TruncTime` (`__date`, `__time`). Other classes
that name themselves (`Lower`: "lower") work only once registered on a field, so no answer
writes them after one."""
_QUERY_METHODS = re.compile(r"\.(?:QuerySet|Manager)\.(?:filter|exclude|get)$")
"""The queries a field lookup is written in (`Entry.objects.filter(pub_date__year=2006)`)."""
_IN_A_NAME = re.compile(r"[A-Z][a-z]+|[A-Z]+(?![a-z])")


def field_lookup(api: str, content: str) -> str | None:
    """The keyword suffix a field lookup class is written as (`lte`), or None for other APIs."""
    found = _LOOKUP_NAME.search(content)
    return found[1] if found and FIELD_LOOKUPS.match(api) else None


def _lookup_asked(draft: _Draft, api: str) -> tuple[int, str] | None:
    """The field lookup a query answer writes (its evidence item and name), if one is asked.

    "A less than or equal to filter" asks for `LessThanOrEqual` (`__lte`): every word of the
    class's name, its kind left out (`ExtractHour` is "hour"), or its lookup name, is a word of
    the question; the lookup naming the most of them wins.
    """
    if not _QUERY_METHODS.search(api):
        return None
    asked = _stems(draft.basis)
    best: tuple[int, int, str] | None = None
    for i, other in _api_evidence(draft.evidence):
        name = field_lookup(other, draft.evidence[i].content)
        if name is None:
            continue
        parts = [w for w in _IN_A_NAME.findall(_short_name(other)) if w not in ("Extract", "Trunc")]
        words = _stems(" ".join(parts))
        if words and words <= asked:
            matched = len(words)
        elif stem(name) in asked or (name == "in" and _MEMBERSHIP.search(draft.basis)):
            matched = 1
        else:
            continue
        span = rf"\b{_RECENT}\s+(?:\w+\s+)?{re.escape(name)}s?\b"
        if re.search(span, draft.basis, re.IGNORECASE):
            continue  # "in the last month" is a span of time, not the month's number
        if best is None or matched > best[0]:
            best = (matched, i, name)
    return (best[1], best[2]) if best else None


_MEMBERSHIP = re.compile(
    r"\b(?:is|are|be|being)\s+in\s+(?:an?\s+|the\s+|my\s+|given\s+)?(?:list|tuple|set|array)"
    r"|\bin\s*\[|\bone\s+of\s+(?:several|many|the|a|some|multiple)\b|\bamong\b"
    r"|\bin\s+(?:an?\s+|the\s+|my\s+|given\s+)?(?:list|tuple|set|array)\s+of\s+\w+",
    re.IGNORECASE,
)
"""How a question asks for `In` (`__in`), whose name is a word every question has: a value "is in
a list", "in a list of ids", "in [1, 2]", "one of several", "among"."""
_RECENT = r"(?:last|past|previous|next|this|current|coming|recent)"
"""Words that make a date part a span of time ("the last month", "this year"): `__month=` filters
by the month's number, which is not what "created in the last month" asks."""


_LISTS = re.compile(
    r"\*\*(?:Parameters|Other parameters|Returns|Yields|Raises|Warns|See also)\*\*\n\n.*?"
    r"(?=\n\n\*\*|\Z)",
    re.DOTALL,
)
"""The lists of an installed library's entry (its keywords, what it returns and raises, the
APIs it points to): read by `parameters` or left to the related APIs an answer lists, not
quoted as the entry's prose."""
_EXAMPLES = re.compile(r"\*\*Examples?\*\*\n")
"""Where an installed library's Examples section starts (it runs to the end of the entry)."""
_STATEMENT_END = re.compile(r"[.!?]\s*$")


def _without_captions(description: str) -> str:
    """An entry's text without the headings and captions between its examples.

    The Examples section's code is shown as the example; its sentences ("Drop the rows where
    at least one element is missing.") say what the API does, but its headings and captions
    ("**Getting values**", "Single label for row and column") are no statements, and run into
    the sentence before them when quoted; a caption ending in a colon ("Indexes of the maximal
    elements of a N-dimensional array:") introduces its example and dangles quoted alone.
    """
    found = _EXAMPLES.search(description)
    if found is None:
        return description
    examples = _FENCED.sub("\n\n", description[found.end() :])
    kept = [
        line
        for line in examples.splitlines()
        if _STATEMENT_END.search(line) and not line.lstrip().startswith(("**", ">>>", "..."))
    ]
    return description[: found.start()] + "\n\n".join(kept)


_PARAMETER = re.compile(
    r"^- `(\w+)`(?: \(([^)\n]*(?:\([^)\n]*\)[^)\n]*)*)\))?: (.+)$", re.MULTILINE
)
_PARAMETERS = re.compile(
    r"\*\*(?:Parameters|Other parameters)\*\*\n\n(.*?)(?=\n\n\*\*|\Z)", re.DOTALL
)
_GENERIC_WORDS = ("python", "python3", "py", "way", "best", "simple", "easy", "possible")
"""Words a question is asked with, not what it asks (`packs.index._NOT_THE_TASK` for phrasings)."""
_ASKED_HOW = frozenset(
    stem(word)
    for word in (*_GENERIC_WORDS, "pythonic", "easiest", "simplest", "fastest", "efficient")
)
"""The stems of the words a question is asked with, which no answer needs to speak of."""
NAMED_PARAMETER_BONUS = 0.2
"""Added, times the share of its name they spell (`_name_coverage`), to a keyword whose name
spells words of the question (`_spelled_by`): asked to "change the legend size", `fontsize=`
says so by its name, `mode=` only in its description ("the legend's size")."""
MAX_PARAMETERS = 2
"""Keywords an answer explains at most: a second one only for words the first leaves."""
PARAMETER_WORDS = 40
"""Words of a parameter's description an answer quotes at most."""
_RETIRED = re.compile(
    r"\b(?:deprecated|is (?:now )?ignored|has no effect|will have no\s+impact|no longer used)\b",
    re.IGNORECASE,
)
"""A keyword whose own description says it is deprecated or does nothing is never recommended:
pandas' `copy=` ("This keyword is now ignored; changing its value will have no impact") once
answered "change the column names" for the word "changing"."""


def parameters(description: str) -> list[tuple[str, str, str]]:
    """(name, type and default, description) of each keyword an API entry's docstring lists.

    Installed libraries' entries list their parameters (`- `verify`: (optional) Either a
    boolean, ...`, under **Parameters** or **Other parameters**); `*args` and `**kwargs` are no
    keyword a caller passes by name.
    """
    found = []
    for section in _PARAMETERS.findall(description):
        for name, kind, text in _PARAMETER.findall(section):
            if name not in ("self", "cls", "args", "kwargs"):
                found.append((name, collapse_whitespace(plain(kind)), collapse_whitespace(text)))
    return found


_BOOLEAN = re.compile(r"^(?:\(optional\)\s*)?(?:either a )?boolean\b", re.IGNORECASE)


def switched_value(name: str, kind: str, description: str, signatures: Sequence[str]) -> str | None:
    """`False` for a boolean keyword that defaults to True, `True` for one that defaults to False.

    A question answered by a boolean keyword asks for what its default does not do ("disable
    the certificate check": `verify=False`; "write the csv without the index": `index=False`).
    The default is read where libraries state it: the type (`bool, default True`), the
    description (`Defaults to True.`) or the signature (`index=True`); None when the keyword
    is not a boolean or its default is not stated.
    """
    entry = next((text for n, k, text in parameters(description) if n == name and k == kind), "")
    if "bool" not in kind.lower() and not _BOOLEAN.match(entry):
        return None
    for pattern, text in (
        (r"\bdefault:?\s*(True|False)\b", kind),
        (r"\bDefaults? (?:to|is)\s*`*(True|False)\b", entry),
        (rf"\b{re.escape(name)}=(True|False)\b", " ".join(signatures)),
    ):
        found = re.search(pattern, text)
        if found:
            return "False" if found[1] == "True" else "True"
    return None


async def _parameter_for(
    draft: _Draft, description: str, *, explained: str, shown: Sequence[str] = ()
) -> tuple[str, str, str] | None:
    """The keyword argument of the API that does what the question asks beyond the API itself.

    Library questions are often answered by one argument of a well-known call ("send cookies
    with a post request": `cookies=`; "change the legend's font size": `fontsize=`; "skip the
    certificate check": `verify=`). A parameter is shown when its name or description holds a
    word of the question that the API's name and the sentences quoted leave unexplained, the
    best such by meaning; none otherwise. Keywords in `shown` are already explained.
    """
    listed = [
        entry
        for entry in parameters(description)
        if not _RETIRED.search(entry[2]) and entry[0] not in shown
    ]
    if not listed:
        return None
    if "axis" not in shown and axis_asked(draft.basis) is not None:
        # "Per row" is the axis, whatever words its description shares with the question.
        axis = next((entry for entry in listed if entry[0] == "axis"), None)
        # pandas' and NumPy's axis, not a plot's (`grid(axis="y")`).
        if axis is not None and _ARRAY_AXIS.search(f"{axis[1]} {axis[2]}"):
            return axis[0], axis[1], _quoted(axis[2])
    unexplained = _stems(draft.basis) - _stems(explained) - _stems(" ".join(_GENERIC_WORDS))
    spelled = [_spelled_by(name, unexplained) for name, _, _ in listed]
    texts = [
        " ".join([name.replace("_", " "), *words]) + f": {text}"
        for (name, _, text), words in zip(listed, spelled, strict=True)
    ]
    # A second keyword says more than a shared word: its name spells one ("files" for "send a
    # file"), or its description holds two ("the server's TLS certificate" for "skip the
    # certificate check"); "the bounding box can be changed" is no answer to "change the
    # legend's font size".
    needed = 1 if not shown else 2
    relevant = [
        i for i, t in enumerate(texts) if spelled[i] or len(unexplained & _stems(t)) >= needed
    ]
    if not relevant:
        return None
    scores = await _rank_texts(
        draft.basis, [texts[i] for i in relevant], draft.embedder, explained=explained
    )
    best = max(
        range(len(relevant)),
        key=lambda j: (
            scores[j]
            + NAMED_PARAMETER_BONUS * _name_coverage(listed[relevant[j]][0], spelled[relevant[j]])
        ),
    )
    name, kind, text = listed[relevant[best]]
    return name, kind, _quoted(text)


def _quoted(text: str) -> str:
    words = plain(text).split()
    return " ".join(words[:PARAMETER_WORDS]) + (" ..." if len(words) > PARAMETER_WORDS else "")


_EACH = r"(?:per|each|every|by|(?:for|in|of|within|along) (?:each|every|the))"
_OTHER_WAYS = {"row": "column", "column": "row"}
_AXIS_ASKED = {
    value: re.compile(
        rf"\b{_EACH}\s+{line}s?\b|\b{line}[- ]?wise\b"
        rf"|\b{line}\s+(?:mean|average|sum|total|max(?:imum)?|min(?:imum)?|median)s?\b"
        rf"|\bacross (?:the |all )?(?:the )?{_OTHER_WAYS[line]}s\b|{extra}",
        re.IGNORECASE,
    )
    for value, line, extra in (
        ("1", "row", r"\bhorizontally\b|\bside by side\b|\bnext to each other\b"),
        ("0", "column", r"\bvertically\b|\bon top of each other\b"),
    )
}
"""What a question about a table or an array asks of its axis: `axis=1` works along each row ("the
first non-null value per row", "row average", "across columns", two frames "side by side"),
`axis=0` along each column."""


_ARRAY_AXIS = re.compile(r"\bint\b|\bindex\b|\bcolumns\b|\balong\b", re.IGNORECASE)


_VALUE_SPELLINGS = {("axis", "1"): {"1", "columns"}, ("axis", "0"): {"0", "index"}}
"""Other ways of writing a keyword's value: pandas takes `axis="columns"` for `axis=1`."""


def axis_asked(question: str) -> str | None:
    """The `axis=` value a question asks for ("1" for each row, "0" for each column), or None.

    A question that reads both ways ("each row of each column") asks for neither.
    """
    found = [value for value, pattern in _AXIS_ASKED.items() if pattern.search(question)]
    return found[0] if len(found) == 1 else None


def _spelled_by(name: str, asked: set[str]) -> list[str]:
    """The question's words a keyword's name spells out, run together or not.

    Libraries name keywords by what they set: `fontsize` and `title_fontsize` spell "size",
    `linewidth` "width", `numpoints` "points"; a word of four letters or more only.
    """
    compact = name.lower().replace("_", "")
    return sorted(word for word in asked if len(word) >= 4 and word in compact)


def _name_coverage(name: str, spelled: Sequence[str]) -> float:
    """How much of a keyword's name the question's words spell, 0 to 1.

    Asked for the legend's font size, `fontsize` is all spelled ("font", "size"),
    `title_fontsize` not: its title is not what was asked.
    """
    compact = name.lower().replace("_", "")
    return min(1.0, sum(len(word) for word in spelled) / len(compact)) if compact else 0.0


async def _example_for(
    draft: _Draft, item: int, api: str, *, keyword: tuple[str, str | None] | None = None
) -> tuple[int, str] | None:
    """A code block that uses the API: from its own entry first, else from other evidence.

    With a `keyword` the answer explains, a block that passes it (`dpi=`) is preferred; with
    the value the answer gives it (`axis=1`), a block that passes that value, else one that does
    not pass the keyword: `df.count(axis="columns")` is no example of counting per column.
    """
    form = _call_form(draft.evidence[item], api)
    # Another item's code that calls the API shows it in use when the prose introducing it names
    # the API ("call the reversed() function"), or when it is about what was asked: a word of the
    # question besides the API's own name, in the code or that prose. A URL opener's
    # `f.read().decode('utf-8')` is no example of unescaping a string.
    asked = _stems(draft.basis) - _stems(re.sub(r"[._]", " ", api))
    named = re.compile(rf"(?<![\w.]){re.escape(_short_name(api))}\(\)|\b{re.escape(api)}\b")
    candidates: list[tuple[int, str, str]] = []  # item, block, the prose that introduces it
    for i, e in enumerate(draft.evidence):
        signatures = "\n".join(_api_parts(e)[0])
        for block in code_blocks(e.content):
            if block == signatures or addresses_assistant(block) or _is_signature(block):
                continue
            lead_in = _lead_in(e.content, block)
            if i == item or (
                _uses(block, form)
                and (named.search(lead_in) or asked & _code_stems(f"{lead_in} {block}"))
            ):
                candidates.append((i, block, lead_in))
    if not candidates:
        return None
    in_entry = [c for c in candidates if c[0] == item]
    pool = [c for c in in_entry if _uses(c[1], form)] or in_entry or candidates
    if pool is not candidates:
        # The entry's own example first, unless another's shows more of what was asked:
        # `find_element(By.XPATH, ...)` for "find an element by XPath", not the entry's `By.ID`.
        def shown(c: tuple[int, str, str]) -> int:
            return len(asked & _code_stems(f"{c[2]} {c[1]}"))

        most = max(shown(c) for c in pool)
        better = [c for c in candidates if c[0] != item and _uses(c[1], form) and shown(c) > most]
        if better:
            best_shown = max(shown(c) for c in better)
            pool = [c for c in better if shown(c) == best_shown]
    if keyword is not None:
        name, value = keyword
        passing = re.compile(rf"\b{re.escape(name)}\s*=\s*([^,)\s]+)")
        if value is None:
            pool = [c for c in pool if passing.search(c[1])] or pool
        else:
            spelled = _VALUE_SPELLINGS.get((name, value), {value})
            pool = (
                [c for c in pool if {m.strip("'\"") for m in passing.findall(c[1])} & spelled]
                or [c for c in pool if not passing.search(c[1])]
                or pool
            )
    if not (_ASKS_ABOUT_FAILURE.search(draft.basis) or _EXCEPTION_NAME.search(draft.basis)):
        # Docstrings also show how a call fails (`merge` with overlapping columns: "Traceback
        # ... ValueError"): shown to someone asking how to do it, that reads as the answer.
        pool = [c for c in pool if not _FAILS.search(c[1])] or pool
    best = await _best_example(
        draft, [(block, lead_in) for _, block, lead_in in pool], f"{draft.basis} {api}", api
    )
    where, block, _ = pool[best]
    return where, _example(block)


def _code_stems(text: str) -> set[str]:
    """The words of code and its prose, dotted and snake_case names split: `By.XPATH` is "xpath"."""
    return _stems(text) | _stems(re.sub(r"[._]", " ", text))


async def _best_example(
    draft: _Draft, pool: list[tuple[str, str]], basis: str, explained: str
) -> int:
    """Which of the code blocks (each with the prose that introduces it) shows what was asked.

    An item's examples follow the sentence they illustrate ("If sep is not given, runs of
    whitespace are one separator ... For example:", "You can also use a list comprehension:"):
    the prose before a block says what it shows, which the code alone often does not.
    """
    scores = await _rank_texts(
        basis,
        [block for block, _ in pool],
        draft.embedder,
        explained=explained.replace(".", " "),
    )
    told = await _rank_texts(draft.basis, [lead_in for _, lead_in in pool], draft.embedder)
    return max(
        range(len(pool)),
        key=lambda i: (
            scores[i]
            + LEAD_IN_WEIGHT * told[i]
            + _example_shape(pool[i][0])
            - (OPPOSED_EXAMPLE_PENALTY if opposed_text(draft.basis, pool[i][1]) else 0.0)
        ),
    )


def _lead_in(content: str, block: str) -> str:
    """The prose just before a code block in its item: what the example is said to show."""
    at = content.find(block.splitlines()[0]) if block else -1
    before = content[:at] if at > 0 else ""
    # Only what follows the block before it: "Drop the rows ..." introduces the block after it,
    # not the next one, which "Drop the columns ..." introduces.
    blocks_before = list(_FENCED.finditer(before))
    if blocks_before:
        before = before[blocks_before[-1].end() :]
    prose = _prose(before).strip().removesuffix("```").strip()
    return prose[-LEAD_IN_CHARS:]


def _example_shape(block: str) -> float:
    """How well a block reads as an example.

    A short interactive session that shows the call and its result beats a function definition
    that happens to use the API.
    """
    bonus = 0.1 if block.lstrip().startswith(">>>") else 0.0
    if re.match(r"\s*(def|class|async def) ", block):
        bonus -= 0.1
    return bonus - 0.002 * len(block)


def _alternatives(
    evidence: list[Evidence], item: int, api: str | None, question: str
) -> list[tuple[int, str]]:
    """Other APIs about as relevant as the first (within `ALTERNATIVE_MARGIN`), best first.

    APIs this close are all plausible answers (`str.strip` and `str.rstrip`, `os.remove` and
    `Path.unlink`), or parts of one (`str.split`, then `map` and `int` for "a string of numbers
    to a list of ints"): the answer shows up to `MAX_ALTERNATIVES` of them, each with its
    signature and first sentence, rather than guess between them.
    """
    first = _relevance(evidence[item])
    shown = {_short_name(api)} if api else set()
    found: list[tuple[int, str]] = []
    for i, other in _api_evidence(evidence):
        if i == item or _short_name(other) in shown:
            continue
        opposite = _direction_penalty(question, evidence[i])
        if opposite or _scope_fit(question, evidence[i]).contradicts:
            continue  # the opposite direction, or what the question rules out, is no alternative
        if _relevance(evidence[i]) >= first - ALTERNATIVE_MARGIN:
            found.append((i, other))
            shown.add(_short_name(other))
        if len(found) == MAX_ALTERNATIVES:
            break
    return found


async def _compose_passage(draft: _Draft, item: int) -> list[str]:
    said, evidence = draft.said, draft.evidence
    chosen = evidence[item]
    mark = draft.cites.cite(item)
    sentences = await _best_sentences(
        draft.basis, sentences_of(chosen), draft.embedder, MAX_SENTENCES, explained=chosen.title
    )
    out = [f"**{said['from']}:** {_title(chosen)} {mark}"]
    if sentences:
        out += ["", *(f"> {s} {mark}" for s in sentences)]
    blocks = [b for b in code_blocks(chosen.content) if not addresses_assistant(b)]
    if blocks:
        pool = [(block, _lead_in(chosen.content, block)) for block in blocks]
        block = blocks[await _best_example(draft, pool, draft.basis, chosen.title)]
        out += ["", f"**{said['example']}** {mark}", "```python", _example(block), "```"]
    # A passage names no API: the entries about as relevant as it are named after it ("remove
    # an element from a list by index" quoted notes on pop and remove, and named neither).
    return out + _also(draft, item, None)


def _title(evidence: Evidence) -> str:
    # Titles come from retrieved pages: `<script>` or `[x](javascript:...)` must read as text.
    title = re.sub(r"^Python \d+\.\d+ docs: ", "", evidence.title)
    return "*" + escape_markdown(title) + "*"


def _exception_entry(evidence: list[Evidence], exception: str) -> tuple[int, str] | None:
    """The documentation entry of the exception a traceback names, when the evidence holds it."""
    entries = [(i, api) for i, api in _api_evidence(evidence) if _short_name(api) == exception]
    return entries[0] if entries else None


async def _compose_debugging(draft: _Draft, exception: str, floor: float) -> list[str] | None:
    """The exception's meaning from its entry, then the best other item as the fix.

    The entry answers "what does this error mean" whatever its score: the user named the
    exception. The fix is only quoted from an item that reaches the floor; without one the
    answer says what the error means and how to check, and does not guess a fix.
    """
    said, evidence = draft.said, draft.evidence
    entry = _exception_entry(evidence, exception)
    if entry is None:
        return None
    item, api = entry
    _, description = _api_parts(evidence[item])
    meaning = sentences_of(evidence[item].model_copy(update={"content": description}))[:2]
    if not meaning:
        return None
    out = [f"**{said['cause']}:** `{api}` — {' '.join(meaning)} {draft.cites.cite(item)}"]
    rest = [i for i in range(len(evidence)) if i != item and _relevance(evidence[i]) >= floor]
    if rest:
        fix = rest[0]
        meta = evidence[fix].meta
        other_api = meta.api if isinstance(meta, LocalMeta) else None
        out += ["", f"**{said['fix']}**", ""]
        if other_api:
            out += await _compose_api(draft, fix, other_api)
        else:
            out += await _compose_passage(draft, fix)
        out += ["", f"**{said['verify']}:** {said['verify_text']}"]
    else:
        out += ["", f"**{said['fix']}:** {said['no_fix']}"]
    return out


def _exception_asked(question: str) -> str | None:
    found = _EXCEPTION_NAME.findall(question)
    return found[-1] if found else None


def _pack_of(evidence: Evidence) -> str | None:
    return evidence.meta.pack if isinstance(evidence.meta, LocalMeta) else None


async def _missing(library: Library, libraries: Libraries) -> MissingLibrary:
    """What the user's environment says of a library no pack documents."""
    environment = await asyncio.to_thread(libraries.environment) if libraries.environment else None
    if environment is None:
        return MissingLibrary(library.name, library.distribution)
    installed = environment.version_of(library)
    if installed is None:
        return MissingLibrary(library.name, library.distribution, environment.python)
    distribution, version = installed
    return MissingLibrary(library.name, distribution, environment.python, version)


def _version_notes(
    question: str, named: Sequence[Library], packs: Sequence[Pack], language: str
) -> list[str]:
    """A line for each library the question asks about at a version its pack does not document."""
    said = texts(language, "answer")
    notes = []
    for library in named:
        asked = version_named(question, library)
        have = next((p.version for p in packs if library.matches(p)), None)
        if asked and have and not same_version(asked, have):
            notes.append(said["version_note"].format(library=library.name, asked=asked, have=have))
    return notes


COVERAGE_WEIGHT = 0.2
"""How much a library answer's confidence moves with `answer_coverage`: from `relevance - 0.1`
for an answer that speaks of none of the question's words to `relevance + 0.1` for one that
speaks of all. "Convert a column of lists to dummies" matched the task "convert a column to a
list" at 1.02 and was answered with `Series.tolist`, which says nothing of dummies; "read a
.xlsx file" matched `read_excel` at 0.76, whose entry speaks of xlsx. Chosen with
`LIBRARY_FLOOR_OFFSET` by cross-validation on the third-party dev questions
(`scripts/coverage_weight_cv.py`, docs/ANSWERS.md): 0.526 -> 0.544 right on the folds left out,
at the same wrong rate (0.119). Not applied to the
standard library's answers, whose floor was fitted without it: on its dev questions it would
take one right answer away (0.896 -> 0.889 at the floor)."""
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")


def answer_coverage(question: str, named: Sequence[Library], body: Sequence[str]) -> float:
    """The share of the question's words that the answer speaks of, 0 to 1.

    The question's content words, without the names of the libraries it names (the answer is
    from their pack) and the words of how it is asked ("best", "python"); the answer's words
    with dotted and snake_case names split (`read_excel` speaks of "excel") and names run
    together read for the question's longer words (`dropna` speaks of "drop"), its notes in
    italics left out. A Korean question's words are its English reading's (the glossary's,
    appended to it); a question of no such words is half covered, neither sure nor unsure.
    """
    names = _stems(" ".join(n for lib in named for n in (lib.name, *lib.import_names)))
    asked = {
        word
        for word in _stems(without_names(question, named) if named else question)
        if word.isascii() and word not in _ASKED_HOW and word not in names
    }
    if not asked:
        return 0.5
    text = "\n".join(line for line in body if not line.startswith("_"))
    said = _code_stems(text)
    identifiers = {name.lower() for name in _IDENTIFIER.findall(text)}
    return sum(
        1
        for word in asked
        if word in said or (len(word) >= 4 and any(word in name for name in identifiers))
    ) / len(asked)


def floor_for(question: str, language: str, floor: float) -> float:
    """The floor a question's best evidence must reach.

    Higher by `LIBRARY_FLOOR_OFFSET` when the question names a library (its pack answers it);
    lower by `GLOSSED_SCORE_LOSS` when the question is read through the Korean glossary.
    """
    needed = floor + LIBRARY_FLOOR_OFFSET if libraries_named(question) else floor
    return needed - GLOSSED_SCORE_LOSS if language != "en" and english_gloss(question) else needed


async def extractive_answer(
    question: str,
    analysis: Analysis,
    evidence: list[Evidence],
    embedder: Embedder | None,
    *,
    errors: list[ErrorRecord] | None = None,
    floor: float = RELEVANCE_FLOOR,
    libraries: Libraries | None = None,
) -> Answer:
    """Answer from the best evidence, or decline; never a quote that does not answer.

    Args:
        question: The user's question as asked.
        analysis: Its analysis (language, intent, standalone question).
        evidence: The search's evidence, best first.
        embedder: Ranks sentences and examples by meaning; without it (it failed), by the words
            they share with the question.
        errors: The run's failures and skipped sources, told in a decline.
        floor: The relevance the best evidence needs to be quoted as the answer.
        libraries: The installed packs and the user's environment, for a question that names a
            library; None: no library has a pack.
    """
    language = analysis.language
    basis = analysis.standalone_question or question
    gloss = english_gloss(basis)
    basis = f"{basis} {gloss}".strip() if gloss else basis
    libraries = libraries or Libraries()
    named = libraries_named(question)
    notes: list[str] = []
    searched: list[str] = []
    if named:
        packs = packs_for(named, libraries.packs)
        if not packs:
            missing = await _missing(named[0], libraries)
            return decline(question, analysis, "library_not_indexed", errors or [], missing=missing)
        # The library's own pack answers: another library's API (the standard library's
        # `urllib.request` for requests) is no answer to it, however alike they read.
        evidence = [e for e in evidence if _pack_of(e) in {p.name for p in packs}]
        notes = _version_notes(question, named, packs, language)
        said = texts(language, "answer")
        searched = [said["installed_pack"].format(title=p.name, version=p.version) for p in packs]
    else:
        scope = scope_of(question)
        if not scope.covered:
            return decline(
                question,
                analysis,
                "out_of_scope",
                errors or [],
                topic=scope.topic,
                third_party=scope.third_party,
            )
    ranked = sorted(
        (e for e in evidence if e.content.strip() and not addresses_assistant(e.title)),
        key=lambda e: _ranking(basis, e),
        reverse=True,
    )
    if not ranked:
        return decline(question, analysis, "no_evidence", errors or [], packs=searched)
    relevance = _relevance(ranked[0])
    needed = floor_for(analysis.standalone_question or question, language, floor)
    exception = _exception_asked(question) if analysis.intent == "debugging" else None
    draft = _Draft(basis, language, ranked, embedder, _Citations(ranked))
    body: list[str] | None = None
    if exception:
        # The named exception's entry is explained whatever its score (see _compose_debugging).
        body = await _compose_debugging(draft, exception, needed)
    # A library answer's confidence also weighs how much of what was asked it speaks of.
    weight = COVERAGE_WEIGHT if named else 0.0
    if body is None and relevance + weight / 2 >= needed:
        draft.cites = _Citations(ranked)
        api = ranked[0].meta.api if isinstance(ranked[0].meta, LocalMeta) else None
        composed = await _compose_api(draft, 0, api) if api else await _compose_passage(draft, 0)
        if weight:
            relevance += weight * (answer_coverage(basis, named, composed) - 0.5)
        if relevance >= needed:
            body = composed
            if analysis.intent == "code_review":
                body = [f"**{draft.said['review']}**", "", *body]
    if body is None:
        return decline(
            question,
            analysis,
            "below_relevance_floor",
            errors or [],
            relevance=relevance,
            nearest=ranked,
            packs=searched,
        )
    head = [offline_note(language, draft.cites.cited()), *notes]
    return Answer(
        text="\n".join([*head, "", *body]).strip(),
        citations=draft.cites.build(),
        intent=analysis.intent,
        language=language,
        grounded=True,
        offline=True,
        relevance=round(relevance, 4),
    )
