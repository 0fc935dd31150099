"""Fan-out wall time of the search subgraph against its slowest source.

Four fake sources with simulated latency, a zero-cost embedder and no model: what remains is the
graph's own overhead on top of the slowest source. Target: wall <= 1.1 x slowest + 50 ms.

    uv run python benchmarks/search_fanout.py [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from codeweaver.bench.fakes import FakeSource
from codeweaver_runtime import StaticChatModels
from codeweaver_schema import SourceName
from codeweaver_search import SearchContext, build_search_graph
from codeweaver_search.sources import Source

LATENCIES: dict[SourceName, float] = {
    "stackoverflow": 0.35,
    "github": 0.20,
    "docs": 0.45,
    "local": 0.05,
}


class ConstantEmbedder:
    model_id = "constant"
    dimension = 8

    def embed_sync(self, texts: Sequence[str]) -> NDArray[np.float32]:
        return np.full((len(texts), self.dimension), self.dimension**-0.5, dtype=np.float32)

    async def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        return self.embed_sync(texts)


async def main(runs: int, as_json: bool) -> None:
    sources: dict[SourceName, Source] = {
        name: FakeSource(name, latency) for name, latency in LATENCIES.items()
    }
    context = SearchContext(chat_model="offline", search_max_iterations=1)
    slowest = max(LATENCIES.values())
    walls = []
    for i in range(runs + 1):
        # A fresh graph per run: the raw-response cache would otherwise answer repeats.
        graph = build_search_graph(
            models=StaticChatModels(None), sources=sources, embedder=ConstantEmbedder()
        )
        started = time.perf_counter()
        await graph.ainvoke(
            {"question": f"How do I reverse a list in Python? ({i})"}, context=context
        )
        if i:  # the first run warms imports and pydantic validators
            walls.append(time.perf_counter() - started)
    wall = statistics.median(walls)
    budget = 1.1 * slowest + 0.050
    result = {
        "sources": LATENCIES,
        "slowest_s": slowest,
        "sum_of_sources_s": round(sum(LATENCIES.values()), 3),
        "wall_median_s": round(wall, 4),
        "wall_max_s": round(max(walls), 4),
        "ratio_to_slowest": round(wall / slowest, 3),
        "budget_s": round(budget, 4),
        "within_budget": wall <= budget,
        "runs": runs,
    }
    if as_json:
        print(json.dumps(result))
        return
    print(f"sources: {LATENCIES} (sum {result['sum_of_sources_s']} s)")
    print(f"slowest source      {slowest * 1000:7.1f} ms")
    print(f"wall (median of {runs}) {wall * 1000:7.1f} ms  (max {max(walls) * 1000:.1f} ms)")
    print(f"ratio to slowest    {result['ratio_to_slowest']:7.3f}")
    print(f"budget 1.1x + 50 ms {budget * 1000:7.1f} ms  -> {'OK' if wall <= budget else 'OVER'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    asyncio.run(main(args.runs, args.json))
