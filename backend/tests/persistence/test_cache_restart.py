"""The semantic cache on embedded on-disk Qdrant survives a restart with its entries and TTLs."""

from __future__ import annotations

from pathlib import Path

from codeweaver_cache import HitRule, SemanticCache
from codeweaver_runtime import Embedder, open_qdrant
from tests.turns import grounded

RULE = HitRule()


class Clock:
    """A clock the test moves by hand, so a TTL can expire across a restart."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_entries_and_ttls_survive_a_restart(embedder: Embedder, tmp_path: Path) -> None:
    folder = str(tmp_path / "qdrant")
    clock = Clock()
    client = open_qdrant(folder)
    cache = SemanticCache(client, embedder, clock=clock, timeout_s=30.0)
    scope = cache.scope("acme")
    await cache.put(
        "How do I reverse a list in Python?", grounded("Use reversed()."), scope, ttl_s=600
    )
    await cache.put("How do I sort a dict by value?", grounded("Use sorted()."), scope, ttl_s=60)
    assert await cache.count(scope) == 2
    await client.close()

    # Reopen the folder with a new client and cache, as a new process would, 2 minutes later.
    clock.now += 120
    client = open_qdrant(folder)
    try:
        cache = SemanticCache(client, embedder, clock=clock, timeout_s=30.0)
        assert await cache.count(scope) == 2  # both entries kept on disk
        kept = await cache.lookup("how do I reverse a list in python", scope, RULE)
        assert kept.decision.hit, kept.decision.reason
        assert kept.candidate is not None
        assert kept.candidate.answer.text == "Use reversed()."
        assert kept.candidate.expires_at == 1_000_000.0 + 600
        expired = await cache.lookup("How do I sort a dict by value?", scope, RULE)
        assert not expired.decision.hit  # its 60 s TTL ran out while the process was down

        # The kept entry's own TTL is the one stored: it expires 600 s after it was written.
        clock.now += 481
        late = await cache.lookup("how do I reverse a list in python", scope, RULE)
        assert not late.decision.hit
        assert await cache.purge_expired() == 2
        assert await cache.count(scope) == 0
    finally:
        await client.close()
