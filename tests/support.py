"""Helpers of the cross-package and end-to-end tests: a LangGraph Server on a free port."""

from __future__ import annotations

import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from langgraph_sdk.client import LangGraphClient

REPO = Path(__file__).resolve().parents[1]
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def screenshot_path(name: str, tmp_path: Path) -> Path:
    """Where a browser test saves its picture of the page.

    In the test's own folder, so that running the suite leaves the checkout as it was; in
    `docs/` (the README's images) when `CODEWEAVER_UPDATE_SCREENSHOTS=1`.
    """
    if os.environ.get("CODEWEAVER_UPDATE_SCREENSHOTS") == "1":
        return REPO / "docs" / name
    return tmp_path / name


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(handler: Callable[..., http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """`handler` behind an HTTP server on a free loopback port, in a thread; yields its URL."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@dataclass
class Server:
    """A running `langgraph dev`."""

    url: str
    log: Path
    home: Path
    headers: dict[str, str] = field(default_factory=dict)
    """What every request of a test client carries: the first identity's bearer token."""
    tokens: dict[str, str] = field(default_factory=dict)
    """The token of each identity the server accepts."""

    def headers_of(self, identity: str) -> dict[str, str]:
        """The headers of a client acting as `identity`."""
        return {"Authorization": f"Bearer {self.tokens[identity]}"}


def client(server: Server, identity: str | None = None) -> LangGraphClient:
    """An SDK client of `server`, carrying its headers; use it as `async with client(s) as sdk`.

    Args:
        server: The server.
        identity: Act as this identity (one of `server.tokens`); default `server.headers`.
    """
    from langgraph_sdk import get_client

    headers = server.headers if identity is None else server.headers_of(identity)
    # An ambient LangSmith key would travel as x-api-key; the tests send only their token.
    return get_client(url=server.url, headers=headers, api_key=None)


def _read_url(log: Path, requested: int) -> str | None:
    raw = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    text = _ANSI.sub("", raw)
    # The server may move off a taken port silently: trust what it printed, not what we asked.
    found = re.findall(r"API: (http://127\.0\.0\.1:\d+)", text)
    if found and "Application started up" in text:
        return str(found[-1])
    return None


def start_server(
    tmp: Path,
    *,
    jobs: int = 4,
    extra_env: dict[str, str] | None = None,
    keys: dict[str, str] | None = None,
    studio: bool = False,
    graphs: dict[str, str] | None = None,
    serve_from: Path | None = None,
) -> tuple[subprocess.Popen[bytes], Server]:
    """Start `langgraph dev` as `codeweaver serve` does, on a free port, outside the project.

    Args:
        tmp: The folder of the server's data (`tmp/home`, its records in
            `tmp/home/server/.langgraph_api/`) and log.
        jobs: Runs executed concurrently.
        extra_env: Environment variables of the server, over the defaults.
        keys: Identity -> token for `CODEWEAVER_API_KEYS`; without, the server serves its
            local user, whose token it keeps in `tmp/home/server-token` (reused on a restart
            in the same folder).
        studio: Let Studio in without a token, as `codeweaver serve --studio` does.
        graphs: Graph id -> `module:attribute` served instead of (or besides) the project's;
            the repository goes on the server's `PYTHONPATH`, so a test module can be named.
        serve_from: Run `codeweaver serve` itself from this folder, with the `langgraph.json`
            in it (`write_project`), as a user would; default: `langgraph dev` as it runs it.
    """
    from codeweaver.persistence import server_dir
    from codeweaver.server.auth import KEYS_ENV, KEYS_FILE_ENV, LOCAL_IDENTITY, ensure_local_token
    from codeweaver.server.threads import dev_server_config

    home = tmp / "home"
    log = tmp / "server.log"
    port = free_port()
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
        "CODEWEAVER_HOME": str(home),
        "CODEWEAVER_CHAT_MODEL": "offline",
        "HF_HUB_OFFLINE": "1",
        # Checkpoints revive only registered types (codeweaver.persistence.schema_serializer):
        # what a later LangGraph will do by default, so threads are proven to load under it.
        "LANGGRAPH_STRICT_MSGPACK": "true",
        **(extra_env or {}),
    }
    for key in (
        "OPENAI_API_KEY",
        "GOOGLE_API_KEY",
        "GITHUB_TOKEN",
        "TAVILY_API_KEY",
        "STACKEXCHANGE_KEY",
        KEYS_ENV,
        KEYS_FILE_ENV,
    ):
        env.pop(key, None)
    if keys:
        env[KEYS_ENV] = ",".join(f"{identity}:{token}" for identity, token in keys.items())
        tokens = dict(keys)
    else:
        tokens = {LOCAL_IDENTITY: ensure_local_token(home)}
    first = next(iter(tokens.values()))
    config = REPO / "langgraph.json"
    if graphs:
        project = json.loads(config.read_text(encoding="utf-8"))
        project["graphs"] = {**project["graphs"], **graphs}
        project["source"]["root"] = str(REPO)
        config = tmp / "langgraph.json"
        config.write_text(json.dumps(project), encoding="utf-8")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    if serve_from is not None:
        codeweaver = shutil.which("codeweaver", path=str(REPO / ".venv" / "bin")) or "codeweaver"
        command = [codeweaver, "serve", "--config", str(serve_from / "langgraph.json")]
        command += ["--port", str(port), "--n-jobs-per-worker", str(jobs)]
        command += ["--studio"] if studio else []
        cwd = serve_from
    else:
        langgraph = shutil.which("langgraph", path=str(REPO / ".venv" / "bin")) or "langgraph"
        command = [langgraph, "dev", "--host", "127.0.0.1", "--port", str(port), "--no-browser"]
        command += ["--no-reload", "--n-jobs-per-worker", str(jobs), "--config"]
        # As `codeweaver serve` runs it: with the checkpointer that survives a crash, in the
        # data directory's server folder (where it keeps its own records).
        command.append(str(dev_server_config(config, home, studio=studio)))
        cwd = server_dir(home)
    # The child keeps its own copy of the file descriptor; ours is closed straight away.
    with log.open("wb") as handle:
        proc = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            umask=0o077,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                f"langgraph dev exited early:\n{log.read_text(errors='replace')[-4000:]}"
            )
        url = _read_url(log, port)
        if url:
            try:
                if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                    server = Server(
                        url=url,
                        log=log,
                        home=home,
                        headers={"Authorization": f"Bearer {first}"},
                        tokens=tokens,
                    )
                    return proc, server
            except httpx.HTTPError:
                pass
        time.sleep(0.5)
    proc.kill()
    raise RuntimeError(f"langgraph dev did not start:\n{log.read_text(errors='replace')[-4000:]}")


def write_project(folder: Path) -> Path:
    """A project folder of its own: the repository's `langgraph.json`, its code where it is."""
    project = json.loads((REPO / "langgraph.json").read_text(encoding="utf-8"))
    project["source"]["root"] = str(REPO)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "langgraph.json").write_text(json.dumps(project), encoding="utf-8")
    return folder


def kill_server(proc: subprocess.Popen[bytes]) -> None:
    """Kill the server and everything it started at once (SIGKILL): a crash, no clean-up."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    proc.wait(timeout=20)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server and everything it started."""
    try:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(proc.pid, 9)


def readme_mcp_entries() -> list[dict[str, Any]]:
    """The MCP server entries of the README's set-up lines for coding agents, one per JSON block.

    Each is `{"client": "...", "name": ..., "entry": {...}}` with the entry as the client's file
    holds it (`mcpServers` or VS Code's `servers`), so tests can run exactly what it says.
    """
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Coding agents:", 1)[1].split("\n## ", 1)[0]
    found: list[dict[str, Any]] = []
    client = ""
    for part in re.split(r"(\*\*[^*]+\*\*|```json\n.*?\n```)", section, flags=re.DOTALL):
        if part.startswith("**"):
            client = part.strip("*")
        elif part.startswith("```json"):
            config = json.loads(part.removeprefix("```json\n").removesuffix("\n```"))
            servers = config.get("mcpServers") or config.get("servers")
            for name, entry in servers.items():
                found.append({"client": client, "name": name, "entry": entry})
    return found
