"""`codeweaver ui`: the chat page (Gradio) for a running LangGraph Server."""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer

from codeweaver.cli.console import err, server_url
from codeweaver.cli.options import HostOption, ServerOption
from codeweaver.cli.serve import pick_port


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
