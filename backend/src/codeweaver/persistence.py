"""Thread persistence outside LangGraph Server, and the data directory's files.

Threads are checkpointed in SQLite by default and in Postgres by URI. The data directory holds
them, the server's threads, the token, the manifest and embedded Qdrant, all private to their
owner.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver

from codeweaver.tokens import LOCAL_TOKEN_FILE
from codeweaver_runtime import private_dir, private_file, tighten
from codeweaver_schema.serde import RegisteredSerializer, schema_types
from codeweaver_schema.serde import schema_serializer as _schema_serializer

THREADS_FILE = "threads.sqlite"
"""The CLI's conversations (`codeweaver ask` and `chat`)."""
SERVER_THREADS_FILE = "server-threads.sqlite"
"""The development server's checkpoints and journal (`codeweaver.server.threads`)."""
DEV_CONFIG_FILE = "langgraph-dev.json"
"""The config `codeweaver serve` gives `langgraph dev`: langgraph.json plus the checkpointer."""
SERVER_FOLDER = "server"
"""The working folder `codeweaver serve` runs `langgraph dev` in: the server writes its own
records (runs, threads, assistants, the store, retry counters) to `.langgraph_api/` there."""
QDRANT_FOLDER = "qdrant"
"""Embedded Qdrant's default folder: the corpus and the answer cache."""
MANIFEST = "ingested.json"
"""Which files each tenant ingested (`codeweaver ingest`, `codeweaver.cli.ingest.Manifest`)."""


def secure_data_dir(data_dir: Path) -> Path:
    """Make the data directory its owner's alone: the folder 0700, CodeWeaver's files in it 0600.

    Run when a command or the server starts, this also tightens what earlier versions created
    with the default 0755 and 0644. Only CodeWeaver's own entries are touched, so a data
    directory set to a folder holding other things leaves those things as they were.

    Returns:
        The data directory.
    """
    ours = (THREADS_FILE, SERVER_THREADS_FILE, DEV_CONFIG_FILE, LOCAL_TOKEN_FILE, MANIFEST)
    private_dir(data_dir)
    entries = [
        entry.name
        for entry in data_dir.iterdir()
        if entry.name in (QDRANT_FOLDER, SERVER_FOLDER)
        or any(entry.name == name or entry.name.startswith(f"{name}-") for name in ours)
        or entry.name == Path(MANIFEST).with_suffix(".tmp").name
    ]
    tighten(data_dir, entries)
    return data_dir


def server_dir(data_dir: Path) -> Path:
    """The development server's working folder in the data directory, created private.

    `langgraph dev` keeps its own records in `.langgraph_api/` of its working folder; run from
    the project folder, two servers on two data directories shared them, and deleting a data
    directory left its threads behind.
    """
    return private_dir(secure_data_dir(data_dir) / SERVER_FOLDER)


def checkpoint_types() -> list[tuple[str, str]]:
    """(module, name) of every model that lands in a checkpoint of CodeWeaver's graphs.

    The schema's models, and the cache lookup subgraph's pending hit (its own state).
    `langgraph.json` lists the same, for a deployment's checkpointer.
    """
    from codeweaver_cache.verifier import PendingHit

    return sorted([*schema_types(), (PendingHit.__module__, PendingHit.__name__)])


def schema_serializer() -> RegisteredSerializer:
    """The checkpoint serializer: every model in `checkpoint_types()` registered, nothing else."""
    from codeweaver_cache.verifier import PendingHit

    return _schema_serializer(extra=[PendingHit])


POSTGRES_URI_ENV = "CODEWEAVER_POSTGRES_URI"

# Databases whose checkpoint tables this process has already created or migrated.
_set_up: set[str] = set()


@asynccontextmanager
async def open_checkpointer(
    data_dir: Path, *, postgres_uri: str | None = None
) -> AsyncIterator[BaseCheckpointSaver[str]]:
    """A checkpointer, closed on exit: Postgres by URI, else SQLite under `data_dir`.

    The URI is `postgres_uri` or, when not given, `CODEWEAVER_POSTGRES_URI` from the environment.
    """
    uri = postgres_uri or os.environ.get(POSTGRES_URI_ENV, "").strip()
    if uri:
        async with _open_postgres(uri) as saver:
            yield saver
        return
    import aiosqlite
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    database = await asyncio.to_thread(private_file, data_dir / THREADS_FILE)
    async with aiosqlite.connect(database) as conn:
        saver = AsyncSqliteSaver(conn, serde=schema_serializer())
        await saver.setup()
        yield saver


@asynccontextmanager
async def _open_postgres(uri: str) -> AsyncIterator[BaseCheckpointSaver[str]]:
    """A Postgres checkpointer on one connection; tables set up once per process and database."""
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    async with AsyncPostgresSaver.from_conn_string(uri, serde=schema_serializer()) as saver:
        if uri not in _set_up:
            await saver.setup()
            _set_up.add(uri)
        yield saver
