from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from codeweaver_schema import Answer, Citation, SourceName
from codeweaver_schema.render import escape_markdown, render_answer, safe_markdown
from tests.commonmark import assert_safe_for_clients, check_rendered

HOSTILE = "Click [here](javascript:alert(1)) <script>alert(1)</script> **now** `x` &amp;"


def _citation(n: int, title: str, locator: str, source: SourceName = "stackoverflow") -> Citation:
    url = locator if locator.startswith("http") else None
    return Citation(n=n, evidence_id=f"ev{n}", title=title, source=source, url=url, locator=locator)


def _answer(title: str, locator: str) -> Answer:
    return Answer(
        text="Use reversed() [1].", citations=[_citation(1, title, locator)], grounded=True
    )


def test_a_hostile_title_renders_as_plain_text() -> None:
    rendered = render_answer(_answer(HOSTILE, "https://stackoverflow.com/q/1"))
    sources = rendered.split("**Sources**", 1)[1]
    assert "](javascript" not in sources.replace("\\]", "")
    assert "<script>" not in sources
    assert "\\<script\\>" in sources
    assert "\\*\\*now\\*\\*" in sources
    assert "\\&amp;" in sources
    section = check_rendered(_answer(HOSTILE, "https://stackoverflow.com/q/1"), rendered)
    assert section is not None
    assert section.item_links == [["https://stackoverflow.com/q/1"]]


def test_web_addresses_are_autolinks_and_other_locators_are_escaped() -> None:
    web = render_answer(_answer("os.path", "https://docs.python.org/3/library/os.path.html"))
    assert "<https://docs.python.org/3/library/os.path.html>" in web
    assert "- [1] os.path (Stack Overflow): " in web
    local = render_answer(_answer("notes", "notes/<b>setup</b>.md#L1"))
    assert "<b>" not in local
    check_rendered(_answer("notes", "notes/<b>setup</b>.md#L1"), local)
    sneaky = render_answer(_answer("t", "javascript:alert(1)"))
    assert "<javascript:" not in sneaky
    check_rendered(_answer("t", "javascript:alert(1)"), sneaky)


def test_sources_are_a_commonmark_list_with_one_item_per_citation() -> None:
    """Lines joined by single newlines read as one paragraph in CommonMark; a list does not."""
    citations = [
        _citation(1, "How do I reverse a list?", "https://stackoverflow.com/q/3940128"),
        _citation(2, HOSTILE, "http://example.org/page?a=1&b=2", source="docs"),
        _citation(3, "Mutable Sequence Types", "docs/stdtypes.rst § Lists", source="local"),
        _citation(4, "list_reverse", "https://github.com/python/cpython/blob/main/x.c", "github"),
    ]
    answer = Answer(
        text="Use `reversed()` [1] or `list.reverse()` [2] [3] [4].",
        citations=citations,
        warning="The docs source timed out.",
    )
    section = check_rendered(answer, render_answer(answer))
    assert section is not None
    assert [item.split(" ", 1)[0] for item in section.items] == ["[1]", "[2]", "[3]", "[4]"]
    assert section.item_links == [
        ["https://stackoverflow.com/q/3940128"],
        ["http://example.org/page?a=1&b=2"],
        [],
        ["https://github.com/python/cpython/blob/main/x.c"],
    ]


def test_an_answer_without_citations_has_no_sources_section() -> None:
    answer = Answer(text="I can answer at most two questions at once.", declined=True)
    assert "Sources" not in render_answer(answer)
    assert check_rendered(answer, render_answer(answer)) is None


def test_escaping_keeps_ordinary_titles_readable() -> None:
    assert escape_markdown("How do I reverse a list in Python?") == (
        "How do I reverse a list in Python?"
    )
    assert escape_markdown("__init__ and\nnewlines") == "\\_\\_init\\_\\_ and newlines"


HOSTILE_MARKDOWN = [
    "<script>alert(document.cookie)</script>",
    "Read <img src=x onerror=alert(1)> this.",
    "[the docs](javascript:alert(1)) and [more](JaVa&#x73;cript:alert(2))",
    "![pixel](data:image/svg+xml;base64,PHN2Zz4=)",
    "<javascript:alert(1)>",
    "[ref]: javascript:alert(1)\n\n[click][ref]",
    "<!-- a comment --> <?php echo 1; ?> <![CDATA[x]]>",
    "[x]( vbscript:msgbox(1) )",
]


def test_safe_markdown_leaves_no_raw_html_and_no_script_link() -> None:
    for text in HOSTILE_MARKDOWN:
        assert_safe_for_clients(safe_markdown(text))


def test_safe_markdown_keeps_code_links_and_comparisons_as_they_were() -> None:
    kept = (
        'Use `<br>` in HTML, or:\n\n```html\n<script src="app.js"></script>\n```\n\n'
        "See [the docs](https://docs.python.org/3/) and <https://pypi.org/>, "
        "[a page](../index.html#top), [mail](mailto:a@b.c); 1 < 2."
    )
    assert safe_markdown(kept) == kept
    assert safe_markdown("List<String> and <b>bold</b>") == "List&lt;String> and &lt;b>bold&lt;/b>"
    assert safe_markdown("[docs](javascript:alert(1)) here") == "docs here"


@given(
    st.lists(
        st.sampled_from(
            [
                "<script>",
                "</script>",
                "<img src=x onerror=alert(1)>",
                "<a href='x'>",
                "`code <b>`",
                "```",
                "~~~",
                "\n",
                "[t](javascript:x)",
                "[t](https://a.b)",
                "![i](data:x)",
                "<https://a.b>",
                "<javascript:x>",
                " text ",
                "&#60;",
                "\\",
                "[r]: javascript:x",
                "[r]",
                "<!--",
                "-->",
                "    ",
                "> ",
                "- ",
            ]
        ),
        max_size=30,
    )
)
def test_no_arrangement_of_hostile_pieces_gets_through(pieces: list[str]) -> None:
    assert_safe_for_clients(safe_markdown("".join(pieces)))
