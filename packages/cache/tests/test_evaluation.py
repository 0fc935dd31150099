from __future__ import annotations

import json
from pathlib import Path

from codeweaver_cache import SemanticCache, evaluate_cache
from codeweaver_testing import ScriptedChatModel, respond_with

PAIRS = Path(__file__).resolve().parents[3] / "data" / "paraphrase" / "conala_pairs.jsonl"


async def test_small_eval_report_arithmetic(cache: SemanticCache) -> None:
    report = await evaluate_cache(PAIRS, cache=cache, limit=50)
    assert report.n == 50
    hits = report.correct + report.wrong + report.false_hits
    assert report.precision == (round(report.correct / hits, 4) if hits else 1.0)
    assert report.correct_hit_rate == round(report.correct / 50, 4)
    assert report.wrong_hit_rate == round(report.wrong / 50, 4)
    assert report.false_hit_rate == round(report.false_hits / 50, 4)
    assert report.correct > 0
    assert report.median_lookup_ms > 0
    assert json.loads(report.to_json())["n"] == 50
    assert await cache.count() == 0


async def test_eval_with_a_rejecting_verifier_has_no_hits(cache: SemanticCache) -> None:
    model = ScriptedChatModel(
        responder=respond_with({"CacheVerdict": {"same_question": False, "reason": "no"}})
    )
    report = await evaluate_cache(PAIRS, cache=cache, limit=20, verifier=model)
    assert report.correct == report.wrong == report.false_hits == 0
    assert report.verifier
