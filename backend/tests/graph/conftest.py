from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from codeweaver.context import Context
from codeweaver.libraries import LibrariesFor
from codeweaver.persistence import schema_serializer
from codeweaver.workflows.orchestration.graph import build_main_graph
from codeweaver_cache import SemanticCache
from codeweaver_engine.compose import Libraries
from codeweaver_engine.language.words import content_words
from codeweaver_runtime import ChatModels, Embedder, ModelCallCounter, open_qdrant
from codeweaver_schema import Evidence, Intent, LocalMeta, SourceName, stable_id

DOCS = {
    "reverse": (
        "Mutable Sequence Types",
        "The reverse() method modifies the list in place for economy of space when reversing a "
        "large sequence. To remind users that it operates by side effect, it does not return "
        "the reversed list.\n\n   >>> s = [1, 2, 3]\n   >>> s.reverse()\n   >>> s\n   [3, 2, 1]\n",
    ),
    "slice": (
        "Slicings",
        "A slicing selects a range of items in a sequence. The slice lst[::-1] returns a new list "
        "with the items of the list in reverse order and leaves the original list unchanged.",
    ),
    "dict": (
        "Mapping Types — dict",
        "A dictionary maps keys to values. sorted(d.items(), key=lambda kv: kv[1]) returns the "
        "items of a dictionary sorted by value.\n\n   >>> d = {'a': 2, 'b': 1}\n"
        "   >>> sorted(d.items(), key=lambda kv: kv[1])\n   [('b', 1), ('a', 2)]\n",
    ),
    "file": (
        "Reading and Writing Files",
        "open() returns a file object. Use the with statement when dealing with file objects so "
        "that the file is properly closed after its suite finishes.\n\n"
        "   >>> with open('workfile', encoding='utf-8') as f:\n   ...     read_data = f.read()\n",
    ),
}


@dataclass
class KeywordSource:
    """A local source over a few fixed documents, ranked by shared content words."""

    name: SourceName = "local"
    queries: list[str] = field(default_factory=list)
    docs: dict[str, tuple[str, str]] = field(default_factory=lambda: dict(DOCS))
    latency_s: float = 0.0
    in_flight: int = 0
    most_in_flight: int = 0
    """The most searches that were under way at once."""

    def unavailable_reason(self) -> str | None:
        return None

    async def search(
        self, query: str, *, intent: Intent, language: str, limit: int
    ) -> list[Evidence]:
        self.queries.append(query)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            if self.latency_s:
                await asyncio.sleep(self.latency_s)
        finally:
            self.in_flight -= 1
        asked = set(content_words(query))
        scored = []
        for doc_id, (title, text) in self.docs.items():
            overlap = len(asked & set(content_words(f"{title} {text}")))
            if overlap:
                scored.append((overlap, doc_id, title, text))
        scored.sort(reverse=True)
        return [
            Evidence(
                id=stable_id("local", doc_id, "0"),
                source="local",
                title=title,
                content=text,
                score=float(overlap),
                meta=LocalMeta(doc_id=doc_id, file=f"docs/{doc_id}.rst", section=title),
            )
            for overlap, doc_id, title, text in scored[:limit]
        ]


@dataclass
class Harness:
    graph: Any
    source: Any
    """The local source: a `KeywordSource` unless the test gave another."""
    cache: SemanticCache
    context: Context

    async def ask(self, text: str, thread: str = "t1") -> tuple[dict[str, Any], list[str], int]:
        counter = ModelCallCounter()
        config: Any = {"configurable": {"thread_id": thread}, "callbacks": [counter]}
        nodes: list[str] = []
        async for namespace, update in self.graph.astream(
            {"messages": [HumanMessage(text)]},
            config,
            context=self.context,
            stream_mode="updates",
            subgraphs=True,
        ):
            prefix = "/".join(part.split(":", 1)[0] for part in namespace)
            nodes.extend(f"{prefix}/{n}" if prefix else n for n in (update or {}))
        values = (await self.graph.aget_state(config)).values
        return values, nodes, counter.calls


MakeHarness = Callable[..., Harness]


@pytest.fixture
def make_harness(embedder: Embedder) -> MakeHarness:
    def make(
        models: ChatModels | None = None,
        source: Any = None,
        libraries: LibrariesFor | None = None,
        **context: Any,
    ) -> Harness:
        source = source or KeywordSource()
        cache = SemanticCache(open_qdrant(":memory:"), embedder)
        graph = build_main_graph(
            models=models,
            embedder=embedder,
            sources={"local": source},
            cache=cache,
            checkpointer=InMemorySaver(serde=schema_serializer()),
            libraries=libraries or (lambda model: Libraries()),
        )
        ctx = Context(**{"search_sources": ["local"], "chat_model": "offline", **context})
        return Harness(graph, source, cache, ctx)

    return make
