"""The `codeweaver` command line."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import shlex
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from codeweaver.cli.ask import RunReport, run_question, start_up
from codeweaver.cli.defaults import DEFAULT_MAX_FILE_MB
from codeweaver.cli.eval import eval_app
from codeweaver.cli.options import (
    DEFAULT_SERVER_URL,
    AnswerModelOption,
    DataDirOption,
    HostOption,
    JsonOption,
    JudgeModelOption,
    ModelOption,
    PlannerModelOption,
    ServerOption,
    ThreadOption,
)
from codeweaver.cli.serve import (
    client_links,
    find_langgraph_config,
    is_loopback,
    langgraph_dev_command,
    pick_port,
)
from codeweaver.workflows.progress import progress_label

if TYPE_CHECKING:
    from codeweaver.cli.ingest import IngestOutcome

app = typer.Typer(
    help="CodeWeaver answers programming questions with cited, grounded answers.",
    no_args_is_help=True,
    add_completion=False,
)
err = Console(stderr=True)
out = Console()


def _model_overrides(
    model: str | None, planner: str | None, judge: str | None, answer: str | None
) -> dict[str, Any]:
    """Run-context fields for the models named on the command line (the operator's own).

    Raises:
        typer.BadParameter: a name is not `provider:model[@URL]` or `offline`.
    """
    named = {"chat_model": model, "planner_model": planner, "judge_model": judge}
    named["answer_model"] = answer
    overrides: dict[str, Any] = {field: name for field, name in named.items() if name}
    if not overrides:
        return overrides
    from codeweaver.context import Context
    from codeweaver_runtime import ContextError

    try:
        Context(**overrides)
    except ContextError as exc:
        raise typer.BadParameter(str(exc).removeprefix("run context: ")) from None
    return overrides


@app.callback()
def _group() -> None:
    """CodeWeaver answers programming questions with cited, grounded answers."""


def _data_dir_path(data_dir: Path | None) -> Path:
    """The data directory; one given on the command line becomes this process's setting.

    The CLI is the operator of its own process: the graphs read where data lives from the
    operator's environment (`codeweaver_runtime.infrastructure`), never from the run context.
    """
    from codeweaver_runtime import default_data_dir

    if data_dir is None:
        return default_data_dir()
    directory = data_dir.expanduser().resolve()
    os.environ["CODEWEAVER_HOME"] = str(directory)
    return directory


def _resolve_data_dir(data_dir: Path | None) -> Path:
    """The data directory (`_data_dir_path`), made private to its owner.

    See `codeweaver.persistence.secure_data_dir`.
    """
    from codeweaver.persistence import secure_data_dir

    return secure_data_dir(_data_dir_path(data_dir))


def _sources_table(citations: list[dict[str, Any]]) -> Table:
    table = Table(title="Sources", show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("Title")
    table.add_column("Source")
    table.add_column("Where")
    for c in citations:
        table.add_row(str(c["n"]), c["title"], c["source"], c["url"] or c["file"] or "")
    return table


def _calls(report: RunReport) -> str:
    if report.model_calls is None:
        return f"answered by {report.server}"
    return f"{report.model_calls} model call(s)"


def _print_report(report: RunReport) -> None:
    out.print(Markdown(report.answer))
    if report.warning:
        err.print(f"[yellow]⚠ {report.warning}[/yellow]")
    if report.citations:
        out.print(_sources_table(report.citations))
    hit = " · cache hit" if report.cache_hit else ""
    err.print(
        f"[dim]route {report.route} ({report.routing_reason}){hit} · "
        f"{_calls(report)} · {report.seconds:.1f}s · "
        f"thread {report.thread_id}[/dim]"
    )


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="Your programming question.")],
    thread: ThreadOption = None,
    as_json: JsonOption = False,
    model: ModelOption = None,
    planner_model: PlannerModelOption = None,
    judge_model: JudgeModelOption = None,
    answer_model: AnswerModelOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Ask one question: streams which step is running, then the answer and its sources."""
    if not question.strip():
        err.print("[red]The question is empty.[/red] Ask something, for example:")
        err.print('  codeweaver ask "How do I reverse a list in Python?"')
        raise typer.Exit(code=2)
    overrides = _model_overrides(model, planner_model, judge_model, answer_model)
    thread_id = thread or str(uuid.uuid4())
    # A running server on this data directory answers first: this process then imports nothing
    # of the graph, the store or the embedding stack.
    served = _through_server(question, thread_id, _data_dir_path(data_dir), overrides)
    with start_up():
        directory = _resolve_data_dir(data_dir) if served is None else _data_dir_path(data_dir)
    if as_json:
        report = served or asyncio.run(
            run_question(
                question, thread_id=thread_id, data_dir=directory, context_overrides=overrides
            )
        )
        sys.stdout.write(json.dumps(report.__dict__, ensure_ascii=False, indent=2) + "\n")
        return

    _print_report(served or _ask_with_progress(question, thread_id, directory, overrides))


def _through_server(
    question: str, thread_id: str, directory: Path, overrides: dict[str, Any]
) -> RunReport | None:
    """The turn run by the `codeweaver serve` that holds this data directory, if one runs.

    Its embedded store is locked to it: answering here would miss the user's documents and the
    cache. A server that is recorded but fails the turn ends the command with a clear message.
    """
    from codeweaver.cli.remote import ask_server, running_server
    from codeweaver.tokens import client_headers

    server = running_server(directory)
    if server is None:
        return None
    err.print(f"[dim]asking the running server {server.url} (it holds {directory})[/dim]")
    try:
        fields = asyncio.run(
            ask_server(
                server,
                question,
                thread_id=thread_id,
                context_overrides=overrides,
                headers=client_headers(),
            )
        )
    except Exception as exc:  # any failure of the server is told, not traced
        err.print(
            f"[red]The running server {server.url} could not answer:[/red] {exc}\n"
            "Its store is locked to it, so this process cannot answer in its place: check the "
            "server's log, or stop it and ask again."
        )
        raise typer.Exit(code=1) from exc
    return RunReport(**fields)


def _ask_with_progress(
    question: str, thread_id: str, directory: Path, overrides: dict[str, Any]
) -> RunReport:
    with err.status("planning…") as status:

        def progress(path: str) -> None:
            status.update(f"{progress_label(path)}… [dim]({path})[/dim]")

        return asyncio.run(
            run_question(
                question,
                thread_id=thread_id,
                data_dir=directory,
                context_overrides=overrides,
                on_node=progress,
            )
        )


CHAT_HELP = "/new starts a new thread · /sources lists the last answer's sources · /quit leaves"


@app.command()
def chat(
    thread: ThreadOption = None,
    model: ModelOption = None,
    planner_model: PlannerModelOption = None,
    judge_model: JudgeModelOption = None,
    answer_model: AnswerModelOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Chat in a thread: follow-ups see the conversation. /new, /sources, /quit."""
    overrides = _model_overrides(model, planner_model, judge_model, answer_model)
    directory = _resolve_data_dir(data_dir)
    thread_id = thread or str(uuid.uuid4())
    last: RunReport | None = None
    err.print(f"[dim]thread {thread_id} · {CHAT_HELP}[/dim]")
    while True:
        try:
            line = input("you> ").strip()
        except (EOFError, KeyboardInterrupt):
            err.print()
            break
        if not line:
            continue
        command = line.lower()
        if command in ("/quit", "/exit", "/q"):
            break
        if command == "/new":
            thread_id, last = str(uuid.uuid4()), None
            err.print(f"[dim]new thread {thread_id}[/dim]")
            continue
        if command == "/sources":
            if last is None or not last.citations:
                err.print("[yellow]No sources yet: the last answer cited none.[/yellow]")
            else:
                out.print(_sources_table(last.citations))
            continue
        if command.startswith("/"):
            err.print(f"[yellow]Unknown command {line}.[/yellow] {CHAT_HELP}")
            continue
        last = _through_server(line, thread_id, directory, overrides) or _ask_with_progress(
            line, thread_id, directory, overrides
        )
        out.print(Markdown(last.answer))
        if last.warning:
            err.print(f"[yellow]⚠ {last.warning}[/yellow]")
        hit = " · cache hit" if last.cache_hit else ""
        err.print(
            f"[dim]{len(last.citations)} source(s) (/sources) · route {last.route}{hit} · "
            f"{last.seconds:.1f}s[/dim]"
        )
    err.print(f"[dim]bye · resume with: codeweaver chat --thread {thread_id}[/dim]")


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


@app.command()
def ingest(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Files and folders of Markdown, reST, text, HTML, PDF or source code. A path "
            "ingested before and now gone removes its documents."
        ),
    ],
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
    """Add documents to the local corpus; unchanged files are skipped, removed files removed."""
    from codeweaver.cli.ingest import IngestPathError

    directory = _resolve_data_dir(data_dir)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeElapsedColumn(),
    )
    try:
        with Progress(*columns, console=err, transient=True) as progress:
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


@app.command()
def serve(
    host: HostOption = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="Port; 0 picks 2024 when free, else any free port.")
    ] = 0,
    jobs: Annotated[
        int,
        typer.Option("--n-jobs-per-worker", "--jobs", min=1, help="Runs executed concurrently."),
    ] = 4,
    config: Annotated[
        Path | None,
        typer.Option("--config", help="langgraph.json (default: the nearest one above here)."),
    ] = None,
    reload: Annotated[
        bool, typer.Option("--reload/--no-reload", help="Restart when the code changes.")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the command instead of running it.")
    ] = False,
    studio: Annotated[
        bool,
        typer.Option(
            "--studio",
            help="Let LangGraph Studio in without a token (loopback only; a laptop you alone use).",
        ),
    ] = False,
) -> None:
    """Run LangGraph Server (`langgraph dev`) with every graph, offline, without a browser."""
    found = config or find_langgraph_config(Path.cwd())
    if found is None or not found.is_file():
        err.print(
            "[red]No langgraph.json found.[/red] Run from the CodeWeaver folder or pass --config."
        )
        raise typer.Exit(code=2)
    if studio and not is_loopback(host):
        err.print(
            f"[red]--studio lets Studio in without a token, so it listens on loopback only[/red] "
            f"(127.0.0.1, ::1 or localhost), not {host}. On a shared host, give Studio the "
            "token instead: see docs/DEPLOYMENT.md."
        )
        raise typer.Exit(code=2)
    from codeweaver.persistence import SERVER_THREADS_FILE
    from codeweaver.server.threads import dev_server_config
    from codeweaver_runtime import default_data_dir

    chosen = port or pick_port(host, 2024)
    # langgraph.json plus the checkpointer that keeps every completed turn through a crash.
    server_config = dev_server_config(found.resolve(), studio=studio)
    command = langgraph_dev_command(
        config=server_config, host=host, port=chosen, jobs=jobs, reload=reload
    )
    if dry_run:
        sys.stdout.write(shlex.join(command) + "\n")
        return
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": os.environ.get("LANGGRAPH_CLI_NO_ANALYTICS", "1"),
    }
    url = f"http://{host}:{chosen}"
    err.print(f"LangGraph Server on [bold]{url}[/bold] · chat page: codeweaver ui --server {url}")
    for line in client_links(url, studio=studio):
        err.print(line, soft_wrap=True)
    err.print(_auth_summary())
    if server_config != found.resolve():
        err.print(
            "Threads: every completed turn is on disk in "
            f"{default_data_dir() / SERVER_THREADS_FILE} before its answer is returned."
        )
    else:
        err.print(f"Threads: kept by the checkpointer {found.name} names.")
    from codeweaver.cli.remote import forget_server, record_server
    from codeweaver.persistence import secure_data_dir

    home = secure_data_dir(default_data_dir())
    # Umask 077: what the server writes (its .langgraph_api/ folder too) is yours alone.
    process = subprocess.Popen(command, env=env, cwd=found.resolve().parent, umask=0o077)
    # `ask` and `chat` on this data directory send their questions here: the store is ours.
    record_server(home, url, process.pid)

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        code = process.wait()
    except (KeyboardInterrupt, SystemExit):
        # Stopped (Ctrl-C, or SIGTERM to this process alone): the server stops with it.
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        code = 0
    finally:
        forget_server(home, process.pid)
        signal.signal(signal.SIGTERM, previous)
    raise typer.Exit(code=code)


def _auth_summary() -> str:
    """How the server about to start authenticates; creates the local token when it is used."""
    from codeweaver.server.auth import (
        KEYS_ENV,
        KeyConfigError,
        configured_keys,
        ensure_local_token,
    )
    from codeweaver.tokens import local_token_path

    try:
        keys = configured_keys()
        if not keys:
            ensure_local_token()
    except (KeyConfigError, OSError) as exc:
        err.print(f"[red]Authentication is misconfigured:[/red] {exc}")
        raise typer.Exit(code=2) from exc
    if keys:
        identities = sorted({key.identity for key in keys})
        return f"Auth: tokens of {len(identities)} identities from {KEYS_ENV} / its file."
    return (
        f"Auth: one local user; clients send the token in {local_token_path()} "
        "(codeweaver ui reads it; `codeweaver token` prints it for Studio or curl)."
    )


def server_url(option: str | None) -> str:
    """The server URL from the option, the environment, or the default."""
    url = option or os.environ.get("CODEWEAVER_SERVER_URL") or DEFAULT_SERVER_URL
    if not url.startswith(("http://", "https://")):
        raise typer.BadParameter(f"{url!r} is not an http(s) URL", param_hint="--server")
    return url.rstrip("/")


@app.command()
def ui(
    server: ServerOption = None,
    assistant: Annotated[
        str,
        typer.Option("--assistant", help="Assistant id, name-derived id, or graph id to ask."),
    ] = "codeweaver",
    host: HostOption = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="Port; 0 picks 7860 when free, else any free port.")
    ] = 0,
) -> None:
    """Open the chat page (Gradio) for a running LangGraph Server."""
    from codeweaver.ui.app import launch
    from codeweaver.ui.session import ChatServer, ServerError

    chat_server = ChatServer(url=server_url(server), assistant=assistant)
    try:
        asyncio.run(chat_server.check())
    except ServerError as exc:
        err.print(f"[yellow]{exc}[/yellow] The page opens anyway and says so until it is up.")
    else:
        try:
            asyncio.run(chat_server.check_token())
        except ServerError as exc:
            err.print(f"[yellow]{exc}[/yellow]")
    launch(chat_server, host=host, port=port or pick_port(host, 7860))


@app.command()
def assistants(server: ServerOption = None) -> None:
    """Create (or update) the example assistants "offline" and "openai" on LangGraph Server."""
    import httpx

    from codeweaver.server.assistants import create_example_assistants
    from codeweaver.ui.session import ChatServer, ServerError, describe_failure

    url = server_url(server)
    try:
        asyncio.run(ChatServer(url=url).check())
    except ServerError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(code=1) from exc
    try:
        created = asyncio.run(create_example_assistants(url))
    except httpx.HTTPError as exc:
        err.print(f"[red]{describe_failure(exc, url)}[/red]")
        raise typer.Exit(code=1) from exc
    table = Table(title=f"Assistants on {url}")
    table.add_column("Name")
    table.add_column("Assistant id")
    table.add_column("Settings")
    for assistant in created:
        settings = ", ".join(f"{k}={v!r}" for k, v in (assistant.get("context") or {}).items())
        table.add_row(str(assistant.get("name")), str(assistant["assistant_id"]), settings)
    out.print(table)
    err.print("[dim]Use one: codeweaver ui --assistant <assistant id>[/dim]")


@app.command()
def token() -> None:
    """Print the local user's server token (created on first use), for Studio, curl or the SDK.

    `codeweaver serve` without CODEWEAVER_API_KEYS accepts only this token; send it as
    `Authorization: Bearer <token>`. It lives in $CODEWEAVER_HOME/server-token.
    """
    from codeweaver.server.auth import KEYS_ENV, KeyConfigError, configured_keys, ensure_local_token

    try:
        if configured_keys():
            err.print(
                f"[yellow]{KEYS_ENV} is set: the server accepts those tokens, not the local "
                "one. Use the token you were given.[/yellow]"
            )
            raise typer.Exit(code=1)
        sys.stdout.write(ensure_local_token() + "\n")
    except (KeyConfigError, OSError) as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(code=2) from exc


@app.command()
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


def main() -> None:
    """Entry point."""
    app()


app.add_typer(eval_app, name="eval")
