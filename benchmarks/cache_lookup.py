"""Cache lookup latency at 1,000 and 10,000 entries (embedded Qdrant, real embeddings).

Entries are synthetic but varied programming questions (task x data structure x library x
qualifier), embedded in batches; each lookup embeds a question not seen before, searches the
scope and runs the guards, exactly as the lookup node does.

    uv run python benchmarks/cache_lookup.py [--sizes 1000 10000] [--queries 200]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import time

from codeweaver.bench.measure import fill_cache, lookup_latencies_ms, reworded
from codeweaver_cache import SemanticCache
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder, open_qdrant

TASKS = [
    "sort",
    "reverse",
    "filter",
    "merge",
    "split",
    "flatten",
    "deduplicate",
    "serialize",
    "parse",
    "validate",
    "compress",
    "encrypt",
    "paginate",
    "cache",
    "profile",
    "test",
    "debug",
    "plot",
    "group",
    "index",
    "slice",
]
THINGS = """a list of dicts|a pandas DataFrame|a numpy array|a JSON file|a CSV file|a nested
dictionary|a generator|a SQL query result|an HTTP response|a datetime column|a set of
tuples|a string of bytes|a deque|a YAML config|a log file|a tree of nodes""".replace(
    "\n", " "
).split("|")
HOW = """in Python 3.12|with asyncio|without a loop|by key|in place|on Windows|on Linux|using
itertools|with type hints|in Django|in Flask|with SQLAlchemy|lazily|in parallel|with a
regex|recursively|for large inputs|with error handling|in a class|as a one-liner""".replace(
    "\n", " "
).split("|")


GOALS = ["", " quickly", " safely", " and keep the order"]


def questions(n: int, seed: int) -> list[str]:
    combos = list(itertools.product(TASKS, THINGS, HOW, GOALS))
    random.Random(seed).shuffle(combos)
    return [f"How do I {t} {x} {h}{g}?" for t, x, h, g in combos[:n]]


async def bench(size: int, queries: int) -> tuple[float, float, float]:
    embedder = get_embedder(DEFAULT_EMBEDDING_MODEL)
    cache = SemanticCache(open_qdrant(":memory:"), embedder, timeout_s=60.0)
    scope = cache.scope("bench")
    entries = questions(size, seed=1)
    started = time.perf_counter()
    await fill_cache(cache, scope, entries, batch=1000)
    build_s = time.perf_counter() - started
    probes = [reworded(q) for q in random.sample(entries, queries)]
    latencies = sorted(await lookup_latencies_ms(cache, scope, probes))
    return statistics.median(latencies), latencies[int(0.95 * len(latencies)) - 1], build_s


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    print(f"{'entries':>8} {'p50 ms':>8} {'p95 ms':>8} {'build s':>8}")
    for size in args.sizes:
        p50, p95, build_s = await bench(size, args.queries)
        print(f"{size:8d} {p50:8.1f} {p95:8.1f} {build_s:8.1f}")


if __name__ == "__main__":
    asyncio.run(main())
