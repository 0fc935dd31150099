import pytest

from codeweaver_engine.language.intent import classify_intent
from codeweaver_engine.language.korean import english_gloss
from codeweaver_engine.language.prose import is_code_line, prose_only
from codeweaver_engine.language.script import detect_language
from codeweaver_engine.language.words import clean_text, content_words, split_sentences, stem
from codeweaver_engine.markup import default_role_names, grid_table_rows, html_to_text, rst_roles
from codeweaver_runtime import redact
from codeweaver_testing import HashEmbedder


def test_clean_text_drops_control_characters_but_keeps_lines() -> None:
    assert clean_text("a\x00b\x07c\n\td") == "abc\n\td"


def test_language_by_script() -> None:
    assert detect_language("파이썬에서 list를 reverse 하려면?") == "ko"
    assert detect_language("Pythonでリストを逆順にするには?") == "ja"
    assert detect_language("How do I reverse a list?") == "en"
    assert detect_language("") == "en"


def test_identifiers_and_versions_stay_whole() -> None:
    assert content_words("Use os.path.join in Python 3.11") == ["os.path.join", "python", "3.11"]


@pytest.mark.parametrize(
    "forms",
    [
        ("numbers", "number"),
        ("copies", "copied", "copy"),
        ("sorted", "sorting", "sorts", "sort"),
        ("removes", "removing", "removed", "remove"),
        ("classes", "class"),
        ("matches", "matched", "matching", "match"),
        ("strings", "string"),
        ("running", "run"),
        ("processes", "processing", "process"),
    ],
)
def test_stem_folds_plurals_and_verb_endings_together(forms: tuple[str, ...]) -> None:
    assert len({stem(word) for word in forms}) == 1, [stem(word) for word in forms]


@pytest.mark.parametrize(
    "word", ["string", "thing", "using", "exceed", "status", "analysis", "keys", "3.11", "__init__"]
)
def test_stem_leaves_words_without_an_ending_whole(word: str) -> None:
    assert stem(word) == word


def test_stem_without_verbs_folds_plurals_only() -> None:
    assert stem("numbers", verbs=False) == stem("number", verbs=False) == "number"
    assert stem("boxes", verbs=False) == "box"
    assert stem("sorting", verbs=False) == "sorting"
    assert stem("sorted", verbs=False) == "sorted"


def test_code_blocks_are_one_sentence() -> None:
    assert split_sentences("First one. Second one.\n\n```py\nx = 1. y\n```") == [
        "First one.",
        "Second one.",
        "```py\nx = 1. y\n```",
    ]


def test_korean_questions_get_english_terms() -> None:
    assert english_gloss("파이썬에서 리스트를 뒤집는 방법은?") == "python list reverse"
    assert english_gloss("딕셔너리를 값으로 정렬하려면?") == "dictionary dict value sort"
    # A one-syllable stem counts where a word starts, not inside another word (시키 is not 키).
    assert english_gloss("예외를 직접 발생시키려면") == "exception raise"
    assert english_gloss("16진수 문자열을 int로") == "hexadecimal hex string int"
    assert english_gloss("How do I sort a dict?") == ""
    # Everyday words beyond the first glossary: orders, number theory, timing, Unix time.
    descending = "list descending order reverse sort"
    assert english_gloss("리스트를 내림차순으로 정렬하려면?") == descending
    assert "gcd" in english_gloss("두 수의 최대공약수를 구하려면?")
    assert "elapsed" in english_gloss("코드 실행 시간을 측정하려면?")
    assert "epoch" in english_gloss("유닉스 시간을 날짜로 변환")


def test_secrets_are_masked_in_log_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_0123456789abcdef")
    line = "GET https://api.example/search?q=x&key=s3cr3tk3y&site=so ghp_0123456789abcdef"
    assert redact(line) == "GET https://api.example/search?q=x&key=***&site=so ***"


def test_server_tokens_are_masked_alone_and_with_their_identity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(
        "CODEWEAVER_API_KEYS", "alice:alice-token-0123456789, bob:bob-token-abcdefghij"
    )
    line = "Authorization: Bearer alice-token-0123456789 keys=bob:bob-token-abcdefghij"
    masked = redact(line)
    assert "alice-token" not in masked
    assert "bob-token" not in masked
    assert masked.startswith("Authorization: Bearer ***")


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("파이썬에서 파일을 열면 오류가 발생해요", "debugging"),
        ("이 함수 리뷰 좀 해주세요", "code_review"),
        ('Traceback (most recent call last):\n  File "a.py", line 1', "debugging"),
        ("Please review my parser", "code_review"),
        ("ValueError when I parse a date", "debugging"),
    ],
)
async def test_intent_rules_read_korean_and_english(question: str, intent: str) -> None:
    assert (await classify_intent(question, None))[0] == intent


async def test_intent_without_a_rule_is_the_nearest_description_or_learning() -> None:
    question = "What problems do you see in this code?"
    assert (await classify_intent(question, HashEmbedder()))[0] == "code_review"
    assert (await classify_intent(question, None))[0] == "learning"
    # Korean with no English terms and no glossary word: nothing to compare, the common case.
    assert (await classify_intent("안녕하세요", HashEmbedder())) == (
        "learning",
        "no English terms to compare; learning is the common case",
    )


async def test_a_question_without_code_is_never_a_review_by_resemblance() -> None:
    # Word for word a review prototype, but about no code of the user's: a how-to question.
    asked = "Is a set implementation idiomatic and correct?"
    assert (await classify_intent(asked, HashEmbedder()))[0] != "code_review"
    # The same words pointing at code, or holding some, are a review.
    assert (await classify_intent("Is this implementation idiomatic and correct?", HashEmbedder()))[
        0
    ] == "code_review"
    with_code = (
        "Is it idiomatic and correct?\n```python\nfor i in range(len(xs)): print(xs[i])\n```"
    )
    assert (await classify_intent(with_code, HashEmbedder()))[0] == "code_review"


def test_prose_only_sets_code_and_traces_aside() -> None:
    text = "Why?\n```py\nx = 1\n```\n    indented()\nTraceback (most recent call last):\nok `a`"
    assert prose_only(text).split() == ["Why?", "ok", "code"]


@pytest.mark.parametrize(
    "line",
    [
        "for i in range(10):",
        "    i += 1",
        "i = 0",
        "x=[1, 2]",
        ">>> s.reverse()",
        "import json",
        "from os import path",
        "data = json.loads(text)",
        "os.path.join(a, b)",
        "const ids = items.map(x => x.id);",
        "function show(items) {",
        "})",
        "else:",
        "# a comment",
    ],
)
def test_code_lines_are_code(line: str) -> None:
    assert is_code_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "How do I use print() in Python?",
        "Why is x = 1 wrong here",
        "What's the difference between a = b and a == b",
        "convert a string of bytes into an int (python)",
        "If I call the function twice it returns None",
        "For example, the list below:",
        "Return a new list with the items in reverse order (see sorted).",
        "",
    ],
)
def test_prose_and_questions_are_not_code(line: str) -> None:
    assert not is_code_line(line)


def test_html_keeps_code_fenced_and_inline() -> None:
    html = (
        "<p>Use <code>reversed()</code>:</p><pre class='lang-py'><code>for x in reversed(a):\n"
        "    print(x)\n</code></pre><ul><li>one</li><li>two</li></ul>"
        "<p><img src='x.png' alt='a  diagram'> &amp; done</p>"
    )
    page = html_to_text(html)
    assert page.title is None
    assert "Use `reversed()`:" in page.text
    assert "```py\nfor x in reversed(a):\n    print(x)\n```" in page.text
    assert "- one\n- two" in page.text
    assert "[image: a diagram] & done" in page.text


def test_html_page_title_headings_and_what_is_dropped() -> None:
    html = """<html><head><title>Sorting
    HOW TO</title><style>p{}</style></head><body><script>alert('x')</script>
    <h2>Key <code>functions</code></h2><table><tr><th>a </th><td>b</td></tr>
    <tr><td>c</td><td>d</td></tr></table></body></html>"""
    title, text = html_to_text(html)
    assert title == "Sorting HOW TO"
    assert "alert" not in text
    assert "p{}" not in text
    assert "## Key `functions`" in text
    assert "a | b\n\nc | d" in text
    assert html_to_text("<h1>Only <b>heading</b></h1><p>x</p>").title == "Only heading"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (":func:`~os.path.join`", "`join()`"),
        (":meth:`str.join`", "`str.join()`"),
        (":func:`print(*args)`", "`print(*args)`"),
        (":py:class:`collections.OrderedDict`", "`collections.OrderedDict`"),
        (":c:func:`malloc`", "`malloc()`"),
        (":attr:`.errno`", "`errno`"),
        (":class:`~.HTMLParser`", "`HTMLParser`"),
        (":exc:`!KeyError`", "`KeyError`"),
        (":ref:`the guide <guide>`", "the guide"),
        (":ref:`<guide>`", "guide"),
        (":term:`~iterator`", "iterator"),
        (":kbd:`Ctrl-C`", "Ctrl-C"),
        (":pep:`8`", "PEP 8"),
        (":rfc:`2822`", "RFC 2822"),
        ("no role: `code` and ``literal``", "no role: `code` and ``literal``"),
    ],
)
def test_rst_roles_read_as_sphinx_shows_them(text: str, shown: str) -> None:
    assert rst_roles(text) == shown


def test_rst_roles_as_plain_text() -> None:
    text = "See :func:`~os.path.join`, :ref:`the guide <guide>` and :pep:`8`."
    assert rst_roles(text, code=False) == "See join(), the guide and PEP 8."


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            "passed to the `~.FigureCanvasBase.new_manager` method",
            "passed to the `new_manager` method",
        ),
        ("The `~matplotlib.axes.Axes` class.", "The `Axes` class."),
        ("call `.pyplot.close` on the figures", "call `pyplot.close` on the figures"),
        ("The `_orm.Session` is not safe", "The `Session` is not safe"),
        ("see `_sql.Select.where`", "see `Select.where`"),
        # Code that looks alike stays code: an inversion, an accessor, a plain name.
        ("select with `~mask`", "select with `~mask`"),
        ("the `.str` accessor", "the `.str` accessor"),
        ("`Figure.savefig`", "`Figure.savefig`"),
    ],
)
def test_default_role_cross_references_read_as_sphinx_shows_them(text: str, shown: str) -> None:
    assert default_role_names(text) == shown


def test_grid_table_rows_fold_continuation_lines_into_their_row() -> None:
    rows = [
        "| Name | Meaning     |",
        "| ``x`` | first part |",
        "|      | second part |",
        "| y | z |",
    ]
    assert grid_table_rows(rows) == [
        ["Name", "Meaning"],
        ["``x``", "first part second part"],
        ["y", "z"],
    ]


def test_a_sentence_goes_on_after_e_g_and_i_e() -> None:
    assert split_sentences("Pass a label, e.g. `5`. Or a list, i.e. Several labels. Done.") == [
        "Pass a label, e.g. `5`.",
        "Or a list, i.e. Several labels.",
        "Done.",
    ]
