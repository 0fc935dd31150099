"""Bad input through the whole graph: a clear answer, never a crash."""

from __future__ import annotations

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
