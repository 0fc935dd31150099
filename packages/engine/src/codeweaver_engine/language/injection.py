"""Orders to an AI reader planted in retrieved text: recognised, and never quoted.

A page or an answer may hold text that speaks to an assistant instead of about programming
("ignore all previous instructions ..."). It is data to a model; the offline engine never
quotes it, in a summary, an answer's sentences or its examples.
"""

from __future__ import annotations

import re

_ADDRESSES_ASSISTANT = re.compile(
    r"\b(ignore|disregard|forget)\s+(all\s+)?(the\s+|your\s+|any\s+)?"
    r"(previous|prior|above|earlier|preceding|all|system)\s+(instructions|prompts?|rules)"
    r"|^\W*(system|assistant)\s*(message|prompt|override)?\s*:\s*"
    r"(ignore|you|from now|new|disregard|forget|answer|respond|reply|say|print|reveal)"
    r"|\bfrom now on,?\s+you\b|\bas an ai\b"
    r"|\b(reveal|print|show|output|repeat|leak)\s+(me\s+)?your\s+"
    r"(system\s+prompt|prompt|instructions|api[ _-]?keys?|secrets?|credentials)"
    r"|^\W*(answer|respond|reply|say)\s+(only\s+)?(with\s+)?['\"]",
    re.IGNORECASE,
)


def addresses_assistant(text: str) -> bool:
    """Whether a sentence gives orders to an AI reader (a prompt injection), not information."""
    return bool(_ADDRESSES_ASSISTANT.search(text))
