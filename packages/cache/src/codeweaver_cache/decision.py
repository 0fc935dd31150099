"""The hit decision over search results: guards first, then a small fitted model.

Only the best candidate can hit, and only when

1. its cosine similarity reaches the floor (`HitRule.min_similarity`);
2. no answer-determining detail differs (`guards.compare`), and, when the two questions differ
   by one word each, those two words are paraphrases (the synonym table folds them to one stem,
   or their embeddings are close);
3. the hit model is confident enough (`HitRule.min_confidence`). The model is a logistic
   regression over six pair features, fitted on training folds of the CoNaLa pairs and checked
   on held-out folds by `scripts/calibrate_cache.py`: how far the candidate leads the next one
   (a rival with another answer, or the floor itself), how many content words the questions
   share, how many only one of them has, and how many of those name a kind of data.

A question identical to the cached one (same normalised key) hits without the model: nothing
differs to weigh.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from codeweaver_cache.guards import Comparison, compare, is_korean, swapped_words
from codeweaver_engine.language.reading import canonical_stem
from codeweaver_schema import Answer, CacheDecision

WordVectors = Mapping[str, NDArray[np.float32]]
"""Unit-length embeddings of single words, for judging whether two swapped words agree."""


def normalise_question(question: str) -> str:
    """The form of a key question that decides identity: case, spacing, end punctuation."""
    flat = " ".join(question.lower().split())
    return re.sub(r"[\s?!.。？！]+$", "", flat)


@dataclass(frozen=True)
class Candidate:
    """A cached entry returned by a similarity search."""

    entry_id: str
    question: str
    similarity: float
    answer: Answer
    fingerprint: str
    created_at: float
    expires_at: float
    sources: tuple[str, ...]


@dataclass(frozen=True)
class LookupResult:
    """What the embedding and guard steps decided; `pending` still needs a verifier."""

    decision: CacheDecision
    candidate: Candidate | None = None
    comparison: Comparison | None = None
    pending: bool = False


@dataclass(frozen=True)
class PairFeatures:
    """What the hit model reads about a query and its best candidate."""

    margin: float
    """Lead of the candidate's similarity over the next candidate with another answer, or
    over the similarity floor when no rival is closer than that."""
    shared: int
    """Content words both questions have."""
    query_only: int
    """Content words only the query has."""
    cached_only: int
    """Content words only the cached question has."""
    query_only_kinds: int
    """Of `query_only`, words naming a kind of data or thing (list, file, key...)."""
    cached_only_kinds: int
    """Of `cached_only`, words naming a kind of data or thing."""

    def vector(self) -> tuple[float, ...]:
        """The features in `HitModel.weights` order."""
        return (
            self.margin,
            float(self.shared),
            float(self.query_only),
            float(self.cached_only),
            float(self.query_only_kinds),
            float(self.cached_only_kinds),
        )


FEATURE_NAMES = (
    "margin",
    "shared",
    "query_only",
    "cached_only",
    "query_only_kinds",
    "cached_only_kinds",
)


@dataclass(frozen=True)
class HitModel:
    """A logistic regression over `PairFeatures`: P(the candidate asks the same question)."""

    intercept: float
    weights: tuple[float, ...]
    """One weight per `FEATURE_NAMES` entry, on the features' own scale."""

    def confidence(self, features: PairFeatures) -> float:
        """The modelled probability that the candidate's answer answers the query."""
        logit = self.intercept + sum(
            w * x for w, x in zip(self.weights, features.vector(), strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(min(logit, 60.0), -60.0)))


FITTED_MODEL = HitModel(
    intercept=-2.9556,
    weights=(18.7209, 0.6591, -0.2112, -0.3297, 0.4887, -0.8573),
)
"""Fitted by `scripts/calibrate_cache.py` on all 1,429 CoNaLa pairs with all-MiniLM-L6-v2."""


@dataclass(frozen=True)
class HitRule:
    """The calibrated rule a candidate must pass before a verifier sees it.

    Defaults come from `scripts/calibrate_cache.py` (cross-validated on the CoNaLa pairs with
    all-MiniLM-L6-v2; see the package README for the curve).
    """

    min_similarity: float = 0.5
    """Cosine similarity floor of the key questions; also the rival every candidate must lead."""
    min_confidence: float = 0.78
    """Threshold on the hit model's confidence: higher serves fewer, surer hits."""
    min_word_similarity: float = 0.7
    """Cosine similarity two swapped words need to count as paraphrases."""
    model: HitModel = field(default=FITTED_MODEL)
    """The fitted hit model."""
    top_k: int = 5
    """Candidates fetched by embedding."""


def features(
    best: Candidate, found: Sequence[Candidate], comparison: Comparison, floor: float
) -> PairFeatures:
    """The pair features of the best candidate among the search results."""
    rival = next((c.similarity for c in found[1:] if c.fingerprint != best.fingerprint), floor)
    return PairFeatures(
        margin=best.similarity - max(rival, floor),
        shared=len(comparison.shared),
        query_only=len(comparison.query_only),
        cached_only=len(comparison.cached_only),
        query_only_kinds=comparison.query_only_kinds,
        cached_only_kinds=comparison.cached_only_kinds,
    )


def words_to_embed(question: str, found: Sequence[Candidate], rule: HitRule) -> list[str]:
    """The words `hit_or_miss` will compare by embedding for these results (none, or two)."""
    if not found or found[0].similarity < rule.min_similarity:
        return []
    comparison = compare(question, found[0].question)
    swap = swapped_words(comparison)
    if not comparison.agree or swap is None:
        return []
    return sorted({w for side in swap for w in side if not is_korean(w)})


def paraphrases(a: str, b: str, vectors: WordVectors, min_similarity: float) -> bool:
    """True when two words mean the same: one stem, or embeddings at least `min_similarity`.

    Korean words, which the embedding model cannot tell apart, count only through the lexicon.
    """
    if canonical_stem(a) == canonical_stem(b):
        return True
    if is_korean(a) or is_korean(b) or a not in vectors or b not in vectors:
        return False
    return float(np.dot(vectors[a], vectors[b])) >= min_similarity


def _unmatched(
    query_words: Sequence[str], cached_words: Sequence[str], vectors: WordVectors, floor: float
) -> list[str]:
    """Words of the side with fewer differing words that no word of the other side paraphrases."""
    fewer, more = sorted((query_words, cached_words), key=len)
    return [w for w in fewer if not any(paraphrases(w, o, vectors, floor) for o in more)]


def hit_or_miss(
    question: str,
    found: Sequence[Candidate],
    rule: HitRule,
    word_vectors: WordVectors | None = None,
) -> LookupResult:
    """Decide whether the best search result answers the question, and say why.

    Only the best candidate can hit. When it fails a check the lookup misses rather than
    falling back to a less similar entry: a near-twin that differs in a detail says this
    question is new.

    Args:
        question: The key question of the lookup.
        found: Search results, most similar first.
        rule: Thresholds and the hit model.
        word_vectors: Embeddings of the words `words_to_embed` named; a word without one is
            not a paraphrase of anything.
    """
    if not found:
        return LookupResult(CacheDecision(hit=False, reason="empty: no cached question in scope"))
    best = found[0]
    similarity = round(best.similarity, 4)

    def outcome(hit: bool, reason: str, comparison: Comparison | None = None) -> LookupResult:
        decision = CacheDecision(
            hit=hit,
            reason=reason,
            entry_id=best.entry_id,
            similarity=similarity,
            matched_question=best.question,
        )
        return LookupResult(decision, best, comparison)

    if normalise_question(question) == normalise_question(best.question):
        return outcome(True, f"same_question: similarity {similarity}")
    if best.similarity < rule.min_similarity:
        return outcome(False, f"below_threshold: similarity {similarity} < {rule.min_similarity}")
    comparison = compare(question, best.question)
    if not comparison.agree:
        return outcome(False, f"details_differ: {'; '.join(comparison.conflicts)}", comparison)
    swap = swapped_words(comparison)
    if swap is not None:
        unmatched = _unmatched(*swap, word_vectors or {}, rule.min_word_similarity)
        if unmatched:
            return outcome(
                False,
                f"details_differ: different things: {', '.join(swap[0])} vs"
                f" {', '.join(swap[1])} ({', '.join(unmatched)} has no paraphrase)",
                comparison,
            )
    pair = features(best, found, comparison, rule.min_similarity)
    confidence = rule.model.confidence(pair)
    if confidence < rule.min_confidence:
        return outcome(
            False,
            f"low_confidence: {confidence:.2f} < {rule.min_confidence} (lead {pair.margin:.3f}, "
            f"{pair.shared} shared words, {pair.query_only} only in the query, "
            f"{pair.cached_only} only in the cached question)",
            comparison,
        )
    return outcome(
        True,
        f"similar: similarity {similarity}, details agree, confidence {confidence:.2f}",
        comparison,
    )
