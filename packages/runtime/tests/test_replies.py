"""Reasoning blocks removed and JSON found in what small models write."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codeweaver_runtime.replies import (
    ThinkingFilter,
    json_object_from_text,
    strip_thinking,
    without_trailing_commas,
)

REPLY = "Use `lst.reverse()` to reverse in place [1]; `a < b` stays."


@pytest.mark.parametrize(
    "text",
    [
        f"<think>\nHmm, {{braces}} and <tags>.\n</think>\n\n{REPLY}",
        f"<THINK>loud</THINK>{REPLY}",
        f"<think></think>{REPLY}",
        # A chat template that opened the block itself: only the closing tag is in the reply.
        f"First I reason about it.\n</think>\n{REPLY}",
        f"{REPLY}",
    ],
)
def test_thinking_is_removed_and_the_reply_kept(text: str) -> None:
    assert strip_thinking(text) == REPLY


def test_an_unfinished_block_is_all_reasoning() -> None:
    assert strip_thinking("<think>I never got to the answer") == ""


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=120), max_size=12))
def test_streamed_pieces_give_what_the_whole_text_gives(cuts: list[int]) -> None:
    text = f"<think>\nThe user wants </thi no, this is still thinking.\n</think>\n\n{REPLY}"
    bounds = sorted({min(c, len(text)) for c in cuts} | {0, len(text)})
    thinking = ThinkingFilter()
    shown = "".join(thinking.feed(text[a:b]) for a, b in itertools.pairwise(bounds))
    shown += thinking.flush()
    assert shown == REPLY
    assert thinking.saw_thinking


def test_a_stream_without_thinking_passes_through_piece_by_piece() -> None:
    thinking = ThinkingFilter()
    assert thinking.feed("Use `a <") == "Use `a "  # '<' might open a tag: held back
    assert thinking.feed(" b`.") == "< b`."
    assert thinking.flush() == ""
    assert not thinking.saw_thinking


@pytest.mark.parametrize(
    "text",
    [
        '{"grounded": true, "reason": "ok"}',
        '```json\n{"grounded": true, "reason": "ok"}\n```',
        'Sure! Here it is:\n{"grounded": true, "reason": "ok"}\nAnything else?',
        '<think>Is it {"grounded": false}? No.</think>\n{"grounded": true, "reason": "ok"}',
        '{"grounded": true, "reason": "ok",}',
        '```\n{"grounded": true, "reason": "ok", }\n```',
    ],
)
def test_json_is_found_in_fences_prose_and_after_thinking(text: str) -> None:
    assert json_object_from_text(text) == {"grounded": True, "reason": "ok"}


def test_trailing_commas_go_but_commas_in_strings_stay() -> None:
    text = '{"a": [1, 2,], "b": "x,}", "c": {"d": ",]",},}'
    assert without_trailing_commas(text) == '{"a": [1, 2], "b": "x,}", "c": {"d": ",]"}}'


def test_nested_objects_are_read_whole() -> None:
    text = 'Result: {"items": [{"item": "E1", "note": "a } in text"}], "ok": true} done'
    assert json_object_from_text(text) == {
        "items": [{"item": "E1", "note": "a } in text"}],
        "ok": True,
    }


@pytest.mark.parametrize("text", ["", "I cannot help with that.", "[1, 2, 3]", '{"cut": '])
def test_no_object_is_a_clear_error(text: str) -> None:
    with pytest.raises(ValueError, match="no JSON object"):
        json_object_from_text(text)
