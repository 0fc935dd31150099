"""Benchmarks of cost and speed, with fake chat models and fake sources whose latencies are set.

`run_bench` drives the real main graph (`build_main_graph`) with a scripted chat model that
answers every structured schema the graph asks for, four fake sources that sleep for a set time,
a fresh in-memory Qdrant for the cache and the real default embedder. It measures:

- model calls per path, counted by a callback on every chat-model call (total, and on the
  critical path: calls outside the multi-question workers plus the busiest worker's);
- tokens per path and role, from the replies' usage metadata (`ModelCallCounter`): the
  scripted model counts the real prompts the graph builds, and its replies, with the
  embedding model's tokenizer (a provider's tokenizer counts somewhat differently);
- wall time per path under the set latencies, against the critical path those latencies imply
  (critical-path model calls x model latency + search rounds x slowest source);
- overhead: the same runs with zero latency (LangGraph, state, embeddings and our code alone);
- cache lookup latency at 1,000 and 10,000 entries;
- LangGraph Server throughput: `langgraph dev` serving the same graph on zero-latency fakes
  (`codeweaver/bench/served.py`), 10 concurrent clients.

Exact commands and the latest figures are in `docs/PERFORMANCE.md`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import platform
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args
from uuid import UUID, uuid4

from langchain_core.callbacks import AsyncCallbackHandler
from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_config
from pydantic import BaseModel

from codeweaver.context import Context
from codeweaver.persistence import schema_serializer
from codeweaver.workflows.orchestration.graph import build_main_graph
from codeweaver.workflows.orchestration.prompts import (
    GradeVerdict,
    PlanAndAnalysis,
    PlannedQuestion,
)
from codeweaver_cache import HitRule, SemanticCache
from codeweaver_runtime import (
    DEFAULT_EMBEDDING_MODEL,
    DELIVERY_TAG,
    Embedder,
    ModelCallCounter,
    StaticChatModels,
    get_embedder,
    open_qdrant,
)
from codeweaver_runtime.embeddings import Vectors
from codeweaver_runtime.testing import ScriptedChatModel
from codeweaver_schema import (
    Answer,
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

BenchPath = Literal["fresh_single", "cache_hit", "clarification", "two_questions"]
PATHS: tuple[BenchPath, ...] = get_args(BenchPath)
ALL_SOURCES: tuple[SourceName, ...] = get_args(SourceName)

SET_LATENCIES_MS: dict[str, float] = {
    "model": 800.0,
    "stackoverflow": 600.0,
    "github": 900.0,
    "docs": 700.0,
    "local": 30.0,
}
"""Latencies of the "set" profile: a hosted model, the web sources, the embedded local corpus."""
QUICK_SCALE = 0.1
"""`quick` runs the set profile at a tenth of these latencies, so CI finishes in seconds."""
CLIENTS = 10
CACHE_SIZES = (1000, 10000)
SERVED_GRAPH = Path(__file__).resolve().with_name("served.py")
"""The fake main graph the served bench runs: part of the package, not of a checkout."""
CLARIFICATION = "Can you show an example of that?"

TARGETS = {
    "fresh_single_calls": 4,
    "cache_hit_calls": 0,
    "clarification_calls": 1,
    "wall_over_critical_path": 1.10,
    "two_over_one": 1.2,
    "overhead_ms_p50": 50.0,
}


# --- fakes -------------------------------------------------------------------------------------


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
        labels = sorted(set(re.findall(r"\[(E\d+)\]", prompt)), key=lambda s: int(s[1:]))
        return Assessment(
            items=[
                ItemAssessment(item=label, relevance=0.8, summary="Relevant.") for label in labels
            ],
            sufficiency_score=0.9,
            sufficient=True,
            reason="covers the question",
        )
    if schema == "GradeVerdict":
        return GradeVerdict(grounded=True, reason="every cited claim is supported")
    if schema is None:
        question = _between(prompt, "question") or prompt
        return f"{question.rstrip('?')} [1]."
    raise LookupError(f"no scripted reply for schema {schema!r}")


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
) -> tuple[Any, ScriptedChatModel, dict[SourceName, FakeSource]]:
    """The main graph on fakes: a scripted model for every role, fake sources, a fresh cache.

    With `count_tokens`, the model's replies report usage as a provider's do.
    """
    model = ScriptedChatModel(
        responder=respond, latency_s=latencies_ms["model"] / 1000, count_tokens=count_tokens
    )
    sources = fake_sources(latencies_ms)
    graph = build_main_graph(
        models=StaticChatModels(model),
        embedder=embedder,
        sources=dict(sources),
        cache=SemanticCache(open_qdrant(":memory:"), embedder),
        checkpointer=checkpointer,
    )
    return graph, model, sources


# --- the report --------------------------------------------------------------------------------


class Percentiles(BaseModel):
    """Median and 95th percentile of a sample, in milliseconds."""

    p50: float
    p95: float
    n: int


class Target(BaseModel):
    """One goal of issue 7 and whether this run met it."""

    name: str
    goal: str
    value: float | None
    met: bool | None


class ServerFigures(BaseModel):
    """Runs through `langgraph dev` by concurrent clients."""

    clients: int
    runs: int
    runs_per_s: float
    p50_ms: float
    p95_ms: float
    errors: int
    cache_hits: int
    """Runs answered from the cache: every question is new, so each is a near-duplicate hit."""
    leaks: int
    """Answers, not from the cache, that are not about their own thread's question."""


class BenchReport(BaseModel):
    """Everything `codeweaver bench` prints."""

    machine: dict[str, Any]
    settings: dict[str, Any]
    model_calls: dict[str, Any]
    tokens: dict[str, dict[str, dict[str, int]]]
    """Per path, per role (and `total`): median input and output tokens of one run."""
    latency_ms: dict[str, Percentiles]
    critical_path_ms: dict[str, float]
    wall_over_critical_path: float
    wall_over_critical_path_by_path: dict[str, float]
    two_over_one: float
    overhead_ms_p50: float
    overhead_ms: dict[str, Percentiles]
    embedding_ms_p50: dict[str, float]
    cache_lookup_ms: dict[str, Percentiles | None]
    server: ServerFigures | None
    targets: list[Target]

    def to_json(self) -> str:
        """The report as one JSON object."""
        return self.model_dump_json(indent=2)

    def table(self) -> str:
        """The report as a readable text table."""
        calls, critical = self.model_calls, self.model_calls["critical_path"]
        reference = self.model_calls["original_design"]
        lines = [
            f"CodeWeaver bench: {self.settings['iterations']} iterations per path, "
            f"latencies (ms) {self.settings['latencies_ms']}",
            "",
            f"{'path':<15}{'calls':>6}{'crit.':>6}{'p50 ms':>9}{'p95 ms':>9}"
            f"{'crit. ms':>10}{'wall/crit':>10}{'0-lat p50':>10}{'embed p50':>10}",
        ]
        for path in PATHS:
            lat, zero = self.latency_ms[path], self.overhead_ms[path]
            lines.append(
                f"{path:<15}{calls[path]:>6}{critical[path]:>6}{lat.p50:>9.1f}{lat.p95:>9.1f}"
                f"{self.critical_path_ms[path]:>10.1f}"
                f"{self.wall_over_critical_path_by_path[path]:>10.3f}{zero.p50:>10.1f}"
                f"{self.embedding_ms_p50[path]:>10.1f}"
            )
        lines += [
            "",
            f"original design reference: 5 + 2N = {reference['calls']} calls "
            f"for N = {reference['results']} results",
            f"wall / critical path (fresh single): {self.wall_over_critical_path:.3f}",
            f"two questions / one question:        {self.two_over_one:.3f}",
            f"overhead p50 (zero latency, fresh):  {self.overhead_ms_p50:.1f} ms",
            "",
            "cache lookup:",
        ]
        for size, figures in self.cache_lookup_ms.items():
            shown = (
                f"p50 {figures.p50:.1f} ms, p95 {figures.p95:.1f} ms ({figures.n} lookups)"
                if figures
                else "not measured"
            )
            lines.append(f"  {int(size):>6,} entries: {shown}")
        lines += ["", "tokens per run, input / output (median):"]
        for path in PATHS:
            roles = self.tokens.get(path, {})
            shown = ", ".join(
                f"{role} {t['input_tokens']:,} / {t['output_tokens']:,}"
                for role, t in roles.items()
            )
            lines.append(f"  {path:<15}{shown or 'none'}")
        server = self.server
        lines.append("")
        lines.append(
            f"server ({server.clients} clients, {server.runs} runs): "
            f"{server.runs_per_s:.2f} runs/s, p50 {server.p50_ms:.0f} ms, "
            f"p95 {server.p95_ms:.0f} ms, errors {server.errors}, cache hits {server.cache_hits}, "
            f"leaks {server.leaks}"
            if server
            else "server: not measured"
        )
        lines += ["", "targets:"]
        for target in self.targets:
            verdict = {True: "met", False: "MISSED", None: "n/a"}[target.met]
            value = "-" if target.value is None else f"{target.value:g}"
            lines.append(f"  {target.name:<28}{target.goal:<12}{value:>10}  {verdict}")
        return "\n".join(lines)

    def plot(self, path: Path) -> Path:
        """Draw wall time by path (p50 bar, p95 whisker, critical path mark) to a PNG.

        Raises:
            PlotUnavailableError: matplotlib (a development dependency) is not installed.
        """
        try:
            import matplotlib
        except ImportError as missing:
            raise PlotUnavailableError(
                "--plot needs matplotlib, a development dependency: `uv sync` in a checkout, "
                "or `pip install matplotlib`"
            ) from missing

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axis = plt.subplots(figsize=(8, 4.5), dpi=120)
        x = list(range(len(PATHS)))
        p50 = [self.latency_ms[p].p50 for p in PATHS]
        p95 = [self.latency_ms[p].p95 for p in PATHS]
        zero = [self.overhead_ms[p].p50 for p in PATHS]
        whiskers = [[0.0] * len(PATHS), [hi - lo for lo, hi in zip(p50, p95, strict=True)]]
        axis.bar(x, p50, width=0.55, color="#8a7ff0", label="wall p50 (whisker: p95)")
        axis.errorbar(x, p50, yerr=whiskers, fmt="none", ecolor="#333333", capsize=6)
        axis.scatter(
            x,
            [self.critical_path_ms[p] for p in PATHS],
            marker="_",
            s=900,
            color="#d0342c",
            zorder=3,
            label="critical path implied by the latencies",
        )
        axis.bar(x, zero, width=0.55, color="#2b2b80", label="zero-latency p50 (overhead)")
        axis.set_xticks(x, [p.replace("_", " ") for p in PATHS])
        axis.set_ylabel("ms")
        axis.set_title(
            f"CodeWeaver wall time by path ({self.settings['iterations']} runs each; "
            f"model {self.settings['latencies_ms']['model']:g} ms)"
        )
        # Headroom above the tallest bar keeps the legend off the bars.
        axis.set_ylim(top=axis.get_ylim()[1] * 1.3)
        axis.legend(loc="upper center", fontsize=8, ncols=3)
        axis.grid(axis="y", alpha=0.3)
        figure.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path)
        plt.close(figure)
        return path


# --- measuring the graph -----------------------------------------------------------------------


def percentiles(samples_ms: Sequence[float]) -> Percentiles:
    """p50 and p95 (nearest rank) of a sample."""
    ordered = sorted(samples_ms)
    rank = max(1, round(0.95 * len(ordered)))
    return Percentiles(
        p50=round(statistics.median(ordered), 2), p95=round(ordered[rank - 1], 2), n=len(ordered)
    )


@dataclass
class RunSample:
    """One run of one path."""

    wall_ms: float
    calls: int
    critical_calls: int
    rounds: int
    results: int
    embedding_ms: float
    answered: bool
    cache_hit: bool
    tokens: dict[str, dict[str, int]] = field(default_factory=dict)


@dataclass
class PathSamples:
    """Every run of every path under one latency profile."""

    latencies_ms: Mapping[str, float]
    runs: dict[str, list[RunSample]] = field(default_factory=lambda: {p: [] for p in PATHS})

    def wall(self, path: str) -> Percentiles:
        """Wall-time percentiles of a path."""
        return percentiles([r.wall_ms for r in self.runs[path]])

    def tokens(self, path: str) -> dict[str, dict[str, int]]:
        """Median input and output tokens of one run of a path, per role and in total."""
        runs = self.runs[path]
        roles = sorted({role for r in runs for role in r.tokens})
        return {
            role: {
                key: int(statistics.median(r.tokens.get(role, {}).get(key, 0) for r in runs))
                for key in ("input_tokens", "output_tokens")
            }
            for role in roles
        }

    def worst(self, path: str, attribute: str) -> int:
        """The largest count seen on a path (model calls must not vary between runs)."""
        return max(int(getattr(r, attribute)) for r in self.runs[path])

    def critical_path_ms(self, path: str) -> float:
        """What the latencies imply: sequential model calls plus sequential search rounds."""
        slowest = max(self.latencies_ms[s] for s in ALL_SOURCES)
        model = self.latencies_ms["model"]
        return round(
            self.worst(path, "critical_calls") * model + self.worst(path, "rounds") * slowest, 2
        )


class _Driver:
    """Runs the four paths against one graph and records each run."""

    def __init__(
        self,
        latencies_ms: Mapping[str, float],
        embedder: Embedder,
        count_tokens: Callable[[str], int] | None = None,
    ) -> None:
        self.embedder = TimedEmbedder(embedder)
        self.graph, self.model, self.sources = fake_graph(
            latencies_ms=latencies_ms,
            embedder=self.embedder,
            checkpointer=InMemorySaver(serde=schema_serializer()),
            count_tokens=count_tokens,
        )
        self.slowest: SourceName = max(ALL_SOURCES, key=lambda s: latencies_ms[s])

    async def ask(self, text: str, *, thread: str, context: Context) -> RunSample:
        recorder = CallRecorder()
        counter = ModelCallCounter()
        marks = {name: len(source.calls) for name, source in self.sources.items()}
        embedded = self.embedder.seconds
        config: Any = {"configurable": {"thread_id": thread}, "callbacks": [recorder, counter]}
        started = time.perf_counter()
        output = await self.graph.ainvoke(
            {"messages": [HumanMessage(text)]}, config, context=context
        )
        wall_ms = (time.perf_counter() - started) * 1000
        searches = {name: source.calls[marks[name] :] for name, source in self.sources.items()}
        rounds = Counter(branch for branch, _ in searches[self.slowest])
        decision = output.get("cache_decision")
        answer = output.get("answer")
        return RunSample(
            wall_ms=wall_ms,
            calls=recorder.total,
            critical_calls=recorder.critical,
            rounds=max(rounds.values(), default=0),
            results=sum(n for calls in searches.values() for _, n in calls),
            embedding_ms=(self.embedder.seconds - embedded) * 1000,
            answered=answer is not None and bool(answer.text) and not answer.degraded,
            cache_hit=bool(decision is not None and decision.hit),
            tokens=counter.tokens(),
        )


def _questions(count: int, seed: int) -> list[str]:
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


async def measure_paths(
    latencies_ms: Mapping[str, float],
    iterations: int,
    embedder: Embedder,
    *,
    seed: int = 0,
    count_tokens: Callable[[str], int] | None = None,
) -> PathSamples:
    """Run each path `iterations` times (after one unrecorded warm-up round)."""
    driver = _Driver(latencies_ms, embedder, count_tokens)
    samples = PathSamples(latencies_ms)
    questions = _questions(3 * (iterations + 1), seed)
    for i in range(iterations + 1):
        # A corpus version per round keeps each round's cache entries invisible to the next.
        context = Context(
            chat_model="offline",
            search_sources=list(ALL_SOURCES),
            search_max_iterations=1,
            cache_corpus_version=f"bench-{seed}-{i}",
        )
        single, first, second = questions[3 * i : 3 * i + 3]
        thread = f"bench-{uuid4()}"
        runs = {
            "fresh_single": await driver.ask(single, thread=thread, context=context),
            "cache_hit": await driver.ask(single, thread=f"bench-{uuid4()}", context=context),
            "clarification": await driver.ask(CLARIFICATION, thread=thread, context=context),
            "two_questions": await driver.ask(
                f"{first} {second}", thread=f"bench-{uuid4()}", context=context
            ),
        }
        _check(runs)
        if i:  # the first round loads the embedder and creates the cache collection
            for path, sample in runs.items():
                samples.runs[path].append(sample)
    return samples


def _check(runs: Mapping[str, RunSample]) -> None:
    """Fail loudly when a path did not do what it is measured for."""
    problems = [path for path, run in runs.items() if not run.answered]
    if not runs["cache_hit"].cache_hit:
        problems.append("cache_hit (missed the cache)")
    if runs["fresh_single"].cache_hit or runs["two_questions"].cache_hit:
        problems.append("fresh run served from the cache")
    if problems:
        raise RuntimeError(f"benchmark runs went wrong: {', '.join(problems)}")


# --- the cache at size -------------------------------------------------------------------------


async def measure_cache_lookup(
    embedder: Embedder, size: int, probes: int, *, seed: int = 1
) -> Percentiles:
    """Lookup latency in a cache of `size` entries: embed an unseen question, search, guard."""
    cache = SemanticCache(open_qdrant(":memory:"), embedder, timeout_s=600.0)
    scope = cache.scope("bench", f"size-{size}")
    entries = _cache_questions(size, seed)
    for start in range(0, size, 500):
        batch = entries[start : start + 500]
        await cache.put_many(
            [(q, Answer(text=f"answer {start + i}", grounded=True)) for i, q in enumerate(batch)],
            scope,
            ttl_s=3600,
        )
    rule = HitRule()
    picked = random.Random(seed).sample(entries, min(probes, size))
    latencies = []
    for question in picked:
        probe = question.replace("How do I", "What is the best way to")
        started = time.perf_counter()
        await cache.lookup(probe, scope, rule)
        latencies.append((time.perf_counter() - started) * 1000)
    return percentiles(latencies)


def _cache_questions(count: int, seed: int) -> list[str]:
    goals = ["", " quickly", " safely", " and keep the order", " for large inputs"]
    goals += [" in a test", " on Windows"]
    base = _questions(15 * 12 * 10, seed)
    combos = [f"{q[:-1]}{g}?" for q in base for g in goals]
    if count > len(combos):
        raise ValueError(f"at most {len(combos)} distinct cache questions")
    return combos[:count]


# --- the server --------------------------------------------------------------------------------


class PlotUnavailableError(RuntimeError):
    """The latency chart cannot be drawn: matplotlib is missing."""


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve_fake_graph(jobs: int = CLIENTS) -> Iterator[str]:
    """`langgraph dev` serving `codeweaver/bench/served.py` on 127.0.0.1; yields its URL.

    The config is generated in a temporary folder, and logs and data stay there, outside the
    project folder.
    """
    import httpx

    with tempfile.TemporaryDirectory(prefix="codeweaver-bench-") as folder:
        tmp = Path(folder)
        config = tmp / "langgraph.json"
        config.write_text(
            json.dumps(
                {
                    "dependencies": ["."],
                    "python_version": "3.11",
                    "graphs": {"bench": f"{SERVED_GRAPH}:graph"},
                }
            )
        )
        log = tmp / "server.log"
        env = {
            **os.environ,
            "LANGGRAPH_CLI_NO_ANALYTICS": "1",
            "LANGGRAPH_NO_VERSION_CHECK": "true",
            "CODEWEAVER_HOME": str(tmp / "home"),
            "CODEWEAVER_CHAT_MODEL": "offline",
            "HF_HUB_OFFLINE": "1",
        }
        langgraph = shutil.which("langgraph", path=str(Path(sys.executable).parent)) or "langgraph"
        command = [langgraph, "dev", "--host", "127.0.0.1", "--port", str(_free_port())]
        command += ["--no-browser", "--no-reload", "--n-jobs-per-worker", str(jobs)]
        command += ["--config", str(config)]
        with log.open("wb") as handle:
            proc = subprocess.Popen(
                command,
                cwd=tmp,
                env=env,
                stdout=handle,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            deadline = time.monotonic() + 180
            url: str | None = None
            while url is None:
                if proc.poll() is not None or time.monotonic() > deadline:
                    tail = log.read_text(errors="replace")[-3000:]
                    raise RuntimeError(f"langgraph dev did not start:\n{tail}")
                text = _ANSI.sub("", log.read_text(errors="replace"))
                # The server may move off a taken port: trust what it printed.
                found = re.findall(r"API: (http://127\.0\.0\.1:\d+)", text)
                if found and "Application started up" in text:
                    try:
                        if httpx.get(f"{found[-1]}/ok", timeout=2).status_code == 200:
                            url = found[-1]
                    except httpx.HTTPError:
                        pass
                time.sleep(0.5)
            yield url
        finally:
            try:
                os.killpg(proc.pid, 15)
                proc.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(proc.pid, 9)


@dataclass(frozen=True)
class _ServerRun:
    ms: float
    failed: bool
    cache_hit: bool = False
    foreign: bool = False
    """The answer is not about this thread's question (and did not come from the cache)."""


async def _server_run(client: Any, question: str) -> _ServerRun:
    """One thread, one run, checked against its own question."""
    started = time.perf_counter()
    try:
        thread = (await client.post("/threads", json={})).raise_for_status().json()
        response = await client.post(
            f"/threads/{thread['thread_id']}/runs/wait",
            json={
                "assistant_id": "bench",
                "input": {"messages": [{"role": "user", "content": question}]},
            },
        )
        values = response.raise_for_status().json() or {}
    except Exception:  # noqa: BLE001 - every failure of a run counts as one error
        return _ServerRun((time.perf_counter() - started) * 1000, failed=True)
    ms = (time.perf_counter() - started) * 1000
    text = str((values.get("answer") or {}).get("text", ""))
    hit = bool((values.get("cache_decision") or {}).get("hit"))
    if not text or "__error__" in values:
        return _ServerRun(ms, failed=True)
    return _ServerRun(
        ms, failed=False, cache_hit=hit, foreign=not hit and question[:-1] not in text
    )


async def measure_server(url: str, runs_per_client: int, clients: int = CLIENTS) -> ServerFigures:
    """`clients` concurrent clients, each running fresh questions one after another."""
    import httpx

    questions = _questions(clients * runs_per_client + 1, seed=7)
    async with httpx.AsyncClient(base_url=url, timeout=300) as client:
        await _server_run(client, questions.pop())  # loads the embedder in the server

        async def worker(mine: list[str]) -> list[_ServerRun]:
            return [await _server_run(client, q) for q in mine]

        started = time.perf_counter()
        results = await asyncio.gather(*(worker(questions[c::clients]) for c in range(clients)))
        elapsed = time.perf_counter() - started
    flat = [r for batch in results for r in batch]
    figures = percentiles([r.ms for r in flat])
    return ServerFigures(
        clients=clients,
        runs=len(flat),
        runs_per_s=round(len(flat) / elapsed, 2),
        p50_ms=figures.p50,
        p95_ms=figures.p95,
        errors=sum(r.failed for r in flat),
        cache_hits=sum(r.cache_hit for r in flat),
        leaks=sum(r.foreign for r in flat),
    )


# --- putting it together -----------------------------------------------------------------------


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = "unknown"
    memory_gb = 0.0
    cpuinfo, meminfo = Path("/proc/cpuinfo"), Path("/proc/meminfo")
    if cpuinfo.exists():
        found = re.search(r"model name\s*:\s*(.+)", cpuinfo.read_text())
        cpu = found.group(1).strip() if found else cpu
    if meminfo.exists():
        found = re.search(r"MemTotal:\s*(\d+) kB", meminfo.read_text())
        memory_gb = round(int(found.group(1)) / 1024**2, 1) if found else memory_gb
    from importlib.metadata import version

    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "memory_gb": memory_gb,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "langgraph": version("langgraph"),
    }


def _target(name: str, goal: str, value: float | None, met: bool | None) -> Target:
    return Target(name=name, goal=goal, value=value, met=met)


def _targets(
    calls: Mapping[str, int], ratio: float, two_over_one: float, overhead: float
) -> list[Target]:
    return [
        _target(
            "fresh single: model calls",
            "<= 4",
            calls["fresh_single"],
            calls["fresh_single"] <= TARGETS["fresh_single_calls"],
        ),
        _target("cache hit: model calls", "0", calls["cache_hit"], calls["cache_hit"] == 0),
        _target(
            "clarification: model calls", "1", calls["clarification"], calls["clarification"] == 1
        ),
        _target(
            "wall / critical path", "<= 1.10", ratio, ratio <= TARGETS["wall_over_critical_path"]
        ),
        _target("two / one question", "<= 1.2", two_over_one, two_over_one <= 1.2),
        _target("overhead p50 (ms)", "< 50", overhead, overhead < TARGETS["overhead_ms_p50"]),
    ]


async def run_bench_async(
    *,
    iterations: int,
    server: bool,
    quick: bool = False,
    cache_sizes: Sequence[int] | None = None,
    cache_probes: int | None = None,
) -> BenchReport:
    """`run_bench` for callers that already run an event loop."""
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    scale = QUICK_SCALE if quick else 1.0
    latencies = {name: ms * scale for name, ms in SET_LATENCIES_MS.items()}
    zero = dict.fromkeys(SET_LATENCIES_MS, 0.0)
    embedder = get_embedder(DEFAULT_EMBEDDING_MODEL)

    # Tokens are counted in the timed runs only, so the overhead figures stay our code's alone.
    timed = await measure_paths(
        latencies, iterations, embedder, seed=1, count_tokens=embedder.count_tokens
    )
    untimed = await measure_paths(zero, iterations, embedder, seed=2)

    sizes = tuple(cache_sizes) if cache_sizes is not None else CACHE_SIZES[: 1 if quick else 2]
    probes = cache_probes or (20 if quick else 200)
    lookups: dict[str, Percentiles | None] = {str(size): None for size in CACHE_SIZES}
    for size in sizes:
        lookups[str(size)] = await measure_cache_lookup(embedder, size, probes)

    served: ServerFigures | None = None
    if server:
        with serve_fake_graph() as url:
            served = await measure_server(url, runs_per_client=max(3, iterations))

    calls: dict[str, int] = {path: timed.worst(path, "calls") for path in PATHS}
    critical_calls = {path: timed.worst(path, "critical_calls") for path in PATHS}
    results = timed.worst("fresh_single", "results")
    critical = {path: timed.critical_path_ms(path) for path in PATHS}
    by_path = {
        path: round(timed.wall(path).p50 / critical[path], 3) if critical[path] else 0.0
        for path in PATHS
    }
    two_over_one = round(timed.wall("two_questions").p50 / timed.wall("fresh_single").p50, 3)
    overhead = untimed.wall("fresh_single").p50
    return BenchReport(
        machine=machine(),
        settings={
            "iterations": iterations,
            "quick": quick,
            "latencies_ms": latencies,
            "search_max_iterations": 1,
            "embedder": DEFAULT_EMBEDDING_MODEL,
            "cache": "in-memory Qdrant, no verifier model",
            "tokens": "the graph's real prompts and the scripted replies, counted with the "
            f"{DEFAULT_EMBEDDING_MODEL} tokenizer",
        },
        model_calls={
            **calls,
            "critical_path": critical_calls,
            "original_design": {"results": results, "calls": 5 + 2 * results},
        },
        tokens={path: timed.tokens(path) for path in PATHS},
        latency_ms={path: timed.wall(path) for path in PATHS},
        critical_path_ms=critical,
        wall_over_critical_path=by_path["fresh_single"],
        wall_over_critical_path_by_path=by_path,
        two_over_one=two_over_one,
        overhead_ms_p50=overhead,
        overhead_ms={path: untimed.wall(path) for path in PATHS},
        embedding_ms_p50={
            path: round(statistics.median(r.embedding_ms for r in untimed.runs[path]), 2)
            for path in PATHS
        },
        cache_lookup_ms=lookups,
        server=served,
        targets=_targets(calls, by_path["fresh_single"], two_over_one, overhead),
    )


def run_bench(*, iterations: int, server: bool, quick: bool = False) -> BenchReport:
    """Measure model calls, latency, overhead, cache lookups and (optionally) the server.

    Args:
        iterations: recorded runs per path and latency profile (after one warm-up round).
        server: also measure `langgraph dev` with 10 concurrent clients on zero-latency fakes.
        quick: the set latencies at a tenth, and the cache at 1,000 entries only (CI).

    Returns:
        The report; `to_json()` for machines, `table()` for people.
    """
    return asyncio.run(run_bench_async(iterations=iterations, server=server, quick=quick))
