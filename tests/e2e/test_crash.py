"""`codeweaver serve`'s server killed with SIGKILL keeps every turn it completed.

Four turns on three threads, the second thread's a follow-up, the last one completed just
before the kill: after a restart in the same folder each thread has its record, its state and
its history as before, no run is run a second time, and a follow-up sees the earlier answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk.client import LangGraphClient

from codeweaver_runtime import is_private
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

    # Everything the server keeps is its owner's alone.
    for folder in (server.home, tmp_path / ".langgraph_api"):
        for path in (folder, *folder.rglob("*")):
            assert is_private(path), path
