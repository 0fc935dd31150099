"""Thread persistence outside LangGraph Server: SQLite by default, Postgres by URI."""

from __future__ import annotations

import asyncio
import inspect
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from pydantic import BaseModel

import codeweaver_schema.models as schema_models


def schema_serializer() -> JsonPlusSerializer:
    """A serializer that revives exactly the schema's models from checkpoints, nothing else."""
    allowed = [
        (obj.__module__, obj.__name__)
        for obj in vars(schema_models).values()
        if inspect.isclass(obj)
        and issubclass(obj, BaseModel)
        and obj.__module__ == schema_models.__name__
    ]
    return JsonPlusSerializer(allowed_msgpack_modules=allowed)


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

    await asyncio.to_thread(data_dir.mkdir, parents=True, exist_ok=True)
    async with aiosqlite.connect(data_dir / "threads.sqlite") as conn:
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
