"""`langgraph dev` restarted on the same data directory keeps its threads.

The server's own records are in `$CODEWEAVER_HOME/server/.langgraph_api/`, the checkpoints in
`$CODEWEAVER_HOME/server-threads.sqlite`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support import client, start_server, stop_server

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(600)]

QUESTION = "How do I reverse a list in Python?"


def ask(text: str) -> Any:
    return {"messages": [{"role": "user", "content": text}]}


async def test_threads_survive_a_server_restart(tmp_path: Path) -> None:
    # The same data directory both times (tmp/home), which holds the server's records too.
    proc, server = start_server(tmp_path, jobs=2)
    try:
        async with client(server) as sdk:
            thread = await sdk.threads.create(metadata={"purpose": "restart"})
            await sdk.runs.wait(
                thread["thread_id"],
                "codeweaver",
                input=ask(QUESTION),
            )
            before: Any = (await sdk.threads.get_state(thread["thread_id"]))["values"]
            history_before = await sdk.threads.get_history(thread["thread_id"], limit=100)
    finally:
        stop_server(proc)
    assert before["answer"]["citations"], before["answer"]
    assert (server.home / "server" / ".langgraph_api" / ".langgraph_ops.pckl").is_file()
    assert not (tmp_path / ".langgraph_api").exists()

    proc, server = start_server(tmp_path, jobs=2)
    try:
        async with client(server) as sdk:
            kept: Any = await sdk.threads.get(thread["thread_id"])
            after: Any = (await sdk.threads.get_state(thread["thread_id"]))["values"]
            history_after = await sdk.threads.get_history(thread["thread_id"], limit=100)
            found = await sdk.threads.search(metadata={"purpose": "restart"})
            await sdk.runs.wait(
                thread["thread_id"],
                "codeweaver",
                input=ask("Can you show an example of that?"),
            )
            follow_up: Any = (await sdk.threads.get_state(thread["thread_id"]))["values"]
    finally:
        stop_server(proc)
    assert kept["metadata"]["purpose"] == "restart"
    assert [t["thread_id"] for t in found] == [thread["thread_id"]]
    assert after["messages"] == before["messages"]
    assert after["answer"] == before["answer"]
    assert after["evidence"] == before["evidence"]
    assert len(history_after) == len(history_before)
    # The restarted server answers a follow-up from the kept conversation.
    assert follow_up["analysis"]["question_type"] == "clarification"
    assert len(follow_up["messages"]) == 4
    assert follow_up["messages"][:2] == before["messages"]
