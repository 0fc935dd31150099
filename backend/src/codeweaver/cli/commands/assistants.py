"""`codeweaver assistants`: the example assistants on a running LangGraph Server."""

from __future__ import annotations

import asyncio

import typer
from rich.table import Table

from codeweaver.cli.console import err, out, server_url
from codeweaver.cli.options import ServerOption


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
