from __future__ import annotations

import json
from pathlib import Path

import pytest

from codeweaver_cache import SemanticCache, evaluate_paraphrases, evaluate_traps
from codeweaver_cache.traps import UNMARKED, KindCount, TrapPair, load_traps

TRAPS = Path(__file__).resolve().parents[3] / "data" / "cache_traps.tsv"


def is_korean(text: str) -> bool:
    return any("\uac00" <= ch <= "\ud7a3" for ch in text)


def test_the_trap_file_has_enough_pairs_of_both_languages() -> None:
    pairs = load_traps(TRAPS)
    assert len(pairs) >= 40
    assert all(p.cached != p.query for p in pairs)
    assert len([p for p in pairs if is_korean(p.query)]) >= 10


def test_the_trap_file_marks_each_pair_s_kind_with_issue_29_s_two_kinds() -> None:
    pairs = load_traps(TRAPS)
    assert all(p.kind != UNMARKED for p in pairs)
    for kind in ("direction", "scope"):
        of_kind = [p for p in pairs if p.kind == kind]
        assert len(of_kind) >= 20
        assert len([p for p in of_kind if is_korean(p.query)]) >= 5


def test_malformed_trap_lines_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("# a comment\n\nonly one question\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.tsv:3"):
        load_traps(bad)
    bad.write_text("a\tb\tkind\textra\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.tsv:1"):
        load_traps(bad)


def test_a_trap_line_may_name_its_kind(tmp_path: Path) -> None:
    traps = tmp_path / "traps.tsv"
    traps.write_text("a question\tanother\tscope\nthird\tfourth\n", encoding="utf-8")
    assert load_traps(traps) == [
        TrapPair("a question", "another", "scope"),
        TrapPair("third", "fourth", UNMARKED),
    ]


async def test_traps_report_each_decision_and_count_wrong_hits(
    cache: SemanticCache, tmp_path: Path
) -> None:
    traps = tmp_path / "traps.tsv"
    traps.write_text(
        "# one trap, and one pair that is the same question, which must count as a wrong hit\n"
        "How do I delete a file in Python?\tHow do I delete a folder in Python?\tswapped word\n"
        "How do I reverse a list in Python?\thow do I reverse a list in python\tsame\n",
        encoding="utf-8",
    )
    report = await evaluate_traps(traps, cache=cache)
    assert (report.n, report.wrong_hits, report.model_calls) == (2, 1, 0)
    assert report.by_kind == {"same": KindCount(1, 1), "swapped word": KindCount(1, 0)}
    first, second = report.pairs
    assert not first.hit
    assert first.reason.startswith("details_differ")
    assert second.hit
    assert second.reason.startswith("same_question")
    assert json.loads(report.to_json())["wrong_hits"] == 1
    assert await cache.count() == 0


@pytest.mark.slow
async def test_no_trap_of_the_trap_file_hits(cache: SemanticCache) -> None:
    report = await evaluate_traps(TRAPS, cache=cache)
    hits = [(p.query, p.reason) for p in report.pairs if p.hit]
    assert hits == []
    assert report.model_calls == 0


async def test_paraphrases_report_the_share_that_hits(cache: SemanticCache, tmp_path: Path) -> None:
    pairs = tmp_path / "same.tsv"
    pairs.write_text(
        "How do I reverse a list in Python?\thow do I reverse a list in python\tsame\n"
        "How to convert a Unix timestamp to a datetime in Python?\t"
        "How to convert a datetime to a Unix timestamp in Python?\tdirection\n",
        encoding="utf-8",
    )
    report = await evaluate_paraphrases(pairs, cache=cache)
    # The second pair is a trap, not a paraphrase: a guard that blocks it lowers the hit rate.
    assert (report.n, report.hits, report.hit_rate) == (2, 1, 0.5)
    assert report.by_kind == {"direction": KindCount(1, 0), "same": KindCount(1, 1)}
    assert json.loads(report.to_json())["hit_rate"] == 0.5
    assert await cache.count() == 0


SAME = TRAPS.parent / "cache_same.tsv"


def test_the_paraphrase_file_has_both_kinds_in_both_languages() -> None:
    pairs = load_traps(SAME)
    assert len(pairs) >= 40
    for kind in ("direction", "scope"):
        of_kind = [p for p in pairs if p.kind == kind]
        assert len(of_kind) >= 15
        assert [p for p in of_kind if is_korean(p.query)]


@pytest.mark.slow
async def test_the_guards_let_paraphrases_of_the_trap_kinds_through(cache: SemanticCache) -> None:
    # A guard that blocks everything passes the traps; it does not pass this.
    report = await evaluate_paraphrases(SAME, cache=cache)
    assert report.hit_rate >= 0.9, [(p.query, p.reason) for p in report.pairs if not p.hit]
