"""One turn from the command line: through the running server that holds the data, or here.

`ask` and `chat` both answer this way; what differs is how they show the result.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from rich.markdown import Markdown

from codeweaver.cli.ask import RunReport, run_question
from codeweaver.cli.console import err, out, sources_table
from codeweaver.workflows.progress import progress_label


class ServerTurnFailed(Exception):
    """The running server that holds the data directory could not answer this turn."""


def through_server(
    question: str,
    thread_id: str,
    directory: Path,
    overrides: dict[str, Any],
    *,
    timeout_s: float,
) -> RunReport | None:
    """The turn run by the `codeweaver serve` that holds this data directory, if one runs.

    Its embedded store is locked to it: answering here would miss the user's documents and the
    cache. The server must first prove it is the one `serve` recorded (`running_server`); the
    token is read, and sent with the question, only then. A record that cannot be trusted is
    told, and the turn is answered here.

    Raises:
        ServerTurnFailed: the server was found but failed the turn or ran out of time.
    """
    from codeweaver.cli.remote import ServerTimeout, UntrustedServer, ask_server, running_server
    from codeweaver.tokens import client_headers

    try:
        server = running_server(directory)
    except UntrustedServer as exc:
        err.print(
            f"[yellow]Not asking {exc.url}:[/yellow] {exc.reason}. Neither your token nor your "
            "question was sent there; answering here."
        )
        return None
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
                timeout_s=timeout_s,
            )
        )
    except ServerTimeout as exc:
        raise ServerTurnFailed(
            f"The running server {server.url} gave {exc} (set a longer limit with --timeout)."
        ) from exc
    except Exception as exc:  # any failure of the server is told, not traced
        raise ServerTurnFailed(
            f"The running server {server.url} could not answer: {exc}\n"
            "Its store is locked to it, so this process cannot answer in its place: check the "
            "server's log, or stop it and ask again."
        ) from exc
    return RunReport(**fields)


def ask_with_progress(
    question: str, thread_id: str, directory: Path, overrides: dict[str, Any]
) -> RunReport:
    """The turn answered in this process, with the running step shown on stderr."""
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


def _calls(report: RunReport) -> str:
    if report.model_calls is None:
        return f"answered by {report.server}"
    return f"{report.model_calls} model call(s)"


def print_report(report: RunReport) -> None:
    """The answer as Markdown, its warning, its sources, and how it was reached."""
    out.print(Markdown(report.answer))
    if report.warning:
        err.print(f"[yellow]⚠ {report.warning}[/yellow]")
    if report.citations:
        out.print(sources_table(report.citations))
    hit = " · cache hit" if report.cache_hit else ""
    err.print(
        f"[dim]route {report.route} ({report.routing_reason}){hit} · "
        f"{_calls(report)} · {report.seconds:.1f}s · "
        f"thread {report.thread_id}[/dim]"
    )
