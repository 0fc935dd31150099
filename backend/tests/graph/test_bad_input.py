"""Bad input through the whole graph: a clear answer, never a crash."""

from __future__ import annotations

import re

import pytest
from langchain_core.messages import HumanMessage

from .conftest import MakeHarness


async def test_empty_and_whitespace_get_a_clear_request(make_harness: MakeHarness) -> None:
    h = make_harness()
    for text in ["", "   \n\t  "]:
        values, nodes, _ = await h.ask(text, thread=f"t{len(text)}")
        assert values["routing"].route == "empty"
        assert "no question" in values["answer"].text
        assert "search" not in nodes


async def test_huge_input_is_bounded_with_a_notice(make_harness: MakeHarness) -> None:
    h = make_harness(max_question_chars=4_000)
    text = "How do I reverse a list in Python? " + "x " * 50_000
    assert len(text) > 100_000
    values, _, _ = await h.ask(text)
    assert len(values["question"]) <= 4_001
    assert values["notices"]
    assert "only the first 4,000" in values["notices"][0]
    assert values["answer"].text.startswith("_Your message was")


async def test_nul_and_control_characters_are_dropped(make_harness: MakeHarness) -> None:
    h = make_harness()
    values, _, _ = await h.ask("How do I\x00 reverse\x07 a list\x1b in Python?")
    assert values["question"] == "How do I reverse a list in Python?"
    assert values["answer"].citations


async def test_korean_question_is_answered_in_korean_headings(make_harness: MakeHarness) -> None:
    h = make_harness()
    values, _, _ = await h.ask("파이썬에서 list를 reverse 하는 방법은?")
    assert values["analysis"].language == "ko"
    assert "언어 모델 없이" in values["answer"].text


async def test_message_content_as_blocks(make_harness: MakeHarness) -> None:
    h = make_harness()
    config = {"configurable": {"thread_id": "blocks"}}
    message = HumanMessage(content=[{"type": "text", "text": "How do I reverse a list in Python?"}])
    out = await h.graph.ainvoke({"messages": [message]}, config, context=h.context)
    assert out["answer"].citations


CODE_ONLY = "for i in range(10):\n    print(i)\nitems = [1, 2, 3]\nitems.reverse()\n"


async def test_code_without_a_question_gets_a_graceful_answer(make_harness: MakeHarness) -> None:
    h = make_harness()
    values, nodes, _ = await h.ask(CODE_ONLY)
    assert values["routing"].route == "single"
    assert values["analysis"].intent == "code_review"
    # The sources are asked about what the code uses, not sent the code itself.
    first = h.source.queries[0]
    assert first.startswith("Python code using ")
    assert "reverse" in first
    assert "items = [1, 2, 3]" not in first
    answer = values["answer"]
    assert "code but no question" in answer.text
    assert answer.citations
    assert "search" in nodes


async def test_a_fenced_snippet_alone_is_searched_without_its_fences(
    make_harness: MakeHarness,
) -> None:
    h = make_harness()
    values, _, _ = await h.ask("```python\nwith open('data.txt') as f:\n    rows = f.read()\n```")
    assert all("```" not in q for q in h.source.queries)
    assert h.source.queries[0].startswith("Python code using open")
    assert values["answer"].text.strip()


TRACES = {
    "python": (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/views.py", line 42, in render\n'
        '    title = record["name"]\n'
        "KeyError: 'name'",
        "Python KeyError: 'name'",
    ),
    "javascript": (
        "TypeError: Cannot read properties of undefined (reading 'map')\n"
        "    at App (webpack://app/src/App.js:12:19)\n"
        "    at renderWithHooks (react-dom.development.js:14985:18)",
        "JavaScript TypeError: Cannot read properties of undefined (reading 'map')",
    ),
    "java": (
        'Exception in thread "main" java.lang.IllegalStateException: boot failed\n'
        "\tat com.example.App.start(App.java:31)\n"
        'Caused by: java.lang.NumberFormatException: For input string: "abc"\n'
        "\tat java.base/java.lang.Integer.parseInt(Integer.java:668)\n"
        "\t... 1 more",
        'java.lang.NumberFormatException: For input string: "abc"',
    ),
}


@pytest.mark.parametrize("runtime", sorted(TRACES))
async def test_a_stack_trace_alone_searches_for_its_exception(
    make_harness: MakeHarness, runtime: str
) -> None:
    trace, query = TRACES[runtime]
    h = make_harness()
    values, _, _ = await h.ask(trace, thread=runtime)
    assert values["analysis"].intent == "debugging"
    assert h.source.queries[0] == query
    for sent in h.source.queries:
        assert "Traceback" not in sent
        assert ", line " not in sent
        assert "(App.java" not in sent
        assert "App.js:12" not in sent
    assert values["answer"].text.strip()


async def test_mixed_korean_and_english_is_searched_in_english(make_harness: MakeHarness) -> None:
    h = make_harness()
    values, _, _ = await h.ask("파이썬에서 list를 reverse 하는 방법?")
    assert values["analysis"].language == "ko"
    assert h.source.queries[0] == "python list reverse"
    assert not any(re.search("[가-힣]", q) for q in h.source.queries)
    answer = values["answer"]
    assert answer.language == "ko"
    assert "언어 모델 없이" in answer.text
    assert "**출처:**" in answer.text
    assert answer.citations


async def test_answer_language_setting_wins_over_the_question_language(
    make_harness: MakeHarness,
) -> None:
    h = make_harness(answer_language="en")
    values, _, _ = await h.ask("파이썬에서 list를 reverse 하는 방법?")
    assert h.source.queries[0] == "python list reverse"
    answer = values["answer"]
    assert answer.language == "en"
    assert "without a language model" in answer.text
    assert "**From:**" in answer.text


THREE_OR_MORE = {
    "lines": "How do I reverse a list?\nHow do I sort a dict by value?\nHow do I read a file?",
    "numbered": "1. How do I reverse a list\n2. How do I sort a dict by value\n"
    "3. How do I read a file",
    "inline parens": "Quick ones: 1) reverse a list 2) sort a dict by value 3) read a file",
    "bullets": "- how to reverse a list\n- how to sort a dict by value\n- how to read a file",
    "semicolons": "How do I reverse a list; how do I sort a dict by value; how do I read a file",
    "and also": "How do I reverse a list and also how do I sort a dict by value and also how do I "
    "read a file?",
    "commas": "How do I reverse a list, how do I sort a dict by value, and how do I read a file?",
    "korean marks": "리스트를 뒤집는 방법은? 딕셔너리를 값으로 정렬하는 방법은? "
    "파일을 읽는 방법은?",
    "korean separators": "리스트 뒤집는 방법 그리고 딕셔너리 정렬 방법 그리고 "
    "파일 읽는 방법 알려줘",
}


@pytest.mark.parametrize("shape", sorted(THREE_OR_MORE))
async def test_three_or_more_questions_are_declined_with_a_listing(
    make_harness: MakeHarness, shape: str
) -> None:
    h = make_harness()
    values, nodes, _ = await h.ask(THREE_OR_MORE[shape], thread=shape)
    assert values["routing"].route == "too_many"
    assert "search" not in nodes
    text = values["answer"].text
    listing = [line for line in text.splitlines() if re.match(r"^\d\. ", line)]
    assert len(listing) == 3, text
    assert re.search("list|리스트", listing[0])
    assert re.search("dict|딕셔너리", listing[1])
    assert re.search("file|파일", listing[2])
    assert "at most two" in text or "최대 두 개" in text


@pytest.mark.parametrize(
    "text",
    [
        "Why does for (i = 0; i < n; i++) print every number twice in C?",
        "Why does `for (i = 0; i < n; i++) { a; b; }` print twice?",
        "How do I read and write a file in Python?",
        "How do I open a file, which is very large, and read it line by line?",
    ],
)
async def test_one_question_with_semicolons_or_and_stays_one(
    make_harness: MakeHarness, text: str
) -> None:
    h = make_harness()
    values, _, _ = await h.ask(text)
    assert values["routing"].route == "single", values["plan"]


@pytest.mark.parametrize(
    "text",
    [
        "How do I reverse a list? How do I sort a dict by value?",
        "How do I reverse a list and how do I sort a dict by value?",
        "How do I reverse a list; how do I sort a dict by value?",
    ],
)
async def test_two_questions_are_both_answered(make_harness: MakeHarness, text: str) -> None:
    h = make_harness()
    values, _, _ = await h.ask(text)
    assert values["routing"].route == "multi", values["plan"]
    sections = re.findall(r"^## \d\. ", values["answer"].text, flags=re.MULTILINE)
    assert len(sections) == 2


async def test_a_megabyte_of_text_is_cut_with_a_visible_notice(make_harness: MakeHarness) -> None:
    h = make_harness()
    text = "How do I reverse a list in Python? " + "lorem ipsum dolor sit amet " * 40_000
    assert len(text) > 1_000_000
    values, _, _ = await h.ask(text)
    assert len(values["question"]) <= h.context.max_question_chars + 1
    answer = values["answer"].text
    assert answer.startswith(f"_Your message was {len(text.strip()):,} characters long; only")
    assert f"{h.context.max_question_chars:,} were read" in answer
    assert all(len(q) <= 2_000 for q in h.source.queries)
