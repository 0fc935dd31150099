"""Text helpers shared by the offline engines of every graph.

Cleaning, language by script, words and sentences, the Korean programming glossary, the prose
of a message without its code, and the intent of a question: one home, so the search subgraph
run alone reads a question exactly as the main graph does.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, NamedTuple

import numpy as np

from codeweaver_schema import Intent

if TYPE_CHECKING:
    from codeweaver_runtime.embeddings import Embedder

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*[A-Za-z0-9_]|[A-Za-z]|\d+(?:\.\d+)*|[\uac00-\ud7a3]+")
_LATIN_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*[A-Za-z0-9_]|[A-Za-z]|\d+(?:\.\d+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?。？！])\s+(?=[A-Z0-9\"'(\[`\uac00-\ud7a3])")

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "let",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "please",
        "thanks",
        "thank",
        "hi",
        "hello",
        "hey",
        "way",
        "best",
        "use",
        "using",
        "get",
        "want",
        "need",
        "know",
        "tell",
        "explain",
    ]
)


def clean_text(text: str) -> str:
    """Drop NUL and control characters (keeping newlines and tabs) and normalise Unicode."""
    return unicodedata.normalize("NFC", _CONTROL.sub("", text))


def collapse_whitespace(text: str) -> str:
    """One space between words, no leading or trailing space."""
    return " ".join(text.split())


_SCRIPTS = (
    ("ko", 0xAC00, 0xD7A3),  # Hangul syllables
    ("ko", 0x1100, 0x11FF),  # Hangul jamo
    ("ko", 0x3130, 0x318F),  # Hangul compatibility jamo
    ("ja", 0x3040, 0x30FF),  # hiragana and katakana
    ("zh", 0x4E00, 0x9FFF),  # CJK ideographs
    ("ru", 0x0400, 0x04FF),
    ("el", 0x0370, 0x03FF),
    ("ar", 0x0600, 0x06FF),
    ("he", 0x0590, 0x05FF),
    ("hi", 0x0900, 0x097F),
    ("th", 0x0E00, 0x0E7F),
)


def detect_language(text: str) -> str:
    """ISO 639-1 code of the text's main script: ko, ja, zh, ru, el, ar, he, hi, th, else en.

    Programming questions mix English identifiers into every language, so a few characters of
    a non-Latin script decide, whatever the Latin share.
    """
    counts: dict[str, int] = {}
    for ch in text:
        code = ord(ch)
        if code < 0x0370:  # Latin, digits, punctuation: most characters of any question
            continue
        lang = next((name for name, low, high in _SCRIPTS if low <= code <= high), None)
        if lang is not None:
            counts[lang] = counts.get(lang, 0) + 1
    if not counts:
        return "en"
    # Kana decides Japanese even when most characters are kanji.
    if counts.get("ja"):
        return "ja"
    return max(counts, key=lambda k: counts[k])


def words(text: str) -> list[str]:
    """Lower-cased word tokens; identifiers such as os.path.join and 3.11 stay whole."""
    return [w.lower() for w in _WORD.findall(text)]


def content_words(text: str) -> list[str]:
    """Words that carry meaning: no stopwords, no one-letter words."""
    return [w for w in words(text) if w not in STOPWORDS and len(w) > 1]


_VOWEL = re.compile(r"[aeiouy]")
_SIBILANT_PLURAL = ("sses", "xes", "zes", "ches", "shes")


def stem(word: str, *, verbs: bool = True) -> str:
    """A light, deterministic stem of a lower-cased word: plural, -ing and -ed endings folded.

    "numbers" and "number", "copies", "copied" and "copy", "sorted", "sorting" and "sort",
    "removes" and "remove", "classes" and "class" meet. An ending is cut only where a syllable
    stays in front of it, so "string" and "strings" both stay "string" and "using" stays whole;
    "class", "status" and "analysis" are not plurals. Words of four letters or fewer ("keys",
    "uses", "does"), numbers and identifiers ending in a digit or underscore stay as they are.

    Args:
        word: A lower-cased word.
        verbs: Also fold -ing and -ed ("sorting", "sorted"); False folds plurals only.
    """
    if len(word) <= 4 or not word[-1].isalpha():
        return word
    if word.endswith("ies"):
        word = word[:-3] + "y"
    elif word.endswith(_SIBILANT_PLURAL):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if not verbs:
        return word
    if word.endswith("ied") and len(word) > 4:
        word = word[:-3] + "y"
    else:
        for suffix in ("ing", "ed"):
            rest = word.removesuffix(suffix)
            # "exceed" is not "exce" + "ed", nor "string" "str" + "ing".
            if rest != word and len(rest) >= 3 and _VOWEL.search(rest) and rest[-1] != "e":
                word = rest
                break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "ls" and word[-1].isalpha():
        word = word[:-1]
    return word


def split_sentences(text: str) -> list[str]:
    """Sentences of prose; code blocks are kept whole as one 'sentence'."""
    parts: list[str] = []
    for block in re.split(r"(```.*?```)", text, flags=re.DOTALL):
        if block.startswith("```"):
            parts.append(block)
            continue
        for paragraph in re.split(r"\n\s*\n", block):
            flat = collapse_whitespace(paragraph)
            if flat:
                parts.extend(s for s in _SENTENCE_END.split(flat) if s)
    return parts


def truncate(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word boundary when one is near."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    if space > limit * 0.8:
        cut = cut[:space]
    return cut.rstrip() + "…"


GLOSSARY_FILE = Path(__file__).parent / "data" / "korean_glossary.tsv"
"""Korean programming vocabulary by stem, with English search terms (see the file's header)."""


@cache
def korean_glossary() -> dict[str, str]:
    """Stem -> English terms, read once from `GLOSSARY_FILE`."""
    glossary: dict[str, str] = {}
    for line in GLOSSARY_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            stem, _, english = line.partition("\t")
            glossary[stem.strip()] = english.strip()
    return glossary


@cache
def _stems_by_first_char() -> dict[str, list[str]]:
    by_first: dict[str, list[str]] = {}
    for stem in sorted(korean_glossary(), key=len, reverse=True):
        by_first.setdefault(stem[0], []).append(stem)
    return by_first


def _is_hangul(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"


def english_gloss(text: str) -> str:
    """English terms for a question written in Korean, in the question's order; '' otherwise.

    The text is read left to right: at each place the longest glossary stem that starts there
    is taken (particles and endings attach to stems, so 변환하려면 gives 변환, convert), and Latin
    words (identifiers, library names) are kept where they stand. Retrieval and the offline
    engine work in English; a model, when configured, translates properly.
    """
    if detect_language(text) != "ko":
        return ""
    glossary, by_first = korean_glossary(), _stems_by_first_char()
    terms: list[str] = []
    i = 0
    while i < len(text):
        # A one-syllable stem counts only where a word starts: 키 (key) is not the end of 시키.
        starts_word = i == 0 or not _is_hangul(text[i - 1])
        stem = next(
            (
                s
                for s in by_first.get(text[i], ())
                if text.startswith(s, i) and (len(s) > 1 or starts_word)
            ),
            None,
        )
        latin = _LATIN_WORD.match(text, i) if stem is None else None
        if latin:
            terms.append(latin.group(0).lower())
            i = latin.end()
            continue
        if stem is not None:
            terms.extend(glossary[stem].split())
            i += len(stem)
        else:
            i += 1
    return " ".join(dict.fromkeys(t for t in terms if t not in STOPWORDS))


# --- markup ----------------------------------------------------------------------------------


_RST_ROLE = re.compile(r":(?:[A-Za-z][\w+-]*:)?([A-Za-z][\w+-]*):`([^`]*)`")
_RST_TEXT_ROLES = frozenset(
    {
        *("term", "ref", "doc", "abbr", "dfn", "manpage", "guilabel", "menuselection", "kbd"),
        *("program", "mailheader", "newsgroup", "source", "token", "keyword", "option"),
        *("envvar", "file", "samp", "makevar", "gh", "issue"),
    }
)
"""Roles whose text is prose, not a name in code."""


def rst_roles(text: str, *, code: bool = True) -> str:
    """Sphinx roles as Sphinx shows them: :func:`~os.path.join` as `join()`, :pep:`8` as PEP 8.

    A role's text is its label when it has one (:ref:`the guide <guide>`), the last part of a
    name marked `~`, a name without the leading dot of :class:`.HTMLParser`, and a function's
    or method's name gains `()`. Names in code become code spans, or stay bare with
    `code=False` (plain text to search); prose roles (:term:, :ref:, :kbd: ...) stay prose.
    Any domain is read (:py:func:, :c:func:).
    """

    def shown(match: re.Match[str]) -> str:
        role, raw = match.group(1), match.group(2)
        label, _, target = raw.partition("<")
        name = label.strip() or target.rstrip(">").strip()
        if role in ("pep", "rfc"):
            return f"{role.upper()} {name}"
        if role in _RST_TEXT_ROLES:
            return name.strip("!~")
        # As Sphinx reads a name: `!` unlinks it, a leading `.` is for the lookup alone, and
        # `~` shows its last part.
        name = name.lstrip("!").lstrip(".")
        if name.startswith("~"):
            name = name[1:].rsplit(".", 1)[-1]
        if role in ("func", "meth") and not name.endswith(")"):
            name += "()"
        return f"`{name}`" if code else name

    return _RST_ROLE.sub(shown, text)


def grid_table_rows(lines: list[str]) -> list[list[str]]:
    """The cells of a reST grid table's rows (`| a | b |` lines, borders left out).

    A line whose first cell is empty and that has as many cells as the row above continues that
    row: each of its cells is joined to the cell above it.
    """
    rows: list[list[str]] = []
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if rows and not cells[0] and len(cells) == len(rows[-1]):
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
        else:
            rows.append(cells)
    return rows


class HtmlText(NamedTuple):
    """An HTML page or fragment as Markdown-like text."""

    title: str | None
    """The <title>, else the first <h1>, else None."""
    text: str


def html_to_text(html: str) -> HtmlText:
    """Markdown-like text of an HTML page or fragment (a web page, a Stack Overflow answer).

    Headings become `#` lines, <pre> blocks fenced code (a `lang-py` class names the fence's
    language), <code> inline code spans, list items `- ` lines and a table's rows lines of cells
    separated by `|`; images are their alt text; scripts, styles and the <head> are dropped.
    """
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    text = "".join(parser.parts)
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    title = " ".join(parser.title.split()) or parser.first_h1 or None
    return HtmlText(title, text)


class _HtmlText(HTMLParser):
    _BLOCK = frozenset(
        {"p", "div", "section", "article", "main", "header", "footer", "br", "tr", "table",
         "ul", "ol", "dl", "dt", "dd", "blockquote", "hr", "nav", "aside", "figure", "form"}
    )  # fmt: skip
    _SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head"})
    _HEADINGS: ClassVar[dict[str, int]] = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title = ""
        self.first_h1 = ""
        self._skip_depth = 0
        self._in_title = False
        self._pre_depth = 0
        self._pre_start = 0
        self._cells = 0
        self._heading: list[str] | None = None
        self._heading_level = 0

    def _inline(self, text: str) -> None:
        (self._heading if self._heading is not None else self.parts).append(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        if tag in self._SKIP:
            self._skip_depth += 1
        elif self._skip_depth:
            return
        elif tag in self._HEADINGS:
            self._heading = []
            self._heading_level = self._HEADINGS[tag]
        elif tag == "pre":
            self._pre_depth += 1
            if self._pre_depth == 1:
                self.parts.append(f"\n\n```{_fence_language(attrs)}\n")
                self._pre_start = len(self.parts)
        elif tag == "code" and not self._pre_depth:
            self._inline("`")
        elif tag == "img":
            alt = " ".join((dict(attrs).get("alt") or "").split())
            if alt:
                self._inline(f"[image: {alt}]")
        elif tag == "li":
            self.parts.append("\n- ")
        elif tag in ("td", "th"):
            if self._cells:
                self.parts[-1] = self.parts[-1].rstrip(" ")
                self.parts.append(" | ")
            self._cells += 1
        elif tag in self._BLOCK:
            self.parts.append("\n\n" if tag != "br" else "\n")
            if tag == "tr":
                self._cells = 0

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in self._SKIP:
            self._skip_depth = max(0, self._skip_depth - 1)
        elif self._skip_depth:
            return
        elif tag in self._HEADINGS and self._heading is not None:
            heading = " ".join("".join(self._heading).split())
            if heading:
                self.parts.append(f"\n\n{'#' * self._heading_level} {heading}\n\n")
                if self._heading_level == 1 and not self.first_h1:
                    self.first_h1 = heading
            self._heading = None
        elif tag == "pre" and self._pre_depth:
            self._pre_depth -= 1
            if self._pre_depth == 0:
                code = "".join(self.parts[self._pre_start :]).lstrip("\n").rstrip()
                self.parts[self._pre_start :] = [code, "\n```\n\n"]
        elif tag == "code" and not self._pre_depth:
            self._inline("`")
        elif tag in self._BLOCK and tag != "br":
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif self._skip_depth:
            return
        elif self._pre_depth:
            self.parts.append(data)
        else:
            self._inline(re.sub(r"\s+", " ", data))


def _fence_language(attrs: list[tuple[str, str | None]]) -> str:
    """The language a <pre>'s `lang-` class names (Stack Overflow's `lang-py`), else ''."""
    for name in (dict(attrs).get("class") or "").split():
        if name.startswith("lang-") and name != "lang-none":
            return name.removeprefix("lang-")
    return ""


# --- prose and intent ------------------------------------------------------------------------

_CODE_FENCE = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_TRACE_LINE = re.compile(
    r"^\s*(Traceback \(most recent call last\)|File \".*\", line \d+|at [\w.$]+\(.*\)"
    r"|\w+(Error|Exception)\b.*:|Exception in thread \"|Caused by: |Uncaught \w*(Error|Exception)"
    r"|\.\.\. \d+ more$)"
)
_INDENTED_CODE = re.compile(r"^(?: {4}|\t)\S")


def prose_only(text: str) -> str:
    """The text without code blocks, inline code, indented code and stack-trace lines."""
    without_fences = _CODE_FENCE.sub("\n", text)
    without_inline = _INLINE_CODE.sub("code", without_fences)
    kept = [
        line
        for line in without_inline.splitlines()
        if not _TRACE_LINE.match(line) and not _INDENTED_CODE.match(line)
    ]
    return "\n".join(kept)


_CODE_START = re.compile(
    r"^(>>>|\.\.\.|import |from \S+ import|def |class |async def |await |return\b|"
    r"for .* in .*:|while .*:|if .*:|elif |else:|try:|except|finally:|with .*:|@\w+|#|//|\$ |"
    r"(?:const|let|var)\s+\w+\s*=|(?:public|private|static|function|func|fn)\b.*[({;]$|"
    r"package [\w.]+;?$|[)}\]])"
)
_CODE_INSIDE = re.compile(
    r"\s(=|==|\+=|-=|!=|:=|->|=>)\s|;$|\w\[[^\]]*\]\s*=|^[\w.]+\(.*\)$|^[\w.\[\]'\"]+\s*=\s*\S"
)
_ASKS = re.compile(
    r"(how|what|why|when|where|which|who|is|are|can|could|should|does|do|did|will|would|"
    r"explain|show|tell|give|write|please|i|i'm|my|help|review)(?:'[a-z]+)?\s+[^\W\d_]",
    re.IGNORECASE,
)


def is_code_line(line: str) -> bool:
    """Whether a line reads as code, not prose: code syntax at its start or inside it.

    Statements (`def`, `for x in y:`, `import`, `>>>`, `const x =`), assignments, operators
    between spaces, calls standing alone, a trailing `;`, and short lines (four words at most)
    that end in a bracket or a colon are code; a line that asks ("How do I ...", "... ?") is
    not, whatever code it mentions.
    """
    stripped = line.strip()
    if not stripped or _ASKS.match(stripped) or stripped.endswith(("?", "？")):
        return False
    if _CODE_START.match(stripped) or _CODE_INSIDE.search(stripped):
        return True
    return len(stripped.split()) <= 4 and stripped.endswith((")", "]", "}", ":"))


_DEBUGGING = re.compile(
    r"traceback|stack ?trace|\b\w+(error|exception)\b|\berror\b|\bexception\b|\bfail(s|ed|ing)?\b"
    r"|\bcrash(es|ed)?\b|\bbug\b|\bbroken\b|doesn'?t work|not working|\braises?\b|segfault"
    r"|\bhangs?\b|unexpected(ly)?|wrong (output|result)|에러|오류|예외|작동하지|안 ?돼",
    re.IGNORECASE,
)
_CODE_REVIEW = re.compile(
    r"\breview\b|\brefactor|\bimprove (this|my)\b|is (this|my) (code )?(good|ok|okay|correct|"
    r"idiomatic|pythonic|clean)|code smell|\bcritique\b|feedback on (this|my)|리뷰|개선",
    re.IGNORECASE,
)

_POINTS_AT_CODE = re.compile(
    r"\b(this|my|the following|attached|below)\s+(code|function|implementation|class|method|"
    r"script|snippet|program|loop|module)\b|이 코드|제 코드|내 코드|이 함수",
    re.IGNORECASE,
)

INTENT_PROTOTYPES: dict[Intent, tuple[str, ...]] = {
    "debugging": (
        "Why does my code raise this error and how do I fix it?",
        "My program crashes with an exception.",
        "This function returns the wrong result, what is the bug?",
        "How do I fix this error message?",
    ),
    "learning": (
        "How do I do this in Python?",
        "What is the difference between these two concepts?",
        "Explain how this language feature works.",
        "What is the best way to accomplish this task?",
    ),
    "code_review": (
        "Please review my code and suggest improvements.",
        "Is this implementation idiomatic and correct?",
        "How can I refactor this function to be cleaner?",
        "What problems do you see in this code?",
    ),
}


async def classify_intent(question: str, embedder: Embedder | None) -> tuple[Intent, str]:
    """Rules first, then the nearest intent description by embedding (when there is one)."""
    prose = prose_only(question)
    if _CODE_REVIEW.search(question):
        return "code_review", "asks for a review of code"
    if _DEBUGGING.search(question) or "Traceback (most recent call last)" in question:
        return "debugging", "mentions an error, exception or failure"
    basis = prose or question
    if detect_language(basis) != "en":
        # The embedder reads English: compare the question's English terms, if it has any.
        latin = " ".join(w for w in content_words(basis) if w.isascii())
        basis = f"{latin} {english_gloss(basis)}".strip()
        if not basis:
            return "learning", "no English terms to compare; learning is the common case"
    if embedder is None:
        return "learning", "no rule matched and no embedder; learning is the common case"
    # A review needs code to review, in the question or pointed at ("this function"): a
    # question without any ("How do I remove duplicates from a list?") is not one, however close
    # its wording comes to "refactor this function".
    has_code = prose.strip() != question.strip() or bool(_POINTS_AT_CODE.search(question))
    labels: list[Intent] = []
    texts: list[str] = []
    for intent, examples in INTENT_PROTOTYPES.items():
        if intent == "code_review" and not has_code:
            continue
        labels.extend([intent] * len(examples))
        texts.extend(examples)
    vectors = await embedder.embed([basis, *texts])
    sims = vectors[1:] @ vectors[0]
    best = int(np.argmax(sims))
    return labels[best], f"closest to '{texts[best]}' ({float(sims[best]):.2f})"
