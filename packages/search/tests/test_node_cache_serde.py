"""The search subgraph's node cache revives the schema's models under strict msgpack.

With LangGraph's default serializer a cached source result (a list of Evidence) came back
blocked on a strict-msgpack server (LANGGRAPH_STRICT_MSGPACK=true) and the answer lost its
citations; the cache now uses the schema's registered serializer.
"""

from __future__ import annotations

from pydantic import BaseModel

from codeweaver_schema import Evidence, LocalMeta
from codeweaver_search.graph import build_search_graph


class Foreign(BaseModel):
    """A type nobody registered: what an attacker-written cache entry could name."""

    x: int = 1


def test_the_node_cache_revives_evidence_and_nothing_unregistered() -> None:
    cache = build_search_graph(sources={}).cache
    assert cache is not None
    evidence = Evidence(
        id="e1",
        source="local",
        title="Mutable Sequence Types",
        content="reverse() reverses the list in place.",
        meta=LocalMeta(doc_id="d", file="docs/d.rst"),
    )
    revived = cache.serde.loads_typed(cache.serde.dumps_typed([evidence]))
    assert revived == [evidence]
    assert isinstance(revived[0], Evidence)
    foreign = cache.serde.loads_typed(cache.serde.dumps_typed(Foreign()))
    assert not isinstance(foreign, Foreign), "only registered types are revived"
