"""`codeweaver serve`: LangGraph Server (`langgraph dev`) with every graph, offline."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from codeweaver.cli.console import err
from codeweaver.cli.options import HostOption
from codeweaver.cli.serve import (
    client_links,
    find_langgraph_config,
    is_loopback,
    langgraph_dev_command,
    pick_port,
)


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
    from codeweaver.persistence import SERVER_THREADS_FILE, server_dir
    from codeweaver.server.threads import dev_server_config
    from codeweaver_runtime import default_data_dir

    chosen = port or pick_port(host, 2024)
    project = found.resolve().parent
    # langgraph.json plus the checkpointer that keeps every completed turn through a crash.
    server_config = dev_server_config(found.resolve(), studio=studio)
    command = langgraph_dev_command(
        config=server_config, host=host, port=chosen, jobs=jobs, reload=reload, watch=project
    )
    # The server keeps its own records in `.langgraph_api/` of its working folder: this data
    # directory's, never the project's (which two data directories would share).
    workdir = server_dir(default_data_dir())
    if dry_run:
        sys.stdout.write(f"cd {shlex.quote(str(workdir))} && {shlex.join(command)}\n")
        return
    from codeweaver.cli.remote import forget_server, loopback_url, new_secret, record_server
    from codeweaver.persistence import secure_data_dir
    from codeweaver.tokens import IDENTITY_SECRET_ENV

    # The server proves it is this one to `ask` and `chat` with a secret only they can read.
    secret = new_secret()
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": os.environ.get("LANGGRAPH_CLI_NO_ANALYTICS", "1"),
        IDENTITY_SECRET_ENV: secret,
    }
    url = f"http://{host}:{chosen}"
    err.print(f"LangGraph Server on [bold]{url}[/bold] · chat page: codeweaver ui --server {url}")
    for line in client_links(url, studio=studio):
        err.print(line, soft_wrap=True)
    err.print(auth_summary())
    if server_config != found.resolve():
        err.print(
            "Threads: every completed turn is on disk in "
            f"{default_data_dir() / SERVER_THREADS_FILE} before its answer is returned."
        )
    else:
        err.print(f"Threads: kept by the checkpointer {found.name} names.")
    home = secure_data_dir(default_data_dir())
    err.print(f"Server records: {workdir / '.langgraph_api'}")
    try:
        local_url: str | None = loopback_url(host, chosen)
    except ValueError:
        local_url = None
        err.print(
            f"`codeweaver ask` and `chat` here answer only through a loopback address; {host} is "
            "not one, so they will not use this server (and find its store locked)."
        )
    # Umask 077: what the server writes (its .langgraph_api/ folder too) is yours alone.
    process = subprocess.Popen(command, env=env, cwd=workdir, umask=0o077)
    # `ask` and `chat` on this data directory send their questions here: the store is ours.
    if local_url is not None:
        record_server(home, local_url, process.pid, secret)

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


def auth_summary() -> str:
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
