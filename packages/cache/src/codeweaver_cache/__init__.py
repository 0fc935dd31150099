"""CodeWeaver's semantic answer cache: lookup and store subgraphs that never serve a wrong hit."""

from codeweaver_cache.context import CacheContext
from codeweaver_cache.decision import HitModel, HitRule, PairFeatures
from codeweaver_cache.evaluation import CacheEvalReport, evaluate_cache
from codeweaver_cache.graph import (
    build_cache_lookup_graph,
    build_cache_store_graph,
    lookup_graph,
    store_graph,
)
from codeweaver_cache.guards import Comparison, compare
from codeweaver_cache.state import (
    CacheState,
    CacheUpdate,
    LookupOutput,
    LookupUpdate,
    StoreOutput,
    fresh_cache_fields,
)
from codeweaver_cache.store import (
    Admission,
    CacheScope,
    CacheStats,
    CacheUnavailableError,
    SemanticCache,
)
from codeweaver_cache.traps import (
    ParaphraseReport,
    TrapReport,
    evaluate_paraphrases,
    evaluate_traps,
)
from codeweaver_cache.verifier import CacheVerdict

__all__ = [
    "Admission",
    "CacheContext",
    "CacheEvalReport",
    "CacheScope",
    "CacheState",
    "CacheStats",
    "CacheUnavailableError",
    "CacheUpdate",
    "CacheVerdict",
    "Comparison",
    "HitModel",
    "HitRule",
    "LookupOutput",
    "LookupUpdate",
    "PairFeatures",
    "ParaphraseReport",
    "SemanticCache",
    "StoreOutput",
    "TrapReport",
    "build_cache_lookup_graph",
    "build_cache_store_graph",
    "compare",
    "evaluate_cache",
    "evaluate_paraphrases",
    "evaluate_traps",
    "fresh_cache_fields",
    "lookup_graph",
    "store_graph",
]
