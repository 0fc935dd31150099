"""Thread persistence outside LangGraph Server: SQLite by default, Postgres by URI."""

from __future__ import annotations

import asyncio
import inspect
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


@asynccontextmanager
async def open_checkpointer(data_dir: Path) -> AsyncIterator[BaseCheckpointSaver[str]]:
    """A SQLite checkpointer under `data_dir`, closed on exit."""
    import aiosqlite
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    await asyncio.to_thread(data_dir.mkdir, parents=True, exist_ok=True)
    async with aiosqlite.connect(data_dir / "threads.sqlite") as conn:
        saver = AsyncSqliteSaver(conn, serde=schema_serializer())
        await saver.setup()
        yield saver
