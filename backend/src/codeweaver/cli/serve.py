"""How `codeweaver serve` starts LangGraph Server, and where clients connect to it.

Kept apart from the commands so that `codeweaver bench --cli` finds the config and a port the
way `serve` does without importing the command line.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from pathlib import Path


def find_langgraph_config(start: Path) -> Path | None:
    """The nearest langgraph.json in `start` or a folder above it."""
    for folder in (start, *start.parents):
        candidate = folder / "langgraph.json"
        if candidate.is_file():
            return candidate
    return None


def pick_port(host: str, preferred: int) -> int:
    """`preferred` when it is free on `host`, else a free port the system picks."""
    for port in (preferred, 0):
        with socket.socket() as probe:
            try:
                probe.bind((host, port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise OSError(f"no free port on {host}")


def langgraph_dev_command(
    *, config: Path, host: str, port: int, jobs: int, reload: bool, watch: Path | None = None
) -> list[str]:
    """The `langgraph dev` command line `serve` runs.

    With `reload`, the reloader watches `watch` (the project), not the working folder: the
    command goes through `codeweaver.server.reloading`.
    """
    executable = Path(sys.executable).with_name("langgraph")
    if reload and watch is not None:
        launcher = [sys.executable, "-m", "codeweaver.server.reloading", str(watch)]
    else:
        launcher = [str(executable) if executable.exists() else "langgraph"]
    command = [
        *launcher,
        "dev",
        "--config",
        str(config),
        "--host",
        host,
        "--port",
        str(port),
        "--n-jobs-per-worker",
        str(jobs),
        "--no-browser",
    ]
    if not reload:
        command.append("--no-reload")
    return command


STUDIO_URL = "https://smith.langchain.com/studio/?baseUrl={url}"
AGENT_CHAT_UI_URL = "https://agentchat.vercel.app/?apiUrl={url}&assistantId=codeweaver"


def is_loopback(host: str) -> bool:
    """Whether `host` is an address only this machine reaches."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def client_links(url: str, *, studio: bool) -> list[str]:
    """Where standard clients connect to the server at `url`, and where their token goes."""
    token_field = (
        'paste the output of `codeweaver token` into its "LangSmith API Key" field '
        "(sent as X-Api-Key)"
    )
    studio_line = (
        f"Studio (no token on this machine, --studio): {STUDIO_URL.format(url=url)}"
        if studio
        else f"Studio: {STUDIO_URL.format(url=url)} · {token_field}, "
        "or restart with --studio on a laptop"
    )
    return [
        studio_line,
        f"agent-chat-ui: {AGENT_CHAT_UI_URL.format(url=url)} · {token_field}",
        f"MCP (coding agents): {url}/mcp · tools ask, search_docs, list_libraries · header "
        "Authorization: Bearer <codeweaver token> (or run `codeweaver mcp` over stdio)",
    ]
