from __future__ import annotations

import json
from pathlib import Path

import pytest

from codeweaver_cache import SemanticCache, evaluate_traps
from codeweaver_cache.traps import load_traps

TRAPS = Path(__file__).resolve().parents[3] / "data" / "cache_traps.tsv"


def test_the_trap_file_has_enough_pairs_of_both_languages() -> None:
    pairs = load_traps(TRAPS)
    assert len(pairs) >= 40
    assert all(cached != query for cached, query in pairs)
    korean = [p for p in pairs if any("\uac00" <= ch <= "\ud7a3" for ch in p[1])]
    assert len(korean) >= 10


def test_malformed_trap_lines_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("# a comment\n\nonly one question\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.tsv:3"):
        load_traps(bad)


async def test_traps_report_each_decision_and_count_wrong_hits(
    cache: SemanticCache, tmp_path: Path
) -> None:
    traps = tmp_path / "traps.tsv"
    traps.write_text(
        "# one trap, and one pair that is the same question, which must count as a wrong hit\n"
        "How do I delete a file in Python?\tHow do I delete a folder in Python?\n"
        "How do I reverse a list in Python?\thow do I reverse a list in python\n",
        encoding="utf-8",
    )
    report = await evaluate_traps(traps, cache=cache)
    assert (report.n, report.wrong_hits, report.model_calls) == (2, 1, 0)
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
