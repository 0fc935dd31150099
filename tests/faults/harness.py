"""Builds and runs the real main graph with real web sources pointed at a replay server."""

from __future__ import annotations

import socket
import uuid
from collections.abc import Collection, Mapping
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver

from codeweaver.context import Context
from codeweaver.persistence import schema_serializer
from codeweaver.workflows.orchestration.graph import build_main_graph
from codeweaver_cache import SemanticCache
from codeweaver_runtime import Embedder, StaticChatModels, open_qdrant
from codeweaver_schema import ErrorRecord, SourceName
from codeweaver_search import Source
from codeweaver_search.sources import GitHubCodeSource, StackOverflowSource, TavilyDocsSource

from .conftest import PREFIX

WEB: tuple[SourceName, ...] = ("stackoverflow", "github", "docs")
SOURCE_TIMEOUT_S = 2.0
"""Short enough to keep the matrix quick, long enough for a healthy local reply on two busy cores
(0.4 s was not, nor 1 s once: CI saw healthy replies reported as timeouts)."""
MODEL_TIMEOUT_S = 0.6
CACHE_TIMEOUT_S = 0.6
MAX_BODY_BYTES = 256 * 1024
"""The size cap for web bodies here: small, so a huge body is refused by size well within the
source timeout even on a loaded machine (the production cap is 4 MiB)."""


def closed_port_url() -> str:
    """A loopback URL nobody listens on: connecting to it is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def web_sources(base: str, refused: Collection[SourceName] = ()) -> dict[SourceName, Source]:
    """The real Stack Overflow, GitHub and Tavily sources, each at its replay prefix."""
    dead = closed_port_url()

    def url(name: str) -> str:
        return dead if name in refused else base + PREFIX[name]

    return {
        "stackoverflow": StackOverflowSource(
            base_url=url("stackoverflow"), timeout_s=SOURCE_TIMEOUT_S, max_body_bytes=MAX_BODY_BYTES
        ),
        "github": GitHubCodeSource(
            base_url=url("github"), timeout_s=SOURCE_TIMEOUT_S, max_body_bytes=MAX_BODY_BYTES
        ),
        "docs": TavilyDocsSource(
            base_url=url("docs"), timeout_s=SOURCE_TIMEOUT_S, max_body_bytes=MAX_BODY_BYTES
        ),
    }


def build(
    *,
    sources: Mapping[SourceName, Source],
    embedder: Embedder,
    models: Any = None,
    qdrant: Any = None,
    checkpointer: Any = None,
) -> tuple[Any, SemanticCache]:
    cache = SemanticCache(
        qdrant if qdrant is not None else open_qdrant(":memory:"),
        embedder,
        timeout_s=CACHE_TIMEOUT_S,
    )
    graph = build_main_graph(
        models=StaticChatModels(models) if models is not None else None,
        embedder=embedder,
        sources=sources,
        cache=cache,
        checkpointer=checkpointer or InMemorySaver(serde=schema_serializer()),
    )
    return graph, cache


def context(**overrides: Any) -> Context:
    settings: dict[str, Any] = {
        "search_sources": list(WEB),
        "chat_model": "offline",
        "search_max_iterations": 1,
        "search_source_timeout_s": SOURCE_TIMEOUT_S,
        "model_timeout_s": MODEL_TIMEOUT_S,
        "cache_timeout_s": CACHE_TIMEOUT_S,
        "answer_max_regenerations": 0,
        **overrides,
    }
    return Context(**settings)


async def run(
    graph: Any, ctx: Context, messages: list[BaseMessage], thread: str | None = None
) -> tuple[dict[str, Any], RunnableConfig]:
    """Run one turn; return the final state's values and the config used."""
    config: RunnableConfig = {"configurable": {"thread_id": thread or uuid.uuid4().hex}}
    await graph.ainvoke({"messages": messages}, config, context=ctx)
    return (await graph.aget_state(config)).values, config


def all_errors(values: dict[str, Any]) -> list[ErrorRecord]:
    """The turn's errors, those of each question of a multi-question turn included."""
    found = {e.id: e for e in values.get("errors") or []}
    for qa in values.get("multi_answers") or []:
        found.update({e.id: e for e in qa.errors})
    return list(found.values())
