from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import numpy as np
import pytest
from qdrant_client import AsyncQdrantClient, models

from codeweaver_corpus.documents import SourceDocument
from codeweaver_corpus.store import CorpusError, DocumentCorpus, query_vector
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder, open_qdrant
from codeweaver_runtime.embeddings import Vectors
from codeweaver_schema import Evidence, LocalMeta, stable_id


@pytest.fixture
async def client() -> AsyncIterator[AsyncQdrantClient]:
    qdrant = open_qdrant(":memory:")
    yield qdrant
    await qdrant.close()


def _corpus(client: AsyncQdrantClient, tenant: str = "default") -> DocumentCorpus:
    return DocumentCorpus(client, get_embedder(DEFAULT_EMBEDDING_MODEL), tenant=tenant)


def _local(hit: Evidence) -> LocalMeta:
    """A local-corpus hit's metadata (every hit of a `DocumentCorpus` carries `LocalMeta`)."""
    assert isinstance(hit.meta, LocalMeta), hit.meta
    return hit.meta


def _doc(name: str, text: str, kind: str = "markdown") -> SourceDocument:
    return SourceDocument(
        doc_id=stable_id("doc", name),
        file=name,
        title=text.split("\n", 1)[0].lstrip("# "),
        text=text,
        kind="markdown" if kind == "markdown" else "text",
    )


LISTS = _doc(
    "lists.md",
    "# Python lists\n\nLists are mutable sequences.\n\n## Reversing\n\n"
    "Call `items.reverse()` to reverse a list in place, or `items[::-1]` for a reversed copy.",
)
DICTS = _doc(
    "dicts.md",
    "# Dictionaries\n\nA dict maps keys to values.\n\n## Merging\n\n"
    "Merge two dictionaries with `a | b` or `{**a, **b}`.",
)
FILES = _doc(
    "files.md",
    "# Files\n\n## Deleting\n\nDelete a file with `os.remove(path)` or `Path.unlink()`.",
)


def _long_doc(name: str, paragraphs: int) -> SourceDocument:
    body = "\n\n".join(
        f"Paragraph {i} explains how `frob_option_{i}` configures the widget frobnicator."
        for i in range(paragraphs)
    )
    return _doc(name, f"# Widget manual\n\n## Configuration\n\n{body}")


async def test_ingest_is_idempotent(client: AsyncQdrantClient) -> None:
    corpus = _corpus(client)
    assert await corpus.count() == 0
    progress: list[tuple[int, int]] = []
    first = await corpus.ingest(
        [LISTS, DICTS, FILES], on_progress=lambda d, t: progress.append((d, t))
    )
    assert (first.added, first.updated, first.unchanged) == (3, 0, 0)
    assert first.chunks_added == await corpus.count() > 0
    assert progress[0] == (0, first.chunks_added)
    assert progress[-1] == (first.chunks_added, first.chunks_added)
    second = await corpus.ingest([LISTS, DICTS, FILES])
    assert (second.added, second.updated, second.unchanged) == (0, 0, 3)
    assert second.chunks_added == 0
    assert await corpus.count() == first.chunks_added
    assert await corpus.documents() == {d.doc_id: d.content_hash for d in (LISTS, DICTS, FILES)}


async def test_documents_indexed_with_other_lexical_terms_are_ingested_again(
    client: AsyncQdrantClient,
) -> None:
    corpus = _corpus(client)
    await corpus.ingest([LISTS, DICTS])
    # A chunk stored by a release whose lexical terms were read another way (or not recorded).
    await client.set_payload(
        corpus.collection,
        payload={"lexical_terms": "older"},
        points=models.Filter(
            must=[models.FieldCondition(key="doc_id", match=models.MatchValue(value=LISTS.doc_id))]
        ),
    )
    report = await corpus.ingest([LISTS, DICTS])
    assert (report.updated, report.unchanged) == (1, 1)
    assert (await corpus.ingest([LISTS, DICTS])).unchanged == 2
    hits = await corpus.search("reversing lists", k=1, neighbours=False)
    assert _local(hits[0]).doc_id == LISTS.doc_id


async def test_changed_document_replaces_its_chunks(client: AsyncQdrantClient) -> None:
    corpus = _corpus(client)
    long = _long_doc("manual.md", 40)
    await corpus.ingest([LISTS])
    list_chunks = await corpus.count()
    long_chunks = (await corpus.ingest([long])).chunks_added
    assert long_chunks > 1
    short = SourceDocument(
        long.doc_id, long.file, long.title, "# Widget manual\n\nNow one short line.", "markdown"
    )
    report = await corpus.ingest([short])
    assert (report.updated, report.chunks_added) == (1, 1)
    assert report.chunks_removed == long_chunks - 1
    assert await corpus.count() == list_chunks + 1
    hits = await corpus.search("widget frobnicator", k=5, neighbours=False)
    texts = [h.content for h in hits if isinstance(h.meta, LocalMeta)]
    assert all("Paragraph" not in t for t in texts)
    assert (await corpus.documents())[long.doc_id] == short.content_hash


async def test_remove(client: AsyncQdrantClient) -> None:
    corpus = _corpus(client)
    await corpus.ingest([LISTS, DICTS])
    assert await corpus.remove([LISTS.doc_id, "unknown"]) == 1
    assert set(await corpus.documents()) == {DICTS.doc_id}
    assert await corpus.remove([LISTS.doc_id]) == 0
    hits = await corpus.search("reverse a list")
    assert all(isinstance(h.meta, LocalMeta) and h.meta.doc_id == DICTS.doc_id for h in hits)


async def test_tenants_never_see_each_other(client: AsyncQdrantClient) -> None:
    alice = _corpus(client, "alice")
    bob = _corpus(client, "bob")
    await alice.ingest([LISTS])
    await bob.ingest([DICTS])
    assert await alice.documents() == {LISTS.doc_id: LISTS.content_hash}
    assert await bob.documents() == {DICTS.doc_id: DICTS.content_hash}
    bob_hits = await bob.search("How do I reverse a list?", k=10)
    assert bob_hits
    assert all(isinstance(h.meta, LocalMeta) and h.meta.doc_id == DICTS.doc_id for h in bob_hits)
    assert await bob.remove([LISTS.doc_id]) == 0
    assert await alice.count() > 0
    # The same document ingested by both tenants is stored twice, once per tenant.
    await bob.ingest([LISTS])
    assert await alice.remove([LISTS.doc_id]) == 1
    assert LISTS.doc_id in await bob.documents()


async def test_search_stable_ids_titles_and_neighbours(client: AsyncQdrantClient) -> None:
    corpus = _corpus(client)
    manual = _long_doc("manual.md", 60)
    await corpus.ingest([manual, LISTS, DICTS])
    query = "Which setting does frob_option_30 change in the widget frobnicator?"
    hits = await corpus.search(query, k=1)
    top, *neighbours = hits
    assert isinstance(top.meta, LocalMeta)
    assert top.source == "local"
    assert top.url is None
    assert top.id == stable_id("local", manual.doc_id, str(top.meta.chunk_index))
    assert top.title == "Widget manual — Configuration"
    assert "Paragraph 30 " in top.content
    assert top.meta.neighbour_of is None
    assert top.meta.file == "manual.md"
    metas = [_local(n) for n in neighbours]
    assert {m.chunk_index for m in metas} == {top.meta.chunk_index - 1, top.meta.chunk_index + 1}
    assert all(m.neighbour_of == top.id for m in metas)
    assert all(m.section == "Configuration" for m in metas)
    again = await corpus.search(query, k=1)
    assert [h.id for h in again] == [h.id for h in hits]
    assert len(await corpus.search(query, k=1, neighbours=False)) == 1


async def test_neighbours_stay_in_their_section(client: AsyncQdrantClient) -> None:
    corpus = _corpus(client)
    await corpus.ingest([LISTS])
    hits = await corpus.search("reverse a list in place", k=1)
    assert len(hits) == 1
    assert _local(hits[0]).section == "Reversing"


async def test_hybrid_search_finds_exact_identifiers(client: AsyncQdrantClient) -> None:
    corpus = _corpus(client)
    await corpus.ingest([LISTS, DICTS, FILES])
    hits = await corpus.search("os.remove", k=1, neighbours=False)
    assert _local(hits[0]).file == "files.md"
    assert 0 < hits[0].score <= 1


async def test_empty_corpus_and_empty_query(client: AsyncQdrantClient) -> None:
    corpus = _corpus(client)
    assert await corpus.search("anything") == []
    assert await corpus.documents() == {}
    assert await corpus.remove(["x"]) == 0
    await corpus.ingest([LISTS])
    assert await corpus.search("   ") == []


class _TinyEmbedder:
    model_id = "tiny@test"
    dimension = 3

    def embed_sync(self, texts: Sequence[str]) -> Vectors:
        return np.full((len(texts), 3), 3**-0.5, dtype=np.float32)

    async def embed(self, texts: Sequence[str]) -> Vectors:
        return self.embed_sync(texts)


async def test_collection_of_another_dimension_is_refused(client: AsyncQdrantClient) -> None:
    await _corpus(client).ingest([LISTS])
    other = DocumentCorpus(client, _TinyEmbedder())
    with pytest.raises(CorpusError, match="384"):
        await other.ingest([DICTS])


async def test_a_tenants_documents_stay_its_own(client: AsyncQdrantClient) -> None:
    alice, bob = _corpus(client, "alice"), _corpus(client, "bob")
    manual = _long_doc("manual.md", 8)
    await alice.ingest([manual])
    frob = "Which setting does frob_option_3 change in the widget frobnicator?"
    alice_files = {_local(h).file for h in await alice.search(frob, k=5)}
    assert manual.file in alice_files
    assert await bob.search(frob, k=5) == [], "a tenant's own documents stay its own"
    assert await bob.remove([manual.doc_id]) == 0


def test_questions_are_matched_literally_on_code_like_terms_only() -> None:
    assert query_vector("reverse list python").indices
    assert not query_vector("What is the widget frobnicator config format today?").indices
    question = query_vector("How do I catch the output from PyErr_Print() in my program?")
    assert question.indices == query_vector("PyErr_Print").indices
    assert question.values == [1.0] * len(question.indices)
