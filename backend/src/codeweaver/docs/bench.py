"""docs/PERFORMANCE.md's current figures, read from `codeweaver bench --json`'s result file."""

from __future__ import annotations

from pathlib import Path

from codeweaver.bench.report import PATHS, BenchReport

FILE = "bench.json"
"""The result file under docs/results/."""
PATH_NAMES = {
    "fresh_single": "fresh single question",
    "cache_hit": "cache hit",
    "clarification": "clarification",
    "two_questions": "two questions",
}
SOURCE_NAMES = {
    "model": "model",
    "stackoverflow": "Stack Overflow",
    "github": "GitHub",
    "docs": "docs",
    "local": "local",
}
ROLES = ("planner", "judge", "answer", "verifier")
"""The roles a token column is shown for, when the run counted any."""


class BenchFileError(ValueError):
    """The bench's result file is missing."""


def read(results: Path) -> BenchReport:
    """The bench report kept in `results`.

    Raises:
        BenchFileError: there is none.
    """
    path = results / FILE
    if not path.is_file():
        raise BenchFileError(f"{path} is missing; write it with: {command(None)}")
    return BenchReport.model_validate_json(path.read_text(encoding="utf-8"))


def command(report: BenchReport | None) -> str:
    """The command that wrote the report (for none yet: the full run)."""
    parts = ["uv run codeweaver bench --json"]
    if report is not None:
        parts.append(f"--iterations {report.settings['iterations']}")
        if report.settings.get("quick"):
            parts.append("--quick")
        if report.server is None:
            parts.append("--no-server")
    return " ".join([*parts, f"> docs/results/{FILE}"])


def _ms(value: float) -> str:
    return f"{value:,.1f}"


def machine(results: Path) -> str:
    """What the figures were measured on, and how busy it was."""
    report = read(results)
    m = report.machine
    load = ", ".join(f"{x:g}" for x in m.get("load_average", []))
    return (
        f"{m['nproc']} cores (`nproc`), `{m['cpu']}` (from `/proc/cpuinfo`), "
        f"{m['memory_gb']:g} GB of memory, Python {m['python']}, langgraph {m['langgraph']}; "
        f"load average {load} (1, 5 and 15 minutes) as the run ended. Measured with "
        f"`{command(report)}`."
    )


def paths(results: Path) -> str:
    """Calls, wall time against the critical path, overhead, cache and server, per path."""
    report = read(results)
    settings = report.settings
    latencies = settings["latencies_ms"]
    quick = (
        " (`--quick`: the set latencies at a tenth, the cache at 1,000 entries only)"
        if settings.get("quick")
        else ""
    )
    calls, critical = report.model_calls, report.model_calls["critical_path"]
    lines = [
        f"{settings['iterations']} runs per path, after one warm-up round{quick}. Set latencies: "
        + ", ".join(f"{SOURCE_NAMES[k]} {v:g} ms" for k, v in latencies.items())
        + ".",
        "",
        "| path | model calls | on critical path | p50 ms | p95 ms | critical path ms "
        "| wall / critical | zero-latency p50 ms | of which embed ms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for path in PATHS:
        wall = report.latency_ms[path]
        ratio = report.wall_over_critical_path_by_path[path]
        cells = [
            PATH_NAMES[path],
            str(calls[path]),
            str(critical[path]),
            _ms(wall.p50),
            _ms(wall.p95),
            f"{report.critical_path_ms[path]:,.0f}",
            f"{ratio:.3f}" if report.critical_path_ms[path] else "–",
            _ms(report.overhead_ms[path].p50),
            _ms(report.embedding_ms_p50[path]),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    original = calls["original_design"]
    lines += [
        "",
        f"- Original CodeWeaver design for the same fresh question: 5 + 2N = "
        f"**{original['calls']} calls** for the N = {original['results']} results the sources "
        f"returned; CodeWeaver makes **{calls['fresh_single']}**.",
        f"- Wall / critical path, fresh question: **{report.wall_over_critical_path:.3f}**. "
        f"Two questions / one: **{report.two_over_one:.3f}**.",
        f"- Overhead, zero-latency fresh question: **{report.overhead_ms_p50:.1f} ms p50**, of "
        f"which {report.embedding_ms_p50['fresh_single']:.1f} ms is the embedder.",
        "- Cache lookup (embed an unseen question, search, guards): "
        + "; ".join(
            f"{int(size):,} entries "
            + (
                f"p50 **{figures.p50:.1f} ms**, p95 {figures.p95:.1f} ms ({figures.n} lookups)"
                if figures
                else "not measured"
            )
            for size, figures in report.cache_lookup_ms.items()
        )
        + ".",
    ]
    server = report.server
    if server is None:
        lines.append("- LangGraph Server: not measured (`--no-server`).")
    else:
        hits = server.cache_hits
        served_from_cache = f"{hits} run{'' if hits == 1 else 's'} served"
        lines.append(
            f"- LangGraph Server (`langgraph dev`, zero-latency fakes, {server.clients} "
            f"concurrent clients, {server.runs} runs, one thread per run): "
            f"**{server.runs_per_s:.2f} runs/s**, p50 {server.p50_ms:.0f} ms, p95 "
            f"**{server.p95_ms:.0f} ms**, **{server.errors} errors**, {server.leaks} answers "
            f"that were not about their own question ({served_from_cache} from the cache, "
            "each checked)."
        )
    return "\n".join(lines)


def tokens(results: Path) -> str:
    """Median input and output tokens of one run, per path and role."""
    report = read(results)
    counted = {role for path in PATHS for role in report.tokens.get(path, {})}
    roles = [role for role in ROLES if role in counted]
    header = "| path | " + " | ".join(f"{role} in / out" for role in [*roles, "total"]) + " |"
    lines = [
        f"Medians of {report.settings['iterations']} runs:",
        "",
        header,
        "|---" + "|---:" * (len(roles) + 1) + "|",
    ]
    for path in PATHS:
        counts = report.tokens.get(path, {})
        cells = [PATH_NAMES[path]]
        for role in [*roles, "total"]:
            figures = counts.get(role)
            if figures is None:
                cells.append("0 / 0" if role == "total" else "–")
            else:
                cells.append(f"{figures['input_tokens']:,} / {figures['output_tokens']:,}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def targets(results: Path) -> str:
    """The goals of issue 7 against the run's figures."""
    report = read(results)
    lines = ["| target | goal | measured | |", "|---|---|---:|---|"]
    for target in report.targets:
        value = "–" if target.value is None else f"{target.value:g}"
        verdict = {True: "met", False: "**missed**", None: "not measured"}[target.met]
        lines.append(f"| {target.name} | {target.goal} | {value} | {verdict} |")
    return "\n".join(lines)
