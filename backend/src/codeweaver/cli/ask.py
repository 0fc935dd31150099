"""Answering in this process: one question through the main graph, with its checkpointer.

What `codeweaver ask` and `chat` run when no `codeweaver serve` holds the data directory. A
new process's start-up is most of what a cached answer costs, so the imports and the graph's
compilation run with the garbage collector paused, while the embedding model loads on the other
core.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any


@dataclass
class RunReport:
    """What one `ask` produced, in the shape of `--json`."""

    answer: str
    citations: list[dict[str, Any]]
    route: str | None
    routing_reason: str | None
    question_type: str | None
    intent: str | None
    cache_hit: bool
    errors: list[dict[str, Any]]
    model_calls: int | None
    """None when a running server answered: it does not report them."""
    tokens: dict[str, dict[str, int]]
    """Per role (planner, judge, answer) and in total: calls, input and output tokens as the
    providers reported them, and calls that reported none."""
    nodes: list[str]
    thread_id: str
    seconds: float
    warning: str | None = None
    declined: bool = False
    """The engine said it could not find the answer instead of answering."""
    decline_reason: str | None = None
    """Why: `out_of_scope`, `below_relevance_floor`, `no_evidence` or `library_not_indexed`."""
    flow: list[dict[str, Any]] = field(default_factory=list)
    server: str | None = None
    """The `codeweaver serve` that answered, when one runs on this data directory."""


_FROZEN: list[bool] = []
"""Non-empty once start-up's objects are frozen: freezing again later (a chat's next turn)
would keep that turn's garbage forever."""


@contextmanager
def start_up() -> Iterator[None]:
    """Imports and graph compilation with the cyclic garbage collector paused.

    A new process creates about a million long-lived objects before it answers (pydantic
    models, LangGraph, Qdrant's client) and the collector would walk them again and again:
    about a tenth of a cached answer's time. They are frozen afterwards (`gc.freeze`), so the
    collections that follow skip them too.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if not _FROZEN:
            gc.freeze()
            _FROZEN.append(True)
        if enabled:
            gc.enable()


def _preload_embedder() -> None:
    """Load the embedding model on the other core while this one imports and compiles the graph.

    onnxruntime releases the GIL while it builds its session (~0.25 s), so the two overlap. The
    graph's first embedding waits for the load under the embedder's own lock; a load that fails
    here fails there again, and is reported there.
    """
    from codeweaver_runtime import get_embedder, infrastructure

    embedder = get_embedder(infrastructure().embedding_model)

    def load() -> None:
        with suppress(Exception):
            embedder.preload()

    threading.Thread(target=load, name="preload-embedder", daemon=True).start()


def _node_path(namespace: tuple[str, ...], node: str) -> str:
    parents = [part.split(":", 1)[0] for part in namespace]
    return "/".join([*parents, node])


async def run_question(
    question: str,
    *,
    thread_id: str,
    data_dir: Path,
    context_overrides: dict[str, Any],
    on_node: Callable[[str], None] | None = None,
) -> RunReport:
    """Ask one question in a thread; `on_node` hears each node's path as it starts."""
    _preload_embedder()
    with start_up():
        from langchain_core.messages import HumanMessage

        from codeweaver.context import Context
        from codeweaver.persistence import open_checkpointer
        from codeweaver.workflows.orchestration.graph import build_main_graph
        from codeweaver_runtime import ModelCallCounter, release_embedded_stores

    context = replace(Context(), **context_overrides)
    counter = ModelCallCounter()
    started = time.perf_counter()
    nodes: list[str] = []
    async with open_checkpointer(data_dir) as saver:
        with start_up():
            graph = build_main_graph(checkpointer=saver)
        config: Any = {"configurable": {"thread_id": thread_id}, "callbacks": [counter]}
        stream: Any = graph.astream(
            {"messages": [HumanMessage(question)]},
            config,
            context=context,
            stream_mode=["tasks", "updates"],
            subgraphs=True,
        )
        async for namespace, mode, chunk in stream:
            if mode == "tasks":
                if on_node is not None and "input" in chunk:
                    on_node(_node_path(namespace, chunk["name"]))
                continue
            nodes.extend(_node_path(namespace, node) for node in chunk or {})
        values = (await graph.aget_state(config)).values
    # Let go of the store (its lock) but keep its client: the sources and the cache of this
    # process hold it, and a chat's next turn searches through them again.
    await release_embedded_stores()
    answer = values.get("answer")
    routing = values.get("routing")
    analysis = values.get("analysis")
    decision = values.get("cache_decision")
    return RunReport(
        answer=answer.text if answer else "",
        citations=[
            {
                "n": c.n,
                "title": c.title,
                "url": c.url,
                "file": c.file,
                "source": c.source,
                "evidence_id": c.evidence_id,
                "pack": c.pack,
                "version": c.version,
            }
            for c in (answer.citations if answer else [])
        ],
        route=routing.route if routing else None,
        routing_reason=routing.reason if routing else None,
        question_type=analysis.question_type if analysis else None,
        intent=analysis.intent if analysis else None,
        cache_hit=bool(decision and decision.hit),
        errors=[e.model_dump(exclude={"id"}) for e in values.get("errors", [])],
        model_calls=counter.calls,
        tokens=counter.tokens(),
        nodes=nodes,
        thread_id=thread_id,
        seconds=round(time.perf_counter() - started, 3),
        warning=answer.warning if answer else None,
        declined=bool(answer and answer.declined),
        decline_reason=answer.decline_reason if answer else None,
        flow=[{"node": s.node, "ms": round(s.duration_ms, 1)} for s in values.get("flow", [])],
    )
