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
import os
import platform
import re
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from codeweaver.bench.fakes import SET_LATENCIES_MS
from codeweaver.bench.measure import measure_cache_lookup, measure_paths
from codeweaver.bench.report import PATHS, BenchReport, Percentiles, ServerFigures, targets
from codeweaver.bench.server import measure_server, serve_fake_graph
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder

QUICK_SCALE = 0.1
"""`quick` runs the set profile (`SET_LATENCIES_MS`) at a tenth, so CI finishes in seconds."""
CACHE_SIZES = (1000, 10000)


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
        targets=targets(calls, by_path["fresh_single"], two_over_one, overhead),
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
