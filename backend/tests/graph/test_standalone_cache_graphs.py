"""The cache subgraphs served alone (`cache_lookup`, `cache_store` in langgraph.json) use the
main graph's version scope, so they see the entries the main graph writes and it theirs.

Their context once defaulted the corpus version to "1" while the main graph's defaulted to this
release's answers version: the standalone lookup always missed.
"""

from __future__ import annotations

from codeweaver_cache import CacheContext, build_cache_lookup_graph, build_cache_store_graph
from codeweaver_engine.stamp import answers_version
from tests.turns import cacheable, grounded

from .conftest import MakeHarness

QUESTION = "How do I reverse a list in Python?"


async def test_an_answer_the_main_graph_stored_is_found_by_the_lookup_graph_alone(
    make_harness: MakeHarness,
) -> None:
    harness = make_harness()
    values, _, _ = await harness.ask(QUESTION)
    assert values["cache_stored"], values.get("cache_store_reason")

    # As the server runs it: no context sent, the graph's own defaults.
    lookup = build_cache_lookup_graph(cache=harness.cache)
    found = await lookup.ainvoke({"question": QUESTION})
    assert found["cache_decision"].hit, found["cache_decision"].reason
    assert found["answer"].text == values["answer"].text


async def test_an_answer_the_store_graph_stored_is_served_by_the_main_graph(
    make_harness: MakeHarness,
) -> None:
    harness = make_harness()
    store = build_cache_store_graph(cache=harness.cache)
    stored = await store.ainvoke(
        {
            "question": QUESTION,
            "analysis": cacheable(QUESTION),
            "answer": grounded("Use list.reverse() to reverse a list in place."),
        }
    )
    assert stored["cache_stored"], stored["cache_store_reason"]

    values, _, _ = await harness.ask(QUESTION)
    assert values["cache_decision"].hit, values["cache_decision"].reason
    assert "list.reverse()" in values["answer"].text


def test_the_cache_contexts_default_version_is_this_releases() -> None:
    assert CacheContext().cache_corpus_version == answers_version()
