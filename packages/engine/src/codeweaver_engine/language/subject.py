"""What a question is about: the subject two questions of one message share, and bare pronouns.

"What is the current working directory, and how do I change it?" is two questions, and the second
is about the current working directory: split apart, "how do I change it?" asks about nothing.
The planner gives each part its subject (`with_shared_subject`), so the second is answered, and
cached, as "how do I change the current working directory?".

A question whose subject is only a pronoun ("How do I pretty-print it?") is never a cache key
(`leans_on_pronoun`): in one thread it meant a JSON file, in the next it may mean anything.

The pronouns, the demonstratives and the phrasings where "it" stands for nothing ("is it possible
to") are data (`data/pronouns.toml`).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PRONOUNS_FILE = Path(__file__).resolve().parents[1] / "data" / "pronouns.toml"
_HANGUL = r"\uac00-\ud7a3"
_FOLLOWS_A_BARE_DEMONSTRATIVE = (
    r"(?=\s*(?:[?.!,;:]|$|\b(?:in|to|into|with|from|on|for|using|as|by|without|and|or|work|"
    r"do|does|mean|means|faster|better|slower)\b))"
)
"""What comes after "that" or "this" when it stands alone ("change that?", "do that in"), not
before a noun ("that file")."""
_ENGLISH_SUBJECT = (
    re.compile(r"^(?:what|which|where|who)(?:'s|\s+is|\s+are|\s+was|\s+were)\s+(?P<x>.+)$", re.I),
    re.compile(
        r"^how\s+(?:do|can|could|should|would|does|did|will|shall)\s+(?:i|you|we|one|someone)"
        r"\s+(?:[\w-]+ly\s+)?[\w-]+\s+(?P<x>.+)$",
        re.I,
    ),
    re.compile(r"^how\s+to\s+[\w-]+\s+(?P<x>.+)$", re.I),
    re.compile(
        r"^(?:is there (?:a|any) way|what(?:'s| is) the (?:best|easiest|simplest|right) way|"
        r"(?:the )?best way)\s+to\s+[\w-]+\s+(?P<x>.+)$",
        re.I,
    ),
    re.compile(r"^(?:can|could|should)\s+(?:i|you|we)\s+[\w-]+\s+(?P<x>.+)$", re.I),
)
"""Where an English question names its subject: after "what is", or after the verb of "how do I
..."; the subject runs to a clause's end (`_SUBJECT_END`)."""
_SUBJECT_END = re.compile(
    r"\s+(?:in python\s*\d*(?:\.\d+)?|with python|using\s.*|and\s.*|so that\s.*|if\s.*|when\s.*"
    r"|without\s.*|because\s.*)$|[?.!,;:]+$",
    re.I,
)
_MAX_SUBJECT_WORDS = 8


class PronounDataError(ValueError):
    """The pronoun file is malformed."""


@dataclass(frozen=True)
class Pronouns:
    """The parsed pronoun file (see its header)."""

    pronouns: frozenset[str]
    demonstratives: frozenset[str]
    expletive: tuple[re.Pattern[str], ...]
    particles: tuple[str, ...]
    subject_particles: tuple[str, ...]


def parse_pronouns(text: str, *, origin: str = "pronouns.toml") -> Pronouns:
    """The pronoun file's lists.

    Raises:
        PronounDataError: not TOML, a list missing, or an expression that does not compile.
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PronounDataError(f"{origin}: {exc}") from exc
    keys = {"pronouns", "demonstratives", "expletive", "particles", "subject_particles"}
    if set(raw) != keys:
        raise PronounDataError(f"{origin}: needs exactly {sorted(keys)}")
    try:
        expletive = tuple(re.compile(p, re.IGNORECASE) for p in raw["expletive"])
    except re.error as exc:
        raise PronounDataError(f"{origin}: {exc}") from exc
    return Pronouns(
        pronouns=frozenset(str(raw["pronouns"]).split()),
        demonstratives=frozenset(str(raw["demonstratives"]).split()),
        expletive=expletive,
        particles=tuple(sorted(str(raw["particles"]).split(), key=len, reverse=True)),
        subject_particles=tuple(str(raw["subject_particles"]).split()),
    )


@cache
def pronouns() -> Pronouns:
    """The pronoun file, read once."""
    return parse_pronouns(PRONOUNS_FILE.read_text(encoding="utf-8"))


@cache
def _pointing() -> re.Pattern[str]:
    """A pronoun that points back, or a demonstrative standing alone; Korean with a particle."""
    data = pronouns()
    english = sorted(w for w in data.pronouns if not re.search(f"[{_HANGUL}]", w))
    korean = sorted((w for w in data.pronouns if w not in english), key=len, reverse=True)
    particles = "|".join(map(re.escape, data.particles))
    return re.compile(
        rf"\b(?P<en>{'|'.join(english)})\b"
        rf"|\b(?P<dem>{'|'.join(sorted(data.demonstratives))})\b{_FOLLOWS_A_BARE_DEMONSTRATIVE}"
        rf"|(?<![{_HANGUL}])(?P<ko>{'|'.join(korean)})(?P<particle>{particles})?"
        rf"(?![{_HANGUL}])",
        re.IGNORECASE,
    )


def _pronoun(question: str) -> re.Match[str] | None:
    """The first pronoun in the question that points back at something (not "is it possible")."""
    spans = [m.span() for p in pronouns().expletive for m in p.finditer(question)]
    for match in _pointing().finditer(question):
        if not any(a <= match.start() < b for a, b in spans):
            return match
    return None


def leans_on_pronoun(question: str) -> bool:
    """Whether the question's subject is a pronoun for something said before ("fix it?")."""
    return _pronoun(question) is not None


def subject_of(question: str) -> str | None:
    """The noun phrase a question is about ("the current working directory", "a JSON file").

    English: what follows "what is", or the verb of "how do I ...", "how to ...", "is there a way
    to ...", up to where the clause goes on ("in Python", "using ...", "and ..."). Korean: the
    words up to the first one marked as topic, subject or object (은/는/이/가/을/를), without its
    particle. None when the question names none, or only a pronoun.
    """
    text = " ".join(question.split()).strip()
    if re.search(f"[{_HANGUL}]", text):
        return _korean_subject(text)
    for pattern in _ENGLISH_SUBJECT:
        match = pattern.match(text)
        if match:
            subject = match.group("x")
            previous = None
            while previous != subject:
                previous = subject
                subject = _SUBJECT_END.sub("", subject).strip()
            words = subject.split()
            if not words or len(words) > _MAX_SUBJECT_WORDS or leans_on_pronoun(subject):
                return None
            return subject
    return None


def _korean_subject(text: str) -> str | None:
    words: list[str] = []
    for token in text.split():
        for particle in pronouns().subject_particles:
            stem = token.removesuffix(particle)
            if stem != token and stem:
                words.append(stem)
                subject = " ".join(words)
                return None if leans_on_pronoun(subject) else subject
        words.append(token)
        if len(words) > _MAX_SUBJECT_WORDS:
            return None
    return None


def with_shared_subject(parts: list[str]) -> list[str]:
    """The questions of one message, each later one that points back given the first's subject.

    "What is the current working directory" and "how do I change it?" become "What is the
    current working directory" and "how do I change the current working directory?". A part that
    names its own subject, or a first question without one, stays as it is.
    """
    if len(parts) < 2:
        return parts
    subject = subject_of(parts[0])
    if subject is None:
        return parts
    carried = [parts[0]]
    for part in parts[1:]:
        match = _pronoun(part)
        if match is None:
            carried.append(part)
            continue
        particle = match.group("particle") or "" if match.group("ko") else ""
        carried.append(f"{part[: match.start()]}{subject}{particle}{part[match.end() :]}")
    return carried
