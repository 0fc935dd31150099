"""The guards' word tables are data: every table parses, and a broken one is refused."""

from __future__ import annotations

import pytest

from codeweaver_engine import lexicon
from codeweaver_engine.lexicon import LEXICON_FILE, LexiconError, parse_lexicon


def test_every_table_of_the_lexicon_parses() -> None:
    tables = parse_lexicon(LEXICON_FILE.read_text(encoding="utf-8"))
    assert set(tables) == {*lexicon.WORD_TABLES, *lexicon.MAPPINGS, *lexicon.PAIR_TABLES}
    assert all(tables[name] for name in tables)


def test_the_tables_read_as_the_guards_use_them() -> None:
    assert lexicon.NUMBER_WORDS["two"] == "2"
    assert lexicon.SYNONYMS["size"] == "length"
    assert (
        frozenset({"encode", "encoding", "encoded"}),
        frozenset({"decode", "decoding", "decoded"}),
    ) in lexicon.OPPOSITES
    assert ("in", "out") in lexicon.PARTICLE_OPPOSITES
    assert "GET" in lexicon.HTTP_METHODS
    assert lexicon.KOREAN_PARTICLES.index("에서는") < lexicon.KOREAN_PARTICLES.index("는")
    assert lexicon.KOREAN_PHRASES["압축 해제"] == "압축해제"


def test_a_missing_or_unknown_table_is_refused() -> None:
    text = LEXICON_FILE.read_text(encoding="utf-8")
    with pytest.raises(LexiconError, match=r"missing \['negations'\]"):
        parse_lexicon(text.replace("[negations]", "[negation]"))


@pytest.mark.parametrize(
    ("table", "broken"),
    [
        ('words = """\na an the', 'words = 3\nrest = """\na an the'),
        ("pairs = [\n", 'pairs = [\n    ["alone"],\n'),
        ('integer = "int"', "integer = 1"),
    ],
)
def test_a_table_of_the_wrong_shape_is_refused(table: str, broken: str) -> None:
    text = LEXICON_FILE.read_text(encoding="utf-8")
    assert table in text
    with pytest.raises(LexiconError):
        parse_lexicon(text.replace(table, broken, 1))
