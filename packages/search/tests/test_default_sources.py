from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from codeweaver_runtime import Infrastructure
from codeweaver_search.context import SearchContext
from codeweaver_search.sources import GitHubCodeSource, Source, TavilyDocsSource, default_sources


def test_web_sources_are_shared_by_tenants_and_local_documents_are_not(tmp_path: Path) -> None:
    """Quotas and backoff are per API key and address: every tenant must see the same limiter."""
    infra = Infrastructure(qdrant_path=str(tmp_path / "qdrant"))
    alice = default_sources(SearchContext(tenant="alice"), infra)
    bob = default_sources(SearchContext(tenant="bob"), infra)
    for name in ("stackoverflow", "github", "docs"):
        assert alice[name] is bob[name], name
    assert alice["local"] is not bob["local"]
    assert default_sources(SearchContext(tenant="alice"), infra)["local"] is alice["local"]


@pytest.mark.parametrize(
    ("make", "variable"),
    [(TavilyDocsSource, "TAVILY_API_KEY"), (GitHubCodeSource, "GITHUB_TOKEN")],
)
def test_a_web_source_without_its_key_is_skipped_with_a_reason(
    monkeypatch: pytest.MonkeyPatch, make: Callable[[], Source], variable: str
) -> None:
    monkeypatch.delenv(variable, raising=False)
    assert variable in (make().unavailable_reason() or "")
