"""Threads survive a restart: close the checkpointer, open a new one, the conversation goes on."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from backend.tests.graph.conftest import Harness, KeywordSource
from codeweaver.context import Context
from codeweaver.persistence import POSTGRES_URI_ENV, open_checkpointer
from codeweaver.workflows.orchestration.graph import build_main_graph
from codeweaver_cache import SemanticCache
from codeweaver_runtime import Embedder, open_qdrant

QUESTION = "How do I reverse a list in Python?"
# Offline, a follow-up the earlier sources answer (more of the explanation) stays in the thread.
FOLLOW_UP = "Can you explain that in more detail?"


def _harness(embedder: Embedder, saver: Any, cache: SemanticCache) -> Harness:
    source = KeywordSource()
    graph = build_main_graph(
        embedder=embedder, sources={"local": source}, cache=cache, checkpointer=saver
    )
    return Harness(graph, source, cache, Context(search_sources=["local"], chat_model="offline"))


async def _restart_keeps_the_thread(
    embedder: Embedder, data_dir: Path, postgres_uri: str | None
) -> None:
    thread = f"restart-{uuid.uuid4().hex[:8]}"
    client = open_qdrant(":memory:")
    cache = SemanticCache(client, embedder)
    try:
        async with open_checkpointer(data_dir, postgres_uri=postgres_uri) as saver:
            first, _, _ = await _harness(embedder, saver, cache).ask(QUESTION, thread)
        assert first["answer"].citations, first["answer"].text

        # A new process would see only what the database kept: a fresh saver and graph.
        async with open_checkpointer(data_dir, postgres_uri=postgres_uri) as saver:
            h = _harness(embedder, saver, cache)
            config: Any = {"configurable": {"thread_id": thread}}
            kept = (await h.graph.aget_state(config)).values
            assert [type(m) for m in kept["messages"]] == [HumanMessage, AIMessage]
            assert kept["messages"][0].content == QUESTION
            assert kept["messages"][1].content == first["messages"][1].content
            assert kept["answer"] == first["answer"]
            assert kept["evidence"] == first["evidence"]

            searched = len(h.source.queries)
            after, nodes, _ = await h.ask(FOLLOW_UP, thread)
        assert after["analysis"].question_type == "clarification"
        assert "answer_with_history" in nodes
        assert len(h.source.queries) == searched
        assert len(after["messages"]) == 4
        assert after["messages"][0].content == QUESTION
    finally:
        await client.close()


async def test_sqlite_thread_survives_a_restart(embedder: Embedder, tmp_path: Path) -> None:
    await _restart_keeps_the_thread(embedder, tmp_path, None)
    assert (tmp_path / "threads.sqlite").is_file()


async def test_postgres_thread_survives_a_restart(
    embedder: Embedder, tmp_path: Path, postgres_uri: str
) -> None:
    await _restart_keeps_the_thread(embedder, tmp_path, postgres_uri)
    assert not (tmp_path / "threads.sqlite").exists()


async def test_postgres_uri_from_the_environment_is_used_by_default(
    tmp_path: Path, postgres_uri: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    monkeypatch.setenv(POSTGRES_URI_ENV, postgres_uri)
    async with open_checkpointer(tmp_path) as saver:
        assert isinstance(saver, AsyncPostgresSaver)
    monkeypatch.setenv(POSTGRES_URI_ENV, "  ")
    async with open_checkpointer(tmp_path) as saver:
        assert isinstance(saver, AsyncSqliteSaver)


async def test_cli_run_question_keeps_the_thread_in_postgres(
    tmp_path: Path, postgres_uri: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`codeweaver ask/chat` go through `run_question`: the URI in the environment decides.

    The run is configured as an operator configures the CLI, through the environment: its
    store under a fresh home, the bundled documentation as its local source, no model.
    """
    from codeweaver.cli.ask import run_question

    monkeypatch.setenv("CODEWEAVER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(POSTGRES_URI_ENV, postgres_uri)
    thread = f"cli-{uuid.uuid4().hex[:8]}"
    overrides = {"chat_model": "offline", "search_sources": ["local"]}
    first = await run_question(
        QUESTION, thread_id=thread, data_dir=tmp_path, context_overrides=overrides
    )
    second = await run_question(
        FOLLOW_UP, thread_id=thread, data_dir=tmp_path, context_overrides=overrides
    )
    assert first.citations, first.answer
    assert second.question_type == "clarification", second
    assert "answer_with_history" in second.nodes
    assert not (tmp_path / "threads.sqlite").exists()
