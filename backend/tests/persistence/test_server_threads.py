"""The development server's crash-safe threads, without a server: journal, checkpoints, reconcile.

A fake of the server's store (its `threads` and `runs` lists) stands in for LangGraph Server;
`disk` copies of it are what the server would load after a crash, flushed at a chosen moment.
"""

from __future__ import annotations

import copy
import json
import operator
import sqlite3
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.pregel import Pregel
from typing_extensions import TypedDict

from codeweaver.persistence import DEV_CONFIG_FILE, checkpoint_types
from codeweaver.server.guards import LOOPBACK_HOSTS_ENV, Message
from codeweaver.server.threads import (
    CHECKPOINTER_PATH,
    HTTP_APP_PATH,
    DurableSqliteSaver,
    JournalWrites,
    ServerRecord,
    StoreJournal,
    checkpointer,
    dev_server_config,
    durability_notice,
    open_durable_saver,
    reconcile,
    records_from_store,
    served_graph,
)
from codeweaver_runtime import is_private
from codeweaver_schema.serde import schema_types
from tests.support import REPO

GRAPH_ID = "toy"


class TurnState(TypedDict):
    turns: Annotated[list[str], operator.add]


def _answer(state: TurnState) -> dict[str, list[str]]:
    return {"turns": [f"answer to {state['turns'][-1]}"]}


def _grade(state: TurnState) -> dict[str, list[str]]:
    return {"turns": ["graded"]}


def toy_graph() -> Pregel[Any, Any, Any, Any]:
    builder = StateGraph(TurnState)
    builder.add_node("answer", _answer)
    builder.add_node("grade", _grade)
    builder.add_edge(START, "answer")
    builder.add_edge("answer", "grade")
    builder.add_edge("grade", END)
    return builder.compile()


TOY = toy_graph()


def graph_of(graph_id: str) -> Pregel[Any, Any, Any, Any] | None:
    return TOY if graph_id == GRAPH_ID else None


class Server:
    """The server's in-memory store, and runs of the toy graph as its workers make them."""

    def __init__(self) -> None:
        self.store: dict[str, Any] = {"threads": [], "runs": [], "assistants": []}

    def records(self, thread_id: str, run_id: str | None) -> list[ServerRecord]:
        return records_from_store(self.store, thread_id, run_id)

    def create_thread(self, **metadata: Any) -> str:
        thread_id = uuid.uuid4()
        now = datetime.now(UTC)
        self.store["threads"].append(
            {
                "thread_id": thread_id,
                "created_at": now,
                "updated_at": now,
                "metadata": {"owner": "alice", "graph_id": GRAPH_ID, **metadata},
                "status": "idle",
                "config": {},
                "values": None,
            }
        )
        return str(thread_id)

    def create_run(self, thread_id: str) -> str:
        run_id = uuid.uuid4()
        self.store["runs"].append(
            {
                "run_id": run_id,
                "thread_id": uuid.UUID(thread_id),
                "status": "pending",
                "metadata": {"owner": "alice"},
                "kwargs": {"input": {"turns": ["question"]}},
            }
        )
        return str(run_id)

    def run(self, run_id: str) -> dict[str, Any]:
        return next(r for r in self.store["runs"] if str(r["run_id"]) == run_id)

    def thread(self, thread_id: str) -> dict[str, Any]:
        return next(t for t in self.store["threads"] if str(t["thread_id"]) == thread_id)

    def start(self, thread_id: str) -> str:
        """A run a worker has picked up: recorded as running."""
        run_id = self.create_run(thread_id)
        self.run(run_id)["status"] = "running"
        return run_id

    async def work(
        self,
        saver: DurableSqliteSaver,
        thread_id: str,
        run_id: str,
        question: str,
        *,
        cut_before_grade: bool = False,
    ) -> None:
        """The run's graph, checkpointing through `saver`.

        With `cut_before_grade`, the crash comes after `answer` wrote its checkpoint, before
        `grade` ran.
        """
        graph = TOY.copy(update={"checkpointer": saver})
        config: Any = {"configurable": {"thread_id": thread_id}, "metadata": {"run_id": run_id}}
        cut = ["answer"] if cut_before_grade else None
        await graph.ainvoke({"turns": [question]}, config, interrupt_after=cut)

    async def ask(
        self,
        saver: DurableSqliteSaver,
        thread_id: str,
        question: str,
        *,
        cut_before_grade: bool = False,
    ) -> str:
        """One run to its end, as a worker would: running, checkpoints, then success."""
        run_id = self.start(thread_id)
        await self.work(saver, thread_id, run_id, question, cut_before_grade=cut_before_grade)
        if not cut_before_grade:
            self.run(run_id)["status"] = "success"
            self.thread(thread_id)["status"] = "idle"
        return run_id

    async def answered_thread(self, saver: DurableSqliteSaver) -> str:
        """A new thread whose first question, q1, was answered."""
        thread_id = self.create_thread()
        await self.ask(saver, thread_id, "q1")
        return thread_id

    def flushed(self) -> dict[str, Any]:
        """What the server would load from disk had it flushed now."""
        return copy.deepcopy(self.store)


async def turns(saver: DurableSqliteSaver, thread_id: str) -> list[str]:
    graph = TOY.copy(update={"checkpointer": saver})
    state = await graph.aget_state({"configurable": {"thread_id": thread_id}})
    return list(state.values.get("turns", []))


def by_id(items: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    return {str(item[key]): item for item in items}


async def test_a_run_journals_its_records_before_its_first_checkpoint(tmp_path: Path) -> None:
    server = Server()
    database = tmp_path / "server-threads.sqlite"
    seen_before_journal: list[int] = []

    def records(thread_id: str, run_id: str | None) -> list[ServerRecord]:
        with sqlite3.connect(database) as conn:
            (count,) = conn.execute("SELECT count(*) FROM checkpoints").fetchone()
        seen_before_journal.append(count)
        return server.records(thread_id, run_id)

    async with open_durable_saver(database, records=records) as saver:
        thread_id = server.create_thread(purpose="journal")
        run_id = await server.ask(saver, thread_id, "q1")
        journal = await saver.journaled()
    assert seen_before_journal == [0]
    assert [(r.kind, r.id) for r in journal] == [("thread", thread_id), ("run", run_id)]
    assert journal[0].record["metadata"] == {
        "owner": "alice",
        "graph_id": GRAPH_ID,
        "purpose": "journal",
    }
    assert "values" not in journal[0].record
    assert is_private(database)


async def test_turns_the_last_flush_missed_are_restored(tmp_path: Path) -> None:
    server = Server()
    async with open_durable_saver(tmp_path / "s.sqlite", records=server.records) as saver:
        disk = server.flushed()  # the last flush came before the thread existed
        thread_id = server.create_thread(purpose="late")
        first = await server.ask(saver, thread_id, "q1")
        second = await server.ask(saver, thread_id, "q2")

    async with open_durable_saver(tmp_path / "s.sqlite") as saver:
        done = await reconcile(disk, saver, graph_of)
        kept = await turns(saver, thread_id)
        journal_left = await saver.journaled()
    assert done.restored_threads == [thread_id]
    assert done.restored_runs == [first, second]
    thread = by_id(disk["threads"], "thread_id")[thread_id]
    assert thread["metadata"]["purpose"] == "late"
    assert thread["status"] == "idle"
    assert thread["values"]["turns"] == kept
    assert kept == ["q1", "answer to q1", "graded", "q2", "answer to q2", "graded"]
    runs = by_id(disk["runs"], "run_id")
    assert [runs[first]["status"], runs[second]["status"]] == ["success", "success"]
    # Not yet on disk in the server's own store: the journal keeps them for another crash.
    assert {r.id for r in journal_left} == {thread_id, first, second}


async def test_threads_and_queued_runs_journaled_on_creation_are_restored(
    tmp_path: Path,
) -> None:
    server = Server()
    async with open_durable_saver(tmp_path / "s.sqlite", records=server.records) as saver:
        journal = StoreJournal(server.store, saver)
        disk = server.flushed()  # the last flush came before any of this
        idle = server.create_thread(purpose="never run")
        busy = server.create_thread(purpose="queued")
        queued = server.create_run(busy)  # no worker free: not a checkpoint yet
        server.thread(busy)["status"] = "busy"
        await journal.sync()  # what `JournalWrites` does before a request is answered

    async with open_durable_saver(tmp_path / "s.sqlite") as saver:
        done = await reconcile(disk, saver, graph_of)
    assert sorted(done.restored_threads) == sorted([idle, busy])
    assert done.restored_runs == [queued]
    threads = by_id(disk["threads"], "thread_id")
    assert threads[idle]["metadata"]["purpose"] == "never run"
    assert threads[idle]["status"] == "idle"
    assert threads[busy]["status"] == "busy"
    # Left to the queue, which runs it as it would have.
    assert by_id(disk["runs"], "run_id")[queued]["status"] == "pending"


async def test_a_change_the_last_flush_missed_is_kept(tmp_path: Path) -> None:
    server = Server()
    async with open_durable_saver(tmp_path / "s.sqlite", records=server.records) as saver:
        thread_id = server.create_thread(title="before")
        journal = StoreJournal(server.store, saver)
        disk = server.flushed()
        # What `PATCH /threads/{id}` does: a new version of the record, with its own time.
        server.thread(thread_id).update(
            metadata={**server.thread(thread_id)["metadata"], "title": "after"},
            updated_at=datetime.now(UTC),
        )
        await journal.sync()

    async with open_durable_saver(tmp_path / "s.sqlite") as saver:
        done = await reconcile(disk, saver, graph_of)
        journal_left = await saver.journaled()
    assert done.updated == [thread_id]
    assert by_id(disk["threads"], "thread_id")[thread_id]["metadata"]["title"] == "after"
    # Until the server's own file holds it, the journal keeps it (another crash may come first).
    assert [r.id for r in journal_left] == [thread_id]


async def test_the_store_journal_follows_changes_and_deletions(tmp_path: Path) -> None:
    server = Server()
    async with open_durable_saver(tmp_path / "s.sqlite", records=server.records) as saver:
        kept = server.create_thread()  # on disk already when the journal starts
        journal = StoreJournal(server.store, saver)
        await journal.sync()
        assert await saver.journaled() == []
        thread_id = server.create_thread()
        run_id = server.create_run(thread_id)
        await journal.sync()
        assert {(r.kind, r.id) for r in await saver.journaled()} == {
            ("thread", thread_id),
            ("run", run_id),
        }
        server.run(run_id).update(status="interrupted", updated_at=datetime.now(UTC))
        await journal.sync()
        runs = [r for r in await saver.journaled() if r.kind == "run"]
        assert [r.record["status"] for r in runs] == ["interrupted"]
        server.store["runs"].clear()
        server.store["threads"].remove(server.thread(thread_id))
        await journal.sync()
        assert await saver.journaled() == []
        assert [str(t["thread_id"]) for t in server.store["threads"]] == [kept]


async def test_a_request_is_answered_only_once_what_it_created_is_journaled(
    tmp_path: Path,
) -> None:
    server = Server()
    created: list[str] = []

    async def create_thread(scope: Any, receive: Any, send: Any) -> None:
        if scope["method"] == "POST":
            created.append(server.create_thread(purpose="http"))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    async with open_durable_saver(tmp_path / "s.sqlite", records=server.records) as saver:
        journal = StoreJournal(server.store, saver)
        app = JournalWrites(create_thread, journal=lambda: journal)
        journaled_at_start: list[set[str]] = []

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                journaled_at_start.append({r.id for r in await saver.journaled()})

        async def receive() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        for method in ("POST", "GET"):
            scope: dict[str, Any] = {
                "type": "http",
                "method": method,
                "path": "/threads",
                "headers": [],
            }
            await app(scope, receive, send)
        server.create_thread()  # changed by a GET: nothing to journal, and nothing journaled
        await app({**scope, "method": "GET"}, receive, send)
    assert journaled_at_start == [set(created), set(created), set(created)]


async def test_a_finished_run_recorded_as_running_is_not_run_again(tmp_path: Path) -> None:
    server = Server()
    async with open_durable_saver(tmp_path / "s.sqlite", records=server.records) as saver:
        thread_id = await server.answered_thread(saver)
        run_id = server.start(thread_id)
        server.thread(thread_id)["status"] = "busy"
        disk = server.flushed()  # flushed while the second turn ran
        await server.work(saver, thread_id, run_id, "q2")

    async with open_durable_saver(tmp_path / "s.sqlite") as saver:
        done = await reconcile(disk, saver, graph_of)
        kept = await turns(saver, thread_id)
        journal_left = await saver.journaled()
    assert done.completed == [run_id]
    assert done.rerun == []
    assert by_id(disk["runs"], "run_id")[run_id]["status"] == "success"
    thread = by_id(disk["threads"], "thread_id")[thread_id]
    assert thread["status"] == "idle"
    assert thread["values"]["turns"] == kept
    assert kept.count("q2") == 1
    # Both records were on disk already: the journal lets go of them.
    assert journal_left == []


async def test_a_run_the_crash_cut_short_runs_again_from_the_last_turn(tmp_path: Path) -> None:
    server = Server()
    async with open_durable_saver(tmp_path / "s.sqlite", records=server.records) as saver:
        thread_id = await server.answered_thread(saver)
        cut = await server.ask(saver, thread_id, "q2", cut_before_grade=True)
        disk = server.flushed()
        assert (await turns(saver, thread_id))[-1] == "answer to q2"

    async with open_durable_saver(tmp_path / "s.sqlite") as saver:
        done = await reconcile(disk, saver, graph_of)
        kept = await turns(saver, thread_id)
        assert [run for run, _ in await saver.root_checkpoints(thread_id)].count(cut) == 0
    assert done.rerun == [cut]
    assert done.completed == []
    assert by_id(disk["runs"], "run_id")[cut]["status"] == "pending"
    assert by_id(disk["threads"], "thread_id")[thread_id]["status"] == "busy"
    # The retry starts where the first turn ended: q2 will not be asked twice.
    assert kept == ["q1", "answer to q1", "graded"]


def lose_last_checkpoint(database: Path, run_id: str) -> None:
    """The crash came after the last step's tasks committed their writes, before its checkpoint.

    Every task of that step wrote (`aput_writes`), so nothing is left in the snapshot's `next`,
    yet the step never finished: its successors never ran.
    """
    with sqlite3.connect(database) as conn:
        conn.execute(
            "DELETE FROM checkpoints WHERE checkpoint_id = (SELECT max(checkpoint_id) "
            "FROM checkpoints WHERE checkpoint_ns = '' "
            "AND json_extract(CAST(metadata AS TEXT), '$.run_id') = ?)",
            (run_id,),
        )


async def test_a_run_whose_last_step_wrote_but_never_ended_runs_again(tmp_path: Path) -> None:
    server = Server()
    database = tmp_path / "s.sqlite"
    async with open_durable_saver(database, records=server.records) as saver:
        thread_id = await server.answered_thread(saver)
        run_id = server.start(thread_id)
        disk = server.flushed()  # flushed while the second turn ran
        await server.work(saver, thread_id, run_id, "q2")
    lose_last_checkpoint(database, run_id)
    async with open_durable_saver(database) as saver:
        state = await TOY.copy(update={"checkpointer": saver}).aget_state(
            {"configurable": {"thread_id": thread_id}}
        )
        # What fooled the restart: the cut step's task wrote, so nothing is `next`.
        assert state.next == ()
        assert [task.name for task in state.tasks] == ["grade"]
        done = await reconcile(disk, saver, graph_of)
        kept = await turns(saver, thread_id)
    assert done.completed == []
    assert done.rerun == [run_id]
    assert by_id(disk["runs"], "run_id")[run_id]["status"] == "pending"
    # Rolled back to the first turn: the retry asks q2 once and grades it.
    assert kept == ["q1", "answer to q1", "graded"]


async def test_a_run_cut_short_before_a_later_run_is_not_marked_succeeded(
    tmp_path: Path,
) -> None:
    server = Server()
    async with open_durable_saver(tmp_path / "s.sqlite", records=server.records) as saver:
        thread_id = await server.answered_thread(saver)
        # Cancelled halfway (the server recorded it interrupted, in memory only), then the
        # next question on the thread ran to its end before the crash.
        cut = await server.ask(saver, thread_id, "q2", cut_before_grade=True)
        disk = server.flushed()
        later = await server.ask(saver, thread_id, "q3")

    async with open_durable_saver(tmp_path / "s.sqlite") as saver:
        done = await reconcile(disk, saver, graph_of)
    assert done.stopped == [cut]
    assert done.completed == [later]
    assert done.rerun == []
    runs = by_id(disk["runs"], "run_id")
    assert [runs[cut]["status"], runs[later]["status"]] == ["interrupted", "success"]


async def test_without_the_graph_an_unfinished_run_is_rolled_back(tmp_path: Path) -> None:
    server = Server()
    async with open_durable_saver(tmp_path / "s.sqlite", records=server.records) as saver:
        thread_id = server.create_thread()
        run_id = server.start(thread_id)
        await server.work(saver, thread_id, run_id, "q1")
        disk = server.flushed()

    async with open_durable_saver(tmp_path / "s.sqlite") as saver:
        done = await reconcile(disk, saver, lambda graph_id: None)
    assert done.rerun == [run_id]


async def test_a_queued_run_that_never_started_is_left_to_the_queue(tmp_path: Path) -> None:
    server = Server()
    async with open_durable_saver(tmp_path / "s.sqlite", records=server.records) as saver:
        thread_id = await server.answered_thread(saver)
        queued = server.create_run(thread_id)
        disk = server.flushed()

    async with open_durable_saver(tmp_path / "s.sqlite") as saver:
        done = await reconcile(disk, saver, graph_of)
    assert not done.changed
    assert by_id(disk["runs"], "run_id")[queued]["status"] == "pending"


async def test_deleted_threads_and_runs_are_not_restored(tmp_path: Path) -> None:
    server = Server()
    async with open_durable_saver(tmp_path / "s.sqlite", records=server.records) as saver:
        disk = server.flushed()
        gone = server.create_thread()
        await server.ask(saver, gone, "q1")
        await saver.adelete_thread(gone)
        kept = server.create_thread()
        await server.ask(saver, kept, "q1")
        rolled_back = await server.ask(saver, kept, "q2")
        # What the server does for a run deleted, or rolled back by a second run.
        await saver.adelete_for_runs([rolled_back])

    async with open_durable_saver(tmp_path / "s.sqlite") as saver:
        done = await reconcile(disk, saver, graph_of)
        left = await turns(saver, kept)
    assert done.restored_threads == [kept]
    assert rolled_back not in done.restored_runs
    assert len(done.restored_runs) == 1
    assert left == ["q1", "answer to q1", "graded"]


def test_the_server_config_is_langgraph_json_with_the_checkpointer(tmp_path: Path) -> None:
    home = tmp_path / "home"
    written = dev_server_config(REPO / "langgraph.json", home)
    assert written == home / DEV_CONFIG_FILE
    config = json.loads(written.read_text(encoding="utf-8"))
    project = json.loads((REPO / "langgraph.json").read_text(encoding="utf-8"))
    assert config.pop("checkpointer") == {**project.pop("checkpointer"), "path": CHECKPOINTER_PATH}
    # The HTTP app whose middleware journals what each request creates.
    assert config.pop("http") == {**project.pop("http", {}), "app": HTTP_APP_PATH}
    # The Host check that keeps DNS-rebinding pages out (`codeweaver.server.guards`).
    assert config.pop("env") == {LOOPBACK_HOSTS_ENV: "1"}
    assert config.pop("source") == {**project.pop("source"), "root": str(REPO)}
    assert config == project
    assert is_private(written)
    assert is_private(home)

    own = tmp_path / "own.json"
    own.write_text(json.dumps({**project, "checkpointer": {"path": "x.y"}}), encoding="utf-8")
    assert dev_server_config(own, home) == own


def test_langgraph_json_registers_every_schema_type() -> None:
    """Deployments read the checkpoint allow-list from langgraph.json: it must not drift."""
    project = json.loads((REPO / "langgraph.json").read_text(encoding="utf-8"))
    listed = project["checkpointer"]["serde"]["allowed_msgpack_modules"]
    assert sorted(tuple(entry) for entry in listed) == checkpoint_types()
    assert set(schema_types()) < set(checkpoint_types())
    assert ("codeweaver_schema.models", "Plan") in checkpoint_types()
    assert ("codeweaver_cache.verifier", "PendingHit") in checkpoint_types()


def test_the_served_graph_comes_from_the_server_graph_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    graphs = {"toy": {"path": f"{__name__}:TOY"}, "file": "./graph.py:graph"}
    monkeypatch.setenv("LANGSERVE_GRAPHS", json.dumps(graphs))
    assert served_graph("toy") is TOY
    assert served_graph("file") is None
    assert served_graph("absent") is None


async def test_the_checkpointer_is_only_for_the_development_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LANGGRAPH_RUNTIME_EDITION", "postgres")
    with pytest.raises(RuntimeError, match="langgraph dev"):
        async with checkpointer():
            pass


def test_plain_langgraph_dev_says_a_crash_can_cost_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGGRAPH_RUNTIME_EDITION", "inmem")
    monkeypatch.delenv("LANGGRAPH_CHECKPOINTER", raising=False)
    notice = durability_notice()
    assert notice is not None
    assert "codeweaver serve" in notice
    monkeypatch.setenv("LANGGRAPH_CHECKPOINTER", json.dumps({"path": CHECKPOINTER_PATH}))
    assert durability_notice() is None
    monkeypatch.delenv("LANGGRAPH_RUNTIME_EDITION")
    assert durability_notice() is None
