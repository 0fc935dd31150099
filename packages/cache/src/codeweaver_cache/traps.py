"""Cache traps (pairs of different questions: any hit is wrong) and paraphrases (should hit).

A pair file is tab-separated, one pair per line: `cached question<TAB>new question`, and
optionally a third column naming the pair's kind (`direction`, `scope`...), which the report
counts apart. Lines starting with `#` and blank lines are skipped. For each pair, the cached
question is stored with a synthetic answer (as in the pairs protocol) in a scope of its own, and
the new question is looked up through the compiled lookup graph, exactly as the main graph runs
it. Each pair has its scope to itself, so no other entry competes: the decision rests on the
guards and the hit model alone, the hardest case for a trap.

The same run over pairs that ask the same question (`evaluate_paraphrases`) gives the share that
hits: a guard that blocks everything has no wrong hits on traps, and shows up there.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from codeweaver_cache.context import CacheContext
from codeweaver_cache.graph import build_cache_lookup_graph
from codeweaver_cache.store import SemanticCache
from codeweaver_runtime import ModelCallCounter
from codeweaver_schema import Answer

_TTL_S = 24 * 3600.0
_CORPUS_VERSION = "traps"


UNMARKED = "unmarked"
"""The kind of a pair whose line names none."""


@dataclass(frozen=True)
class TrapPair:
    """One line of a pair file."""

    cached: str
    query: str
    kind: str = UNMARKED


@dataclass(frozen=True)
class TrapOutcome:
    """What the lookup decided for one pair."""

    cached: str
    query: str
    kind: str
    hit: bool
    reason: str
    similarity: float | None


@dataclass(frozen=True)
class KindCount:
    """Pairs of one kind and how many of them hit."""

    n: int
    hits: int


@dataclass(frozen=True)
class TrapReport:
    """Wrong hits of the cache on pairs of questions that must not share an answer."""

    n: int
    wrong_hits: int
    model_calls: int
    """Chat-model calls made by all lookups (0 unless a verifier is configured)."""
    by_kind: dict[str, KindCount] = field(default_factory=dict)
    """Each kind's pairs and wrong hits (`hits`)."""
    pairs: list[TrapOutcome] = field(default_factory=list)

    def to_json(self) -> str:
        """The report as one JSON object."""
        return json.dumps(asdict(self), indent=2, ensure_ascii=False)


@dataclass(frozen=True)
class ParaphraseReport:
    """Hits of the cache on pairs of one question asked two ways: the more the better."""

    n: int
    hits: int
    hit_rate: float
    model_calls: int
    by_kind: dict[str, KindCount] = field(default_factory=dict)
    pairs: list[TrapOutcome] = field(default_factory=list)

    def to_json(self) -> str:
        """The report as one JSON object."""
        return json.dumps(asdict(self), indent=2, ensure_ascii=False)


def load_traps(path: Path) -> list[TrapPair]:
    """The pairs of a pair file: cached question, new question and, if the line says, kind.

    Raises:
        ValueError: A line does not hold two non-empty questions and at most a kind.
    """
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [part.strip() for part in line.split("\t")]
        if len(parts) not in (2, 3) or not all(parts):
            raise ValueError(
                f"{path}:{number}: expected 'cached question<TAB>new question[<TAB>kind]'"
            )
        pairs.append(TrapPair(*parts))
    return pairs


async def evaluate_traps(
    traps: Path,
    *,
    cache: SemanticCache,
    context: CacheContext | None = None,
    tenant: str = "traps",
) -> TrapReport:
    """Store each pair's first question, look up its second through the lookup graph.

    Args:
        traps: The trap file.
        cache: The cache to use (a throwaway one: each pair's scope is wiped after it).
        context: Lookup settings (thresholds, verifier); the defaults when omitted.
        tenant: Prefix of the per-pair tenants.
    """
    outcomes, calls = await _look_up_pairs(traps, cache, context, tenant)
    return TrapReport(
        n=len(outcomes),
        wrong_hits=sum(o.hit for o in outcomes),
        model_calls=calls,
        by_kind=_by_kind(outcomes),
        pairs=outcomes,
    )


async def evaluate_paraphrases(
    pairs: Path,
    *,
    cache: SemanticCache,
    context: CacheContext | None = None,
    tenant: str = "same",
) -> ParaphraseReport:
    """Like `evaluate_traps`, on pairs that ask the same question: every hit is right.

    Args:
        pairs: A pair file (the trap format) of paraphrases.
        cache: The cache to use (a throwaway one: each pair's scope is wiped after it).
        context: Lookup settings (thresholds, verifier); the defaults when omitted.
        tenant: Prefix of the per-pair tenants.
    """
    outcomes, calls = await _look_up_pairs(pairs, cache, context, tenant)
    hits = sum(o.hit for o in outcomes)
    return ParaphraseReport(
        n=len(outcomes),
        hits=hits,
        hit_rate=round(hits / len(outcomes), 4) if outcomes else 0.0,
        model_calls=calls,
        by_kind=_by_kind(outcomes),
        pairs=outcomes,
    )


def _by_kind(outcomes: list[TrapOutcome]) -> dict[str, KindCount]:
    kinds = sorted({o.kind for o in outcomes})
    return {
        kind: KindCount(
            n=sum(o.kind == kind for o in outcomes),
            hits=sum(o.hit for o in outcomes if o.kind == kind),
        )
        for kind in kinds
    }


async def _look_up_pairs(
    path: Path, cache: SemanticCache, context: CacheContext | None, tenant: str
) -> tuple[list[TrapOutcome], int]:
    """Each pair's first question stored, its second looked up; the outcomes and model calls."""
    settings = context or CacheContext()
    lookup = build_cache_lookup_graph(cache=cache)
    counter = ModelCallCounter()
    outcomes = []
    for i, pair in enumerate(load_traps(path)):
        cached, query = pair.cached, pair.query
        pair_context = replace(
            settings, tenant=f"{tenant}-{i}", cache_corpus_version=_CORPUS_VERSION
        )
        scope = cache.scope(pair_context.tenant, _CORPUS_VERSION)
        answer = Answer(text=f"The answer to: {cached}", grounded=True)
        await cache.put(cached, answer, scope, ttl_s=_TTL_S)
        out = await lookup.ainvoke(
            {"question": query}, {"callbacks": [counter]}, context=pair_context
        )
        decision = out["cache_decision"]
        outcomes.append(
            TrapOutcome(
                cached=cached,
                query=query,
                kind=pair.kind,
                hit=decision.hit,
                reason=decision.reason,
                similarity=decision.similarity,
            )
        )
        await cache.invalidate_scope(tenant=pair_context.tenant)
    return outcomes, counter.calls
