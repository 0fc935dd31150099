"""`codeweaver bench --cli`: real `codeweaver ask` processes, timed and compared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codeweaver.cli.bench import (
    BEFORE,
    GOAL_NAMES,
    QUESTIONS,
    CliBenchReport,
    Run,
    Series,
    run_cli_bench,
)

pytestmark = pytest.mark.slow


def run(wall_s: float) -> Run:
    return Run("q", wall_s, 100.0, 0, False, 0.1, "answer")


def test_quantiles_are_nearest_rank_over_the_runs() -> None:
    series = Series([run(w) for w in (5.0, 1.0, 3.0, 2.0, 4.0)])
    assert series.wall(0.5) == 3.0
    assert series.wall(0.95) == 5.0
    assert Series([run(2.0)]).wall(0.95) == 2.0


def test_the_bench_runs_the_real_cli_cold_fresh_and_from_the_cache() -> None:
    report = run_cli_bench(
        iterations=2, cold_runs=1, designs=("onnx",), bytecode=("cached",), measure_install=False
    )
    kinds = report.series["onnx"]["cached"]
    assert [len(kinds[k].runs) for k in ("cold", "fresh", "repeat")] == [1, 2, 2]
    assert all(r.exit_code == 0 for s in kinds.values() for r in s.runs)
    # Fresh questions are answered, not served from the cache; their repeats are.
    assert [r.cache_hit for r in kinds["fresh"].runs] == [False, False]
    assert [r.cache_hit for r in kinds["repeat"].runs] == [True, True]
    assert [r.question for r in kinds["repeat"].runs] == list(QUESTIONS[:2])
    fresh = {r.question: r.answer for r in kinds["fresh"].runs}
    assert all(fresh[r.question] == r.answer and r.answer for r in kinds["repeat"].runs)
    for series in kinds.values():
        # Wall time around the process includes the time inside the graph; memory is counted.
        assert all(r.in_run_s is not None and r.wall_s > r.in_run_s for r in series.runs)
        assert all(r.peak_rss_mb > 50 for r in series.runs)
    table = report.table()
    assert all(name in table for name in GOAL_NAMES.values())
    data = json.loads(report.to_json())
    assert data["figures"]["onnx"]["cached"]["repeat"]["cache_hits"] == 2
    assert data["answers_identical"] == {"alike": 3, "compared": 3}


def test_unknown_designs_are_refused() -> None:
    with pytest.raises(ValueError, match="tensorflow"):
        run_cli_bench(designs=("tensorflow",))


def test_a_missing_before_cli_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no codeweaver command"):
        run_cli_bench(before_cli=tmp_path / "codeweaver")


def test_the_older_checkout_is_the_baseline_and_left_out_of_the_answer_check() -> None:
    def series(wall_s: float, answer: str) -> dict[str, dict[str, Series]]:
        runs = [Run(q, wall_s, 100.0, 0, True, 0.1, answer) for q in QUESTIONS[:2]]
        return {"cached": {"repeat": Series(runs)}}

    report = CliBenchReport(
        machine={"cores": 2},
        series={BEFORE: series(8.0, "older text"), "onnx": series(2.0, "answer")},
        install={},
        load_before=0.0,
        load_after=0.0,
    )
    repeat_row = next(line for line in report.table().splitlines() if "repeat question" in line)
    assert "8.00 s" in repeat_row
    assert "4.0x" in repeat_row
    assert report.answers_identical() == (2, 2)
