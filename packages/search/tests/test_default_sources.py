from __future__ import annotations

from pathlib import Path

import numpy as np

from codeweaver_corpus.packs.store import pack_folder, write_pack
from codeweaver_engine.packs.format import embedding_text
from codeweaver_engine.packs.units import DocUnit
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, Infrastructure, get_embedder
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


async def test_a_run_restricted_to_an_installed_library_searches_that_pack_alone(
    tmp_path: Path,
) -> None:
    embedder = get_embedder(DEFAULT_EMBEDDING_MODEL)
    unit = DocUnit(
        kind="api",
        doc="tinylib",
        doc_title="tinylib",
        section="tinylib",
        anchor="tinylib.Table.dropna",
        name="tinylib.Table.dropna",
        directive="method",
        signatures=["tinylib.Table.dropna(how='any')"],
        text="Remove the rows that hold missing values.",
        module="tinylib",
    )
    vectors = embedder.embed_sync([embedding_text(unit)])
    manifest = {
        "name": "tinylib",
        "version": "1.2.0",
        "source": "installed",
        "embedding_model": embedder.model_id,
    }
    folder = pack_folder(tmp_path, "tinylib", "1.2.0", embedder.model_id)
    write_pack(folder, [unit], [], vectors, np.zeros((0, vectors.shape[1])), manifest)
    infra = Infrastructure(data_dir=tmp_path, qdrant_path=str(tmp_path / "qdrant"))

    local = default_sources(SearchContext(search_library="tinylib"), infra)["local"]
    found = await local.search(
        "drop the rows with missing values", intent="learning", language="en", limit=3
    )
    assert [e.meta.file for e in found] == ["tinylib-docs-1.2.0/tinylib.rst"]  # type: ignore[union-attr]
    assert not (tmp_path / "qdrant").exists(), "the ingested documents stay closed"
    nothing = default_sources(SearchContext(search_library="notinstalled"), infra)["local"]
    assert await nothing.search("dropna", intent="learning", language="en", limit=3) == []
