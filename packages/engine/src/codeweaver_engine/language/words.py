"""Words, as every part of the engine reads them: cleaning, tokens, stopwords, stems, sentences.

One home, so the search subgraph run alone reads a question exactly as the main graph does, and
the cache's guards, the index and the composer agree on what a word is.
"""

from __future__ import annotations

import re
import unicodedata

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*[A-Za-z0-9_]|[A-Za-z]|\d+(?:\.\d+)*|[\uac00-\ud7a3]+")
_SENTENCE_END = re.compile(
    r"(?<=[.!?。？！])(?<!\be\.g\.)(?<!\bi\.e\.)\s+(?=[A-Z0-9\"'(\[`\uac00-\ud7a3])"
)
"""A sentence ends at a stop before a capital, a digit, a quote or code, not after "e.g." or
"i.e." ("a single label, e.g. `5`" is one statement)."""

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
