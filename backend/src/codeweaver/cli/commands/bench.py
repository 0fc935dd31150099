"""`codeweaver bench`: model calls, latency, overhead and cache lookups, measured."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Annotated

import typer

from codeweaver.cli.console import err, out
from codeweaver.cli.options import JsonOption


def bench(
    as_json: JsonOption = False,
    iterations: Annotated[
        int | None,
        typer.Option(
            "--iterations",
            min=1,
            help="Recorded runs per path and profile (default 20); with --cli, fresh and "
            "repeat questions per design and .pyc mode (default 5, at most 10).",
        ),
    ] = None,
    no_server: Annotated[
        bool, typer.Option("--no-server", help="Skip the LangGraph Server measurement.")
    ] = False,
    quick: Annotated[
        bool, typer.Option("--quick", help="Latencies at a tenth, cache at 1,000 entries (CI).")
    ] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Also draw latency by path to this PNG.")
    ] = None,
    cli: Annotated[
        bool,
        typer.Option(
            "--cli",
            help="Time the real `codeweaver ask` as new processes instead: cold and warm, "
            "cache hit and fresh, p50/p95 wall and peak memory, against the design before.",
        ),
    ] = False,
    cold_runs: Annotated[
        int,
        typer.Option("--cold-runs", min=1, help="With --cli: first questions on fresh data dirs."),
    ] = 2,
    design: Annotated[
        list[str] | None,
        typer.Option(
            "--design",
            help="With --cli: onnx (current), sentence-transformers (its runtime before) and/or "
            "served (ask through codeweaver serve); default all.",
        ),
    ] = None,
    bytecode: Annotated[
        list[str] | None,
        typer.Option(
            "--bytecode", help="With --cli: cached (.pyc kept) and/or none; default both."
        ),
    ] = None,
    before_cli: Annotated[
        Path | None,
        typer.Option(
            "--before-cli",
            help="With --cli: the `codeweaver` of a checkout from before issue 14 "
            "(docs/PERFORMANCE.md), timed as the baseline.",
        ),
    ] = None,
) -> None:
    """Model calls, latency against the critical path, overhead, cache lookups, the server.

    Fake chat models and sources with set latencies (docs/PERFORMANCE.md), the real embedder.
    With --cli: the real CLI, each answer from a new process (`codeweaver.cli.bench`).
    """
    if cli:
        from codeweaver.cli.bench import BYTECODE_MODES, DESIGNS, run_cli_bench

        with err.status("benchmarking `codeweaver ask` in new processes…"):
            try:
                cli_report = run_cli_bench(
                    iterations=iterations or 5,
                    cold_runs=cold_runs,
                    designs=design or DESIGNS,
                    bytecode=bytecode or BYTECODE_MODES,
                    before_cli=before_cli,
                )
            except ValueError as exc:
                raise typer.BadParameter(str(exc)) from None
        if as_json:
            sys.stdout.write(cli_report.to_json() + "\n")
        else:
            sys.stdout.write(cli_report.table() + "\n")
        return
    from codeweaver.bench.report import PlotUnavailableError
    from codeweaver.bench.run import run_bench

    if plot is not None and importlib.util.find_spec("matplotlib") is None:
        # Say so before minutes of benchmarking, not after.
        err.print(
            "--plot needs matplotlib, a development dependency: `uv sync` in a checkout, "
            "or `pip install matplotlib`"
        )
        raise typer.Exit(2)
    with err.status("benchmarking (fake models and sources, real embedder)…"):
        report = run_bench(iterations=iterations or 20, server=not no_server, quick=quick)
    if plot is not None:
        try:
            report.plot(plot)
        except PlotUnavailableError as missing:
            err.print(str(missing))
            raise typer.Exit(2) from missing
    if as_json:
        sys.stdout.write(report.to_json() + "\n")
    else:
        out.print(report.table())
