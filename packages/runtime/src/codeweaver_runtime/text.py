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


# Programming vocabulary of Korean questions, by stem: particles attach to the stem
# ("리스트를", "뒤집는"), so a stem found inside the text is enough. Retrieval and the offline
# engine work in English; a model, when configured, translates properly.
KOREAN_GLOSSARY: dict[str, str] = {
    "파이썬": "python",
    "자바스크립트": "javascript",
    "타입스크립트": "typescript",
    "판다스": "pandas",
    "넘파이": "numpy",
    "장고": "django",
    "리액트": "react",
    "리스트": "list",
    "배열": "array",
    "튜플": "tuple",
    "딕셔너리": "dict dictionary",
    "사전": "dictionary",
    "집합": "set",
    "문자열": "string str",
    "정수": "integer int",
    "실수": "float",
    "자료형": "type",
    "타입": "type",
    "변수": "variable",
    "함수": "function",
    "메서드": "method",
    "메소드": "method",
    "클래스": "class",
    "객체": "object",
    "상속": "inheritance",
    "모듈": "module",
    "패키지": "package",
    "설치": "install",
    "가져오": "import",
    "예외": "exception",
    "에러": "error",
    "오류": "error",
    "반복문": "for loop",
    "반복": "loop iterate",
    "조건문": "if statement",
    "뒤집": "reverse",
    "거꾸로": "reverse",
    "역순": "reverse order",
    "정렬": "sort sorted",
    "합치": "merge concatenate",
    "병합": "merge",
    "나누": "split divide",
    "분할": "split",
    "제거": "remove",
    "삭제": "delete",
    "추가": "add append",
    "검색": "search find",
    "찾": "find",
    "변환": "convert",
    "바꾸": "change replace",
    "교체": "replace",
    "비교": "compare",
    "복사": "copy",
    "길이": "length len",
    "인덱스": "index",
    "슬라이스": "slice",
    "슬라이싱": "slicing",
    "중복": "duplicate",
    "데코레이터": "decorator",
    "제너레이터": "generator",
    "이터레이터": "iterator",
    "컴프리헨션": "comprehension",
    "람다": "lambda",
    "인자": "argument",
    "매개변수": "parameter",
    "반환": "return",
    "출력": "print output",
    "입력": "input",
    "형식": "format",
    "포맷": "format",
    "인코딩": "encoding",
    "유니코드": "unicode",
    "파일": "file",
    "읽": "read",
    "쓰기": "write",
    "경로": "path",
    "디렉토리": "directory",
    "폴더": "directory folder",
    "날짜": "date datetime",
    "시간": "time",
    "비동기": "async asyncio",
    "스레드": "thread",
    "쓰레드": "thread",
    "프로세스": "process",
    "병렬": "parallel",
    "정규식": "regular expression regex",
    "정규 표현식": "regular expression regex",
    "테스트": "test",
    "값": "value",
}


def english_gloss(text: str) -> str:
    """English programming terms for a question written in Korean; '' for other text."""
    if detect_language(text) != "ko":
        return ""
    found = [english for stem, english in KOREAN_GLOSSARY.items() if stem in text]
    return " ".join(dict.fromkeys(" ".join(found).split()))
