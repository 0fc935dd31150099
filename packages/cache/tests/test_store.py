from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from codeweaver_cache import CacheUnavailableError, HitRule, SemanticCache
from codeweaver_runtime import Embedder, SentenceTransformerEmbedder
from codeweaver_runtime.embeddings import Vectors
from codeweaver_testing import DelegatingEmbedder
from tests.turns import cacheable, grounded

from .conftest import Clock

RULE = HitRule()
ANALYSIS = cacheable()


async def test_repeat_question_hits_and_python2_does_not(cache: SemanticCache) -> None:
    scope = cache.scope("acme")
    await cache.put(
        "How do I reverse a list in Python?", grounded("Use reversed()."), scope, ttl_s=60
    )
    hit = await cache.lookup("how do I reverse a list in python", scope, RULE)
    assert hit.decision.hit, hit.decision.reason
    miss = await cache.lookup("How do I reverse a list in Python 2?", scope, RULE)
    assert not miss.decision.hit
    assert miss.decision.reason.startswith("details_differ")
    assert cache.stats.misses["details_differ"] == 1


async def test_hex_int_direction_never_hits(cache: SemanticCache) -> None:
    scope = cache.scope("acme")
    await cache.put("Convert hex string to int", grounded("int(s, 16)"), scope, ttl_s=60)
    result = await cache.lookup("convert an int to a hex string", scope, RULE)
    assert result.decision.similarity is not None
    assert result.decision.similarity > 0.95
    assert not result.decision.hit
    assert "direction" in result.decision.reason


async def test_tenant_scope_isolation(cache: SemanticCache) -> None:
    question = "How do I reverse a list in Python?"
    await cache.put(question, grounded("Use reversed()."), cache.scope("tenant-a"), ttl_s=60)
    assert (await cache.lookup(question, cache.scope("tenant-a"), RULE)).decision.hit
    other = await cache.lookup(question, cache.scope("tenant-b"), RULE)
    assert not other.decision.hit
    assert other.decision.reason.startswith("empty")
    old_corpus = await cache.lookup(question, cache.scope("tenant-a", "2"), RULE)
    assert not old_corpus.decision.hit


async def test_fixed_ttl_expires(cache: SemanticCache, clock: Clock) -> None:
    scope = cache.scope("acme")
    question = "How do I reverse a list in Python?"
    await cache.put(question, grounded("Use reversed()."), scope, ttl_s=100)
    clock.now += 60
    assert (await cache.lookup(question, scope, RULE)).decision.hit  # a hit does not extend it
    clock.now += 41
    assert not (await cache.lookup(question, scope, RULE)).decision.hit
    assert await cache.purge_expired() == 1
    assert await cache.count(scope) == 0


async def test_invalidation_by_id_source_and_scope(cache: SemanticCache) -> None:
    scope = cache.scope("acme")
    first = await cache.put("Reverse a list", grounded("a", "https://a.example/x"), scope, ttl_s=60)
    await cache.put("Sort a list", grounded("b", "https://b.example/y"), scope, ttl_s=60)
    await cache.put("Copy a list", grounded("c", "https://b.example/y"), scope, ttl_s=60)
    await cache.put("Copy a dict", grounded("d"), cache.scope("other"), ttl_s=60)
    assert await cache.invalidate(first) == 1
    assert await cache.invalidate(first) == 0
    assert await cache.invalidate_source("https://b.example/y") == 2
    assert await cache.count(scope) == 0
    assert await cache.invalidate_scope(tenant="other") == 1
    assert await cache.count() == 0


async def test_feedback_evicts_and_blocks_the_pair(cache: SemanticCache) -> None:
    scope = cache.scope("acme")
    question = "How do I reverse a list in Python?"
    wrong = grounded("Use list.sort().")
    stored = await cache.admit(question, wrong, scope, ttl_s=60, analysis=ANALYSIS)
    assert stored.stored
    assert await cache.feedback_wrong_answer(scope=scope, question=question) == 1
    assert not (await cache.lookup(question, scope, RULE)).decision.hit
    again = await cache.admit(question, wrong, scope, ttl_s=60, analysis=ANALYSIS)
    assert (again.stored, again.reason) == (False, "reported_wrong")
    assert cache.stats.rejections["reported_wrong"] == 1
    fixed = await cache.admit(
        question, grounded("Use reversed()."), scope, ttl_s=60, analysis=ANALYSIS
    )
    assert fixed.stored


async def test_admission_refuses_ungrounded_degraded_and_clarifications(
    cache: SemanticCache,
) -> None:
    scope = cache.scope("acme")
    q = "How do I reverse a list in Python?"
    ungrounded = grounded("x").model_copy(update={"grounded": False})
    degraded = grounded("x").model_copy(update={"degraded": True})
    clarification = ANALYSIS.model_copy(update={"question_type": "clarification"})
    results = [
        await cache.admit(q, ungrounded, scope, ttl_s=60, analysis=ANALYSIS),
        await cache.admit(q, degraded, scope, ttl_s=60, analysis=ANALYSIS),
        await cache.admit(q, grounded("x"), scope, ttl_s=60, analysis=clarification),
    ]
    assert [r.reason for r in results] == ["ungrounded", "degraded", "clarification"]
    assert await cache.count(scope) == 0


async def test_concurrent_stores_leave_one_entry(cache: SemanticCache) -> None:
    scope = cache.scope("acme")
    variants = [
        "How do I reverse a list in Python?",
        "how do i reverse a list in python",
        "How do I reverse a list in Python",
    ]
    await asyncio.gather(
        *(
            cache.admit(q, grounded("Use reversed()."), scope, ttl_s=60, analysis=ANALYSIS)
            for q in variants * 3
        )
    )
    assert await cache.count(scope) == 1


class SlowEmbedder(DelegatingEmbedder):
    """The real embedder, but `embed` takes 5 s; `finished` says whether one ever completed."""

    finished = False

    async def embed(self, texts: Sequence[str]) -> Vectors:
        await asyncio.sleep(5)
        self.finished = True
        return self.inner.embed_sync(texts)


class _SlowDimension(DelegatingEmbedder):
    """The real embedder, but its first `dimension` takes a while (a cold model load)."""

    @property
    def dimension(self) -> int:
        import time

        time.sleep(0.3)
        return self.inner.dimension


def test_first_use_from_two_event_loops_at_once(embedder: SentenceTransformerEmbedder) -> None:
    """One cache serves several event loops (server, CLI, tests) even while it is set up."""
    import threading

    from codeweaver_runtime import open_qdrant

    client = open_qdrant(":memory:")
    cache = SemanticCache(client, _SlowDimension(embedder), timeout_s=30.0)
    scope = cache.scope("acme")
    failures: list[BaseException] = []

    async def two_lookups() -> None:
        await asyncio.gather(
            cache.lookup("How do I reverse a list?", scope, RULE),
            cache.lookup("How do I sort a dict?", scope, RULE),
        )

    def in_own_loop() -> None:
        try:
            asyncio.run(two_lookups())
        except BaseException as exc:  # collected for the assertion below
            failures.append(exc)

    threads = [threading.Thread(target=in_own_loop) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    asyncio.run(client.close())


async def test_the_two_wrong_hits_of_issue_11_now_miss(cache: SemanticCache) -> None:
    scope = cache.scope("acme")
    for cached, query in [
        (
            "What does TypeError: 'NoneType' object is not subscriptable mean?",
            "What does TypeError: 'NoneType' object is not iterable mean?",
        ),
        (
            "git: how to undo the last commit but keep the changes?",
            "git: how to undo the last commit and discard the changes?",
        ),
    ]:
        await cache.put(cached, grounded("cached answer"), scope, ttl_s=60)
        result = await cache.lookup(query, scope, RULE)
        assert not result.decision.hit, result.decision.reason
        assert result.decision.reason.startswith("details_differ")
        assert (await cache.lookup(cached, scope, RULE)).decision.hit
        await cache.invalidate_scope(tenant="acme")


async def test_a_paraphrase_still_hits_and_a_swapped_word_does_not(cache: SemanticCache) -> None:
    scope = cache.scope("acme")
    await cache.put("How do I delete a file in Python?", grounded("os.remove"), scope, ttl_s=60)
    paraphrase = await cache.lookup("how can I remove a file in python", scope, RULE)
    assert paraphrase.decision.hit, paraphrase.decision.reason
    folder = await cache.lookup("How do I delete a folder in Python?", scope, RULE)
    assert not folder.decision.hit
    assert "different things" in folder.decision.reason


async def test_admission_refuses_declines_with_the_reason(cache: SemanticCache) -> None:
    scope = cache.scope("acme")
    q = "How do I reverse a list in Python?"
    declined = grounded("No source answers this.").model_copy(
        update={"declined": True, "decline_reason": "below_relevance_floor", "relevance": 0.1}
    )
    result = await cache.admit(q, declined, scope, ttl_s=60, analysis=ANALYSIS)
    assert (result.stored, result.reason) == (False, "declined")
    assert cache.stats.rejections["declined"] == 1
    assert await cache.count(scope) == 0


class _GatedEmbedder:
    """The real embedder, whose `embed` waits until the test opens the gate."""

    def __init__(self, inner: SentenceTransformerEmbedder) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dimension = inner.dimension
        self.gate = asyncio.Event()

    def embed_sync(self, texts: Sequence[str]) -> Vectors:
        return self.inner.embed_sync(texts)

    async def embed(self, texts: Sequence[str]) -> Vectors:
        await self.gate.wait()
        return self.inner.embed_sync(texts)


async def test_concurrent_runs_keep_their_own_timeout_on_one_cache(
    embedder: SentenceTransformerEmbedder,
) -> None:
    from codeweaver_runtime import open_qdrant

    gated = _GatedEmbedder(embedder)
    client = open_qdrant(":memory:")
    cache = SemanticCache(client, gated)
    patient, hasty = cache.with_timeout(60.0), cache.with_timeout(0.05)
    scope = cache.scope("acme")
    # Both runs wait on the same embedding; the hasty one gives up, the patient one does not.
    waiting = asyncio.create_task(patient.lookup("How do I reverse a list?", scope, RULE))
    with pytest.raises(CacheUnavailableError, match=r"timed out after 0\.05s"):
        await hasty.lookup("How do I reverse a list?", scope, RULE)
    assert not waiting.done()
    gated.gate.set()
    assert not (await waiting).decision.hit
    assert (patient.timeout_s, hasty.timeout_s, cache.timeout_s) == (60.0, 0.05, 2.0)
    # One store, one index, one tally: only the bound differs.
    assert patient.stats is hasty.stats is cache.stats
    assert cache.stats.errors["timeout"] == 1
    await client.close()


async def test_entries_of_the_generation_that_mixed_tenants_are_never_served(
    cache: SemanticCache, embedder: Embedder, clock: Clock
) -> None:
    """Generation 1 stored answers built from search results shared between tenants."""
    question = "How do I configure the frobnicator daemon?"
    scope = cache.scope("bob")
    [entry] = await cache.put_many([(question, grounded("Set spin_rate = 42."))], scope, ttl_s=60)
    # What generation 1 wrote: the same entry without the field.
    await cache.client.delete_payload(cache.collection, keys=["generation"], points=[entry])
    upgraded = SemanticCache(cache.client, embedder, clock=clock, timeout_s=30.0)
    missed = await upgraded.lookup(question, scope, RULE)
    assert not missed.decision.hit
    assert await upgraded.count(scope) == 0
    # An answer stored now replaces it and is served.
    await upgraded.put(question, grounded("Use frobctl."), scope, ttl_s=60)
    assert (await upgraded.lookup(question, scope, RULE)).decision.hit
