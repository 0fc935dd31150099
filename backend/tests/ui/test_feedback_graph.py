"""The `cache_feedback` graph the "wrong answer" button runs on the server."""

from __future__ import annotations

from codeweaver.context import Context
from codeweaver.server.feedback import build_feedback_graph
from codeweaver_cache import SemanticCache
from codeweaver_runtime import Embedder, open_qdrant
from codeweaver_schema import Answer

QUESTION = "How do I reverse a list in Python?"


async def test_a_reported_answer_is_evicted_and_never_cached_again(embedder: Embedder) -> None:
    cache = SemanticCache(open_qdrant(":memory:"), embedder, timeout_s=30.0)
    context = Context(chat_model="offline")
    scope = cache.scope(context.tenant, context.cache_corpus_version)
    answer = Answer(text="Use reversed() [1]", grounded=True)
    await cache.put(QUESTION, answer, scope, ttl_s=3600)
    graph = build_feedback_graph(cache=cache)

    result = await graph.ainvoke({"question": QUESTION}, context=context)
    assert result["feedback_evicted"] == 1
    assert "removed" in result["feedback_message"]
    assert await cache.count(scope) == 0
    assert await cache.is_blocked(QUESTION, answer, scope)

    again = await graph.ainvoke({"question": QUESTION}, context=context)
    assert again["feedback_evicted"] == 0


async def test_a_report_without_a_target_does_nothing(embedder: Embedder) -> None:
    cache = SemanticCache(open_qdrant(":memory:"), embedder, timeout_s=30.0)
    result = await build_feedback_graph(cache=cache).ainvoke({}, context=Context())
    assert result["feedback_evicted"] == 0
    assert "Nothing to report" in result["feedback_message"]


async def test_the_button_finds_what_a_default_run_of_the_main_graph_cached(
    embedder: Embedder,
) -> None:
    # The main graph caches under this release's corpus version; a report sent with no
    # settings (the chat page's) must look in the same place.
    cache = SemanticCache(open_qdrant(":memory:"), embedder, timeout_s=30.0)
    main_run = Context()
    scope = cache.scope(main_run.tenant, main_run.cache_corpus_version)
    await cache.put(QUESTION, Answer(text="Use reversed() [1]", grounded=True), scope, ttl_s=3600)
    result = await build_feedback_graph(cache=cache).ainvoke({"question": QUESTION})
    assert result["feedback_evicted"] == 1
    assert await cache.count(scope) == 0
