from __future__ import annotations

from codeweaver_schema import Answer, Citation
from codeweaver_schema.render import escape_markdown, render_answer


def _answer(title: str, locator: str) -> Answer:
    citation = Citation(
        n=1, evidence_id="ev1", title=title, source="stackoverflow", url=None, locator=locator
    )
    return Answer(text="Use reversed() [1].", citations=[citation], grounded=True)


def test_a_hostile_title_renders_as_plain_text() -> None:
    title = "Click [here](javascript:alert(1)) <script>alert(1)</script> **now** `x` &amp;"
    rendered = render_answer(_answer(title, "https://stackoverflow.com/q/1"))
    sources = rendered.split("**Sources**", 1)[1]
    assert "](javascript" not in sources.replace("\\]", "")
    assert "<script>" not in sources
    assert "\\<script\\>" in sources
    assert "\\*\\*now\\*\\*" in sources
    assert "\\&amp;" in sources


def test_web_addresses_are_autolinks_and_other_locators_are_escaped() -> None:
    web = render_answer(_answer("os.path", "https://docs.python.org/3/library/os.path.html"))
    assert "<https://docs.python.org/3/library/os.path.html>" in web
    assert "[1] os.path (Stack Overflow)" in web
    local = render_answer(_answer("notes", "notes/<b>setup</b>.md#L1"))
    assert "<b>" not in local
    sneaky = render_answer(_answer("t", "javascript:alert(1)"))
    assert "<javascript:" not in sneaky


def test_escaping_keeps_ordinary_titles_readable() -> None:
    assert escape_markdown("How do I reverse a list in Python?") == (
        "How do I reverse a list in Python?"
    )
    assert escape_markdown("__init__ and\nnewlines") == "\\_\\_init\\_\\_ and newlines"
