"""Two tenants on one compiled graph: neither is answered from the other's documents.

The search subgraph memoises each source's results for an hour. Its key once named the query
and not whose documents were searched: alice ingested a document, asked, and bob's same
question was answered from alice's file (and the answer went into bob's answer cache); asked
the other way round, bob's empty local results hid alice's document from her.

The graph here runs the real local source (the bundled documentation and each tenant's
ingested documents in an embedded store under a fresh data directory), as the server does.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from codeweaver.context import Context
from codeweaver.persistence import schema_serializer
from codeweaver.workflows.orchestration.graph import build_main_graph
from codeweaver_cache import SemanticCache
from codeweaver_corpus import DocumentCorpus
from codeweaver_corpus.documents import load_document
from codeweaver_runtime import (
    Embedder,
    close_qdrant_clients,
    get_embedder,
    get_qdrant,
    infrastructure,
    open_qdrant,
)
from codeweaver_schema import Answer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

QUESTION = "How do I configure the frobnicator daemon?"
SECRET = "spin_rate = 42"
HANDBOOK = f"""# Frobnicator daemon handbook

## Configuring the frobnicator daemon

To configure the frobnicator daemon, write the file `/etc/frobnicator/frob.toml` with the line
`{SECRET}` and then run `frobctl reload --gently`. The frobnicator daemon reads its
configuration only at reload time, so always run `frobctl reload --gently` after editing it.
"""


@dataclass
class Tenants:
    graph: Any
    cache: SemanticCache
    alice_file: str

    async def ask(self, tenant: str) -> Answer:
        context = Context(search_sources=["local"], chat_model="offline", tenant=tenant)
        config: Any = {"configurable": {"thread_id": f"{tenant}-thread"}}
        values = await self.graph.ainvoke(
            {"messages": [HumanMessage(QUESTION)]}, config, context=context
        )
        answer = values["answer"]
        assert isinstance(answer, Answer)
        return answer


@pytest.fixture
async def tenants(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, embedder: Embedder
) -> AsyncIterator[Tenants]:
    """One graph over a fresh data directory where alice (only) ingested the handbook."""
    # The store's place is an operator setting, read from the environment as the server does.
    monkeypatch.setenv("CODEWEAVER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CODEWEAVER_QDRANT_PATH", raising=False)
    monkeypatch.delenv("QDRANT_URL", raising=False)
    handbook = tmp_path / "alice" / "frobnicator.md"
    handbook.parent.mkdir()
    handbook.write_text(HANDBOOK, encoding="utf-8")
    infra = infrastructure()
    store = get_qdrant(infra.qdrant_location())
    corpus = DocumentCorpus(store, get_embedder(infra.embedding_model), tenant="alice")
    await corpus.ingest([load_document(handbook)])
    cache = SemanticCache(open_qdrant(":memory:"), embedder)
    graph = build_main_graph(
        embedder=embedder, cache=cache, checkpointer=InMemorySaver(serde=schema_serializer())
    )
    try:
        yield Tenants(graph, cache, str(handbook))
    finally:
        await close_qdrant_clients()


def _cites(answer: Answer, file: str) -> bool:
    return any(citation.file == file for citation in answer.citations)


async def test_bob_is_not_answered_from_alices_documents(tenants: Tenants) -> None:
    alice = await tenants.ask("alice")
    assert _cites(alice, tenants.alice_file), alice.text
    assert SECRET in alice.text

    bob = await tenants.ask("bob")
    assert not _cites(bob, tenants.alice_file), bob.text
    assert SECRET not in bob.text
    assert "frobctl" not in bob.text
    # Nothing of alice's reached bob's answer cache either.
    scope = tenants.cache.scope("bob", Context().cache_corpus_version)
    assert await tenants.cache.count(scope) == 0


async def test_bobs_empty_results_do_not_hide_alices_document(tenants: Tenants) -> None:
    bob = await tenants.ask("bob")
    assert not _cites(bob, tenants.alice_file), bob.text

    alice = await tenants.ask("alice")
    assert _cites(alice, tenants.alice_file), alice.text
    assert SECRET in alice.text
