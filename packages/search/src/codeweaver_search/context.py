"""Run settings of the search subgraph, shown by LangGraph Studio as the assistant's configuration.

The backend's context inherits `SearchContext` next to the other packages' contexts, so every
field carries the `search_` prefix. API keys are never settings: sources read them from the
environment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from codeweaver_runtime import RuntimeContext, setting
from codeweaver_schema import SourceName

ALL_SOURCES: tuple[SourceName, ...] = get_args(SourceName)
MAX_ROUNDS = 6
"""Ceiling of `search_max_iterations`, whatever a configuration asks: it bounds the loop, and
with it the graph's recursion limit."""
MAX_SOURCE_TIMEOUT_S = 120.0
"""Ceiling of `search_source_timeout_s`; the shared web sources are built with it, and each
search is bounded by the run's own timeout."""


@dataclass(kw_only=True)
class SearchContext(RuntimeContext):
    """How the search subgraph retrieves, judges and refines."""

    search_sources: list[SourceName] = setting(
        factory=lambda: list(ALL_SOURCES),
        description="Sources to ask: stackoverflow, github, docs, local. A source without "
        "its key (GITHUB_TOKEN, TAVILY_API_KEY) is skipped with a reason in errors.",
    )
    search_library: str = setting(
        "",
        pattern="[A-Za-z0-9][A-Za-z0-9._-]{0,99}|",
        pattern_help="a pack's name (python, documents, an installed library's) or empty",
        description="Search only this pack of the local documents: 'python' (the bundled "
        "Python documentation), an installed library's pack (`codeweaver packs` lists them), "
        "or 'documents' (your ingested files); empty: the Python documentation and your files.",
    )
    search_max_iterations: int = setting(
        2,
        bounds=(1, MAX_ROUNDS),
        description="Retrieval rounds at most, the first one included; each further "
        "round searches again with a refined query. 1 disables refinement; at most 6.",
    )
    search_top_k: int = setting(
        8, bounds=(1, 50), description="Evidence items kept after reranking."
    )
    search_results_per_source: int = setting(
        5,
        bounds=(1, 50),
        description="Results asked of each source per round, before intent policy.",
    )
    search_source_timeout_s: float = setting(
        10.0,
        bounds=(0.5, MAX_SOURCE_TIMEOUT_S),
        description="Time one source may take per round, in seconds.",
    )
    search_sufficiency_threshold: float = setting(
        0.6,
        bounds=(0.0, 2.0),
        description="Sufficiency score (0-1) at which the evidence is judged enough and "
        "the loop stops; above 1, never enough (every round runs).",
    )
    search_intent_policy: bool = setting(
        True,
        description="Weigh sources by intent: debugging asks Stack Overflow for more, "
        "learning favours official docs, code review favours GitHub code.",
    )
    search_model_candidates: int = setting(
        12,
        bounds=(1, 50),
        description="Evidence items sent to the judge model in its one call per round "
        "(the best by embedding similarity).",
    )


def max_rounds(context: SearchContext) -> int:
    """The configured number of rounds, clamped to 1..`MAX_ROUNDS`."""
    return max(1, min(context.search_max_iterations, MAX_ROUNDS))
