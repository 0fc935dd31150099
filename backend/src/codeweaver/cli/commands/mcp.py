"""`codeweaver mcp`: CodeWeaver's tools for a coding agent, over stdio (MCP).

An agent (Claude Code, Cursor, VS Code, any MCP client) starts this command and talks MCP on
its standard input and output; logs go to standard error. Start-up imports only the MCP types
and the tool definitions, so `initialize` and `tools/list` answer at once; the graphs, the
documentation and the embedding model load in the background after the handshake.

Offline by default: the built-in engine (no language model) and the local documentation (no
web search), whatever provider keys the environment holds. `--model` (or the operator's
`CODEWEAVER_CHAT_MODEL`) and `--web` opt in.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from codeweaver.cli.console import data_dir_path, model_overrides
from codeweaver.cli.options import DataDirOption, ModelOption

if TYPE_CHECKING:
    from langgraph.graph.state import CompiledStateGraph

    from codeweaver.cli.remote import RunningServer
    from codeweaver.context import Context


def mcp(
    data_dir: DataDirOption = None,
    model: ModelOption = None,
    web: Annotated[
        bool,
        typer.Option(
            "--web",
            help="Also search Stack Overflow, GitHub code and official docs (those with "
            "keys set); default: the local documentation only.",
        ),
    ] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", help="Log each request on standard error.")
    ] = False,
) -> None:
    """Serve ask, search_docs and list_libraries to a coding agent over stdio (MCP)."""
    # A provider key in the environment is no consent to send an agent's questions there:
    # only a model named here or by CODEWEAVER_CHAT_MODEL is used.
    named = model or os.environ.get("CODEWEAVER_CHAT_MODEL", "").strip()
    overrides: dict[str, Any] = (
        model_overrides(named, None, None, None) if named else {"chat_model": "offline"}
    )
    if not web:
        overrides["search_sources"] = ["local"]
    directory = data_dir_path(data_dir)
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.INFO if verbose else logging.WARNING,
        format="codeweaver mcp: %(levelname)s %(name)s: %(message)s",
    )

    import asyncio
    from dataclasses import replace

    from codeweaver.tools.service import LocalTools
    from codeweaver.tools.stdio import StdioTools, protocol_output, serve

    def context() -> Context:
        from codeweaver.context import Context

        return replace(Context(), **overrides)

    def build_graph() -> CompiledStateGraph[Any, Any, Any, Any]:
        from codeweaver.cli.ask import start_up
        from codeweaver.tools.service import build_local_ask_graph

        # As `ask` does: the collector paused while a million long-lived objects are made.
        with start_up():
            return build_local_ask_graph()

    async def ask_graph() -> CompiledStateGraph[Any, Any, Any, Any]:
        return await asyncio.to_thread(build_graph)

    def prepare() -> None:
        from codeweaver.persistence import secure_data_dir

        secure_data_dir(directory)

    async def release_store() -> None:
        from codeweaver_runtime import release_embedded_stores

        await release_embedded_stores()

    def find_server() -> RunningServer | None:
        from codeweaver.cli.remote import running_server

        return running_server(directory)

    def headers() -> dict[str, str]:
        from codeweaver.tokens import client_headers

        return client_headers()

    local = LocalTools(
        context=context, ask_graph=ask_graph, prepare=prepare, after_call=release_store
    )
    tools = StdioTools(local, find_server=find_server, headers=headers)
    stdout = protocol_output()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(tools, sys.stdin.buffer, stdout, warm_up=tools.warm_up))
