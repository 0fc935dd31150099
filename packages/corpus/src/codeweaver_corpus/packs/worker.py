"""Extraction in a worker process, so that a package that explodes cannot take the ingest down.

`extract_in_worker` runs `python -I -m codeweaver_corpus.packs.worker` with CodeWeaver's own
interpreter: the request goes in on standard input, the extraction comes back as JSON on
standard output. The worker limits its own address space (`RLIMIT_AS`, soft limit only, so the
inspecting process it starts may set its own) and the caller kills its whole session after a
time limit. A worker that runs out of memory, crashes, or takes too long is a failure with its
reason (`ExtractionFailed`), for that distribution alone; what it left in its temporary folder
is removed all the same.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
from dataclasses import asdict
from typing import Any

from codeweaver_corpus.packs.extract import Extraction, Request, extract
from codeweaver_engine.packs.units import DocUnit

DEFAULT_WORKER_SECONDS = 300
DEFAULT_WORKER_MEMORY = 3 << 30
"""Address space of the static reader (griffe's trees of the largest packages take ~200 MB)."""
_STDERR_TAIL = 400


class ExtractionFailed(RuntimeError):
    """A distribution's extraction did not finish; the message says why, in one line."""


def extract_in_worker(
    request: Request,
    *,
    seconds: int = DEFAULT_WORKER_SECONDS,
    memory_bytes: int = DEFAULT_WORKER_MEMORY,
) -> Extraction:
    """Extract a distribution in a worker process with a time and a memory limit.

    Raises:
        ExtractionFailed: the worker timed out, ran out of memory, crashed or failed.
    """
    payload = json.dumps({"request": request.as_json(), "memory_bytes": memory_bytes})
    with (
        tempfile.TemporaryDirectory(prefix="codeweaver-extract-") as folder,
        subprocess.Popen(
            [sys.executable, "-I", "-m", "codeweaver_corpus.packs.worker"],
            cwd=folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            # Its temporary files (the inspecting process's request and report) go in `folder`,
            # which is removed here even when the worker is killed.
            env={**os.environ, "TMPDIR": folder},
        ) as process,
    ):
        try:
            out, err = process.communicate(payload.encode(), timeout=seconds)
        except subprocess.TimeoutExpired:
            _kill(process)
            raise ExtractionFailed(f"timed out after {seconds} s") from None
        finally:
            _kill(process)
    if process.returncode != 0:
        raise ExtractionFailed(_why(process.returncode, err.decode(errors="replace")))
    try:
        data = json.loads(out)
    except ValueError as exc:
        raise ExtractionFailed(f"the worker's report is unreadable: {exc}") from None
    if "error" in data:
        raise ExtractionFailed(str(data["error"]))
    return Extraction(
        units=[DocUnit(**unit) for unit in data["units"]],
        failures=list(data["failures"]),
        targets=dict(data["targets"]),
        style=str(data["style"]),
        stats=dict(data["stats"]),
    )


def _kill(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _why(code: int, stderr: str) -> str:
    last = stderr.strip().splitlines()[-1][:_STDERR_TAIL] if stderr.strip() else ""
    if "MemoryError" in stderr:
        return "ran out of memory" + (f" ({last})" if last else "")
    if code < 0:
        return f"crashed (signal {-code})" + (f": {last}" if last else "")
    return f"failed (exit {code})" + (f": {last}" if last else "")


def _limit_memory(limit: int) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def main() -> None:
    """Read a request on standard input, write the extraction on standard output."""
    data: dict[str, Any] = json.load(sys.stdin)
    if data.get("memory_bytes"):
        _limit_memory(int(data["memory_bytes"]))
    request = Request.from_json(data["request"])
    # Whatever a package's code or griffe prints must not mix with the report.
    report = sys.stdout
    sys.stdout = sys.stderr
    try:
        result = extract(request)
        used = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)  # the inspecting process
        result.stats["cpu_seconds"] = round(
            used.ru_utime + used.ru_stime + children.ru_utime + children.ru_stime, 2
        )
    except MemoryError:
        json.dump({"error": "ran out of memory"}, report)
        return
    except RecursionError as exc:
        json.dump({"error": f"static reading recursed too deep: {exc}"}, report)
        return
    json.dump(
        {
            "units": [asdict(unit) for unit in result.units],
            "failures": result.failures,
            "targets": result.targets,
            "style": result.style,
            "stats": result.stats,
        },
        report,
        ensure_ascii=False,
    )


if __name__ == "__main__":
    main()
