from __future__ import annotations

import numpy as np

from codeweaver_cache import HitModel, HitRule, PairFeatures
from codeweaver_cache.decision import Candidate, hit_or_miss, words_to_embed
from codeweaver_schema import Answer

RULE = HitRule()


def candidate(question: str, similarity: float, entry_id: str = "e1") -> Candidate:
    return Candidate(
        entry_id=entry_id,
        question=question,
        similarity=similarity,
        answer=Answer(text=f"answer {entry_id}", grounded=True),
        fingerprint=entry_id,
        created_at=0.0,
        expires_at=1.0,
        sources=(),
    )


def unit(*values: float) -> np.ndarray:
    vector = np.array(values, dtype=np.float32)
    return vector / np.linalg.norm(vector)


def test_the_same_question_hits_whatever_the_model_says() -> None:
    strict = HitRule(min_confidence=1.0)
    result = hit_or_miss(
        "How do I reverse a list?", [candidate("how do i reverse a list", 0.99)], strict
    )
    assert result.decision.hit
    assert result.decision.reason.startswith("same_question")


def test_below_the_floor_misses() -> None:
    result = hit_or_miss("Sort a list", [candidate("Parse a date", 0.42)], RULE)
    assert not result.decision.hit
    assert result.decision.reason.startswith("below_threshold")


def test_a_swapped_word_needs_a_paraphrase() -> None:
    query, cached = "How do I delete a folder in Python?", "How do I delete a file in Python?"
    found = [candidate(cached, 0.93)]
    assert words_to_embed(query, found, RULE) == ["file", "folder"]
    apart = {"folder": unit(1, 0, 0), "file": unit(0.5, 1, 0)}
    missed = hit_or_miss(query, found, RULE, apart)
    assert not missed.decision.hit
    assert "different things" in missed.decision.reason
    alike = {"folder": unit(1, 0, 0), "file": unit(1, 0.1, 0)}
    assert "different things" not in hit_or_miss(query, found, RULE, alike).decision.reason


def test_a_swap_without_word_vectors_is_never_a_paraphrase() -> None:
    result = hit_or_miss(
        "Check if a value exists in a dict",
        [candidate("Check if a key exists in a dict", 0.95)],
        RULE,
    )
    assert not result.decision.hit
    assert "different things" in result.decision.reason


def test_a_close_rival_with_another_answer_lowers_confidence() -> None:
    query = "reverse a list `xs` in place"
    cached = "How to reverse a list in place?"
    alone = hit_or_miss(query, [candidate(cached, 0.9)], RULE)
    crowded = hit_or_miss(
        query, [candidate(cached, 0.9), candidate("Reverse a list in place", 0.89, "e2")], RULE
    )
    assert alone.decision.hit, alone.decision.reason
    assert not crowded.decision.hit
    assert crowded.decision.reason.startswith("low_confidence")


def test_the_model_weighs_words_only_the_cached_question_has() -> None:
    model = RULE.model
    base = PairFeatures(0.1, 3, 1, 0, 0, 0)
    more_specific = PairFeatures(0.1, 3, 1, 2, 0, 1)
    assert model.confidence(more_specific) < model.confidence(base)
    assert model.confidence(PairFeatures(0.3, 3, 1, 0, 0, 0)) > model.confidence(base)


def test_confidence_is_a_logistic_of_the_weighted_features() -> None:
    model = HitModel(intercept=-1.0, weights=(10.0, 1.0, 0.0, 0.0, 0.0, -1.0))
    features = PairFeatures(0.1, 2, 0, 0, 0, 1)
    assert abs(model.confidence(features) - 1 / (1 + np.exp(-(-1.0 + 1.0 + 2.0 - 1.0)))) < 1e-9
