"""Run settings of the cache subgraphs; the backend's context inherits them.

Every field is prefixed `cache_` because the backend's context inherits this class together
with the other packages' contexts.
"""

from __future__ import annotations

from dataclasses import dataclass

from codeweaver_cache.decision import HitRule
from codeweaver_engine.stamp import answers_version
from codeweaver_runtime import RuntimeContext, setting

_RULE = HitRule()


@dataclass(kw_only=True)
class CacheContext(RuntimeContext):
    """How the semantic answer cache looks up, verifies and stores answers."""

    cache_enabled: bool = setting(
        True, description="Look answers up in the semantic cache and store new ones."
    )
    cache_ttl_s: float = setting(
        7 * 24 * 3600.0,
        bounds=(0.0, 365 * 24 * 3600.0),
        description="Lifetime of a cached answer in seconds, fixed when it is stored "
        "(hits do not extend it).",
    )
    cache_top_k: int = setting(
        _RULE.top_k,
        bounds=(1, 50),
        description="Candidates fetched by embedding similarity per lookup.",
    )
    cache_min_similarity: float = setting(
        _RULE.min_similarity,
        bounds=(0.0, 1.0),
        description="Minimum cosine similarity of the key questions; also the rival a "
        "candidate must lead (scripts/calibrate_cache.py).",
    )
    cache_min_confidence: float = setting(
        _RULE.min_confidence,
        bounds=(0.0, 1.0),
        description="Minimum confidence of the fitted hit model (cross-validated by "
        "scripts/calibrate_cache.py): higher serves fewer, surer hits.",
    )
    cache_min_word_similarity: float = setting(
        _RULE.min_word_similarity,
        bounds=(0.0, 1.0),
        description="Cosine similarity two swapped words need to count as paraphrases "
        "when the questions differ by one word each.",
    )
    cache_verifier_model: str = setting(
        "",
        description="Model that confirms a candidate hit: '' for none (a hit then costs "
        "no model call), 'judge' for the judge role's model, or provider:model.",
    )
    cache_timeout_s: float = setting(
        2.0,
        bounds=(0.1, 60.0),
        description="Bound on one cache search or store (embedding and Qdrant); a "
        "slower cache counts as a miss.",
    )
    cache_corpus_version: str = setting(
        factory=answers_version,
        description="Version of what answers are drawn from; entries of other versions "
        "are invisible. Default: the engine's stamp of this install (every file of the "
        "offline engine and the corpus package with their data, and the manifests of the "
        "packs in use), so an upgrade never serves an answer the new release would not give.",
    )

    def cache_rule(self) -> HitRule:
        """The hit thresholds this context sets."""
        return HitRule(
            min_similarity=self.cache_min_similarity,
            min_confidence=self.cache_min_confidence,
            min_word_similarity=self.cache_min_word_similarity,
            top_k=self.cache_top_k,
        )
