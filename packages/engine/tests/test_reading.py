"""The word reading the cache's guards and the composer share: Korean words and stems.

Which way a question goes is `test_direction.py`'s.
"""

from __future__ import annotations

import pytest

from codeweaver_engine.language.reading import canonical_stem, korean_word


@pytest.mark.parametrize(
    ("token", "word", "particle"),
    [
        ("파일을", "file", "을"),
        ("리스트로", "list", "로"),
        ("삭제하는", "delete", ""),
        ("길이를", "length", "를"),
        ("텍스트를", "텍스트", "를"),
        ("있는지", "있는지", ""),
    ],
)
def test_korean_words_are_read_without_particles_and_endings(
    token: str, word: str, particle: str
) -> None:
    assert korean_word(token)[0] == word
    if particle:
        assert korean_word(token)[1] == particle


def test_stems_fold_inflected_synonyms_together() -> None:
    assert canonical_stem("removing") == canonical_stem("deleted") == canonical_stem("remove")
    assert canonical_stem("creating") == canonical_stem("generate") == canonical_stem("make")
