"""The semantic answer cache over Qdrant: entries, scope, freshness, invalidation and feedback.

One Qdrant collection holds two kinds of points, told apart by the `kind` payload:

- `entry`: a cached answer. Its id is derived from the scope and the normalised key question,
  so concurrent stores of one question in one scope write one point.
- `block`: a (question, answer) pair a user reported as wrong; it is never admitted again.

Every search filters on scope (tenant, embedding model, corpus version, entry generation), on
`kind` and on `expires_at`, so an entry from another tenant, another embedding space, an older
corpus or an earlier generation is invisible rather than merely ranked low.
"""

from __future__ import annotations

import asyncio
import copy
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import numpy as np
from qdrant_client import AsyncQdrantClient, models

from codeweaver_cache.decision import (
    Candidate,
    HitRule,
    LookupResult,
    hit_or_miss,
    normalise_question,
    words_to_embed,
)
from codeweaver_engine.stamp import answers_version
from codeweaver_runtime import Embedder, EmbeddingError, get_embedder, get_qdrant
from codeweaver_runtime.infrastructure import DEFAULT_CACHE_COLLECTION, Infrastructure
from codeweaver_runtime.infrastructure import infrastructure as operator_infrastructure
from codeweaver_runtime.qdrant import CollectionSpec, QdrantCollection, runs_embedded
from codeweaver_schema import Analysis, Answer, ErrorKind, stable_id

T = TypeVar("T")
Clock = Callable[[], float]

DEFAULT_COLLECTION = DEFAULT_CACHE_COLLECTION
GENERATION = 2
"""The generation of the entries this release writes and serves; earlier ones are invisible.

Generation 1 (entries without the field) was written while the search subgraph memoised a
source's results without naming whose documents they were: an answer stored then may quote
another tenant's ingested documents, so none is served again. They expire as they would have.
"""

_ENTRY: Literal["entry"] = "entry"
_BLOCK: Literal["block"] = "block"


class CacheUnavailableError(RuntimeError):
    """Qdrant or the embedder failed or was too slow; the caller treats it as a miss."""


def answer_fingerprint(answer: Answer) -> str:
    """Identifies an answer's content, whatever its delivery flags."""
    return stable_id(answer.text, *(c.evidence_id for c in answer.citations))


@dataclass(frozen=True)
class CacheScope:
    """Whose entries, computed in which embedding space, from which corpus."""

    tenant: str
    embedding_model: str
    corpus_version: str

    def conditions(self) -> list[models.Condition]:
        """Qdrant conditions that keep a search inside this scope."""
        return [
            models.FieldCondition(key="tenant", match=models.MatchValue(value=self.tenant)),
            models.FieldCondition(
                key="embedding_model", match=models.MatchValue(value=self.embedding_model)
            ),
            models.FieldCondition(
                key="corpus_version", match=models.MatchValue(value=self.corpus_version)
            ),
            models.FieldCondition(key="generation", match=models.MatchValue(value=GENERATION)),
        ]

    def holds(self, payload: Mapping[str, Any]) -> bool:
        """True when a stored record's payload belongs to this scope."""
        return (
            payload.get("tenant") == self.tenant
            and payload.get("embedding_model") == self.embedding_model
            and payload.get("corpus_version") == self.corpus_version
            and payload.get("generation") == GENERATION
        )

    def point_id(self, *parts: str) -> str:
        """A deterministic Qdrant point id for a record in this scope."""
        digest = stable_id(self.tenant, self.embedding_model, self.corpus_version, *parts)
        return str(uuid.UUID(hex=digest.ljust(32, "0")))


@dataclass(frozen=True)
class Admission:
    """Whether a store wrote an entry, and why (not)."""

    stored: bool
    reason: str
    entry_id: str | None = None


@dataclass
class CacheStats:
    """In-process counters: hits, misses and admission rejections, by reason."""

    hits: int = 0
    misses: Counter[str] = field(default_factory=Counter)
    stores: int = 0
    rejections: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-friendly snapshot."""
        return {
            "hits": self.hits,
            "misses": dict(self.misses),
            "stores": self.stores,
            "rejections": dict(self.rejections),
            "errors": dict(self.errors),
        }


def admission_refusal(answer: Answer | None, analysis: Analysis | None) -> str | None:
    """Why an answer must not be cached, or None when it may be.

    Only answers worth serving again are stored: grounded, not degraded, not a decline (an
    offline answer below the relevance floor is marked declined), to cacheable questions that
    are not clarifications; an answer that came from the cache is already there.
    """
    if answer is None:
        return "no_answer"
    if analysis is None:
        return "no_analysis"
    if analysis.question_type == "clarification":
        return "clarification"
    if not analysis.should_cache:
        return "not_cacheable"
    if answer.from_cache:
        return "from_cache"
    if answer.declined:
        return "declined"
    if not answer.grounded:
        return "ungrounded"
    if answer.degraded:
        return "degraded"
    return None


class _ScopeIndex:
    """An in-process copy of one scope's entries, for embedded Qdrant.

    Embedded Qdrant evaluates payload filters point by point in Python (about half a second at
    10,000 entries); it also locks its folder to one process, so a copy kept by that process
    stays exact as long as every write goes through this cache. Qdrant stays the record.
    """

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.ids: list[str] = []
        self.rows: dict[str, int] = {}
        self.payloads: list[dict[str, Any]] = []
        self._pending: list[np.ndarray] = []
        self._pending_expires: list[float] = []
        self.vectors = np.zeros((0, dimension), dtype=np.float32)
        self.expires = np.zeros(0, dtype=np.float64)

    def upsert(self, entry_id: str, vector: Sequence[float], payload: dict[str, Any]) -> None:
        row = np.asarray(vector, dtype=np.float32)
        row = row / (float(np.linalg.norm(row)) or 1.0)
        if entry_id in self.rows:
            self._flush()
            i = self.rows[entry_id]
            self.vectors[i] = row
            self.payloads[i] = payload
            self.expires[i] = float(payload["expires_at"])
            return
        self.rows[entry_id] = len(self.ids)
        self.ids.append(entry_id)
        self.payloads.append(payload)
        self._pending.append(row)
        self._pending_expires.append(float(payload["expires_at"]))

    def remove(self, entry_id: str) -> None:
        """Retire a row in place; its slot never scores again."""
        self._flush()
        i = self.rows.pop(entry_id, None)
        if i is not None:
            self.expires[i] = -np.inf

    def _flush(self) -> None:
        if self._pending:
            self.vectors = np.vstack([self.vectors, np.stack(self._pending)])
            self.expires = np.concatenate([self.expires, self._pending_expires])
            self._pending, self._pending_expires = [], []

    def search(self, vector: Sequence[float], top_k: int, now: float) -> list[Candidate]:
        self._flush()
        if not self.rows:
            return []
        query = np.asarray(vector, dtype=np.float32)
        query /= float(np.linalg.norm(query)) or 1.0
        scores = self.vectors @ query
        scores[self.expires <= now] = -np.inf
        k = min(top_k, len(self.ids))
        best = np.argpartition(-scores, k - 1)[:k]
        ordered = best[np.argsort(-scores[best])]
        return [
            _candidate_from(self.ids[i], float(scores[i]), self.payloads[i])
            for i in ordered
            if np.isfinite(scores[i])
        ]


def failure_kind(exc: CacheUnavailableError) -> ErrorKind:
    """What failed behind a cache error: the embedder, a timeout, or the store itself."""
    if isinstance(exc.__cause__, EmbeddingError):
        return "embedding"
    return "timeout" if isinstance(exc.__cause__, TimeoutError) else "store"


class SemanticCache:
    """Answers keyed by their standalone question, found by meaning, guarded by detail."""

    def __init__(
        self,
        client: AsyncQdrantClient,
        embedder: Embedder,
        *,
        collection: str = DEFAULT_COLLECTION,
        timeout_s: float = 2.0,
        clock: Clock = time.time,
    ) -> None:
        self.client = client
        self.embedder = embedder
        self.collection = collection
        self.timeout_s = timeout_s
        self.clock = clock
        self.stats = CacheStats()
        self._stored = QdrantCollection(
            client, collection, _collection_spec, lambda: embedder.dimension
        )
        self._mirrored = runs_embedded(client)
        self._indexes: dict[CacheScope, _ScopeIndex] = {}

    @classmethod
    def shared(
        cls, *, timeout_s: float, infrastructure: Infrastructure | None = None
    ) -> SemanticCache:
        """The process-wide cache of the operator's store and embedding model, for one run.

        Args:
            timeout_s: This run's bound on one search or store; other runs keep their own.
            infrastructure: Where the store is and which model embeds; default: the operator's
                settings from the environment, never the run context.
        """
        infra = infrastructure or operator_infrastructure()
        key = (infra.qdrant_location(), infra.embedding_model, infra.cache_collection)
        cache = _CACHES.get(key)
        if cache is None:
            cache = cls(
                get_qdrant(infra.qdrant_location()),
                get_embedder(infra.embedding_model),
                collection=infra.cache_collection,
            )
            _CACHES[key] = cache
        return cache.with_timeout(timeout_s)

    def with_timeout(self, timeout_s: float) -> SemanticCache:
        """This cache (the same store, index and statistics) with another bound per call.

        A run's own view, so concurrent runs with different settings never overwrite each
        other's timeout on the process-wide object.
        """
        view = copy.copy(self)
        view.timeout_s = timeout_s
        return view

    def scope(self, tenant: str, corpus_version: str | None = None) -> CacheScope:
        """The scope of a tenant's entries in this cache's embedding space.

        Args:
            tenant: Whose entries.
            corpus_version: What the answers were drawn from; default: this release's answers
                version (`codeweaver_engine.stamp`), as a run's context defaults to.
        """
        return CacheScope(tenant, self.embedder.model_id, corpus_version or answers_version())

    async def _bounded(self, what: str, work: Awaitable[T]) -> T:
        try:
            return await asyncio.wait_for(work, timeout=self.timeout_s)
        except TimeoutError as exc:
            self.stats.errors["timeout"] += 1
            raise CacheUnavailableError(f"{what} timed out after {self.timeout_s:g}s") from exc
        except CacheUnavailableError:
            raise
        except Exception as exc:
            self.stats.errors[type(exc).__name__] += 1
            raise CacheUnavailableError(f"{what} failed: {type(exc).__name__}: {exc}") from exc

    async def _embed(self, text: str) -> list[float]:
        vectors = await self.embedder.embed([text])
        return [float(x) for x in vectors[0]]

    # Lookup -------------------------------------------------------------------------------

    async def candidates(self, question: str, scope: CacheScope, top_k: int) -> list[Candidate]:
        """Live entries of a scope nearest to the question, best first.

        Raises:
            CacheUnavailableError: Qdrant or the embedder failed or exceeded the timeout.
        """

        async def search() -> list[Candidate]:
            await self._stored.ensure()
            vector = await self._embed(question)
            if self._mirrored:
                index = await self._index(scope)
                return index.search(vector, top_k, self.clock())
            response = await self.client.query_points(
                self.collection,
                query=vector,
                query_filter=models.Filter(must=self._live(scope)),
                limit=top_k,
                with_payload=True,
            )
            return [_candidate(p) for p in response.points]

        return await self._bounded("cache search", search())

    async def lookup(self, question: str, scope: CacheScope, rule: HitRule) -> LookupResult:
        """Decide a hit by embedding, then by details and the fitted hit model (`hit_or_miss`).

        When the best candidate differs from the question by one word each, those two words
        are embedded too (memoised by the embedder), to tell a paraphrase from a swap.

        Raises:
            CacheUnavailableError: Qdrant or the embedder failed or exceeded the timeout.
        """
        found = await self.candidates(question, scope, max(rule.top_k, 2))
        words = words_to_embed(question, found, rule)
        vectors: dict[str, Any] = {}
        if words:
            embedded = await self._bounded("word embedding", self.embedder.embed(words))
            vectors = dict(zip(words, embedded, strict=True))
        result = hit_or_miss(question, found, rule, vectors)
        if not result.pending and not result.decision.hit:
            self.record_miss(result.decision.reason)
        return result

    async def _index(self, scope: CacheScope) -> _ScopeIndex:
        index = self._indexes.get(scope)
        if index is not None:
            return index
        index = _ScopeIndex(await asyncio.to_thread(lambda: self.embedder.dimension))
        selector = models.Filter(
            must=[
                *scope.conditions(),
                models.FieldCondition(key="kind", match=models.MatchValue(value=_ENTRY)),
            ]
        )
        offset: Any = None
        while True:
            points, offset = await self.client.scroll(
                self.collection,
                scroll_filter=selector,
                limit=1000,
                offset=offset,
                with_payload=True,
                with_vectors=True,
            )
            for point in points:
                if isinstance(point.vector, list):
                    index.upsert(str(point.id), point.vector, point.payload or {})  # type: ignore[arg-type]
            if offset is None:
                break
        self._indexes[scope] = index
        return index

    def _forget_indexes(self) -> None:
        self._indexes.clear()

    def record_hit(self) -> None:
        """Count a served hit."""
        self.stats.hits += 1

    def record_miss(self, reason: str) -> None:
        """Count a miss under the first word of its reason."""
        self.stats.misses[reason.split(":", 1)[0]] += 1

    def _live(self, scope: CacheScope) -> list[models.Condition]:
        return [
            *scope.conditions(),
            models.FieldCondition(key="kind", match=models.MatchValue(value=_ENTRY)),
            models.FieldCondition(key="expires_at", range=models.Range(gt=self.clock())),
        ]

    # Store --------------------------------------------------------------------------------

    async def admit(
        self,
        question: str,
        answer: Answer,
        scope: CacheScope,
        *,
        ttl_s: float,
        analysis: Analysis | None,
    ) -> Admission:
        """Store an answer if the admission policy and the feedback blocklist allow it.

        Raises:
            CacheUnavailableError: Qdrant or the embedder failed or exceeded the timeout.
        """
        refusal = admission_refusal(answer, analysis)
        if refusal is None and await self._bounded(
            "cache blocklist", self.is_blocked(question, answer, scope)
        ):
            refusal = "reported_wrong"
        if refusal is not None:
            self.stats.rejections[refusal] += 1
            return Admission(stored=False, reason=refusal)
        entry_id = await self._bounded(
            "cache store", self.put(question, answer, scope, ttl_s=ttl_s)
        )
        self.stats.stores += 1
        return Admission(stored=True, reason="stored", entry_id=entry_id)

    async def put(self, question: str, answer: Answer, scope: CacheScope, *, ttl_s: float) -> str:
        """Write an entry without admission checks; the same question in a scope overwrites.

        Raises:
            CacheUnavailableError: Qdrant or the embedder failed or exceeded the timeout.
        """
        return (await self.put_many([(question, answer)], scope, ttl_s=ttl_s))[0]

    async def put_many(
        self, entries: Sequence[tuple[str, Answer]], scope: CacheScope, *, ttl_s: float
    ) -> list[str]:
        """Write many entries with one batched embedding (evaluation, benchmarks, warm-up).

        Raises:
            CacheUnavailableError: Qdrant or the embedder failed or exceeded the timeout.
        """
        await self._stored.ensure()
        vectors = await self.embedder.embed([q for q, _ in entries])
        now = self.clock()
        points = []
        ids = []
        for (question, answer), vector in zip(entries, vectors, strict=True):
            entry_id = scope.point_id(_ENTRY, normalise_question(question))
            ids.append(entry_id)
            stored = answer.model_copy(update={"from_cache": False})
            points.append(
                models.PointStruct(
                    id=entry_id,
                    vector=[float(x) for x in vector],
                    payload={
                        "kind": _ENTRY,
                        "tenant": scope.tenant,
                        "embedding_model": scope.embedding_model,
                        "corpus_version": scope.corpus_version,
                        "generation": GENERATION,
                        "question": question,
                        "key": normalise_question(question),
                        "answer": stored.model_dump(mode="json"),
                        "fingerprint": answer_fingerprint(answer),
                        "sources": _sources(answer),
                        "created_at": now,
                        "expires_at": now + ttl_s,
                    },
                )
            )
        for start in range(0, len(points), 256):
            await self.client.upsert(self.collection, points=points[start : start + 256])
        index = self._indexes.get(scope)
        if index is not None:
            for point in points:
                index.upsert(str(point.id), point.vector, point.payload or {})  # type: ignore[arg-type]
        return ids

    # Invalidation and feedback ----------------------------------------------------------

    async def invalidate(self, entry_id: str) -> int:
        """Remove one entry by id; returns how many were removed (0 or 1)."""
        await self._stored.ensure()
        found = await self.client.retrieve(self.collection, ids=[entry_id])
        if not found:
            return 0
        await self.client.delete(self.collection, points_selector=[entry_id])
        for index in self._indexes.values():
            index.remove(entry_id)
        return 1

    async def invalidate_source(self, url: str) -> int:
        """Remove every entry whose answer cites a source URL or file."""
        return await self._delete_where(
            [
                models.FieldCondition(key="kind", match=models.MatchValue(value=_ENTRY)),
                models.FieldCondition(key="sources", match=models.MatchAny(any=[url])),
            ]
        )

    async def invalidate_scope(
        self,
        *,
        tenant: str,
        embedding_model: str | None = None,
        corpus_version: str | None = None,
    ) -> int:
        """Remove every entry of a tenant, optionally only of one embedding model or corpus."""
        conditions: list[models.Condition] = [
            models.FieldCondition(key="kind", match=models.MatchValue(value=_ENTRY)),
            models.FieldCondition(key="tenant", match=models.MatchValue(value=tenant)),
        ]
        for key, value in (
            ("embedding_model", embedding_model),
            ("corpus_version", corpus_version),
        ):
            if value is not None:
                conditions.append(
                    models.FieldCondition(key=key, match=models.MatchValue(value=value))
                )
        return await self._delete_where(conditions)

    async def purge_expired(self) -> int:
        """Remove entries past their expiry (searches already ignore them)."""
        return await self._delete_where(
            [
                models.FieldCondition(key="kind", match=models.MatchValue(value=_ENTRY)),
                models.FieldCondition(key="expires_at", range=models.Range(lte=self.clock())),
            ]
        )

    async def feedback_wrong_answer(
        self, *, scope: CacheScope, entry_id: str | None = None, question: str | None = None
    ) -> int:
        """A user reported a cached answer wrong: evict it and block that (question, answer).

        The entry is found by id or by its key question. Another answer to the same question
        may be admitted later; this one never again. Returns how many entries were evicted.
        """
        if entry_id is None:
            if question is None:
                raise ValueError("feedback_wrong_answer needs an entry_id or a question")
            entry_id = scope.point_id(_ENTRY, normalise_question(question))
        await self._stored.ensure()
        found = await self.client.retrieve(
            self.collection, ids=[entry_id], with_payload=True, with_vectors=True
        )
        if not found or not isinstance(found[0].vector, list):
            return 0
        payload = found[0].payload or {}
        # Ids travel through clients: one tenant's report never touches another's entry.
        if payload.get("kind") != _ENTRY or not scope.holds(payload):
            return 0
        key, fingerprint = str(payload["key"]), str(payload["fingerprint"])
        block = models.PointStruct(
            id=scope.point_id(_BLOCK, key, fingerprint),
            vector=found[0].vector,
            payload={
                "kind": _BLOCK,
                "tenant": scope.tenant,
                "embedding_model": scope.embedding_model,
                "corpus_version": scope.corpus_version,
                "key": key,
                "fingerprint": fingerprint,
                "blocked_at": self.clock(),
            },
        )
        await self.client.upsert(self.collection, points=[block])
        await self.client.delete(self.collection, points_selector=[entry_id])
        for index in self._indexes.values():
            index.remove(entry_id)
        return 1

    async def is_blocked(self, question: str, answer: Answer, scope: CacheScope) -> bool:
        """True when this answer to this question was reported wrong."""
        await self._stored.ensure()
        block_id = scope.point_id(_BLOCK, normalise_question(question), answer_fingerprint(answer))
        return bool(await self.client.retrieve(self.collection, ids=[block_id]))

    async def count(self, scope: CacheScope | None = None) -> int:
        """Live and expired entries (not blocks), in one scope or in all."""
        await self._stored.ensure()
        conditions: list[models.Condition] = [
            models.FieldCondition(key="kind", match=models.MatchValue(value=_ENTRY))
        ]
        if scope is not None:
            conditions.extend(scope.conditions())
        result = await self.client.count(
            self.collection, count_filter=models.Filter(must=conditions), exact=True
        )
        return result.count

    async def _delete_where(self, conditions: list[models.Condition]) -> int:
        await self._stored.ensure()
        selector = models.Filter(must=conditions)
        matched = (
            await self.client.count(self.collection, count_filter=selector, exact=True)
        ).count
        if matched:
            await self.client.delete(
                self.collection, points_selector=models.FilterSelector(filter=selector)
            )
            self._forget_indexes()
        return matched


def _candidate(point: models.ScoredPoint) -> Candidate:
    return _candidate_from(str(point.id), float(point.score), point.payload or {})


def _candidate_from(entry_id: str, similarity: float, payload: dict[str, Any]) -> Candidate:
    return Candidate(
        entry_id=entry_id,
        question=str(payload["question"]),
        similarity=similarity,
        answer=Answer.model_validate(payload["answer"]),
        fingerprint=str(payload["fingerprint"]),
        created_at=float(payload["created_at"]),
        expires_at=float(payload["expires_at"]),
        sources=tuple(payload.get("sources") or ()),
    )


def _sources(answer: Answer) -> list[str]:
    located = [c.url or c.file for c in answer.citations]
    return sorted({s for s in located if s})


_INDEXED_FIELDS: dict[str, models.PayloadSchemaType] = {
    "kind": models.PayloadSchemaType.KEYWORD,
    "tenant": models.PayloadSchemaType.KEYWORD,
    "embedding_model": models.PayloadSchemaType.KEYWORD,
    "corpus_version": models.PayloadSchemaType.KEYWORD,
    "generation": models.PayloadSchemaType.INTEGER,
    "sources": models.PayloadSchemaType.KEYWORD,
    "expires_at": models.PayloadSchemaType.FLOAT,
}


def _collection_spec(dimension: int) -> CollectionSpec:
    return CollectionSpec(
        vectors=models.VectorParams(size=dimension, distance=models.Distance.COSINE),
        payload_indexes=_INDEXED_FIELDS,
    )


_CACHES: dict[tuple[str, str, str], SemanticCache] = {}
"""One cache per store and embedding space: its in-process index must see every write."""
