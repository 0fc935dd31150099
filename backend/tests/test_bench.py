"""The benchmark's short version, so that `codeweaver bench` cannot rot: shape and call counts."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import codeweaver.bench
from codeweaver.bench.report import PATHS, PlotUnavailableError
from codeweaver.bench.run import run_bench_async
from codeweaver.bench.server import SERVED_GRAPH

pytestmark = pytest.mark.slow


async def test_short_bench_reports_every_figure_and_counts_calls(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    report = await run_bench_async(
        iterations=1, server=False, quick=True, cache_sizes=(50,), cache_probes=5
    )
    data = json.loads(report.to_json())

    calls = data["model_calls"]
    assert calls["fresh_single"] == 3  # judge (one round), answer, grade; no planner call
    assert calls["two_questions"] == 6  # three per question
    assert calls["critical_path"]["two_questions"] == 3  # the questions run in parallel
    assert calls["cache_hit"] == 0
    assert calls["clarification"] == 1
    assert calls["original_design"]["calls"] == 5 + 2 * calls["original_design"]["results"]

    for path in PATHS:
        latency = data["latency_ms"][path]
        assert set(latency) >= {"p50", "p95"}
        assert latency["p95"] >= latency["p50"] > 0
        # Wall time cannot beat what the latencies imply.
        assert latency["p50"] >= data["critical_path_ms"][path]
        assert data["overhead_ms"][path]["p50"] > 0
    assert data["wall_over_critical_path"] >= 1.0
    assert data["two_over_one"] > 0
    assert data["overhead_ms_p50"] == data["overhead_ms"]["fresh_single"]["p50"]
    assert set(data["cache_lookup_ms"]) == {"50", "1000", "10000"}
    assert data["cache_lookup_ms"]["50"]["p50"] > 0
    assert data["server"] is None
    assert {t["name"] for t in data["targets"]} >= {"wall / critical path", "overhead p50 (ms)"}

    tokens = data["tokens"]
    fresh = tokens["fresh_single"]
    assert set(fresh) == {"judge", "answer", "total"}  # the bench's calls are tagged by role
    assert all(fresh[role]["input_tokens"] > fresh[role]["output_tokens"] > 0 for role in fresh)
    assert fresh["total"]["input_tokens"] == (
        fresh["judge"]["input_tokens"] + fresh["answer"]["input_tokens"]
    )
    assert tokens["cache_hit"] == {}
    assert set(tokens["clarification"]) == {"answer", "total"}
    assert "tokenizer" in data["settings"]["tokens"]

    table = report.table()
    assert all(path in table for path in PATHS)
    assert "tokens per run" in table
    assert "server: not measured" in table

    # The chart needs matplotlib, a development dependency: without it, a message that says so.
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(PlotUnavailableError, match="matplotlib"):
        report.plot(tmp_path / "latency.png")
    assert not (tmp_path / "latency.png").exists()


def test_the_served_bench_graph_ships_with_the_package() -> None:
    # Not a checkout's benchmarks/ folder: `codeweaver bench` serves it from an installed wheel.
    assert SERVED_GRAPH.parent == Path(codeweaver.bench.__file__).resolve().parent
    assert SERVED_GRAPH.is_file()
