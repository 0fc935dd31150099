"""Crash-safe threads for `langgraph dev`, the server `codeweaver serve` runs.

LangGraph's development server keeps threads, runs and checkpoints in memory and writes them to
`.langgraph_api/` every ten seconds. A crash (SIGKILL, out of memory, a power cut) loses what
changed since, whole threads included, and can leave a finished run recorded as running, which
the restarted server runs again: the question is asked and answered twice. So `codeweaver serve`
gives the server a checkpointer of CodeWeaver's (LangGraph's custom checkpointer, named in the
config `dev_server_config` derives from `langgraph.json`):

- `DurableSqliteSaver` commits every checkpoint to `$CODEWEAVER_HOME/server-threads.sqlite`
  before the run goes on. Before the first checkpoint of each run it also commits the server's
  records of the run and its thread (the journal), so no checkpoint is ever on disk without
  the records that make it reachable.
- `StoreJournal` journals the threads and runs a request created or changed before the request
  is answered (`JournalWrites`, a middleware of the server's HTTP app, `codeweaver.server.app`):
  a thread created and not yet run, and a run waiting in the queue, survive a crash too.
- `reconcile` runs when the server starts, before its queue takes any run. It restores the
  threads and runs the last flush missed, marks a run whose turn had completed as succeeded,
  and rolls back the checkpoints of a run the crash cut short, which the server then runs again
  from the last completed turn.

The server reads a thread's state and history from the checkpointer, and the thread itself
(metadata, status, values) and its runs from its own store, which `reconcile` corrects.
Production is not concerned: `langgraph.json` names no checkpointer path (only the serde
allow-list of the schema's types), so the image keeps the server's own on Postgres.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import os
import pickle
from collections.abc import AsyncIterator, Callable, Iterable, MutableMapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, cast

import aiosqlite
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    get_checkpoint_metadata,
)
from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.pregel import Pregel
from langgraph.types import StateSnapshot

from codeweaver.persistence import (
    DEV_CONFIG_FILE,
    SERVER_THREADS_FILE,
    schema_serializer,
    secure_data_dir,
)
from codeweaver.server.guards import LOOPBACK_HOSTS_ENV, ASGIApp, Message, Receive, Scope, Send
from codeweaver_runtime import default_data_dir, private_file, tighten

logger = logging.getLogger(__name__)

# Dotted, not `module:name`: this server version imports a non-file path by its last dot.
CHECKPOINTER_PATH = "codeweaver.server.threads.checkpointer"
"""What `checkpointer.path` names in the development server's config."""
HTTP_APP_PATH = "codeweaver.server.app:app"
"""What `http.app` names in the development server's config (its middleware)."""
FLUSH_SECONDS = 10
"""How often the development server writes its own records (threads, runs) to disk."""

RecordKind = Literal["thread", "run"]
_UNFINISHED = ("pending", "running")
_RUN_ID = "json_extract(CAST(metadata AS TEXT), '$.run_id')"
_GRAPH_ID = "json_extract(CAST(metadata AS TEXT), '$.graph_id')"
_JOURNAL_TABLE = """
CREATE TABLE IF NOT EXISTS server_records (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    record BLOB NOT NULL,
    PRIMARY KEY (kind, id)
)
"""


@dataclass(frozen=True)
class ServerRecord:
    """The server's record of a thread or a run, as its store holds it."""

    kind: RecordKind
    id: str
    thread_id: str
    record: dict[str, Any]


RecordsOf = Callable[[str, str | None], list[ServerRecord]]
"""(thread id, run id or None) -> the records to journal before that run's first checkpoint."""
GraphOf = Callable[[str], Pregel[Any, Any, Any, Any] | None]
"""graph id -> the compiled graph, to tell a finished turn from one cut short."""


class DurableSqliteSaver(AsyncSqliteSaver):
    """LangGraph's SQLite checkpointer, with the journal of server records and run deletion.

    Every checkpoint is committed before `aput` returns (the development server awaits the last
    one before it reports a run as done). `adelete_for_runs`, which the server calls for a run
    deleted or rolled back (`multitask_strategy="rollback"`), deletes that run's checkpoints.
    """

    def __init__(
        self,
        conn: aiosqlite.Connection,
        *,
        serde: SerializerProtocol | None = None,
        records: RecordsOf | None = None,
    ) -> None:
        """Wrap an open connection.

        Args:
            conn: The database.
            serde: How checkpoints are (de)serialized.
            records: Where the server's records come from; None journals nothing.
        """
        super().__init__(conn, serde=serde)
        self._records = records
        self._journaled: set[tuple[str, str | None]] = set()
        self._journal_ready = False

    async def setup(self) -> None:
        """Create the checkpoint tables and the journal."""
        await super().setup()
        if self._journal_ready:
            return
        async with self.lock:
            await self.conn.execute(_JOURNAL_TABLE)
            await self.conn.commit()
        self._journal_ready = True

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Store a checkpoint; the first of a run journals the run's and its thread's records."""
        if self._records is not None:
            thread_id = str(config["configurable"]["thread_id"])
            run_id = get_checkpoint_metadata(config, metadata).get("run_id")
            key = (thread_id, str(run_id) if run_id else None)
            if key not in self._journaled:
                await self.journal(self._records(*key))
                self._journaled.add(key)
        return await super().aput(config, checkpoint, metadata, new_versions)

    async def journal(self, records: Iterable[ServerRecord]) -> None:
        """Commit records (replacing earlier versions of the same ones)."""
        rows = [
            (record.kind, record.id, record.thread_id, pickle.dumps(record.record))
            for record in records
        ]
        if not rows:
            return
        await self.setup()
        async with self.lock:
            await self.conn.executemany(
                "INSERT OR REPLACE INTO server_records (kind, id, thread_id, record) "
                "VALUES (?, ?, ?, ?)",
                rows,
            )
            await self.conn.commit()

    async def journaled(self) -> list[ServerRecord]:
        """Every journaled record, threads before runs, oldest first."""
        await self.setup()
        query = "SELECT kind, id, thread_id, record FROM server_records ORDER BY kind DESC, rowid"
        async with self.lock, self.conn.execute(query) as cursor:
            rows = await cursor.fetchall()
        # The journal is this server's own file (0600): unpickling it trusts no one else, as the
        # development server already does with its `.langgraph_api/*.pckl`.
        return [
            ServerRecord(cast(RecordKind, kind), str(id_), str(thread_id), pickle.loads(blob))
            for kind, id_, thread_id, blob in rows
        ]

    async def forget(self, keys: Iterable[tuple[RecordKind, str]]) -> None:
        """Drop journaled records, once the server's own store holds them on disk."""
        rows = list(keys)
        if not rows:
            return
        await self.setup()
        async with self.lock:
            await self.conn.executemany(
                "DELETE FROM server_records WHERE kind = ? AND id = ?", rows
            )
            await self.conn.commit()

    async def root_checkpoints(self, thread_id: str) -> list[tuple[str | None, str | None]]:
        """(run id, graph id) of each top-level checkpoint of a thread, oldest first."""
        await self.setup()
        query = (
            f"SELECT {_RUN_ID}, {_GRAPH_ID} FROM checkpoints "
            "WHERE thread_id = ? AND checkpoint_ns = '' ORDER BY checkpoint_id"
        )
        async with self.lock, self.conn.execute(query, (thread_id,)) as cursor:
            rows = await cursor.fetchall()
        return [(run, graph) for run, graph in rows]

    async def last_checkpoint(self, thread_id: str, run_id: str) -> str | None:
        """The id of the last top-level checkpoint a run wrote on a thread, if any."""
        await self.setup()
        query = (
            "SELECT max(checkpoint_id) FROM checkpoints "
            f"WHERE thread_id = ? AND checkpoint_ns = '' AND {_RUN_ID} = ?"
        )
        async with self.lock, self.conn.execute(query, (thread_id, run_id)) as cursor:
            row = await cursor.fetchone()
        return str(row[0]) if row and row[0] else None

    async def roll_back(self, run_ids: Iterable[str]) -> None:
        """Delete the checkpoints and pending writes of these runs; the journal keeps them."""
        ids = [str(run_id) for run_id in run_ids]
        if not ids:
            return
        await self.setup()
        marks = ",".join("?" * len(ids))
        async with self.lock, self.conn.cursor() as cursor:
            await cursor.execute(
                "DELETE FROM writes WHERE (thread_id, checkpoint_ns, checkpoint_id) IN ("
                "SELECT thread_id, checkpoint_ns, checkpoint_id FROM checkpoints "
                f"WHERE {_RUN_ID} IN ({marks}))",
                ids,
            )
            await cursor.execute(f"DELETE FROM checkpoints WHERE {_RUN_ID} IN ({marks})", ids)
            await self.conn.commit()

    async def adelete_for_runs(self, run_ids: Iterable[str]) -> None:
        """Delete runs' checkpoints and journaled records (a deleted or rolled-back run)."""
        ids = [str(run_id) for run_id in run_ids]
        await self.roll_back(ids)
        await self.forget(("run", run_id) for run_id in ids)

    async def adelete_thread(self, thread_id: str) -> None:
        """Delete a thread's checkpoints and journaled records."""
        await super().adelete_thread(thread_id)
        await self.setup()
        async with self.lock:
            await self.conn.execute(
                "DELETE FROM server_records WHERE thread_id = ?", (str(thread_id),)
            )
            await self.conn.commit()


@asynccontextmanager
async def open_durable_saver(
    path: Path, *, records: RecordsOf | None = None
) -> AsyncIterator[DurableSqliteSaver]:
    """The durable checkpointer on a SQLite file created readable by its owner only."""
    async with aiosqlite.connect(private_file(path)) as conn:
        saver = DurableSqliteSaver(conn, serde=schema_serializer(), records=records)
        await saver.setup()
        yield saver


@dataclass
class Reconciliation:
    """What `reconcile` changed in the server's records (ids)."""

    restored_threads: list[str] = field(default_factory=list)
    restored_runs: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    """Threads and runs changed after the last flush, brought back to their journaled version."""
    completed: list[str] = field(default_factory=list)
    """Runs recorded as unfinished whose turn had completed: now succeeded."""
    rerun: list[str] = field(default_factory=list)
    """Runs the crash cut short: their checkpoints rolled back, pending again."""
    stopped: list[str] = field(default_factory=list)
    """Runs that stopped unfinished (failed, or cancelled) before a later run on their thread:
    marked `error` or `interrupted`, as the server had recorded them before the crash."""

    def __str__(self) -> str:
        parts = [
            (self.restored_threads, "thread(s) restored"),
            (self.restored_runs, "run(s) restored"),
            (self.updated, "record(s) brought up to date"),
            (self.completed, "finished run(s) marked succeeded"),
            (self.rerun, "interrupted run(s) to run again"),
            (self.stopped, "run(s) that had stopped unfinished marked error or interrupted"),
        ]
        said = [f"{len(ids)} {what}" for ids, what in parts if ids]
        return ", ".join(said) if said else "nothing to restore"

    @property
    def changed(self) -> bool:
        """Whether anything was changed."""
        return bool(
            self.restored_threads
            or self.restored_runs
            or self.updated
            or self.completed
            or self.rerun
            or self.stopped
        )


async def reconcile(
    store: MutableMapping[str, Any], saver: DurableSqliteSaver, graph_of: GraphOf
) -> Reconciliation:
    """Bring the server's records (`store["threads"]`, `store["runs"]`) in line with checkpoints.

    Args:
        store: The server's store as loaded from disk, before any run starts.
        saver: The checkpoints and the journal.
        graph_of: The compiled graph of a graph id (None when unknown).

    Returns:
        What was restored and corrected.
    """
    done = Reconciliation()
    threads = {str(thread["thread_id"]): thread for thread in store["threads"]}
    runs = {str(run["run_id"]): run for run in store["runs"]}
    on_disk: set[tuple[RecordKind, str]] = {("thread", key) for key in threads}
    on_disk |= {("run", key) for key in runs}

    settled: set[tuple[RecordKind, str]] = set()
    for record in await saver.journaled():
        if (record.kind, record.id) in on_disk:
            held = threads[record.id] if record.kind == "thread" else runs[record.id]
            if _newer(record.record, held):
                # Changed after the last flush (metadata, a status): the journal's is right.
                held.update(record.record)
                done.updated.append(record.id)
            else:
                settled.add((record.kind, record.id))
            continue
        if record.kind == "thread":
            # Journaled when it was created (`StoreJournal`): restored with or without turns.
            if record.id not in threads:
                thread = {**record.record, "values": None, "interrupts": {}}
                store["threads"].append(thread)
                threads[record.id] = thread
                done.restored_threads.append(record.id)
        elif record.id not in runs and record.thread_id in threads:
            run = dict(record.record)
            store["runs"].append(run)
            runs[record.id] = run
            done.restored_runs.append(record.id)

    touched = set(done.restored_threads)
    now = datetime.now(UTC)
    for run_id, run in runs.items():
        if run["status"] not in _UNFINISHED:
            continue
        thread_id = str(run["thread_id"])
        written = [writer for writer, _ in await saver.root_checkpoints(thread_id)]
        if run_id not in written:
            continue  # it never started: the queue runs it, as it would have
        touched.add(thread_id)
        if written[-1] == run_id:
            # The thread's last run: finished, or cut short by the crash and run again.
            ending = await _ending(thread_id, None, threads, saver, graph_of)
            if ending == "success":
                run.update(status="success", updated_at=now)
                done.completed.append(run_id)
            else:
                await saver.roll_back([run_id])
                run.update(status="pending", updated_at=now)
                done.rerun.append(run_id)
            continue
        # A later run followed it, so it stopped before the crash: how its last step ended says
        # how (without the graph there is no telling, and finished is by far the likeliest).
        last = await saver.last_checkpoint(thread_id, run_id)
        ending = await _ending(thread_id, last, threads, saver, graph_of) or "success"
        run.update(status=ending, updated_at=now)
        (done.completed if ending == "success" else done.stopped).append(run_id)

    for thread_id, thread in threads.items():
        if thread_id in touched or "graph_id" not in thread["metadata"]:
            await _refresh_thread(thread_id, thread, store, saver, graph_of, now)

    # What the server's own file holds as journaled needs the journal no more; the rest stays
    # journaled until the server has flushed it.
    await saver.forget(settled)
    return done


def _newer(journaled: dict[str, Any], held: dict[str, Any]) -> bool:
    """Whether a journaled record is a later version than the one the server loaded."""
    later, earlier = journaled.get("updated_at"), held.get("updated_at")
    return later is not None and earlier is not None and later > earlier


async def _graph_id(thread_id: str, saver: DurableSqliteSaver) -> str | None:
    graphs = [graph for _, graph in await saver.root_checkpoints(thread_id) if graph]
    return graphs[-1] if graphs else None


async def _snapshot(
    thread_id: str,
    graph_id: str | None,
    saver: DurableSqliteSaver,
    graph_of: GraphOf,
    checkpoint_id: str | None = None,
) -> StateSnapshot | None:
    graph = graph_of(graph_id) if graph_id else None
    if graph is None:
        return None
    with_saver = graph.copy(update={"checkpointer": saver})
    configurable = {"thread_id": thread_id}
    if checkpoint_id is not None:
        configurable |= {"checkpoint_ns": "", "checkpoint_id": checkpoint_id}
    return await with_saver.aget_state({"configurable": configurable})


Ending = Literal["success", "error", "interrupted"]


async def _ending(
    thread_id: str,
    checkpoint_id: str | None,
    threads: dict[str, dict[str, Any]],
    saver: DurableSqliteSaver,
    graph_of: GraphOf,
) -> Ending | None:
    """How a run that wrote `checkpoint_id` (default: the thread's last) last had ended.

    `success` when no task was left after it (or those left wait for an answer, an
    interrupt); `error` when a task left had failed; `interrupted` when tasks were still to
    run. None without the graph: there is no telling.
    """
    thread = threads.get(thread_id)
    graph_id = (thread or {}).get("metadata", {}).get("graph_id") or await _graph_id(
        thread_id, saver
    )
    snapshot = await _snapshot(thread_id, graph_id, saver, graph_of, checkpoint_id)
    if snapshot is None:
        return None
    # `next` leaves out a task whose writes were committed (`branch:to:route`) when the crash
    # came before the checkpoint that ends its step: such a turn looks finished and is not.
    if all(task.interrupts for task in snapshot.tasks):
        return "success"
    return "error" if any(task.error for task in snapshot.tasks) else "interrupted"


async def _refresh_thread(
    thread_id: str,
    thread: dict[str, Any],
    store: MutableMapping[str, Any],
    saver: DurableSqliteSaver,
    graph_of: GraphOf,
    now: datetime,
) -> None:
    """Graph id, values and status of a thread, from its checkpoints and runs."""
    busy = any(
        str(run["thread_id"]) == thread_id and run["status"] in _UNFINISHED for run in store["runs"]
    )
    graph_id = thread["metadata"].get("graph_id") or await _graph_id(thread_id, saver)
    if graph_id is None:
        # No turn yet: a thread created before the crash, perhaps with a run still queued.
        thread.update(status="busy" if busy else "idle", updated_at=now)
        return
    thread["metadata"]["graph_id"] = graph_id
    snapshot = await _snapshot(thread_id, graph_id, saver, graph_of)
    status = "busy" if busy else "interrupted" if snapshot and snapshot.next else "idle"
    thread.update(status=status, updated_at=now)
    if snapshot is not None and snapshot.values:
        thread.update(values=snapshot.values, state_updated_at=now)


def records_from_store(
    store: MutableMapping[str, Any], thread_id: str, run_id: str | None
) -> list[ServerRecord]:
    """The server's records of a thread and one of its runs (the thread's values left out)."""
    found: list[ServerRecord] = []
    thread = next((t for t in store["threads"] if str(t["thread_id"]) == thread_id), None)
    if thread is not None:
        kept = {key: value for key, value in thread.items() if key not in ("values", "interrupts")}
        found.append(ServerRecord("thread", thread_id, thread_id, kept))
    run = next((r for r in store["runs"] if run_id and str(r["run_id"]) == run_id), None)
    if run is not None and run_id is not None:
        found.append(ServerRecord("run", run_id, thread_id, dict(run)))
    return found


def _stamps(store: MutableMapping[str, Any]) -> dict[tuple[RecordKind, str], tuple[Any, ...]]:
    """What tells one version of each record from the next: its update time and status."""
    stamps: dict[tuple[RecordKind, str], tuple[Any, ...]] = {}
    for thread in store["threads"]:
        stamps["thread", str(thread["thread_id"])] = (thread.get("updated_at"), thread["status"])
    for run in store["runs"]:
        stamps["run", str(run["run_id"])] = (run.get("updated_at"), run["status"])
    return stamps


class StoreJournal:
    """Keeps the journal in step with the server's records, one request at a time.

    A run journals its records before its first checkpoint, but a thread created and not yet
    run, or a run still waiting in the queue, lived only in the server's memory until its next
    flush. `sync` journals every thread and run created or changed since the last call, and lets
    go of the ones deleted; `JournalWrites` calls it before a request's response starts, so what
    a client was told exists is on disk.
    """

    current: StoreJournal | None = None
    """The journal of this server process, once its checkpointer has started."""

    def __init__(self, store: MutableMapping[str, Any], saver: DurableSqliteSaver) -> None:
        """Start from the records as they are (on disk already, or in the journal)."""
        self._store = store
        self.saver = saver
        self._seen = _stamps(store)
        self._lock = asyncio.Lock()

    async def sync(self) -> None:
        """Journal what was created or changed since the last call; forget what was deleted."""
        async with self._lock:
            now = _stamps(self._store)
            changed = {key for key, stamp in now.items() if self._seen.get(key) != stamp}
            gone = [key for key in self._seen if key not in now]
            records = [
                record
                for thread in self._store["threads"]
                if ("thread", str(thread["thread_id"])) in changed
                for record in records_from_store(self._store, str(thread["thread_id"]), None)
            ]
            records += [
                ServerRecord("run", str(run["run_id"]), str(run["thread_id"]), dict(run))
                for run in self._store["runs"]
                if ("run", str(run["run_id"])) in changed
            ]
            await self.saver.journal(records)
            await self.saver.forget(gone)
            self._seen = now


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class JournalWrites:
    """ASGI middleware: the records a request created or changed are journaled before it answers.

    Without it, a thread created with `POST /threads` (HTTP 200) and a run queued behind others
    were lost by a crash before the server's next flush. A request that reads nothing but
    changes nothing (GET, HEAD, OPTIONS) passes straight through; a journal that cannot be
    written fails the request instead of answering for something that is not on disk.
    """

    def __init__(
        self, app: ASGIApp, journal: Callable[[], StoreJournal | None] | None = None
    ) -> None:
        """Wrap `app`.

        Args:
            app: The application.
            journal: The journal to keep (default: this process's, `StoreJournal.current`).
        """
        self.app = app
        self._journal = journal or (lambda: StoreJournal.current)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the request; journal the store's changes as its response starts."""
        journal = self._journal()
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS or journal is None:
            await self.app(scope, receive, send)
            return

        async def send_journaled(message: Message) -> None:
            if message["type"] == "http.response.start":
                await journal.sync()
            await send(message)

        await self.app(scope, receive, send_journaled)


def served_graph(graph_id: str) -> Pregel[Any, Any, Any, Any] | None:
    """The compiled graph the server serves under `graph_id` (module-form paths only)."""
    graphs = json.loads(os.environ.get("LANGSERVE_GRAPHS") or "{}")
    spec = graphs.get(graph_id)
    path = spec.get("path") if isinstance(spec, dict) else spec
    if not isinstance(path, str) or ":" not in path or "/" in path:
        return None
    module, _, name = path.partition(":")
    try:
        graph = getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None
    return graph if isinstance(graph, Pregel) else None


STUDIO_ORIGIN = "https://smith.langchain.com"
LOOPBACK_ORIGINS = r"^https?://(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$"
"""Browser pages on this machine (agent-chat-ui on localhost:3000, a Vite dev server)."""


def studio_settings(raw: dict[str, Any]) -> dict[str, Any]:
    """`raw` (a `langgraph.json`) with LangGraph Studio let in without a token, for a laptop.

    LangGraph Server lets a request in Studio's own scheme (`X-Auth-Scheme: langsmith`) skip
    the token and act as `langgraph-studio-user` (an identity of its own: the auth handlers
    still apply); `langgraph.json` turns that off (`disable_studio_auth`). Here it is back on,
    and browsers may call the server only from Studio's page and from pages on this machine,
    so a web site open in the same browser cannot use the Studio scheme against it.
    `codeweaver serve --studio` listens on loopback only.
    """
    studio = dict(raw)
    studio["auth"] = {**(raw.get("auth") or {}), "disable_studio_auth": False}
    http = dict(raw.get("http") or {})
    http["cors"] = {
        "allow_origins": [STUDIO_ORIGIN],
        "allow_origin_regex": LOOPBACK_ORIGINS,
        "allow_methods": ["*"],
        "allow_headers": ["*"],
        "expose_headers": ["x-pagination-total", "x-pagination-next", "content-location"],
    }
    studio["http"] = http
    return studio


def dev_server_config(config: Path, data_dir: Path | None = None, *, studio: bool = False) -> Path:
    """The config `langgraph dev` runs with: `config` plus the crash-safe checkpointer.

    The checkpointer comes with CodeWeaver's HTTP app (`codeweaver.server.app`), whose
    middleware journals what each request creates. It is written to the data directory,
    outside the project folder the reloader watches. A config that names a checkpointer of its
    own keeps it (and is used as it is, unless Studio is let in).

    Args:
        config: The project's `langgraph.json`.
        data_dir: The data directory (default: `$CODEWEAVER_HOME`).
        studio: Let LangGraph Studio in without a token (`studio_settings`).

    Returns:
        The path of the config to give `langgraph dev --config`.
    """
    raw = json.loads(config.read_text(encoding="utf-8"))
    named = raw.get("checkpointer") or {}
    if "path" in named and not studio:
        return config
    # `langgraph.json` may carry checkpointer settings without a path of its own (the serde
    # allow-list that deployments read): they are kept, and the path is added.
    raw["checkpointer"] = {"path": CHECKPOINTER_PATH, **named}
    # The development app, whatever app `langgraph.json` names for a deployment: it has the
    # deployment's routes and the middleware above.
    raw["http"] = {**(raw.get("http") or {}), "app": HTTP_APP_PATH}
    env = raw.get("env") or {}
    if not isinstance(env, dict):
        raise ValueError(f"{config}: `env` must be a mapping (not a file) for `codeweaver serve`")
    raw["env"] = {**env, LOOPBACK_HOSTS_ENV: "1"}
    if studio:
        raw = studio_settings(raw)
    source = raw.get("source")
    if isinstance(source, dict) and isinstance(source.get("root"), str):
        source["root"] = str((config.parent / source["root"]).resolve())
    target = private_file(secure_data_dir(data_dir or default_data_dir()) / DEV_CONFIG_FILE)
    target.write_text(json.dumps(raw, indent=2) + "\n", encoding="utf-8")
    return target


def durability_notice() -> str | None:
    """A warning when this is `langgraph dev` without the crash-safe checkpointer, else None."""
    if os.environ.get("LANGGRAPH_RUNTIME_EDITION") != "inmem":
        return None
    if os.environ.get("LANGGRAPH_CHECKPOINTER"):
        return None
    return (
        f"langgraph dev without CodeWeaver's checkpointer writes threads to .langgraph_api/ "
        f"every {FLUSH_SECONDS} s: a crash loses the turns of the last seconds, and a run it "
        "cut short may be answered twice. Start the server with `codeweaver serve` to keep "
        "every completed turn."
    )


class _Started:
    """Whether this process reconciled already (the server may open one saver per thread)."""

    reconciled = False


@asynccontextmanager
async def checkpointer() -> AsyncIterator[DurableSqliteSaver]:
    """The development server's checkpointer (`checkpointer.path` in its config).

    Everything the server writes from here on is its owner's alone (umask 077); the data
    directory and the server's own folder are tightened, then the server's records are
    reconciled with the checkpoints once per process, before any run starts.
    """
    database = _development_runtime()
    store = cast(MutableMapping[str, Any], database.GLOBAL_STORE)
    os.umask(0o077)
    home = secure_data_dir(default_data_dir())
    tighten(Path(os.path.dirname(database.OPS_FILENAME)))

    def records(thread_id: str, run_id: str | None) -> list[ServerRecord]:
        return records_from_store(store, thread_id, run_id)

    async with open_durable_saver(home / SERVER_THREADS_FILE, records=records) as saver:
        if not _Started.reconciled:
            _Started.reconciled = True
            done = await reconcile(store, saver, served_graph)
            log = logger.warning if done.changed else logger.info
            log("Threads kept in %s after the last shutdown: %s", home / SERVER_THREADS_FILE, done)
            StoreJournal.current = StoreJournal(store, saver)
        try:
            yield saver
        finally:
            if StoreJournal.current is not None and StoreJournal.current.saver is saver:
                StoreJournal.current = None


def _development_runtime() -> Any:
    edition = os.environ.get("LANGGRAPH_RUNTIME_EDITION")
    if edition != "inmem":
        raise RuntimeError(
            f"{CHECKPOINTER_PATH} is for `langgraph dev` (the in-memory runtime), not the "
            f"{edition!r} runtime: a deployed server keeps its own checkpointer."
        )
    return importlib.import_module("langgraph_runtime_inmem.database")
