"""`codeweaver ingest --python PATH [--packages ...]`: the user's installed libraries as packs.

One documentation pack per distribution installed in that interpreter, built from its own
docstrings and signatures (`codeweaver_corpus.packs`). The interpreter is the user's project
environment, not CodeWeaver's: by default the active virtualenv, else the first `python3` on
`PATH` that is not CodeWeaver's own, so the same command works when CodeWeaver is installed as
a tool of its own and run from the project's folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from codeweaver.cli.console import err, out, resolve_data_dir

if TYPE_CHECKING:
    from codeweaver_corpus.packs.build import IngestReport
    from codeweaver_corpus.packs.environment import Distribution, TargetEnvironment

_SHOWN_FAILURES = 3
"""Lines of failures printed per library; the rest are in the report file."""


def split_packages(packages: str | None) -> list[str] | None:
    """`pandas, numpy` as `["pandas", "numpy"]`; None when no package is named."""
    if packages is None:
        return None
    names = [name.strip() for name in packages.split(",") if name.strip()]
    return names or None


def ingest_python(
    python: Path | None,
    packages: str | None,
    *,
    data_dir: Path | None,
    force: bool,
    inspect: bool,
) -> None:
    """Build the packs of the libraries installed in `python` (see the module's docstring)."""
    from codeweaver_corpus.packs.environment import (
        EnvironmentError_,
        choose,
        default_python,
        is_tooling,
        probe,
    )
    from codeweaver_corpus.packs.store import NoSpaceLeft

    if packages is not None and split_packages(packages) is None:
        # `--packages ,,` (or an empty variable) names nothing: reading every library instead
        # would take minutes the user did not ask for.
        err.print(
            "[red]Cannot ingest:[/red] --packages names no package: give names separated by "
            "commas (--packages pandas,numpy), or leave it out for every library"
        )
        raise typer.Exit(code=2)
    interpreter = python.expanduser() if python is not None else default_python()
    if interpreter is None:
        err.print(
            "[red]Cannot ingest:[/red] no Python environment found: activate your project's "
            "virtualenv or pass --python PATH"
        )
        raise typer.Exit(code=2)
    directory = resolve_data_dir(data_dir)
    try:
        environment = probe(interpreter)
        chosen = choose(environment, split_packages(packages))
    except EnvironmentError_ as exc:
        err.print(f"[red]Cannot ingest:[/red] {exc}")
        raise typer.Exit(code=2) from exc
    if packages is None:
        left_out = sorted(d.name for d in environment.distributions.values() if is_tooling(d))
        if left_out:
            err.print(
                f"[dim]left out: {', '.join(left_out)} (packaging tools and CodeWeaver; name "
                "them with --packages to include them)[/dim]"
            )
    if not chosen:
        err.print(f"[yellow]Nothing to ingest:[/yellow] {interpreter} has no libraries installed")
        return
    err.print(
        f"Reading {len(chosen)} librar{'y' if len(chosen) == 1 else 'ies'} of "
        f"{environment.python} (Python {environment.version})"
    )
    try:
        report = _build(environment, chosen, directory, force=force, inspect=inspect)
    except NoSpaceLeft as exc:
        err.print(f"[red]Cannot ingest:[/red] {exc.strerror}")
        raise typer.Exit(code=1) from exc
    _print_report(report, directory)
    if report.results and all(r.status == "failed" for r in report.results):
        raise typer.Exit(code=1)


def _build(
    environment: TargetEnvironment,
    distributions: list[Distribution],
    directory: Path,
    *,
    force: bool,
    inspect: bool,
) -> IngestReport:
    from codeweaver_corpus.packs.build import build_packs
    from codeweaver_runtime import get_embedder, infrastructure

    embedder = get_embedder(infrastructure().embedding_model)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err, transient=True) as progress:
        libraries = progress.add_task("libraries", total=len(distributions))
        units = progress.add_task("embedding", total=None, visible=False)

        def on_event(event: str, name: str, done: int, total: int) -> None:
            if event == "extract":
                progress.update(libraries, description=f"reading {name}", completed=done)
                progress.update(units, visible=False)
            elif event == "embed":
                progress.update(
                    units,
                    description=f"embedding {name}",
                    completed=done,
                    total=total,
                    visible=True,
                )
            elif event == "done":
                progress.update(libraries, completed=done)

        return build_packs(
            environment,
            distributions,
            home=directory,
            embed=embedder.embed_bulk,
            model_id=embedder.model_id,
            dimension=embedder.dimension,
            on_event=on_event,
            inspect=inspect,
            force=force,
            # One library read per core while the main process embeds the one before: the
            # reading (griffe, and importing in the target interpreter) is single-threaded.
            jobs=os.cpu_count() or 1,
        )


def _print_report(report: IngestReport, directory: Path) -> None:
    from codeweaver_corpus.packs.build import REPORT_FILE
    from codeweaver_corpus.packs.store import packs_root

    table = Table(title=f"Packs of {report.python} (Python {report.python_version})")
    for column, justify in (
        ("library", "left"),
        ("version", "left"),
        ("status", "left"),
        ("units", "right"),
        ("time", "right"),
        ("failures", "right"),
        ("missing targets", "right"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for result in report.results:
        table.add_row(
            result.name,
            result.version,
            result.status,
            str(result.units),
            f"{result.seconds:.1f}s",
            str(len(result.failures)),
            str(len(result.missing_targets)),
        )
    out.print(table)
    for result in report.results:
        if result.reason:
            err.print(f"[yellow]{result.name}[/yellow] {result.status}: {result.reason}")
        for failure in result.failures[:_SHOWN_FAILURES]:
            err.print(f"[yellow]{result.name}[/yellow] could not read {failure}")
        if len(result.failures) > _SHOWN_FAILURES:
            err.print(
                f"[yellow]{result.name}[/yellow] and {len(result.failures) - _SHOWN_FAILURES} more"
            )
    counts = {status: 0 for status in ("built", "unchanged", "empty", "failed")}
    for result in report.results:
        counts[result.status] += 1
    err.print(
        f"{len(report.results)} librar{'y' if len(report.results) == 1 else 'ies'}: "
        f"{counts['built']} built, {counts['unchanged']} unchanged, {counts['empty']} empty, "
        f"{counts['failed']} failed · {sum(r.units for r in report.results)} units in "
        f"{report.seconds:.1f}s · report: {packs_root(directory) / REPORT_FILE}"
    )
