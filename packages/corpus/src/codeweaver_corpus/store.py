"""The local document corpus: ingested chunks in Qdrant, searched by meaning and by words.

Every chunk is one Qdrant point with two vectors: a dense sentence embedding of the chunk
(with its title and section in front, so a chunk that never names its subject still carries
it) and a sparse bag of hashed terms whose weights are BM25's term-frequency part; Qdrant's
IDF modifier supplies the other half of BM25 at query time. A search expands the query
vector with pseudo-relevance feedback, asks both indexes, adds a scaled BM25 bonus to cosine
similarity, lets each document place one chunk before any places two, and adds the
neighbouring chunks of each hit so an answer reads the passage around it.

The weights come from the Python-FAQ retrieval evaluation (`benchmarks/retrieval_eval.py`):
on those natural-language questions BM25 alone is far weaker than the dense model, and
rank fusion that gives it an equal vote loses recall, so lexical evidence is a bonus, and a
question is matched literally only on its code-like terms (see `query_vector`).

Tenants share one collection; every point carries its tenant and every read filters on it.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
import uuid
import zlib
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from qdrant_client import AsyncQdrantClient, models

from codeweaver_corpus.documents import Chunk, SourceDocument, chunk_document
from codeweaver_engine.language.words import STOPWORDS, stem, words
from codeweaver_runtime.embeddings import Embedder, Vectors
from codeweaver_runtime.qdrant import CollectionSpec, QdrantCollection
from codeweaver_schema import Evidence, LocalMeta, stable_id

DENSE = "dense"
LEXICAL = "lexical"
DOCS_COLLECTION = "codeweaver_docs"
"""The collection of every tenant's ingested documents (each point carries its tenant)."""

# BM25's usual constants; the average length is what the chunker produces for prose
# (about 1,000 characters), fixed because stored weights cannot follow a moving average.
_BM25_K1 = 1.2
_BM25_B = 0.75
_BM25_AVG_TERMS = 110.0
_UPSERT_BATCH = 64
LEXICAL_TERMS = "plurals-1"
"""How `lexical_terms` reads text. A document stored with terms read another way is ingested
again: a query's terms would not meet its stored ones."""
_IDENTIFIER_SPLIT = re.compile(r"[._]")
# Queries of at most this many distinct terms are keyword searches.
_KEYWORD_QUERY_TERMS = 4
_CODE_LIKE = re.compile(
    r"`[^`]+`"  # marked as code
    r"|\b[A-Za-z_]\w+(?:\.\w{2,})+"  # dotted names (but not "e.g")
    r"|\b\w*_\w+"  # snake_case, dunder, Py_BuildValue
    r"|\b[A-Za-z_]\w*\(\)"  # calls: join()
    r"|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z0-9]+[A-Z]\w*"  # camelCase, CamelCase
    r"|\b[A-Za-z]+\d\w*|\b\d+(?:\.\d+)+"  # utf8, sha256, E501, versions
)


class CorpusError(RuntimeError):
    """The collection cannot serve this embedder (e.g. it holds vectors of another size)."""


@dataclass(frozen=True)
class IngestReport:
    """What one `DocumentCorpus.ingest` call did.

    Attributes:
        documents: Documents given.
        added: Documents not in the corpus before.
        updated: Documents whose content changed; their old chunks were replaced.
        unchanged: Documents skipped because their content hash was already stored.
        empty: Documents with no text to index.
        chunks_added: Chunks embedded and stored.
        chunks_removed: Stale chunks deleted from updated documents.
        seconds: Wall time of the call.
    """

    documents: int
    added: int
    updated: int
    unchanged: int
    empty: int
    chunks_added: int
    chunks_removed: int
    seconds: float


def lexical_terms(text: str) -> list[str]:
    """Terms of the lexical signal: content words, dotted names also split into their parts.

    Plurals are folded (`codeweaver_runtime.text.stem`) so "numbers" meets "number"; verb
    endings are not, which ranks the Python FAQ's answers better. `os.path.join` stays whole and
    also yields `os`, `path` and `join`, so a question naming only `join` still matches.
    """
    terms: list[str] = []
    for word in words(text):
        if word in STOPWORDS or len(word) < 2:
            continue
        terms.append(stem(word, verbs=False))
        if "." in word or "_" in word:
            terms.extend(
                stem(part, verbs=False)
                for part in _IDENTIFIER_SPLIT.split(word)
                if len(part) > 1 and part not in STOPWORDS
            )
    return terms


def _term_index(term: str) -> int:
    # A stable hash (Python's own is salted per process) that fits Qdrant's uint32 indices.
    return zlib.crc32(term.encode("utf-8"))


def document_vector(text: str) -> models.SparseVector:
    """Sparse BM25 term weights of a stored chunk (IDF is applied by Qdrant at query time)."""
    counts = Counter(_term_index(term) for term in lexical_terms(text))
    length = sum(counts.values())
    norm = _BM25_K1 * (1 - _BM25_B + _BM25_B * length / _BM25_AVG_TERMS)
    indices = sorted(counts)
    values = [counts[i] * (_BM25_K1 + 1) / (counts[i] + norm) for i in indices]
    return models.SparseVector(indices=indices, values=values)


def query_vector(text: str) -> models.SparseVector:
    """Sparse query: each distinct term once, so the score is the sum of BM25 term scores.

    A short keyword query is matched on all its terms. A longer question is matched only on
    what looks like code (`os.path.join`, `PyErr_Print()`, `UnicodeDecodeError`, `utf8`,
    `3.11`, anything in backticks): its plain words are the dense model's job, and
    matching them literally (memory, file, test) favours whichever pages repeat them most.
    """
    terms = set(lexical_terms(text))
    if len(terms) > _KEYWORD_QUERY_TERMS:
        terms = set(lexical_terms(" ".join(_CODE_LIKE.findall(text))))
    indices = sorted({_term_index(term) for term in terms})
    return models.SparseVector(indices=indices, values=[1.0] * len(indices))


def embedding_text(chunk: Chunk) -> str:
    """What the dense vector encodes: title and section first, as the reader sees them."""
    heading = f"{chunk.title} — {chunk.section}" if chunk.section else chunk.title
    return f"{heading}\n{chunk.text}"


def evidence_title(title: str, section: str | None) -> str:
    """`<doc title> — <section>` for a chunk, or the title alone."""
    return f"{title} — {section}" if section else title


def _collection_spec(dimension: int) -> CollectionSpec:
    return CollectionSpec(
        vectors={DENSE: models.VectorParams(size=dimension, distance=models.Distance.COSINE)},
        sparse_vectors={LEXICAL: models.SparseVectorParams(modifier=models.Modifier.IDF)},
        payload_indexes={
            "tenant": models.KeywordIndexParams(
                type=models.KeywordIndexType.KEYWORD, is_tenant=True
            ),
            "doc_id": models.PayloadSchemaType.KEYWORD,
        },
    )


class DocumentCorpus:
    """One tenant's view of the local document collection: it reads and writes its own only."""

    def __init__(
        self,
        client: AsyncQdrantClient,
        embedder: Embedder,
        *,
        collection: str = DOCS_COLLECTION,
        tenant: str = "default",
        max_chars: int = 1200,
        overlap_chars: int = 150,
        candidates: int = 100,
        lexical_weight: float = 0.05,
        feedback_chunks: int = 5,
        feedback_weight: float = 1.0,
        max_chunks_per_document: int = 1,
    ) -> None:
        """Bind a client and an embedder to a collection and a tenant.

        Args:
            client: Async Qdrant client (embedded or server).
            embedder: Computes the dense vectors; its `dimension` sizes the collection.
            collection: Collection name, created on first write.
            tenant: Whose documents these are; no tenant reads or writes another's.
            max_chars: Chunk size used when ingesting.
            overlap_chars: Overlap of consecutive chunks when ingesting.
            candidates: How deep each of the two rankings is read before fusion.
            lexical_weight: Bonus of the best lexical match, added to cosine similarity;
                other matches get it in proportion to their BM25 score.
            feedback_chunks: How many top chunks move the query vector (0: no feedback).
            feedback_weight: Weight of their centroid against the query vector.
            max_chunks_per_document: Chunks one document may place before every other
                candidate document had its turn, so a long page cannot crowd out other
                sources; neighbours and further chunks still come after.
        """
        self._client = client
        self._embedder = embedder
        self.collection = collection
        self.tenant = tenant
        self._max_chars = max_chars
        self._overlap_chars = overlap_chars
        self._candidates = candidates
        self._lexical_weight = lexical_weight
        self._feedback_chunks = feedback_chunks
        self._feedback_weight = feedback_weight
        self._max_per_document = max_chunks_per_document
        self._stored = QdrantCollection(
            client,
            collection,
            _collection_spec,
            lambda: embedder.dimension,
            check=self._check_dimension,
        )

    def settings(self) -> dict[str, str | int | float]:
        """The ingestion and retrieval settings in force, for reports."""
        return {
            "collection": self.collection,
            "embedding_model": self._embedder.model_id,
            "max_chars": self._max_chars,
            "overlap_chars": self._overlap_chars,
            "candidates": self._candidates,
            "dense": "cosine, title and section prefixed, pseudo-relevance feedback",
            "feedback_chunks": self._feedback_chunks,
            "feedback_weight": self._feedback_weight,
            "lexical": "bm25 as sparse vectors (qdrant idf), max-normalised bonus; "
            f"questions of more than {_KEYWORD_QUERY_TERMS} terms match code-like terms only",
            "lexical_weight": self._lexical_weight,
            "max_chunks_per_document": self._max_per_document,
        }

    # --- collection ---------------------------------------------------------------------------

    def _tenant_filter(self, *conditions: models.Condition) -> models.Filter:
        tenant = models.FieldCondition(key="tenant", match=models.MatchValue(value=self.tenant))
        return models.Filter(must=[tenant, *conditions])

    def _readable_filter(self) -> models.Filter:
        """What a search may see: this tenant's documents."""
        return self._tenant_filter()

    def _check_dimension(self, existing: models.CollectionInfo, dimension: int) -> None:
        vectors = existing.config.params.vectors
        size = vectors[DENSE].size if isinstance(vectors, dict) and DENSE in vectors else None
        if size != dimension:
            raise CorpusError(
                f"collection {self.collection!r} holds {size}-dimensional vectors, but "
                f"{self._embedder.model_id} makes {dimension}; use another collection"
            )

    def _point_id(self, doc_id: str, chunk_index: int) -> str:
        digest = hashlib.sha256(f"{self.tenant}\x1f{doc_id}\x1f{chunk_index}".encode()).digest()
        return str(uuid.UUID(bytes=digest[:16]))

    # --- reads --------------------------------------------------------------------------------

    async def count(self) -> int:
        """Number of chunks this tenant has stored."""
        if not await self._stored.exists():
            return 0
        result = await self._client.count(
            self.collection, count_filter=self._tenant_filter(), exact=True
        )
        return result.count

    async def documents(self) -> dict[str, str]:
        """Every stored document of this tenant: doc_id -> content hash."""
        stored = await self._stored_documents()
        return {doc_id: content_hash for doc_id, (content_hash, _, _) in stored.items()}

    async def stored_files(self) -> dict[str, str]:
        """Every stored document of this tenant: doc_id -> the file it was read from.

        What the store holds, whatever a manifest says: `codeweaver ingest` reconciles the two,
        so a run killed before it could record its progress leaves nothing behind.
        """
        return {
            str(p["doc_id"]): str(p.get("file", ""))
            for p in await self._first_chunks(["doc_id", "file"])
        }

    async def _stored_documents(self) -> dict[str, tuple[str, str, int]]:
        """doc_id -> (content hash, how it was indexed, chunk count), read from each chunk 0.

        How it was indexed: the embedding model and the `LEXICAL_TERMS` of the chunks.
        """
        fields = ["doc_id", "content_hash", "embedding_model", "lexical_terms", "chunk_count"]
        return {
            str(p["doc_id"]): (
                str(p["content_hash"]),
                f"{p.get('embedding_model', '')} {p.get('lexical_terms', '')}",
                int(p.get("chunk_count", 0)),
            )
            for p in await self._first_chunks(fields)
        }

    async def _first_chunks(self, fields: list[str]) -> list[dict[str, Any]]:
        """The payload `fields` of each of this tenant's documents' chunk 0 (one per document)."""
        if not await self._stored.exists():
            return []
        found: list[dict[str, Any]] = []
        first_chunk = models.FieldCondition(key="chunk_index", match=models.MatchValue(value=0))
        offset: models.ExtendedPointId | None = None
        while True:
            points, offset = await self._client.scroll(
                self.collection,
                scroll_filter=self._tenant_filter(first_chunk),
                limit=1024,
                offset=offset,
                with_payload=fields,
                with_vectors=False,
            )
            found += [point.payload or {} for point in points]
            if offset is None:
                return found

    # --- writes -------------------------------------------------------------------------------

    async def ingest(
        self,
        docs: Sequence[SourceDocument],
        *,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> IngestReport:
        """Store documents, skipping those already stored with the same content.

        A changed document's chunks are overwritten and its surplus old chunks deleted; chunk 0
        is written last, so an interrupted ingest leaves the document marked as changed and
        the next ingest redoes it.

        Args:
            docs: The documents; a doc_id given twice keeps the last one.
            on_progress: Called with (chunks stored so far, chunks to store) after each batch.

        Returns:
            What was added, replaced and skipped.
        """
        started = time.perf_counter()
        await self._stored.ensure()
        stored = await self._stored_documents()
        model_id = self._embedder.model_id
        indexed_with = f"{model_id} {LEXICAL_TERMS}"
        unique = {doc.doc_id: doc for doc in docs}
        added = updated = unchanged = empty = removed = 0
        work: list[tuple[SourceDocument, list[Chunk], int]] = []
        for doc in unique.values():
            previous = stored.get(doc.doc_id)
            if previous is not None and previous[:2] == (doc.content_hash, indexed_with):
                unchanged += 1
                continue
            chunks = chunk_document(
                doc, max_chars=self._max_chars, overlap_chars=self._overlap_chars
            )
            if previous is None:
                added += 1
            else:
                updated += 1
            if not chunks:
                empty += 1
                if previous is not None:
                    removed += await self._delete_docs([doc.doc_id])
                continue
            work.append((doc, chunks, previous[2] if previous else 0))
        total = sum(len(chunks) for _, chunks, _ in work)
        done = 0
        if on_progress is not None:
            on_progress(0, total)
        for doc, chunks, previous_count in work:
            if previous_count > len(chunks):
                removed += await self._delete_surplus(doc.doc_id, len(chunks))
            # Chunk 0 carries the document's hash: writing it last commits the document.
            ordered = chunks[1:] + chunks[:1]
            for start in range(0, len(ordered), _UPSERT_BATCH):
                batch = ordered[start : start + _UPSERT_BATCH]
                await self._upsert(doc, batch, len(chunks), model_id)
                done += len(batch)
                if on_progress is not None:
                    on_progress(done, total)
        return IngestReport(
            documents=len(unique),
            added=added,
            updated=updated,
            unchanged=unchanged,
            empty=empty,
            chunks_added=total,
            chunks_removed=removed,
            seconds=time.perf_counter() - started,
        )

    async def _upsert(
        self, doc: SourceDocument, chunks: list[Chunk], chunk_count: int, model_id: str
    ) -> None:
        vectors = await self._embedder.embed([embedding_text(c) for c in chunks])
        # Term weighting is pure Python; off the loop like the embedding.
        sparse = await asyncio.to_thread(
            lambda: [document_vector(embedding_text(c)) for c in chunks]
        )
        points = [
            models.PointStruct(
                id=self._point_id(chunk.doc_id, chunk.chunk_index),
                vector={DENSE: vector.tolist(), LEXICAL: lexical},
                payload={
                    "tenant": self.tenant,
                    "doc_id": chunk.doc_id,
                    "file": chunk.file,
                    "title": chunk.title,
                    "section": chunk.section,
                    "page": chunk.page,
                    "chunk_index": chunk.chunk_index,
                    "chunk_count": chunk_count,
                    "content_hash": doc.content_hash,
                    "kind": doc.kind,
                    "text": chunk.text,
                    "embedding_model": model_id,
                    "lexical_terms": LEXICAL_TERMS,
                },
            )
            for chunk, vector, lexical in zip(chunks, vectors, sparse, strict=True)
        ]
        await self._client.upsert(self.collection, points=points, wait=True)

    async def _count_where(self, query_filter: models.Filter) -> int:
        result = await self._client.count(self.collection, count_filter=query_filter, exact=True)
        return result.count

    async def _delete_where(self, query_filter: models.Filter) -> int:
        count = await self._count_where(query_filter)
        if count:
            await self._client.delete(
                self.collection, points_selector=models.FilterSelector(filter=query_filter)
            )
        return count

    async def _delete_docs(self, doc_ids: Collection[str]) -> int:
        condition = models.FieldCondition(key="doc_id", match=models.MatchAny(any=list(doc_ids)))
        return await self._delete_where(self._tenant_filter(condition))

    async def _delete_surplus(self, doc_id: str, keep: int) -> int:
        return await self._delete_where(
            self._tenant_filter(
                models.FieldCondition(key="doc_id", match=models.MatchValue(value=doc_id)),
                models.FieldCondition(key="chunk_index", range=models.Range(gte=keep)),
            )
        )

    async def remove(self, doc_ids: Collection[str]) -> int:
        """Delete documents of this tenant.

        Args:
            doc_ids: Documents to delete; unknown ids are ignored.

        Returns:
            How many of them were stored and are now gone.
        """
        if not doc_ids or not await self._stored.exists():
            return 0
        present = set(doc_ids) & set(await self.documents())
        if present:
            await self._delete_docs(present)
        return len(present)

    # --- search -------------------------------------------------------------------------------

    async def search(self, query: str, *, k: int = 8, neighbours: bool = True) -> list[Evidence]:
        """Hybrid search of this tenant's chunks.

        Dense first: the query vector is moved towards the chunks it finds best (pseudo-
        relevance feedback, which lets a terse question borrow the vocabulary of the passages
        that answer it), then the expanded query ranks the candidates by cosine similarity,
        and the BM25 score, scaled to the best lexical match, adds a bonus that lifts exact
        identifiers and rare terms. The first `max_chunks_per_document` chunks of a document
        come first; further chunks of the same documents only fill the remaining places.

        Args:
            query: The question or search terms.
            k: How many chunks to rank.
            neighbours: Also return the previous and next chunk of each hit when they belong
                to the same section; they follow the ranked hits, marked with `neighbour_of`.

        Returns:
            The ranked hits, best first, then their neighbours.
        """
        if not query.strip() or k <= 0 or not await self._stored.exists():
            return []
        tenant = self._readable_filter()
        vector = (await self._embedder.embed([query]))[0]
        expanded = await self._with_feedback(vector, tenant)
        depth = max(self._candidates, k * 4)
        requests = [
            models.QueryRequest(
                query=expanded.tolist(), using=DENSE, filter=tenant, limit=depth, with_payload=True
            )
        ]
        lexical = query_vector(query)
        if lexical.indices:
            requests.append(
                models.QueryRequest(
                    query=lexical, using=LEXICAL, filter=tenant, limit=depth, with_payload=True
                )
            )
        responses = await self._client.query_batch_points(self.collection, requests=requests)
        payloads: dict[str, dict[str, object]] = {}
        dense_scores: dict[str, float] = {}
        for point in responses[0].points:
            dense_scores[str(point.id)] = point.score
            payloads[str(point.id)] = dict(point.payload or {})
        lexical_scores: dict[str, float] = {}
        for point in responses[1].points if len(responses) > 1 else []:
            lexical_scores[str(point.id)] = point.score
            payloads.setdefault(str(point.id), dict(point.payload or {}))
        # A lexical-only candidate ranked below every dense one: the lowest dense score
        # fetched is an upper bound of its own, which is close enough to order by.
        floor = min(dense_scores.values(), default=0.0)
        best_lexical = max(lexical_scores.values(), default=0.0) or 1.0
        fused = {
            key: dense_scores.get(key, floor)
            + self._lexical_weight * lexical_scores.get(key, 0.0) / best_lexical
            for key in payloads
        }
        hits = [
            _evidence(payloads[key], fused[key])
            for key in self._diversified(sorted(fused, key=lambda key: -fused[key]), payloads, k)
        ]
        if neighbours and hits:
            hits.extend(await self._neighbours(hits))
        return hits

    async def _with_feedback(self, vector: Vectors, tenant: models.Filter) -> Vectors:
        if self._feedback_chunks <= 0:
            return vector
        top = await self._client.query_points(
            self.collection,
            query=vector.tolist(),
            using=DENSE,
            query_filter=tenant,
            limit=self._feedback_chunks,
            with_payload=False,
            with_vectors=[DENSE],
        )
        found = [
            point.vector[DENSE]
            for point in top.points
            if isinstance(point.vector, dict) and isinstance(point.vector.get(DENSE), list)
        ]
        if not found:
            return vector
        centroid = np.asarray(found, dtype=np.float32).mean(axis=0)
        expanded = vector + self._feedback_weight * centroid
        norm = float(np.linalg.norm(expanded))
        return (expanded / norm).astype(np.float32) if norm else vector

    def _diversified(
        self, ranked: list[str], payloads: dict[str, dict[str, object]], k: int
    ) -> list[str]:
        per_document: Counter[str] = Counter()
        first: list[str] = []
        rest: list[str] = []
        for key in ranked:
            doc_id = str(payloads[key]["doc_id"])
            if per_document[doc_id] < self._max_per_document:
                per_document[doc_id] += 1
                first.append(key)
            else:
                rest.append(key)
        return (first + rest)[:k]

    async def _neighbours(self, hits: list[Evidence]) -> list[Evidence]:
        wanted: dict[str, Evidence] = {}
        taken = {hit.id for hit in hits}
        for hit in hits:
            meta = hit.meta
            if not isinstance(meta, LocalMeta):
                continue
            for index in (meta.chunk_index - 1, meta.chunk_index + 1):
                if index < 0:
                    continue
                wanted.setdefault(self._point_id(meta.doc_id, index), hit)
        if not wanted:
            return []
        points = await self._client.retrieve(
            self.collection, ids=list(wanted), with_payload=True, with_vectors=False
        )
        by_id = {str(point.id): point for point in points}
        found: list[Evidence] = []
        for point_id, hit in wanted.items():
            point = by_id.get(point_id)
            if point is None or not isinstance(hit.meta, LocalMeta):
                continue
            payload = dict(point.payload or {})
            same_place = (
                payload.get("tenant") == self.tenant
                and payload.get("doc_id") == hit.meta.doc_id
                and payload.get("section") == hit.meta.section
                and payload.get("page") == hit.meta.page
            )
            if not same_place:
                continue
            neighbour = _evidence(payload, hit.score, neighbour_of=hit.id)
            if neighbour.id not in taken:
                taken.add(neighbour.id)
                found.append(neighbour)
        return found


def _evidence(
    payload: dict[str, object], score: float, *, neighbour_of: str | None = None
) -> Evidence:
    doc_id = str(payload["doc_id"])
    chunk_index = int(str(payload["chunk_index"]))
    section = payload.get("section")
    page = payload.get("page")
    return Evidence(
        id=stable_id("local", doc_id, str(chunk_index)),
        source="local",
        title=evidence_title(str(payload["title"]), str(section) if section else None),
        content=str(payload["text"]),
        url=None,
        score=round(score, 6),
        meta=LocalMeta(
            doc_id=doc_id,
            file=str(payload["file"]),
            section=str(section) if section else None,
            page=int(str(page)) if page is not None else None,
            chunk_index=chunk_index,
            neighbour_of=neighbour_of,
        ),
    )
