"""`codeweaver ingest`: add files and folders to the local corpus, with a progress bar."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from codeweaver.cli.console import err, full_disk_in_one_line, resolve_data_dir
from codeweaver.cli.defaults import DEFAULT_MAX_FILE_MB
from codeweaver.cli.options import DataDirOption

if TYPE_CHECKING:
    from codeweaver.cli.ingest import IngestOutcome


class _RateColumn(ProgressColumn):
    """Items per second, from rich's own speed estimate."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.1f}/s" if speed else "–/s", style="progress.data.speed")


async def _ingest(
    paths: list[Path],
    directory: Path,
    tenant: str,
    progress: Progress,
    max_file_bytes: int | None,
) -> IngestOutcome:
    from codeweaver.cli.ingest import Manifest, ingest_paths, resolve_paths
    from codeweaver.persistence import MANIFEST
    from codeweaver_corpus import DocumentCorpus
    from codeweaver_runtime import close_qdrant_clients, get_embedder, get_qdrant, infrastructure

    infra = infrastructure()
    manifest = Manifest(directory / MANIFEST, tenant)
    roots, skipped = resolve_paths(paths, manifest)
    corpus = DocumentCorpus(
        get_qdrant(infra.qdrant_location()), get_embedder(infra.embedding_model), tenant=tenant
    )
    try:
        files = progress.add_task("reading files", total=None)
        chunks = progress.add_task("embedding chunks", total=None, visible=False)

        def on_file(done: int, total: int) -> None:
            progress.update(files, completed=done, total=total)

        def on_chunks(done: int, total: int) -> None:
            progress.update(chunks, completed=done, total=total, visible=total > 0)

        outcome = await ingest_paths(
            roots,
            corpus,
            manifest,
            max_file_bytes=max_file_bytes,
            on_file=on_file,
            on_chunks=on_chunks,
        )
        outcome.failures[:0] = skipped
        return outcome
    finally:
        await close_qdrant_clients()


def ingest(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Files and folders of Markdown, reST, text, HTML, PDF or source code. A path "
            "ingested before and now gone removes its documents.",
            show_default=False,
        ),
    ] = None,
    python: Annotated[
        Path | None,
        typer.Option(
            "--python",
            help="Build a documentation pack of each library installed in this Python "
            "interpreter (your project's, e.g. .venv/bin/python); without PATHS and without "
            "--python, --packages reads the active virtualenv.",
        ),
    ] = None,
    packages: Annotated[
        str | None,
        typer.Option(
            "--packages",
            help="Only these libraries, comma-separated, as pip names them (beautifulsoup4) "
            "or as they are imported (bs4). Default: every library but packaging tools.",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Rebuild library packs that are up to date.")
    ] = False,
    inspect: Annotated[
        bool,
        typer.Option(
            "--inspect/--static-only",
            help="Also import the libraries (in a separate process of that interpreter) to "
            "read what their source does not show, such as compiled modules.",
        ),
    ] = True,
    tenant: Annotated[
        str, typer.Option("--tenant", help="Whose corpus the documents join.")
    ] = "default",
    max_file_mb: Annotated[
        float,
        typer.Option(
            "--max-file-mb",
            min=0,
            help="Skip files larger than this many megabytes (0: no limit).",
        ),
    ] = DEFAULT_MAX_FILE_MB,
    data_dir: DataDirOption = None,
) -> None:
    """Add documents to the local corpus, or your installed libraries' docs (--python).

    Documents: unchanged files are skipped, removed files removed. Libraries: one pack per
    library, rebuilt only when its version (or CodeWeaver's reading of it) changed.
    """
    from codeweaver.cli.ingest import IngestPathError

    if python is not None or packages is not None:
        if paths:
            err.print(
                "[red]Cannot ingest:[/red] give either files and folders, or --python/--packages"
            )
            raise typer.Exit(code=2)
        from codeweaver.cli.commands.ingest_python import ingest_python

        ingest_python(python, packages, data_dir=data_dir, force=force, inspect=inspect)
        return
    if not paths:
        err.print(
            "[red]Cannot ingest:[/red] give files or folders to ingest, or --python PATH for "
            "the libraries installed in a Python environment"
        )
        raise typer.Exit(code=2)

    directory = resolve_data_dir(data_dir)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeElapsedColumn(),
    )
    try:
        with (
            full_disk_in_one_line(directory),
            Progress(*columns, console=err, transient=True) as progress,
        ):
            limit = int(max_file_mb * 1_048_576) or None
            outcome = asyncio.run(_ingest(paths, directory, tenant, progress, limit))
    except IngestPathError as exc:
        err.print(f"[red]Cannot ingest:[/red] {exc}")
        raise typer.Exit(code=2) from exc
    except RuntimeError as exc:
        if "already accessed by another instance" not in str(exc):
            raise
        err.print(
            f"[red]The vector store under {directory} is in use by another process[/red] "
            "(probably `codeweaver serve` or `langgraph dev`). Stop it and ingest again, or "
            "run a Qdrant server and set QDRANT_URL for both."
        )
        raise typer.Exit(code=1) from exc
    report = outcome.report
    for failure in outcome.failures:
        err.print(f"[yellow]skipped[/yellow] {failure}")
    for note in outcome.notes:
        err.print(f"[yellow]note[/yellow] {note}")
    if outcome.too_large:
        err.print(
            f"[yellow]note[/yellow] {outcome.too_large} file(s) over {max_file_mb:g} MB skipped; "
            "raise the limit with --max-file-mb"
        )
    err.print(
        f"{outcome.files} file(s): {report.added} added, {report.updated} updated, "
        f"{report.unchanged} unchanged, {outcome.removed} removed, "
        f"{len(outcome.failures)} skipped · {report.chunks_added} chunk(s) embedded in "
        f"{report.seconds:.1f}s · tenant {tenant}"
    )
    if outcome.failures and not report.documents and not outcome.removed:
        raise typer.Exit(code=1)
