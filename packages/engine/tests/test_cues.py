"""Cue phrases, per language: every entry compiles, and each cue tries every language's."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeweaver_engine.language.cues import CUES_DIR, CueFileError, alternatives, cue, parse_cues


@pytest.mark.parametrize("path", sorted(CUES_DIR.glob("*.toml")), ids=lambda p: p.stem)
def test_every_cue_of_a_language_file_compiles(path: Path) -> None:
    cues = parse_cues(path.read_text(encoding="utf-8"), origin=str(path))
    assert cues
    assert all(cues.values())


def test_a_cue_tries_english_first_then_the_other_languages() -> None:
    wants_code = alternatives("wants_code").split("|")
    assert wants_code[0] == "example"
    assert "예시" in wants_code
    assert wants_code.index("show") < wants_code.index("예시")
    assert cue("debugging").search("코드가 작동하지 않아요")
    assert cue("debugging").search("It raises a KeyError")


def test_a_cue_no_language_says_is_an_error() -> None:
    with pytest.raises(KeyError, match="no cue file says"):
        alternatives("no_such_cue")


def test_an_entry_that_does_not_compile_is_refused() -> None:
    with pytest.raises(CueFileError, match="debugging"):
        parse_cues('debugging = ["(unclosed"]\n', origin="xx.toml")
    with pytest.raises(CueFileError, match="not a list"):
        parse_cues('debugging = "error"\n', origin="xx.toml")
