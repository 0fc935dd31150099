"""Cache traps: pairs of different questions, where any hit is a wrong hit.

A trap file is tab-separated, one pair per line: `cached question<TAB>new question`. Lines
starting with `#` and blank lines are skipped. For each pair, the cached question is stored
with a synthetic answer (as in the pairs protocol) in a scope of its own, and the new question
is looked up through the compiled lookup graph, exactly as the main graph runs it. Each pair
has its scope to itself, so no other entry competes with the trap: the decision rests on the
guards and the hit model alone, the hardest case for them.
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


@dataclass(frozen=True)
class TrapOutcome:
    """What the lookup decided for one trap pair."""

    cached: str
    query: str
    hit: bool
    reason: str
    similarity: float | None


@dataclass(frozen=True)
class TrapReport:
    """Wrong hits of the cache on pairs of questions that must not share an answer."""

    n: int
    wrong_hits: int
    model_calls: int
    """Chat-model calls made by all lookups (0 unless a verifier is configured)."""
    pairs: list[TrapOutcome] = field(default_factory=list)

    def to_json(self) -> str:
        """The report as one JSON object."""
        return json.dumps(asdict(self), indent=2, ensure_ascii=False)


def load_traps(path: Path) -> list[tuple[str, str]]:
    """The (cached question, new question) pairs of a trap file.

    Raises:
        ValueError: A line does not hold exactly two non-empty questions.
    """
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [part.strip() for part in line.split("\t")]
        if len(parts) != 2 or not all(parts):
            raise ValueError(f"{path}:{number}: expected 'cached question<TAB>new question'")
        pairs.append((parts[0], parts[1]))
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
    settings = context or CacheContext()
    lookup = build_cache_lookup_graph(cache=cache)
    counter = ModelCallCounter()
    outcomes = []
    for i, (cached, query) in enumerate(load_traps(traps)):
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
                hit=decision.hit,
                reason=decision.reason,
                similarity=decision.similarity,
            )
        )
        await cache.invalidate_scope(tenant=pair_context.tenant)
    return TrapReport(
        n=len(outcomes),
        wrong_hits=sum(o.hit for o in outcomes),
        model_calls=counter.calls,
        pairs=outcomes,
    )
