from __future__ import annotations

from pathlib import Path

from codeweaver_runtime import Infrastructure
from codeweaver_search.context import SearchContext
from codeweaver_search.sources import default_sources


def test_web_sources_are_shared_by_tenants_and_local_documents_are_not(tmp_path: Path) -> None:
    """Quotas and backoff are per API key and address: every tenant must see the same limiter."""
    infra = Infrastructure(qdrant_path=str(tmp_path / "qdrant"))
    alice = default_sources(SearchContext(tenant="alice"), infra)
    bob = default_sources(SearchContext(tenant="bob"), infra)
    for name in ("stackoverflow", "github", "docs"):
        assert alice[name] is bob[name], name
    assert alice["local"] is not bob["local"]
    assert default_sources(SearchContext(tenant="alice"), infra)["local"] is alice["local"]
