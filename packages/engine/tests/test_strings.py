"""What CodeWeaver says, per language: every file parses and says what English says."""

from __future__ import annotations

import string

import pytest

from codeweaver_engine.strings import STRINGS_DIR, StringsError, languages, parse_strings, texts


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _file(language: str) -> dict[str, dict[str, str]]:
    path = STRINGS_DIR / f"{language}.toml"
    return parse_strings(path.read_text(encoding="utf-8"), origin=str(path))


def test_english_and_korean_are_there() -> None:
    assert {"en", "ko"} <= set(languages())


@pytest.mark.parametrize("language", languages())
def test_every_text_parses_and_fills_the_same_placeholders_as_english(language: str) -> None:
    english, own = _file("en"), _file(language)
    for section, texts_ in own.items():
        assert section in english, section
        for key, text in texts_.items():
            assert key in english[section], f"{section}.{key}"
            assert _placeholders(text) == _placeholders(english[section][key]), f"{section}.{key}"


def test_a_language_without_a_text_says_it_in_english() -> None:
    assert texts("ko", "decline")["searched"] == "검색한 곳"
    assert texts("ko", "turn")["truncated"] == texts("en", "turn")["truncated"]
    assert texts("fr", "answer") == texts("en", "answer")


def test_a_file_that_is_not_a_table_of_texts_is_refused() -> None:
    with pytest.raises(StringsError, match=r"decline\.title is not a text"):
        parse_strings("[decline]\ntitle = 3\n", origin="xx.toml")
    with pytest.raises(StringsError, match="not a table"):
        parse_strings('title = "Title"\n', origin="xx.toml")
