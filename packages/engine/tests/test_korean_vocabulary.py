"""The one Korean vocabulary: every entry parses, and each reader reads its own column."""

from __future__ import annotations

import pytest

from codeweaver_engine.language.korean import (
    VOCABULARY_FILE,
    KoreanWord,
    VocabularyError,
    cache_readings,
    english_gloss,
    korean_glossary,
    korean_vocabulary,
    parse_vocabulary,
)
from codeweaver_engine.language.reading import korean_word


def test_every_entry_of_the_vocabulary_parses() -> None:
    entries = parse_vocabulary(VOCABULARY_FILE.read_text(encoding="utf-8"))
    assert len(entries) > 1000
    assert entries == list(korean_vocabulary())


@pytest.mark.parametrize(
    ("stem", "search", "cache"),
    [
        ("크기", "size", "length"),
        ("제거", "remove", "delete"),
        ("병합", "merge", "combine"),
        ("파일", "file", "file"),
    ],
)
def test_where_the_cache_reads_a_word_otherwise_the_file_says_so(
    stem: str, search: str, cache: str
) -> None:
    assert korean_glossary()[stem].split()[0] == search
    assert cache_readings()[stem] == cache
    assert english_gloss(f"{stem}를 구하는 방법").split()[0] == search
    assert korean_word(f"{stem}를")[0] == cache


def test_a_word_only_the_cache_reads_is_not_searched_with() -> None:
    assert "커밋" not in korean_glossary()
    assert cache_readings()["커밋"] == "commit"
    assert korean_word("커밋을")[0] == "commit"


def test_a_library_s_words_are_searched_with_and_read_alike_by_the_cache() -> None:
    assert korean_glossary()["데이터프레임"] == "dataframe"
    assert cache_readings()["데이터프레임"] == "dataframe"
    assert korean_word("데이터프레임을")[0] == "dataframe"
    # "어떻게 하나요" asks how; it is not the stem 하나 ("one").
    assert "one" not in english_gloss("그래프를 그리려면 어떻게 하나요?").split()


def test_a_word_only_the_search_reads_is_left_as_written_by_the_cache() -> None:
    assert korean_glossary()["장고"] == "django"
    assert "장고" not in cache_readings()
    assert korean_word("장고를")[0] == "장고"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("파일", "expected stem"),
        ("file\tfile\tfile", "no Korean in it"),
        ("파일\t\t", "no search terms"),
        ("파일\tfile\ta file", "one word"),
        ("파일\tfile\tfile\textra", "expected stem"),
    ],
)
def test_a_malformed_line_is_refused_with_its_number(line: str, problem: str) -> None:
    with pytest.raises(VocabularyError, match=f"test:2: .*{problem}"):
        parse_vocabulary(f"# comment\n{line}\n", origin="test")


def test_a_stem_appears_once() -> None:
    with pytest.raises(VocabularyError, match="appears twice"):
        parse_vocabulary("파일\tfile\n파일\t\tfile\n")


def test_two_and_three_columns_both_read() -> None:
    assert parse_vocabulary("목록\tlist\n찾기\t\tget\n") == [
        KoreanWord("목록", ("list",), None),
        KoreanWord("찾기", (), "get"),
    ]
