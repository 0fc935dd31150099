"""The `codeweaver` command line: one module per command under `codeweaver.cli.commands`.

Each command module imports only what its command needs at the top, and the rest when it runs,
so that `codeweaver ask` through a running server loads neither the graph, the store nor the
embedding stack.
"""

from __future__ import annotations

import typer

from codeweaver.cli.commands.ask import ask
from codeweaver.cli.commands.assistants import assistants
from codeweaver.cli.commands.bench import bench
from codeweaver.cli.commands.chat import chat
from codeweaver.cli.commands.eval import eval_app
from codeweaver.cli.commands.ingest import ingest
from codeweaver.cli.commands.mcp import mcp
from codeweaver.cli.commands.packs import packs
from codeweaver.cli.commands.serve import serve
from codeweaver.cli.commands.token import token
from codeweaver.cli.commands.ui import ui

app = typer.Typer(
    help="CodeWeaver answers programming questions with cited, grounded answers.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _group() -> None:
    """CodeWeaver answers programming questions with cited, grounded answers."""


for command in (ask, chat, ingest, packs, serve, mcp, ui, assistants, token, bench):
    app.command()(command)
app.add_typer(eval_app, name="eval")


def main() -> None:
    """Entry point."""
    app()
