"""LangGraph Server under load: 50 concurrent runs, two runs on one thread, odd request bodies.

One `langgraph dev` with enough jobs per worker for every run to start at once. The timing
figures (wall time, runs per second, p50/p95 latency) are printed (`pytest -s`) and listed in
the terminal summary; only a generous overall timeout bounds them.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from langgraph_sdk.client import LangGraphClient
from langgraph_sdk.errors import ConflictError

from tests import support
from tests.support import Server

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(600)]

GRAPH = "codeweaver"
JOBS = 50
"""Jobs per worker of the server: one per concurrent run, so no run waits for a free job."""
RUNS = 50
LOAD_TIMEOUT_S = 300.0
"""Generous bound on the 50 runs together (they take 10-35 s on two busy cores)."""

# Fifty Python topics the offline corpus (pydoc_data.topics) can answer, one per thread.
TOPICS = [
    "reverse a list",
    "sort a dictionary by value",
    "read a file line by line",
    "format a string with f-strings",
    "catch an exception",
    "define a class with a property",
    "use a list comprehension",
    "merge two dictionaries",
    "check if a key is in a dict",
    "write a generator function",
    "use a with statement",
    "convert a string to an int",
    "slice a list",
    "write a lambda function",
    "raise a custom exception",
    "iterate with enumerate",
    "zip two lists together",
    "accept *args and **kwargs",
    "define a decorator",
    "use the global statement",
    "create a set",
    "import a module",
    "use assert",
    "write a while loop",
    "stop a loop early with break",
    "compare two strings",
    "test membership with the in operator",
    "create a tuple",
    "unpack a tuple into variables",
    "use a try finally block",
    "delete an item from a list",
    "delegate to a subgenerator with yield from",
    "write a coroutine with async def",
    "write an __init__ method",
    "define __repr__ for a class",
    "use the nonlocal statement",
    "use the pass statement",
    "use else on a for loop",
    "return several values from a function",
    "give a parameter a default value",
    "use the del statement",
    "combine conditions with boolean operators",
    "write a conditional expression",
    "write a bytes literal",
    "use escape sequences in a string",
    "do integer division",
    "raise a number to a power",
    "use augmented assignment",
    "use the match statement",
    "annotate a function with type hints",
]
assert len(TOPICS) == RUNS


def token(i: int) -> str:
    """The mark that identifies thread `i`'s question wherever it lands."""
    return f"ticket-{i:02d}q"


def question(i: int) -> str:
    return f"How do I {TOPICS[i]} in Python? ({token(i)})"


def ask(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def percentile(values: list[float], q: int) -> float:
    """The q-th percentile (inclusive method, so it lies within the observed values)."""
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


@dataclass
class Figures:
    """What one load run measured."""

    jobs: int
    runs: int
    cold_first_run_s: float
    wall_s: float
    latencies_s: list[float]

    @property
    def runs_per_s(self) -> float:
        return self.runs / self.wall_s

    def lines(self) -> list[str]:
        lat = self.latencies_s
        return [
            f"langgraph dev --n-jobs-per-worker {self.jobs}, offline engine",
            f"first run on a fresh server (model load + corpus seeding): "
            f"{self.cold_first_run_s:.1f}s",
            f"{self.runs} concurrent runs on {self.runs} threads: wall {self.wall_s:.1f}s, "
            f"{self.runs_per_s:.2f} runs/s",
            f"latency per run (create -> join): p50 {percentile(lat, 50):.1f}s, "
            f"p95 {percentile(lat, 95):.1f}s, min {min(lat):.1f}s, max {max(lat):.1f}s",
        ]


class _LoadReport:
    """A plugin registered at run time: the figures in the terminal summary."""

    def __init__(self) -> None:
        self.figures: list[Figures] = []

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.figures:
            return
        terminalreporter.section("server load")
        for figures in self.figures:
            for line in figures.lines():
                terminalreporter.write_line(line)


@pytest.fixture(scope="module")
def report(request: pytest.FixtureRequest) -> _LoadReport:
    manager = request.config.pluginmanager
    found = manager.get_plugin("codeweaver-server-load")
    if found is None:
        found = _LoadReport()
        manager.register(found, "codeweaver-server-load")
    assert isinstance(found, _LoadReport)
    return found


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, float]]:
    """A server with JOBS jobs per worker that has answered once (corpus seeded, model loaded).

    Yields the server and how long that first, cold run took.
    """
    proc, server = support.start_server(tmp_path_factory.mktemp("load"), jobs=JOBS)
    try:

        async def first_run() -> float:
            async with support.client(server) as sdk:
                thread = await sdk.threads.create()
                started = time.monotonic()
                result = await sdk.runs.wait(
                    thread["thread_id"], GRAPH, input=ask("What does the zip function do?")
                )
                assert isinstance(result, dict)
                assert result["answer"]["text"], result
                return time.monotonic() - started

        cold = asyncio.run(first_run())
        yield server, cold
    finally:
        support.stop_server(proc)


@pytest.fixture
def server(warm: tuple[Server, float]) -> Server:
    return warm[0]


@pytest.fixture
async def sdk(server: Server) -> AsyncIterator[LangGraphClient]:
    async with support.client(server) as client:
        yield client


def _server_log(server: Server) -> str:
    return server.log.read_text(encoding="utf-8", errors="replace")


def _texts(values: dict[str, Any]) -> str:
    """The parts of a thread's state that carry its own question and answer.

    Not `cache_decision`: the cache is shared by design, so its nearest (rejected) candidate
    may be another thread's question.
    """
    own = {k: values.get(k) for k in ("messages", "plan", "analysis", "answer")}
    return json.dumps(own, ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# 50 concurrent runs on 50 threads
# ---------------------------------------------------------------------------------------------


async def test_fifty_concurrent_runs_each_land_in_their_own_thread(
    warm: tuple[Server, float], sdk: LangGraphClient, report: _LoadReport
) -> None:
    server, cold = warm
    threads = [(await sdk.threads.create(metadata={"load": i}))["thread_id"] for i in range(RUNS)]

    async def one(i: int) -> tuple[str, float, dict[str, Any]]:
        started = time.monotonic()
        run = await sdk.runs.create(threads[i], GRAPH, input=ask(question(i)))
        joined = await sdk.runs.join(threads[i], run["run_id"])
        return run["run_id"], time.monotonic() - started, joined

    started = time.monotonic()
    results = await asyncio.wait_for(
        asyncio.gather(*(one(i) for i in range(RUNS))), timeout=LOAD_TIMEOUT_S
    )
    wall = time.monotonic() - started
    figures = Figures(JOBS, RUNS, cold, wall, [latency for _, latency, _ in results])
    report.figures.append(figures)
    print("\n" + "\n".join(figures.lines()))

    # Every run succeeded, on the thread it was submitted to, and only there.
    message_ids: list[str] = []
    for i, (run_id, _, joined) in enumerate(results):
        thread_id = threads[i]
        run = await sdk.runs.get(thread_id, run_id)
        assert run["status"] == "success", (i, run)
        assert [r["run_id"] for r in await sdk.runs.list(thread_id)] == [run_id]

        values: Any = (await sdk.threads.get_state(thread_id))["values"]
        assert joined["messages"] == values["messages"], i
        messages = values["messages"]
        assert [m["type"] for m in messages] == ["human", "ai"], (i, messages)
        assert messages[0]["content"] == question(i)
        answer = values["answer"]
        assert answer["text"], (i, answer)
        assert answer["text"] in messages[1]["content"], i
        assert {c["evidence_id"] for c in answer["citations"]} <= {
            e["id"] for e in values["evidence"]
        }, i
        assert len(values["plan"]["questions"]) == 1, (i, values["plan"])
        assert token(i) in values["plan"]["questions"][0]
        assert token(i) in values["analysis"]["standalone_question"]
        # No other thread's question appears in this thread's conversation, plan or answer.
        foreign = [token(j) for j in range(RUNS) if j != i and token(j) in _texts(values)]
        assert not foreign, (i, foreign)
        message_ids += [m["id"] for m in messages]
    assert len(message_ids) == len(set(message_ids)) == 2 * RUNS

    log = _server_log(server)
    assert "InvalidUpdateError" not in log
    assert "Background run failed" not in log


# ---------------------------------------------------------------------------------------------
# Two runs submitted to one thread: the multitask strategy
# ---------------------------------------------------------------------------------------------


async def test_enqueue_runs_a_second_question_after_the_first_with_its_history(
    sdk: LangGraphClient,
) -> None:
    thread_id = (await sdk.threads.create())["thread_id"]
    first_q = "How do I reverse a list in Python?"
    second_q = "Can you show an example of that?"
    first = await sdk.runs.create(
        thread_id, GRAPH, input=ask(first_q), multitask_strategy="enqueue"
    )
    second = await sdk.runs.create(
        thread_id, GRAPH, input=ask(second_q), multitask_strategy="enqueue"
    )
    assert second["status"] == "pending"
    await sdk.runs.join(thread_id, first["run_id"])
    await sdk.runs.join(thread_id, second["run_id"])

    for run in (first, second):
        assert (await sdk.runs.get(thread_id, run["run_id"]))["status"] == "success"
    values: Any = (await sdk.threads.get_state(thread_id))["values"]
    messages = values["messages"]
    assert [(m["type"], m["content"]) for m in messages[::2]] == [
        ("human", first_q),
        ("human", second_q),
    ]
    assert [m["type"] for m in messages] == ["human", "ai", "human", "ai"]
    # The second run started from the first's answer: it read the question as a follow-up.
    assert values["analysis"]["question_type"] == "clarification", values["analysis"]
    history: list[Any] = await sdk.threads.get_history(thread_id, limit=200)
    answered_first = [
        h
        for h in history
        if [m["type"] for m in (h["values"] or {}).get("messages", [])] == ["human", "ai"]
    ]
    assert answered_first, "no checkpoint holds the first answer alone"


async def test_reject_refuses_a_second_run_while_the_first_runs(sdk: LangGraphClient) -> None:
    thread_id = (await sdk.threads.create())["thread_id"]
    first = await sdk.runs.create(
        thread_id,
        GRAPH,
        input=ask("How do I sort a list in Python?"),
        multitask_strategy="reject",
    )
    with pytest.raises(ConflictError) as refused:
        await sdk.runs.create(
            thread_id,
            GRAPH,
            input=ask("How do I catch an exception in Python?"),
            multitask_strategy="reject",
        )
    assert refused.value.status_code == 409
    assert "already running" in str(refused.value)

    await sdk.runs.join(thread_id, first["run_id"])
    assert (await sdk.runs.get(thread_id, first["run_id"]))["status"] == "success"
    assert [r["run_id"] for r in await sdk.runs.list(thread_id)] == [first["run_id"]]
    values: Any = (await sdk.threads.get_state(thread_id))["values"]
    assert [m["type"] for m in values["messages"]] == ["human", "ai"]

    # Once the first run is done, the same strategy accepts the next question.
    after = await sdk.runs.wait(
        thread_id,
        GRAPH,
        input=ask("How do I catch an exception in Python?"),
        multitask_strategy="reject",
    )
    assert isinstance(after, dict)
    assert len(after["messages"]) == 4


# ---------------------------------------------------------------------------------------------
# Odd request bodies through the HTTP API
# ---------------------------------------------------------------------------------------------

BODY_HEAD = b'{"assistant_id": "codeweaver", "input": {"messages": [{"role": "user", "content": '
UNDECODABLE = {
    "invalid_byte": b"\xff\xfe",
    "truncated_sequence": b"\xe2\x82",
    "overlong_nul": b"\xc0\x80",
    "encoded_surrogate": b"\xed\xa0\x80",
}


def _raw_body(bad: bytes) -> bytes:
    return BODY_HEAD + b'"How do I reverse a list ' + bad + b' in Python?"}]}}'


def _body(content: str) -> bytes:
    # json.dumps escapes what it cannot write as UTF-8: a lone surrogate becomes "\ud800".
    payload = {"assistant_id": GRAPH, "input": ask(content)}
    return json.dumps(payload).encode("ascii")


@pytest.fixture
async def http(server: Server) -> AsyncIterator[httpx.AsyncClient]:
    headers = {**server.headers, "content-type": "application/json"}
    async with httpx.AsyncClient(base_url=server.url, headers=headers, timeout=120) as client:
        yield client


async def _follow_up_succeeds(sdk: LangGraphClient, thread_id: str) -> dict[str, Any]:
    """A normal question on the thread afterwards: the thread is still usable."""
    result = await sdk.runs.wait(thread_id, GRAPH, input=ask("How do I sort a list in Python?"))
    assert isinstance(result, dict)
    assert result["messages"][-1]["type"] == "ai"
    assert result["answer"]["text"]
    statuses = [r["status"] for r in await sdk.runs.list(thread_id)]
    assert statuses
    assert set(statuses) == {"success"}, statuses
    return result


@pytest.mark.parametrize("endpoint", ["wait", "stream"])
@pytest.mark.parametrize("bad", list(UNDECODABLE.values()), ids=list(UNDECODABLE))
async def test_undecodable_bytes_get_a_clear_4xx(
    http: httpx.AsyncClient, sdk: LangGraphClient, endpoint: str, bad: bytes
) -> None:
    thread_id = (await sdk.threads.create())["thread_id"]
    body = _raw_body(bad)
    with pytest.raises(UnicodeDecodeError):
        body.decode("utf-8")
    response = await asyncio.wait_for(
        http.post(f"/threads/{thread_id}/runs/{endpoint}", content=body), timeout=30
    )
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    assert response.json()["detail"], response.text
    assert await sdk.runs.list(thread_id) == []  # nothing was started

    await _follow_up_succeeds(sdk, thread_id)


@pytest.mark.parametrize("surrogate", [chr(0xD800), chr(0xDFFF)], ids=["high", "low"])
async def test_lone_surrogate_escape_is_refused_or_answered(
    http: httpx.AsyncClient, sdk: LangGraphClient, surrogate: str
) -> None:
    thread_id = (await sdk.threads.create())["thread_id"]
    body = _body(f"How do I reverse a list {surrogate} in Python?")
    assert b"\\ud" in body  # escaped in the JSON text, which is itself plain ASCII
    response = await asyncio.wait_for(
        http.post(f"/threads/{thread_id}/runs/wait", content=body), timeout=120
    )
    # A clear refusal (the server's JSON parser rejects lone surrogates) or an answered run.
    assert response.status_code != 500, response.text
    if response.status_code == 200:
        values = response.json()
        assert "__error__" not in values, values
        assert values["messages"][-1]["type"] == "ai"
    else:
        assert 400 <= response.status_code < 500, (response.status_code, response.text)
        assert response.json()["detail"], response.text
        assert await sdk.runs.list(thread_id) == []

    await _follow_up_succeeds(sdk, thread_id)


async def test_nul_in_a_message_is_answered(http: httpx.AsyncClient, sdk: LangGraphClient) -> None:
    thread_id = (await sdk.threads.create())["thread_id"]
    body = _body("How do I reverse\x00 a list in Python?")
    assert b"\\u0000" in body
    response = await asyncio.wait_for(
        http.post(f"/threads/{thread_id}/runs/wait", content=body), timeout=120
    )
    assert response.status_code == 200, response.text
    values = response.json()
    assert "__error__" not in values, values
    assert [m["type"] for m in values["messages"]] == ["human", "ai"]
    assert "reverse" in values["messages"][0]["content"]
    assert values["answer"]["text"]

    follow = await _follow_up_succeeds(sdk, thread_id)
    assert len(follow["messages"]) == 4


async def test_a_one_megabyte_message_is_answered(
    http: httpx.AsyncClient, sdk: LangGraphClient
) -> None:
    thread_id = (await sdk.threads.create())["thread_id"]
    content = "How do I reverse a list in Python? " + "x" * (1024 * 1024)
    response = await asyncio.wait_for(
        http.post(f"/threads/{thread_id}/runs/wait", content=_body(content)), timeout=120
    )
    assert response.status_code == 200, response.text[:500]
    values = response.json()
    assert "__error__" not in values, str(values)[:500]
    assert [m["type"] for m in values["messages"]] == ["human", "ai"]
    assert len(values["messages"][0]["content"]) == len(content)
    assert values["answer"]["text"]

    follow = await _follow_up_succeeds(sdk, thread_id)
    assert len(follow["messages"]) == 4
