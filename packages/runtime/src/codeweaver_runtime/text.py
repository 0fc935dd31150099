"""Text helpers shared by the offline engine: cleaning, language, words and sentences."""

from __future__ import annotations

import re
import unicodedata

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*[A-Za-z0-9_]|[A-Za-z]|\d+(?:\.\d+)*|[\uac00-\ud7a3]+")
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


def detect_language(text: str) -> str:
    """ISO 639-1 code of the text's main script: ko, ja, zh, ru, el, ar, he, hi, th, else en.

    Programming questions mix English identifiers into every language, so a few characters of
    a non-Latin script decide, whatever the Latin share.
    """
    counts: dict[str, int] = {}
    for ch in text:
        code = ord(ch)
        if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
            lang = "ko"
        elif 0x3040 <= code <= 0x30FF:
            lang = "ja"
        elif 0x4E00 <= code <= 0x9FFF:
            lang = "zh"
        elif 0x0400 <= code <= 0x04FF:
            lang = "ru"
        elif 0x0370 <= code <= 0x03FF:
            lang = "el"
        elif 0x0600 <= code <= 0x06FF:
            lang = "ar"
        elif 0x0590 <= code <= 0x05FF:
            lang = "he"
        elif 0x0900 <= code <= 0x097F:
            lang = "hi"
        elif 0x0E00 <= code <= 0x0E7F:
            lang = "th"
        else:
            continue
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
