"""Which language a text is written in, told by its script."""

from __future__ import annotations

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
