from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from qdrant_client import AsyncQdrantClient

from codeweaver_cache import (
    CacheContext,
    CacheState,
    HitRule,
    SemanticCache,
    build_cache_lookup_graph,
    build_cache_store_graph,
)
from codeweaver_runtime import (
    ModelCallCounter,
    SentenceTransformerEmbedder,
    StaticChatModels,
    open_qdrant,
)
from codeweaver_schema import Analysis
from codeweaver_testing import ScriptedChatModel, respond_with
from tests.turns import QUESTION, cacheable, grounded

from .test_store import SlowEmbedder


def analysis(question: str = QUESTION, **changes: Any) -> Analysis:
    return cacheable(question).model_copy(update=changes)


def turn(question: str = QUESTION, **changes: Any) -> CacheState:
    return {
        "messages": [HumanMessage("and also, " + question)],
        "question": "and also, " + question,
        "analysis": analysis(question, **changes),
        "answer": grounded("Use `reversed(xs)` or `xs[::-1]` [1]."),
    }


def config(counter: ModelCallCounter, thread: str = "t1") -> RunnableConfig:
    return {"configurable": {"thread_id": thread}, "callbacks": [counter]}


async def test_store_then_repeat_question_hits_with_zero_model_calls(cache: SemanticCache) -> None:
    model = ScriptedChatModel(responder=respond_with({}))
    store = build_cache_store_graph(cache=cache)
    lookup = build_cache_lookup_graph(cache=cache, models=StaticChatModels(model))
    ctx = CacheContext(tenant="acme")
    counter = ModelCallCounter()

    stored = await store.ainvoke(turn(), config(counter), context=ctx)
    assert stored["cache_stored"] is True
    assert stored["cache_store_reason"] == "stored"
    assert set(stored) <= {"cache_stored", "cache_store_reason", "errors", "flow"}

    state = turn()
    del state["answer"]
    out = await lookup.ainvoke(state, config(counter, "t2"), context=ctx)
    assert out["cache_decision"].hit, out["cache_decision"].reason
    assert out["answer"].from_cache
    assert out["messages"][-1].content.startswith("Use `reversed(xs)`")
    assert set(out) <= {"answer", "messages", "cache_decision", "errors", "flow"}
    assert counter.calls == 0
    assert model.calls == []
    assert cache.stats.hits == 1


async def test_lookup_graph_with_checkpointer_and_not_cacheable(cache: SemanticCache) -> None:
    graph = build_cache_lookup_graph(cache=cache)
    compiled = graph.builder.compile(checkpointer=InMemorySaver())
    out = await compiled.ainvoke(
        turn(should_cache=False), config(ModelCallCounter()), context=CacheContext()
    )
    assert not out["cache_decision"].hit
    assert out["cache_decision"].reason.startswith("not_cacheable")


@pytest.mark.parametrize("verdict", [True, False])
async def test_verifier_confirms_or_rejects(cache: SemanticCache, verdict: bool) -> None:
    await cache.put(QUESTION, grounded("Use reversed()."), cache.scope("acme"), ttl_s=60)
    model = ScriptedChatModel(
        responder=respond_with({"CacheVerdict": {"same_question": verdict, "reason": "scripted"}})
    )
    graph = build_cache_lookup_graph(cache=cache, models=StaticChatModels(model))
    ctx = CacheContext(tenant="acme", cache_verifier_model="judge")
    counter = ModelCallCounter()
    state = turn()
    del state["answer"]
    out = await graph.ainvoke(state, config(counter), context=ctx)
    assert out["cache_decision"].hit is verdict
    assert counter.calls == 1
    assert len(model.calls) == 1
    assert ("answer" in out and out["answer"] is not None) is verdict
    nodes = [step.node for step in out["flow"]]
    assert nodes == ["cache_lookup", "cache_verify"]


async def test_verifier_failure_is_a_recorded_miss(cache: SemanticCache) -> None:
    await cache.put(QUESTION, grounded("Use reversed()."), cache.scope("acme"), ttl_s=60)

    def boom(*_: Any) -> Any:
        raise RuntimeError("provider down")

    graph = build_cache_lookup_graph(
        cache=cache, models=StaticChatModels(ScriptedChatModel(responder=boom))
    )
    state = turn()
    del state["answer"]
    out = await graph.ainvoke(
        state, context=CacheContext(tenant="acme", cache_verifier_model="judge")
    )
    assert not out["cache_decision"].hit
    assert out["errors"][0].kind == "model"


async def test_down_qdrant_is_a_recorded_miss(embedder: SentenceTransformerEmbedder) -> None:
    client = AsyncQdrantClient(url="http://127.0.0.1:9", timeout=2, check_compatibility=False)
    down = SemanticCache(client, embedder, timeout_s=5.0)
    state = turn()
    del state["answer"]
    out = await build_cache_lookup_graph(cache=down).ainvoke(state, context=CacheContext())
    assert not out["cache_decision"].hit
    assert out["cache_decision"].reason.startswith("unavailable")
    assert out["errors"][0].node == "cache_lookup"
    stored = await build_cache_store_graph(cache=down).ainvoke(turn(), context=CacheContext())
    assert stored["cache_stored"] is False
    assert stored["errors"]


async def test_slow_cache_is_a_bounded_miss(embedder: SentenceTransformerEmbedder) -> None:
    slow_embedder = SlowEmbedder(embedder)
    slow = SemanticCache(open_qdrant(":memory:"), slow_embedder, timeout_s=0.3)
    state = turn()
    del state["answer"]
    out = await build_cache_lookup_graph(cache=slow).ainvoke(state, context=CacheContext())
    assert not out["cache_decision"].hit
    assert out["errors"][0].kind == "timeout"
    # The lookup gave up on the embedding instead of waiting for it.
    assert not slow_embedder.finished


async def test_store_refuses_clarification(cache: SemanticCache) -> None:
    out = await build_cache_store_graph(cache=cache).ainvoke(
        turn(question_type="clarification", should_cache=False), context=CacheContext()
    )
    assert (out["cache_stored"], out["cache_store_reason"]) == (False, "clarification")


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"declined": True, "decline_reason": "below_relevance_floor"}, "declined"),
        ({"degraded": True}, "degraded"),
        ({"grounded": False}, "ungrounded"),
    ],
)
async def test_store_admits_only_answers_worth_serving_again(
    cache: SemanticCache, changes: dict[str, Any], reason: str
) -> None:
    state = turn()
    answer = state["answer"]
    assert answer is not None
    state["answer"] = answer.model_copy(update=changes)
    out = await build_cache_store_graph(cache=cache).ainvoke(
        state, context=CacheContext(tenant="acme")
    )
    assert (out["cache_stored"], out["cache_store_reason"]) == (False, reason)
    assert await cache.count() == 0


def test_module_graphs_compile_without_checkpointer() -> None:
    from codeweaver_cache import lookup_graph, store_graph

    assert lookup_graph.checkpointer is None
    assert store_graph.checkpointer is None
    assert lookup_graph.name == "cache_lookup"
    assert store_graph.name == "cache_store"
    assert HitRule().min_similarity > 0


async def test_without_a_context_the_graphs_use_the_defaults(cache: SemanticCache) -> None:
    stored = await build_cache_store_graph(cache=cache).ainvoke(turn())
    assert stored["cache_stored"] is True, stored
    state = turn()
    del state["answer"]
    out = await build_cache_lookup_graph(cache=cache).ainvoke(state)
    assert out["cache_decision"].hit, out["cache_decision"].reason


async def test_a_question_whose_subject_is_only_a_pronoun_is_never_a_key(
    cache: SemanticCache,
) -> None:
    # Issue 29: after "How do I read a JSON file, and how do I pretty-print it?", a new thread
    # asking "How do I pretty-print it?" was served the JSON answer. Even with an analysis that
    # says it may be cached (a planner model's, say), such a question neither stores nor looks up.
    bare = "How do I pretty-print it?"
    store = build_cache_store_graph(cache=cache)
    lookup = build_cache_lookup_graph(cache=cache)
    ctx = CacheContext(tenant="acme")
    counter = ModelCallCounter()

    stored = await store.ainvoke(turn(bare), config(counter), context=ctx)
    assert stored["cache_stored"] is False
    assert stored["cache_store_reason"] == "pronoun_subject"
    assert await cache.count() == 0

    # An entry keyed on the bare question (as an earlier release stored it) is not served.
    await cache.put(
        bare,
        grounded("Use `json.dumps(obj, indent=4)` [1]."),
        cache.scope("acme", ctx.cache_corpus_version),
        ttl_s=60.0,
    )
    state = turn(bare)
    del state["answer"]
    out = await lookup.ainvoke(state, config(counter, "t2"), context=ctx)
    assert not out["cache_decision"].hit
    assert out["cache_decision"].reason.startswith("pronoun_subject")

    # The same question with its subject named is a key like any other.
    named = "How do I pretty-print a JSON file?"
    assert (await store.ainvoke(turn(named), config(counter), context=ctx))["cache_stored"]
