"""Measuring the graph: each path run on the fakes and recorded, and the cache at size."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import uuid4

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from codeweaver.bench.fakes import (
    ALL_SOURCES,
    CLARIFICATION,
    CallRecorder,
    TimedEmbedder,
    distinct_questions,
    fake_graph,
)
from codeweaver.bench.report import PATHS, Percentiles, percentiles
from codeweaver.context import Context
from codeweaver.persistence import schema_serializer
from codeweaver_cache import CacheScope, HitRule, SemanticCache
from codeweaver_runtime import Embedder, ModelCallCounter, open_qdrant
from codeweaver_schema import Answer, SourceName


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
    questions = distinct_questions(3 * (iterations + 1), seed)
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
    await fill_cache(cache, scope, entries, batch=500)
    picked = random.Random(seed).sample(entries, min(probes, size))
    return percentiles(await lookup_latencies_ms(cache, scope, [reworded(q) for q in picked]))


async def fill_cache(
    cache: SemanticCache, scope: CacheScope, questions: Sequence[str], *, batch: int
) -> None:
    """Store an answer to each question, `batch` questions to an embedding call."""
    for start in range(0, len(questions), batch):
        chunk = questions[start : start + batch]
        await cache.put_many(
            [(q, Answer(text=f"answer {start + i}", grounded=True)) for i, q in enumerate(chunk)],
            scope,
            ttl_s=3600,
        )


def reworded(question: str) -> str:
    """The same question in other words: a lookup that should hit, not match to the letter."""
    return question.replace("How do I", "What is the best way to")


async def lookup_latencies_ms(
    cache: SemanticCache, scope: CacheScope, probes: Sequence[str]
) -> list[float]:
    """Milliseconds of each lookup: embed the probe, search the scope, run the guards."""
    rule = HitRule()
    latencies = []
    for probe in probes:
        started = time.perf_counter()
        await cache.lookup(probe, scope, rule)
        latencies.append((time.perf_counter() - started) * 1000)
    return latencies


def _cache_questions(count: int, seed: int) -> list[str]:
    goals = ["", " quickly", " safely", " and keep the order", " for large inputs"]
    goals += [" in a test", " on Windows"]
    base = distinct_questions(15 * 12 * 10, seed)
    combos = [f"{q[:-1]}{g}?" for q in base for g in goals]
    if count > len(combos):
        raise ValueError(f"at most {len(combos)} distinct cache questions")
    return combos[:count]
