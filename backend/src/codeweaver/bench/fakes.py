"""A fake chat model and sources whose latencies are set, and the main graph built on them.

The model answers every prompt of the graph as a well-behaved model would; the sources sleep
for their latency, then return results that quote the query, so an answer citing them is
grounded. `served.py` serves the same graph through `langgraph dev`.

These fakes ship with the package because `codeweaver bench` is a command users run on their
own install; the fakes that tests inject live in the `codeweaver-testing` development package.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, get_args
from uuid import UUID

from langchain_core.callbacks import (
    AsyncCallbackHandler,
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
)
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda, RunnableParallel
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_config
from pydantic import BaseModel

from codeweaver.workflows.orchestration.graph import build_main_graph
from codeweaver.workflows.orchestration.prompts import (
    GradeVerdict,
    PlanAndAnalysis,
    PlannedQuestion,
)
from codeweaver_cache import SemanticCache
from codeweaver_runtime import DELIVERY_TAG, Embedder, StaticChatModels, open_qdrant
from codeweaver_runtime.embeddings import Vectors
from codeweaver_schema import (
    DocsMeta,
    Evidence,
    GitHubMeta,
    Intent,
    LocalMeta,
    SourceName,
    StackOverflowMeta,
    stable_id,
)
from codeweaver_search.prompts import Assessment, ItemAssessment

ALL_SOURCES: tuple[SourceName, ...] = get_args(SourceName)

SET_LATENCIES_MS: dict[str, float] = {
    "model": 800.0,
    "stackoverflow": 600.0,
    "github": 900.0,
    "docs": 700.0,
    "local": 30.0,
}
"""Latencies of the "set" profile: a hosted model, the web sources, the embedded local corpus."""
CLARIFICATION = "Can you show an example of that?"


def _branch() -> str:
    """Which multi-question worker the current node belongs to ('' outside any worker)."""
    try:
        namespace = str(get_config().get("metadata", {}).get("langgraph_checkpoint_ns", ""))
    except RuntimeError:
        return ""
    return _worker_of(namespace)


def _worker_of(namespace: str) -> str:
    return next((p for p in namespace.split("|") if p.startswith("answer_question:")), "")


_META: dict[SourceName, Any] = {
    "stackoverflow": lambda i: StackOverflowMeta(
        question_id=1000 + i, score=10, is_accepted=i == 0
    ),
    "github": lambda i: GitHubMeta(repository="example/project", path=f"src/module_{i}.py"),
    "docs": lambda i: DocsMeta(domain="docs.python.org", section=f"Section {i}"),
    "local": lambda i: LocalMeta(doc_id=f"doc{i}", file=f"docs/doc{i}.rst"),
}


@dataclass
class FakeSource:
    """A source that sleeps for `latency_s`, then returns `limit` results quoting the query."""

    name: SourceName
    latency_s: float
    calls: list[tuple[str, int]] = field(default_factory=list)
    """(worker branch, results returned) per search, for counting rounds and results."""

    def unavailable_reason(self) -> str | None:
        """Always available."""
        return None

    async def search(
        self, query: str, *, intent: Intent, language: str, limit: int
    ) -> list[Evidence]:
        """Results that quote the query, so that an answer citing them is grounded."""
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        self.calls.append((_branch(), limit))
        local = self.name == "local"
        return [
            Evidence(
                id=stable_id(self.name, query, str(i)),
                source=self.name,
                title=f"{self.name} result {i}",
                content=f"{query} Result {i} from {self.name} explains it with an example.",
                url=None if local else f"https://example.org/{self.name}/{i}",
                meta=_META[self.name](i),
            )
            for i in range(limit)
        ]


def _between(text: str, tag: str) -> str:
    found = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", text, flags=re.DOTALL)
    return found.group(1).strip() if found else ""


def _planned(question: str, *, clarification: bool) -> PlannedQuestion:
    return PlannedQuestion(
        question=question,
        question_type="clarification" if clarification else "independent",
        standalone_question=question,
        should_cache=not clarification,
        intent="learning",
        language="en",
    )


def approving_judge(prompt: str) -> Assessment:
    """The judge's verdict on a search's evidence: every labelled item relevant, and enough."""
    labels = sorted(set(re.findall(r"\[(E\d+)\]", prompt)), key=lambda s: int(s[1:]))
    return Assessment(
        items=[ItemAssessment(item=label, relevance=0.8, summary="Relevant.") for label in labels],
        sufficiency_score=0.9,
        sufficient=True,
        reason="covers the question",
    )


def respond(messages: list[BaseMessage], schema: str | None) -> Any:
    """What a well-behaved model answers to each of the graph's prompts."""
    prompt = str(messages[-1].content)
    if schema == "PlanAndAnalysis":
        message = _between(prompt, "new_message")
        if message == CLARIFICATION:
            return PlanAndAnalysis(
                kind="single_topic",
                questions=[_planned(message, clarification=True)],
                reason="follow-up",
            )
        parts = [q.strip() for q in re.findall(r"[^?]+\?", message)] or [message]
        return PlanAndAnalysis(
            kind="multiple_questions" if len(parts) == 2 else "single_topic",
            questions=[_planned(q, clarification=False) for q in parts],
            reason="as asked",
        )
    if schema == "Assessment":
        return approving_judge(prompt)
    if schema == "GradeVerdict":
        return GradeVerdict(grounded=True, reason="every cited claim is supported")
    if schema is None:
        question = _between(prompt, "question") or prompt
        return f"{question.rstrip('?')} [1]."
    raise LookupError(f"no scripted reply for schema {schema!r}")


class BenchChatModel(BaseChatModel):
    """A chat model standing in for a provider: `respond`'s replies after a set latency.

    Given a token counter, its replies report usage as a provider's do. A structured request
    gets the reply's JSON as raw text, which the runtime reads as it reads any model's.
    """

    latency_s: float = 0.0
    count_tokens: Callable[[str], int] | None = None

    @property
    def _llm_type(self) -> str:
        return "codeweaver-bench"

    def _result(self, messages: list[BaseMessage], schema: str | None) -> ChatResult:
        reply = respond(messages, schema)
        text = reply.model_dump_json() if isinstance(reply, BaseModel) else str(reply)
        message = AIMessage(content=text)
        if self.count_tokens is not None:
            prompt = sum(self.count_tokens(str(m.content)) for m in messages)
            output = self.count_tokens(text)
            message.usage_metadata = {
                "input_tokens": prompt,
                "output_tokens": output,
                "total_tokens": prompt + output,
            }
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._result(messages, kwargs.get("structured_schema"))

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        started = time.perf_counter()
        result = self._result(messages, kwargs.get("structured_schema"))
        # Counting tokens is part of the set latency, so the bench's timings do not move.
        await asyncio.sleep(max(0.0, self.latency_s - (time.perf_counter() - started)))
        return result

    def with_structured_output(  # type: ignore[override]
        self, schema: type[BaseModel], *, include_raw: bool = False, **kwargs: Any
    ) -> Runnable[LanguageModelInput, Any]:
        """The reply as raw text, as `call_structured` asks (`include_raw`): it reads the JSON."""
        bound = self.bind(structured_schema=schema.__name__)
        return RunnableParallel(raw=bound) | RunnableLambda(
            lambda result: {**result, "parsed": None, "parsing_error": None}
        )


class CallRecorder(AsyncCallbackHandler):
    """Counts chat-model calls per multi-question worker ('' for the main line)."""

    def __init__(self) -> None:
        self.by_branch: Counter[str] = Counter()

    async def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """Count one call per prompt, on the branch it ran in (not answer deliveries)."""
        if DELIVERY_TAG in (tags or []):
            return
        namespace = str((metadata or {}).get("langgraph_checkpoint_ns", ""))
        self.by_branch[_worker_of(namespace)] += len(messages)

    @property
    def total(self) -> int:
        """Every call of the run."""
        return sum(self.by_branch.values())

    @property
    def critical(self) -> int:
        """Calls one after another: the main line's plus the busiest worker's."""
        workers = [n for branch, n in self.by_branch.items() if branch]
        return self.by_branch[""] + max(workers, default=0)


class TimedEmbedder:
    """Delegates to an embedder and adds up the time spent embedding."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.seconds = 0.0

    @property
    def model_id(self) -> str:
        """The inner embedder's id."""
        return self.inner.model_id

    @property
    def dimension(self) -> int:
        """The inner embedder's dimension."""
        return self.inner.dimension

    def embed_sync(self, texts: Sequence[str]) -> Vectors:
        """Embed in this thread, timed."""
        started = time.perf_counter()
        try:
            return self.inner.embed_sync(texts)
        finally:
            self.seconds += time.perf_counter() - started

    async def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed off the event loop, timed."""
        started = time.perf_counter()
        try:
            return await self.inner.embed(texts)
        finally:
            self.seconds += time.perf_counter() - started


def fake_sources(latencies_ms: Mapping[str, float]) -> dict[SourceName, FakeSource]:
    """One fake per source with the profile's latency."""
    return {name: FakeSource(name, latencies_ms[name] / 1000) for name in ALL_SOURCES}


def fake_graph(
    *,
    latencies_ms: Mapping[str, float],
    embedder: Embedder,
    checkpointer: InMemorySaver | None = None,
    count_tokens: Callable[[str], int] | None = None,
) -> tuple[Any, BenchChatModel, dict[SourceName, FakeSource]]:
    """The main graph on fakes: the bench's model for every role, fake sources, a fresh cache.

    With `count_tokens`, the model's replies report usage as a provider's do.
    """
    model = BenchChatModel(latency_s=latencies_ms["model"] / 1000, count_tokens=count_tokens)
    sources = fake_sources(latencies_ms)
    graph = build_main_graph(
        models=StaticChatModels(model),
        embedder=embedder,
        sources=dict(sources),
        cache=SemanticCache(open_qdrant(":memory:"), embedder),
        checkpointer=checkpointer,
    )
    return graph, model, sources


def distinct_questions(count: int, seed: int) -> list[str]:
    """Distinct, varied programming questions, so no run is served by another's cache entry."""
    tasks = ["sort", "reverse", "filter", "merge", "split", "flatten", "deduplicate", "parse"]
    tasks += ["serialize", "validate", "compress", "paginate", "profile", "group", "index"]
    things = ["a list of dicts", "a pandas DataFrame", "a numpy array", "a JSON file"]
    things += ["a CSV file", "a nested dictionary", "a generator", "a SQL query result"]
    things += ["an HTTP response", "a datetime column", "a set of tuples", "a deque"]
    how = ["in Python 3.12", "with asyncio", "without a loop", "by key", "in place"]
    how += ["using itertools", "with type hints", "in Django", "lazily", "recursively"]
    combos = list(itertools.product(tasks, things, how))
    random.Random(seed).shuffle(combos)
    return [
        f"How do I {t} {x} {h}?" for t, x, h in itertools.islice(itertools.cycle(combos), count)
    ]
