"""Words that point back: at the conversation, at the sentence before, or at code wanted.

One list of pointing words ("it", "that", "those" ...), read two ways: a turn that opens or ends
on one leans on the conversation (`POINTS_AT_THREAD`, analysis); a clause of one message that
opens on one, or on "why" or "how come", continues the question before it (`CONTINUES_QUESTION`,
the question scan). And one pattern for a turn that asks for code (`WANTS_CODE`), which decides
both whether the earlier answer's sources can answer a follow-up and what the follow-up shows.
"""

from __future__ import annotations

import re

from codeweaver_engine.language.cues import cue

POINTING_WORDS = ("it", "its", "that", "this", "those", "these", "they", "them")
"""Words that stand for something said before."""
_POINTING = "|".join(POINTING_WORDS)

POINTS_AT_THREAD = re.compile(
    rf"^(and |but |so )?({_POINTING}|what about|how about)\b"
    r"|\b(it|that|this one|those|them)\b[?.!]?$",
    re.IGNORECASE,
)
"""A turn that leans on the conversation: it opens on a pointing word ("what about sets?") or
ends on one ("why is that?"). Searched in the stripped turn."""

CONTINUES_QUESTION = re.compile(
    rf"^(and\s+)?({_POINTING}|why|how come|what about|and why)\b",
    re.IGNORECASE,
)
"""A clause of one message that continues the question before it ("... a file, and why is it
slow?"): it opens on a pointing word, or asks why about what was just asked. Matched at the
clause's start."""

WANTS_CODE = cue("wants_code")
"""A turn that asks to see code: an example, a snippet, "show me"."""
