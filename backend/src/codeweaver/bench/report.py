"""What `codeweaver bench` reports: figures per path, the goals of issue 7, a table and a chart."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel

BenchPath = Literal["fresh_single", "cache_hit", "clarification", "two_questions"]
PATHS: tuple[BenchPath, ...] = get_args(BenchPath)

TARGETS = {
    "fresh_single_calls": 4,
    "cache_hit_calls": 0,
    "clarification_calls": 1,
    "wall_over_critical_path": 1.10,
    "two_over_one": 1.2,
    "overhead_ms_p50": 50.0,
}


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


class PlotUnavailableError(RuntimeError):
    """The latency chart cannot be drawn: matplotlib is missing."""


def percentiles(samples_ms: Sequence[float]) -> Percentiles:
    """p50 and p95 (nearest rank) of a sample."""
    ordered = sorted(samples_ms)
    rank = max(1, round(0.95 * len(ordered)))
    return Percentiles(
        p50=round(statistics.median(ordered), 2), p95=round(ordered[rank - 1], 2), n=len(ordered)
    )


def _target(name: str, goal: str, value: float | None, met: bool | None) -> Target:
    return Target(name=name, goal=goal, value=value, met=met)


def targets(
    calls: Mapping[str, int], ratio: float, two_over_one: float, overhead: float
) -> list[Target]:
    """Each goal of issue 7 against this run's figures."""
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
