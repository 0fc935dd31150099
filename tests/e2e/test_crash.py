"""`codeweaver serve`'s server killed with SIGKILL keeps every turn it completed.

Four turns on three threads, the second thread's a follow-up, the last one completed just
before the kill: after a restart in the same folder each thread has its record, its state and
its history as before, no run is run a second time, and a follow-up sees the earlier answer.

Runs in flight when the server is killed (held at a gate in their search, `gated_graph`), runs
waiting in the queue and a thread created just before the kill: after the restart every run is
answered exactly once, and every thread is there.
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk.client import LangGraphClient

from codeweaver_runtime import is_private
from tests.e2e.gated_graph import GATE_ENV, OPEN, entered
from tests.support import client, kill_server, start_server, stop_server

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(900)]

FOLLOW_UP = "Can you show an example of that?"
# (thread, question) in the order asked: the last turn ends just before the kill.
TURNS = (
    ("a", "How do I reverse a list in Python?"),
    ("b", "How do I sort a dictionary by value in Python?"),
    ("a", FOLLOW_UP),
    ("c", "What does the with statement do in Python?"),
)


@dataclass
class Seen:
    """What the server returns for one thread."""

    record: dict[str, Any] | None = None
    values: dict[str, Any] = field(default_factory=dict)
    history: int = 0
    runs: list[str] = field(default_factory=list)


def ask(text: str) -> Any:
    return {"messages": [{"role": "user", "content": text}]}


async def read_thread(sdk: LangGraphClient, thread_id: str) -> Seen:
    try:
        record: Any = await sdk.threads.get(thread_id)
    except httpx.HTTPStatusError as exc:
        if exc.response.status_code != 404:
            raise
        return Seen()  # the crash lost the thread itself
    values = (await sdk.threads.get_state(thread_id))["values"]
    assert isinstance(values, dict), values
    return Seen(
        record=record,
        values=values,
        history=len(await sdk.threads.get_history(thread_id, limit=1000)),
        runs=[run["status"] for run in await sdk.runs.list(thread_id)],
    )


def kept_turns(before: Seen, after: Seen) -> int:
    """How many question/answer pairs of the thread before the crash its state holds after."""
    old, new = before.values["messages"], after.values.get("messages", [])
    return sum(1 for i in range(0, len(old), 2) if new[i : i + 2] == old[i : i + 2])


async def test_completed_turns_survive_sigkill(tmp_path: Path) -> None:
    proc, server = start_server(tmp_path, jobs=2)
    try:
        async with client(server) as sdk:
            threads: dict[str, str] = {}
            for name, question in TURNS:
                if name not in threads:
                    created = await sdk.threads.create(metadata={"purpose": f"crash-{name}"})
                    threads[name] = created["thread_id"]
                await sdk.runs.wait(threads[name], "codeweaver", input=ask(question))
            before = {name: await read_thread(sdk, tid) for name, tid in threads.items()}
    finally:
        kill_server(proc)
    turns = {name: sum(1 for n, _ in TURNS if n == name) for name in threads}
    for name, seen in before.items():
        assert len(seen.values["messages"]) == 2 * turns[name], seen.values["messages"]

    proc, server = start_server(tmp_path, jobs=2)
    try:
        async with client(server) as sdk:
            after = {name: await read_thread(sdk, tid) for name, tid in threads.items()}
            kept = {name: kept_turns(before[name], after[name]) for name in threads}
            print(f"\ncompleted turns kept after SIGKILL: {sum(kept.values())} of {len(TURNS)}")
            print(f"runs after restart: { {name: seen.runs for name, seen in after.items()} }")
            await sdk.runs.wait(threads["c"], "codeweaver", input=ask(FOLLOW_UP))
            follow_up: Any = (await sdk.threads.get_state(threads["c"]))["values"]
    finally:
        stop_server(proc)

    assert kept == turns
    for name, seen in after.items():
        assert seen.record is not None, name
        assert seen.record["metadata"]["purpose"] == f"crash-{name}"
        assert seen.record["status"] == "idle"
        assert seen.values["messages"] == before[name].values["messages"], name
        assert seen.values["answer"] == before[name].values["answer"], name
        assert seen.history == before[name].history, name
        # A finished run recorded as running would be run again, and its question answered twice.
        assert seen.runs == ["success"] * turns[name], (name, seen.runs)
    # The restarted server answers a follow-up in the light of the answer before the crash.
    assert follow_up["analysis"]["question_type"] == "clarification"
    assert follow_up["messages"][:2] == before["c"].values["messages"]
    assert len(follow_up["messages"]) == 4

    # Everything the server keeps is its owner's alone, its own records included.
    assert (server.home / "server" / ".langgraph_api").is_dir()
    for path in (server.home, *server.home.rglob("*")):
        assert is_private(path), path


JOBS = 4
ANSWERED = ("How do I reverse a list in Python?", "How do I sort a dictionary by value in Python?")
# Six runs at once on six threads: four enter the gate (one per job), two wait in the queue.
IN_FLIGHT = (
    "How do I read a file line by line in Python?",
    "How do I merge two dictionaries in Python?",
    "How do I remove duplicates from a list in Python?",
    "How do I check whether a file exists in Python?",
    "How do I split a string on whitespace in Python?",
    "How do I get the current date and time in Python?",
)
LATE = "How do I join a list of strings in Python?"


async def until(condition: Callable[[], bool], proc: subprocess.Popen[bytes], what: str) -> None:
    """Wait for `condition` (no time limit but the test's own), failing if the server died."""
    while not condition():
        assert proc.poll() is None, f"the server exited while waiting until {what}"
        await asyncio.sleep(0.2)


@dataclass
class Outcome:
    """What became of a run after the restart."""

    status: str
    """The run's final status, or "lost" when the server knows neither it nor its thread."""
    messages: list[Any] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)
    """The statuses of every run of its thread."""


async def outcome(sdk: LangGraphClient, thread_id: str, run_id: str) -> Outcome:
    try:
        await sdk.runs.join(thread_id, run_id)
        run: Any = await sdk.runs.get(thread_id, run_id)
        state: Any = await sdk.threads.get_state(thread_id)
        runs: list[str] = [r["status"] for r in await sdk.runs.list(thread_id)]
    except httpx.HTTPStatusError as exc:
        if exc.response.status_code != 404:
            raise
        return Outcome("lost")
    return Outcome(run["status"], list((state["values"] or {}).get("messages", [])), runs)


async def test_runs_in_flight_at_a_sigkill_are_answered_once_after_a_restart(
    tmp_path: Path,
) -> None:
    gate = tmp_path / "gate"
    gate.mkdir()
    (gate / OPEN).touch()
    options: Any = {
        "jobs": JOBS,
        "graphs": {"codeweaver": "tests.e2e.gated_graph:main"},
        "extra_env": {GATE_ENV: str(gate)},
    }
    asked: dict[str, tuple[str, str]] = {}  # thread id -> (run id, question)

    async def start(sdk: LangGraphClient, question: str, **metadata: Any) -> None:
        thread: Any = await sdk.threads.create(metadata=metadata)
        run: Any = await sdk.runs.create(thread["thread_id"], "codeweaver", input=ask(question))
        asked[thread["thread_id"]] = (run["run_id"], question)

    proc, server = start_server(tmp_path, **options)
    try:
        async with client(server) as sdk:
            for question in ANSWERED:
                await start(sdk, question)
            for thread_id, (run_id, _) in asked.items():
                await sdk.runs.join(thread_id, run_id)
            (gate / OPEN).unlink()
            for question in IN_FLIGHT:
                await start(sdk, question)
            await until(lambda: len(entered(gate)) == JOBS, proc, f"{JOBS} runs are in flight")
            # Created just before the kill: the server's own files have not seen them.
            await start(sdk, LATE, purpose="late")
            idle: Any = await sdk.threads.create(metadata={"purpose": "never run"})
    finally:
        kill_server(proc)
    assert len(entered(gate)) == JOBS  # the other runs were still waiting in the queue

    (gate / OPEN).touch()
    proc, server = start_server(tmp_path, **options)
    try:
        async with client(server) as sdk:
            outcomes = {tid: await outcome(sdk, tid, run) for tid, (run, _) in asked.items()}
            try:
                kept: Any = await sdk.threads.get(idle["thread_id"])
            except httpx.HTTPStatusError as exc:
                kept = {"lost": exc.response.status_code}
    finally:
        stop_server(proc)
    seen = {asked[tid][1]: seen.status for tid, seen in outcomes.items()}
    print(f"\nruns after the restart: {seen}")
    for thread_id, after in outcomes.items():
        question = asked[thread_id][1]
        # Answered, and only once: a run the crash cut short was rolled back before it ran again.
        assert after.status == "success", (question, after.status)
        assert [m["type"] for m in after.messages] == ["human", "ai"], (question, after.messages)
        assert after.messages[0]["content"] == question
        assert after.runs == ["success"], (question, after.runs)
    # A thread created (HTTP 200) just before the kill is there, as it was.
    assert kept.get("metadata") == {**idle["metadata"], "purpose": "never run"}, kept
    assert kept["status"] == "idle"
