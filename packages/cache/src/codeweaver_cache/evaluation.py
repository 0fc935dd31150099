"""The cache evaluation of issue 4, on pairs of one question written two ways.

Protocol (kept exactly, so figures compare across versions): the cache holds one entry per
`question_id`, keyed by that question's first `intent`, its answer a text naming the id. Each
row's `rewritten_intent` is a query, run twice through the real lookup steps:

(a) with the true entry present: a hit on it is correct, a hit on another entry is wrong, no
    hit is a miss;
(b) with the true entry removed: any hit is a false hit.

precision = correct / (correct + wrong + false hits); the rates divide by n, the rows.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel

from codeweaver_cache.decision import HitRule
from codeweaver_cache.store import CacheScope, CacheUnavailableError, SemanticCache
from codeweaver_cache.verifier import PendingHit, verify
from codeweaver_runtime import ModelCallError
from codeweaver_schema import Answer

_TTL_S = 365 * 24 * 3600.0


@dataclass(frozen=True)
class CacheEvalReport:
    """Hit quality of the cache on duplicate-question pairs."""

    n: int
    entries: int
    correct: int
    wrong: int
    false_hits: int
    precision: float
    correct_hit_rate: float
    wrong_hit_rate: float
    false_hit_rate: float
    median_lookup_ms: float
    verifier: bool
    rule: dict[str, float]

    def to_json(self) -> str:
        """The report as one JSON object."""
        return json.dumps(asdict(self), indent=2)


def load_pairs(pairs: Path, limit: int | None = None) -> list[dict[str, Any]]:
    """The rows of a pairs file (JSON lines with question_id, intent, rewritten_intent)."""
    rows = [json.loads(line) for line in pairs.read_text().splitlines() if line.strip()]
    return rows[:limit] if limit is not None else rows


async def evaluate_cache(
    pairs: Path,
    *,
    cache: SemanticCache,
    rule: HitRule | None = None,
    verifier: BaseChatModel | None = None,
    verifier_timeout_s: float = 30.0,
    limit: int | None = None,
    tenant: str = "eval",
) -> CacheEvalReport:
    """Run the protocol on a pairs file against a cache (use an empty or throwaway one).

    Args:
        pairs: JSON lines with `question_id`, `intent` and `rewritten_intent`.
        cache: the cache to fill; entries go to their own tenant, wiped first.
        rule: hit thresholds; the calibrated defaults when omitted.
        verifier: a chat model that confirms hits, as the graph's verify step does.
        verifier_timeout_s: bound on one verifier call.
        limit: evaluate only the first rows.
        tenant: tenant of the evaluation entries.
    """
    rule = rule or HitRule()
    rows = load_pairs(pairs, limit)
    scope = cache.scope(tenant, "eval")
    await cache.invalidate_scope(tenant=tenant)

    keys: dict[int, str] = {}
    for row in rows:
        keys.setdefault(int(row["question_id"]), str(row["intent"]))
    answers = {qid: _answer(qid) for qid in keys}
    ids = await cache.put_many([(keys[qid], answers[qid]) for qid in keys], scope, ttl_s=_TTL_S)
    entry_of = dict(zip(keys, ids, strict=True))

    correct = wrong = false_hits = 0
    latencies: list[float] = []
    for row in rows:
        qid, query = int(row["question_id"]), str(row["rewritten_intent"])
        hit_entry = await _timed_lookup(
            cache, query, scope, rule, verifier, verifier_timeout_s, latencies
        )
        if hit_entry == entry_of[qid]:
            correct += 1
        elif hit_entry is not None:
            wrong += 1
        await cache.invalidate(entry_of[qid])
        if await _timed_lookup(cache, query, scope, rule, verifier, verifier_timeout_s, latencies):
            false_hits += 1
        await cache.put(keys[qid], answers[qid], scope, ttl_s=_TTL_S)
    await cache.invalidate_scope(tenant=tenant)

    n = len(rows)
    hits = correct + wrong + false_hits
    return CacheEvalReport(
        n=n,
        entries=len(keys),
        correct=correct,
        wrong=wrong,
        false_hits=false_hits,
        precision=round(correct / hits, 4) if hits else 1.0,
        correct_hit_rate=round(correct / n, 4) if n else 0.0,
        wrong_hit_rate=round(wrong / n, 4) if n else 0.0,
        false_hit_rate=round(false_hits / n, 4) if n else 0.0,
        median_lookup_ms=round(statistics.median(latencies), 2) if latencies else 0.0,
        verifier=verifier is not None,
        rule=asdict(rule),
    )


async def _timed_lookup(
    cache: SemanticCache,
    query: str,
    scope: CacheScope,
    rule: HitRule,
    verifier: BaseChatModel | None,
    verifier_timeout_s: float,
    latencies: list[float],
) -> str | None:
    """One lookup as the graph runs it; the entry id on a hit, None on a miss."""
    started = time.perf_counter()
    try:
        result = await cache.lookup(query, scope, rule)
    except CacheUnavailableError:
        return None
    finally:
        latencies.append((time.perf_counter() - started) * 1000)
    if not result.decision.hit or result.candidate is None:
        return None
    if verifier is not None:
        pending = PendingHit(
            query=query,
            entry_id=result.candidate.entry_id,
            matched_question=result.candidate.question,
            similarity=result.candidate.similarity,
            answer=result.candidate.answer,
            reason=result.decision.reason,
        )
        try:
            verdict = await verify(verifier, pending, timeout_s=verifier_timeout_s)
        except ModelCallError:
            return None
        if not verdict.same_question:
            return None
    return result.candidate.entry_id


def _answer(question_id: int) -> Answer:
    return Answer(
        text=f"The accepted answer of Stack Overflow question {question_id}.", grounded=True
    )
