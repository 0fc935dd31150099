"""Memoised source results are shared only by runs that would have received the same results.

The search subgraph keeps each source's results for an hour (`RAW_RESPONSE_TTL_S`). Its key
once named the query alone, so one tenant's local results (her ingested documents) were served
to another. Now every key names the source's result scope: whose documents in which store and
embedding space for the local corpus, the API's address and key for a web source, and the
run's tenant for a source that does not say.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from codeweaver_engine.packs.catalog import packs_folder
from codeweaver_runtime import Infrastructure, StaticChatModels
from codeweaver_search import SearchContext, build_search_graph
from codeweaver_search.nodes import raw_response_key
from codeweaver_search.sources import (
    GitHubCodeSource,
    StackOverflowSource,
    default_sources,
    local_scope,
    result_scope,
)
from codeweaver_search.state import SourceTask
from codeweaver_testing import HashEmbedder
from codeweaver_testing.packs import api_unit, write_test_pack

from .helpers import FakeSource, fixed, make_evidence

QUESTION = "How do I reverse a list in Python?"


@dataclass
class PublicSource(FakeSource):
    """A source whose results are the same for everyone (as a web API's are)."""

    def result_scope(self) -> str | None:
        return "the same for everyone"


async def test_a_source_that_does_not_say_is_asked_again_for_another_tenant(
    embedder: HashEmbedder,
) -> None:
    local = FakeSource("local", fixed(make_evidence("local", "alice-notes", "reverse a list")))
    web = PublicSource("stackoverflow", fixed(make_evidence("stackoverflow", "q", "reverse")))
    graph = build_search_graph(
        models=StaticChatModels(None),
        sources={"local": local, "stackoverflow": web},
        embedder=embedder,
    )

    for tenant in ("alice", "bob", "alice", "bob"):
        context = SearchContext(
            chat_model="offline",
            tenant=tenant,
            search_sources=["local", "stackoverflow"],
            search_max_iterations=1,
        )
        await graph.ainvoke({"question": QUESTION}, context=context)

    assert len(local.queries) == 2, "once per tenant, then from the memo"
    assert len(web.queries) == 1, "public results are shared by tenants"


def test_the_key_names_the_scope() -> None:
    def key(scope: str) -> str:
        task = SourceTask(
            source="local",
            scope=scope,
            query=QUESTION,
            intent="learning",
            language="en",
            limit=5,
            iteration=1,
        )
        return raw_response_key({"search_task": task})

    assert key("alice's documents") != key("bob's documents")
    assert key("alice's documents") == key("alice's documents")


def test_the_local_scope_names_the_tenant_the_store_and_the_embedding_space(
    tmp_path: Path,
) -> None:
    infra = Infrastructure(data_dir=tmp_path, qdrant_path=str(tmp_path / "qdrant"))
    alice = local_scope(infra, "alice")
    assert alice == local_scope(infra, "alice")
    others = {
        local_scope(infra, "bob"),
        local_scope(Infrastructure(data_dir=tmp_path, qdrant_url="http://127.0.0.1:6333"), "alice"),
        local_scope(Infrastructure(data_dir=tmp_path / "other"), "alice"),
        local_scope(
            Infrastructure(
                data_dir=tmp_path, qdrant_path=str(tmp_path / "qdrant"), embedding_model="m2"
            ),
            "alice",
        ),
    }
    assert alice not in others
    assert len(others) == 4
    # The local source the server builds carries it, and a digest: no path in a checkpoint.
    local = default_sources(SearchContext(tenant="alice"), infra)["local"]
    assert result_scope(local, "anyone") == f"local:{alice}:none"
    assert str(tmp_path) not in alice


def test_the_local_scope_changes_when_a_library_is_ingested(tmp_path: Path) -> None:
    # Results memoised before a library's pack existed are not served once it does.
    infra = Infrastructure(data_dir=tmp_path, qdrant_path=str(tmp_path / "qdrant"))
    local = default_sources(SearchContext(tenant="alice"), infra)["local"]
    before = result_scope(local, "alice")
    unit = api_unit("pandas.DataFrame.dropna", "DataFrame.dropna()", "Remove missing values.")
    write_test_pack(packs_folder(tmp_path), "pandas", "3.1.1", [unit], HashEmbedder())
    after = result_scope(local, "alice")
    assert after != before
    assert after.startswith(before.removesuffix("none"))


def test_a_web_api_is_scoped_by_its_address_and_key_not_by_who_asks(tmp_path: Path) -> None:
    infra = Infrastructure(data_dir=tmp_path, qdrant_path=str(tmp_path / "qdrant"))
    alice = default_sources(SearchContext(tenant="alice"), infra)
    bob = default_sources(SearchContext(tenant="bob"), infra)
    for name in ("stackoverflow", "github", "docs"):
        assert result_scope(alice[name], "alice") == result_scope(bob[name], "bob"), name

    site = StackOverflowSource(base_url="http://127.0.0.1:9/so", key="k1")
    assert result_scope(site, "alice") == result_scope(site, "bob")
    moved = StackOverflowSource(base_url="http://127.0.0.1:9/elsewhere", key="k1")
    rekeyed = StackOverflowSource(base_url="http://127.0.0.1:9/so", key="k2")
    assert len({result_scope(s, "alice") for s in (site, moved, rekeyed)}) == 3
    # A GitHub token decides which private repositories code search sees.
    assert result_scope(GitHubCodeSource(key="token-a"), "x") != result_scope(
        GitHubCodeSource(key="token-b"), "x"
    )
    assert "k1" not in result_scope(site, "alice")
