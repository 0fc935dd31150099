"""Twenty CLI-style runs at once in one process: each answer in its own thread, one cache entry."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from backend.tests.graph.conftest import Harness, KeywordSource
from codeweaver.context import Context
from codeweaver.persistence import open_checkpointer
from codeweaver.workflows.orchestration.graph import build_main_graph
from codeweaver_cache import SemanticCache
from codeweaver_runtime import Embedder, open_qdrant
from tests.turns import QUESTION, cacheable, grounded

RUNS = 20
TOPICS = [
    "How do I reverse the list {tag} in Python?",
    "How do I sort the dictionary {tag} by value?",
    "How do I read the file {tag} with open()?",
    "How do I take a slice of the list {tag} backwards?",
]


def question(i: int) -> str:
    # A unique tag per thread makes any leak of one thread's text into another visible.
    return TOPICS[i % len(TOPICS)].format(tag=f"data_{i:02d}")


def text_of(message: Any) -> str:
    return message.content if isinstance(message.content, str) else str(message.content)


async def _run_all(h: Harness, questions: list[str], threads: list[str]) -> list[Any]:
    runs = (h.ask(q, t) for q, t in zip(questions, threads, strict=True))
    return list(await asyncio.gather(*runs, return_exceptions=True))


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_twenty_concurrent_runs_stay_in_their_threads(
    embedder: Embedder, tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    uri = request.getfixturevalue("postgres_uri") if backend == "postgres" else None
    client = open_qdrant(":memory:")
    cache = SemanticCache(client, embedder, timeout_s=30.0)
    questions = [question(i) for i in range(RUNS)]
    threads = [f"{backend}-{tmp_path.name}-{i:02d}" for i in range(RUNS)]
    try:
        async with open_checkpointer(tmp_path, postgres_uri=uri) as saver:
            source = KeywordSource(latency_s=0.05)
            graph = build_main_graph(
                embedder=embedder, sources={"local": source}, cache=cache, checkpointer=saver
            )
            h = Harness(
                graph, source, cache, Context(search_sources=["local"], chat_model="offline")
            )
            results = await _run_all(h, questions, threads)
            failures = [r for r in results if isinstance(r, BaseException)]
            assert not failures, failures  # no InvalidUpdateError or anything else raised
            states = [
                (await graph.aget_state({"configurable": {"thread_id": t}})).values for t in threads
            ]
    finally:
        await client.close()

    for i, values in enumerate(states):
        messages = values["messages"]
        assert [type(m) for m in messages] == [HumanMessage, AIMessage], (i, messages)
        assert text_of(messages[0]) == questions[i]
        assert values["errors"] == [], values["errors"]
        answer = values["answer"]
        assert answer.citations, answer.text
        assert answer.text in text_of(messages[1])  # the run's own answer landed here
        assert values["analysis"].standalone_question.lower().rstrip("?") in questions[i].lower()
        everything = " ".join(text_of(m) for m in messages) + answer.text
        leaked = [j for j in range(RUNS) if j != i and f"data_{j:02d}" in everything]
        assert not leaked, (i, leaked)
    assert source.most_in_flight > 1, "the runs overlapped"


async def test_twenty_runs_of_one_question_leave_one_cache_entry(
    embedder: Embedder, tmp_path: Path
) -> None:
    client = open_qdrant(str(tmp_path / "qdrant"))
    cache = SemanticCache(client, embedder, timeout_s=30.0)
    try:
        async with open_checkpointer(tmp_path) as saver:
            source = KeywordSource()
            graph = build_main_graph(
                embedder=embedder, sources={"local": source}, cache=cache, checkpointer=saver
            )
            context = Context(search_sources=["local"], chat_model="offline")
            h = Harness(graph, source, cache, context)
            same = "How do I reverse a list in Python?"
            results = await _run_all(h, [same] * RUNS, [f"same-{i:02d}" for i in range(RUNS)])
        assert not [r for r in results if isinstance(r, BaseException)], results
        assert all(values["answer"].citations for values, _, _ in results)
        assert await cache.count() == 1
    finally:
        await client.close()


async def test_parallel_admits_of_one_question_leave_one_entry(
    embedder: Embedder, tmp_path: Path
) -> None:
    client = open_qdrant(str(tmp_path / "qdrant"))
    cache = SemanticCache(client, embedder, timeout_s=30.0)
    scope = cache.scope("acme")
    answer, analysis = grounded("Use reversed()."), cacheable()
    variants = [QUESTION, QUESTION.lower()]
    try:
        admitted = await asyncio.gather(
            *(
                cache.admit(q, answer, scope, ttl_s=60, analysis=analysis)
                for q in variants * (RUNS // 2)
            )
        )
        assert all(a.stored for a in admitted)
        assert len({a.entry_id for a in admitted}) == 1
        assert await cache.count(scope) == 1
    finally:
        await client.close()
