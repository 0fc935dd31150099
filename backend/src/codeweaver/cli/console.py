"""What every command shares: the consoles, the data directory, models named on the command line.

Kept free of heavy imports: every command module imports it, and `codeweaver ask` through a
running server must not load the graph, the store or the embedding stack.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from codeweaver.cli.options import DEFAULT_SERVER_URL

err = Console(stderr=True)
out = Console()


def model_overrides(
    model: str | None, planner: str | None, judge: str | None, answer: str | None
) -> dict[str, Any]:
    """Run-context fields for the models named on the command line (the operator's own).

    Raises:
        typer.BadParameter: a name is not `provider:model[@URL]` or `offline`.
    """
    named = {"chat_model": model, "planner_model": planner, "judge_model": judge}
    named["answer_model"] = answer
    overrides: dict[str, Any] = {field: name for field, name in named.items() if name}
    if not overrides:
        return overrides
    from codeweaver.context import Context
    from codeweaver_runtime import ContextError

    try:
        Context(**overrides)
    except ContextError as exc:
        raise typer.BadParameter(str(exc).removeprefix("run context: ")) from None
    return overrides


def data_dir_path(data_dir: Path | None) -> Path:
    """The data directory; one given on the command line becomes this process's setting.

    The CLI is the operator of its own process: the graphs read where data lives from the
    operator's environment (`codeweaver_runtime.infrastructure`), never from the run context.
    """
    from codeweaver_runtime import default_data_dir

    if data_dir is None:
        return default_data_dir()
    directory = data_dir.expanduser().resolve()
    os.environ["CODEWEAVER_HOME"] = str(directory)
    return directory


def resolve_data_dir(data_dir: Path | None) -> Path:
    """The data directory (`data_dir_path`), made private to its owner.

    See `codeweaver.persistence.secure_data_dir`.
    """
    from codeweaver.persistence import secure_data_dir

    return secure_data_dir(data_dir_path(data_dir))


def sources_table(citations: list[dict[str, Any]]) -> Table:
    """The citations of an answer as a table: number, title, source and where."""
    table = Table(title="Sources", show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("Title")
    table.add_column("Source")
    table.add_column("Where")
    for c in citations:
        table.add_row(str(c["n"]), c["title"], c["source"], c["url"] or c["file"] or "")
    return table


def server_url(option: str | None) -> str:
    """The server URL from the option, the environment, or the default."""
    url = option or os.environ.get("CODEWEAVER_SERVER_URL") or DEFAULT_SERVER_URL
    if not url.startswith(("http://", "https://")):
        raise typer.BadParameter(f"{url!r} is not an http(s) URL", param_hint="--server")
    return url.rstrip("/")


def terminal_text(text: str) -> str:
    """Text from the command line or standard input, with bytes that were not UTF-8 as U+FFFD.

    Python hands such bytes over as lone surrogates (`surrogateescape`), which no UTF-8 encoder
    (JSON to a server, SQLite) accepts; each becomes the replacement character instead, the
    same for the server and for this process.
    """
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def read_question(argument: str | None, file: Path | None) -> str:
    """The question: the argument, standard input when it is `-`, or the file given.

    Raises:
        typer.BadParameter: both or neither were given, or the file cannot be read.
    """
    if (argument is None) == (file is None):
        raise typer.BadParameter(
            "give the question as an argument, `-` to read it from standard input, "
            "or --file PATH (one of them)"
        )
    if file is not None:
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise typer.BadParameter(
                f"{file}: {exc.strerror or exc}", param_hint="--file"
            ) from None
        return raw.decode("utf-8", "replace")
    if argument == "-":
        return sys.stdin.buffer.read().decode("utf-8", "replace")
    return terminal_text(argument or "")


NO_SPACE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
LOW_SPACE_BYTES = 16 * 1024 * 1024
"""Below this much free space, a storage I/O error that names no cause is taken for a full disk."""


def free_bytes(folder: Path) -> int:
    """Bytes this user may still write on `folder`'s file system."""
    return shutil.disk_usage(folder).free


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """`exc`, what it was raised from or during, and the members of exception groups."""
    seen: set[int] = set()
    pending = [exc]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        pending.extend(e for e in (current.__cause__, current.__context__) if e is not None)
        if isinstance(current, BaseExceptionGroup):
            pending.extend(current.exceptions)


def out_of_space(
    exc: BaseException, folder: Path, *, free: Callable[[Path], int] = free_bytes
) -> Path | None:
    """Where a write found no space, when that is what `exc` (or what led to it) is; else None.

    An `OSError` with ENOSPC or EDQUOT names its file (its folder is returned). SQLite, which
    keeps the threads and embedded Qdrant's collections, says "database or disk is full", or
    "disk I/O error" when it could not grow a file: that one counts only when `folder`'s disk
    has less than `LOW_SPACE_BYTES` free (`free` measures it).
    """
    for cause in _causes(exc):
        if isinstance(cause, OSError) and cause.errno in NO_SPACE_ERRNOS:
            return Path(cause.filename).parent if cause.filename else folder
        if isinstance(cause, sqlite3.OperationalError):
            message = str(cause).lower()
            if "database or disk is full" in message:
                return folder
            if "disk i/o error" in message and _low_on_space(folder, free):
                return folder
    return None


def _low_on_space(folder: Path, free: Callable[[Path], int]) -> bool:
    existing = next((p for p in (folder, *folder.parents) if p.exists()), None)
    try:
        return existing is not None and free(existing) < LOW_SPACE_BYTES
    except OSError:
        return False


@contextmanager
def full_disk_in_one_line(
    folder: Path, *, free: Callable[[Path], int] = free_bytes
) -> Iterator[None]:
    """Turn a write that found no space into one line naming where, and exit code 1.

    Anything else propagates as it was.
    """
    try:
        yield
    except Exception as exc:
        where = out_of_space(exc, folder, free=free)
        if where is None:
            raise
        err.print(
            f"No space left on the disk of {where}: free some space there, or set "
            "CODEWEAVER_HOME to a folder on another disk, and run the command again.",
            style="red",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(code=1) from None
