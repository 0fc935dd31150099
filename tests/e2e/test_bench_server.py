"""The served part of `codeweaver bench`: the packaged fake graph under `langgraph dev`."""

from __future__ import annotations

import httpx
import pytest

from codeweaver.bench.server import serve_fake_graph

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]


def test_the_bench_serves_its_packaged_graph_and_answers_a_run() -> None:
    with serve_fake_graph(jobs=2) as url, httpx.Client(base_url=url, timeout=120) as http:
        assert http.get("/ok").status_code == 200
        [assistant] = http.post("/assistants/search", json={"graph_id": "bench"}).json()
        run = http.post(
            "/runs/wait",
            json={
                "assistant_id": assistant["assistant_id"],
                "input": {"messages": [{"role": "user", "content": "How do I reverse a list?"}]},
            },
        )
        assert run.status_code == 200, run.text
        answer = run.json()["answer"]
        assert answer["citations"], answer
