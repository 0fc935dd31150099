"""How soon `codeweaver mcp` answers an agent: time to `initialize`, `tools/list`, first answer.

    uv run python benchmarks/mcp_startup.py --runs 5
    uv run python benchmarks/mcp_startup.py --runs 5 --command /tmp/venv-plain/bin/codeweaver

Each run starts a new `codeweaver mcp` with a new, empty data directory (no cached answer) and
speaks raw JSON-RPC on its pipes, as an agent does: `initialize`, `notifications/initialized`,
`tools/list`, then `ask` at once, then a second `ask`. The clock starts when the process is
spawned. Figures are min / median / max over the runs, in seconds; quote the median. The CPU
seconds of each whole run (the operating system's account of the finished child) move less than
wall time on a busy machine.

Bytecode: the command's own virtualenv decides. `uv sync --compile-bytecode` compiles the
installed packages; without it (and with PYTHONDONTWRITEBYTECODE=1) every start compiles them
again. Point `--command` at a virtualenv of each kind to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

QUESTIONS = ("How do I reverse a list in Python?", "How do I get the size of a file?")
STEPS = ("initialize", "tools/list", "first answer", "second answer")
REPORTED = (*STEPS, "cpu (whole run)")


def _send(stdin: IO[bytes], message: dict[str, Any]) -> None:
    stdin.write(json.dumps(message).encode() + b"\n")
    stdin.flush()


def _reply(stdout: IO[bytes], request_id: int) -> dict[str, Any]:
    while True:
        line = stdout.readline()
        if not line:
            raise RuntimeError("codeweaver mcp closed its output")
        message: dict[str, Any] = json.loads(line)
        if message.get("id") == request_id:
            if "error" in message:
                raise RuntimeError(f"request {request_id} failed: {message['error']}")
            return message


def one_run(command: list[str], home: Path) -> dict[str, float]:
    """Seconds from spawn to each step's reply."""
    env = {**os.environ, "CODEWEAVER_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.Popen(
        [*command, "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    times: dict[str, float] = {}
    try:
        _send(
            proc.stdin,
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "mcp_startup", "version": "1"},
                },
            },
        )
        _reply(proc.stdout, 1)
        times["initialize"] = time.perf_counter() - started
        _send(proc.stdin, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _send(proc.stdin, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        tools = _reply(proc.stdout, 2)["result"]["tools"]
        times["tools/list"] = time.perf_counter() - started
        assert [tool["name"] for tool in tools] == ["ask", "search_docs", "list_libraries"]
        for n, (step, question) in enumerate(zip(STEPS[2:], QUESTIONS, strict=True), start=3):
            call = {"name": "ask", "arguments": {"question": question}}
            _send(proc.stdin, {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": call})
            result = _reply(proc.stdout, n)["result"]
            assert not result.get("isError"), result
            times[step] = time.perf_counter() - started
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    times["cpu (whole run)"] = (after.ru_utime + after.ru_stime) - (
        before.ru_utime + before.ru_stime
    )
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--command",
        default=str(Path(sys.executable).with_name("codeweaver")),
        help="The codeweaver executable (default: this virtualenv's).",
    )
    args = parser.parse_args()
    runs: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="mcp-startup-") as tmp:
        for n in range(args.runs):
            runs.append(one_run([args.command], Path(tmp) / f"home-{n}"))
    print(f"codeweaver mcp start-up, {args.runs} runs ({args.command}); seconds from spawn,")
    print("and the CPU seconds of the whole run (user + system, spawn to exit)")
    print(f"{'reply to':<16}{'min':>8}{'median':>8}{'max':>8}")
    for step in REPORTED:
        values = [run[step] for run in runs]
        print(f"{step:<16}{min(values):>8.2f}{statistics.median(values):>8.2f}{max(values):>8.2f}")


if __name__ == "__main__":
    main()
