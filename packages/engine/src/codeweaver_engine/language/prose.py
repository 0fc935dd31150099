"""The prose of a message without its code, and whether a line reads as code."""

from __future__ import annotations

import re

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
