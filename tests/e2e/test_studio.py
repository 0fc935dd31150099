"""`codeweaver serve --studio`: Studio without a token, from Studio's page and this machine only.

"This machine" is told by the request's `Host` as well as its `Origin`: a page whose domain
was rebound to 127.0.0.1 is same-origin with itself, so only its `Host` gives it away.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support import Server, start_server, stop_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

STUDIO = {"X-Auth-Scheme": "langsmith"}


@pytest.fixture(scope="module")
def studio_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    proc, running = start_server(tmp_path_factory.mktemp("studio"), studio=True)
    try:
        yield running
    finally:
        stop_server(proc)


def test_studio_lists_graphs_and_runs_a_question_without_a_token(studio_server: Server) -> None:
    with httpx.Client(base_url=studio_server.url, timeout=300) as http:
        assistants = http.post("/assistants/search", json={"limit": 20}, headers=STUDIO)
        assert assistants.status_code == 200, assistants.text
        assert "codeweaver" in {a["graph_id"] for a in assistants.json()}
        result = http.post(
            "/runs/wait",
            json={
                "assistant_id": "codeweaver",
                "input": {"messages": [{"type": "human", "content": "How do I sort a list?"}]},
            },
            headers=STUDIO,
        )
        assert result.status_code == 200, result.text
        assert result.json()["messages"][-1]["type"] == "ai"


def test_other_clients_still_need_the_token(studio_server: Server) -> None:
    with httpx.Client(base_url=studio_server.url, timeout=60) as http:
        assert http.post("/threads/search", json={}).status_code == 401
        assert http.post("/threads/search", json={}, headers=studio_server.headers).is_success


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("https://smith.langchain.com", True),
        ("http://localhost:3000", True),
        ("https://evil.example", False),
        ("http://localhost.evil.example", False),
    ],
)
def test_browsers_may_use_the_studio_scheme_only_from_studio_and_this_machine(
    studio_server: Server, origin: str, allowed: bool
) -> None:
    with httpx.Client(base_url=studio_server.url, timeout=60) as http:
        preflight = http.options(
            "/threads/search",
            headers={
                "Origin": origin,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "x-auth-scheme,content-type",
            },
        )
    granted = preflight.headers.get("access-control-allow-origin")
    assert (granted == origin) is allowed, (preflight.status_code, dict(preflight.headers))


QUESTION = {
    "assistant_id": "codeweaver",
    "input": {"messages": [{"type": "human", "content": "How do I sort a list?"}]},
}
MCP_LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


def test_a_dns_rebinding_page_gets_nothing(studio_server: Server) -> None:
    port = urlsplit(studio_server.url).port
    rebound = {**STUDIO, "Host": f"evil.example:{port}"}
    with httpx.Client(base_url=studio_server.url, timeout=300) as http:
        answered = http.post("/runs/wait", json=QUESTION, headers=rebound)
        threads = http.post("/threads/search", json={}, headers=rebound)
        mcp = http.post("/mcp", json=MCP_LIST, headers={**rebound, **MCP_HEADERS})
        health = http.get("/info", headers={"Host": f"evil.example:{port}"})
        for refused in (answered, threads, mcp, health):
            assert refused.status_code == 403, (refused.request.url, refused.text)
            assert "DNS rebinding" in refused.json()["detail"]
        assert f"http://127.0.0.1:{port}" in answered.json()["detail"]
        # The same requests addressed by a loopback name are served.
        for name in ("localhost", "127.0.0.1", "[::1]"):
            here = {**STUDIO, "Host": f"{name}:{port}"}
            assert http.post("/threads/search", json={}, headers=here).status_code == 200, name
        # A loopback name passes the Host check; CodeWeaver's `/mcp` then wants a token of its
        # own (Studio's token-less scheme is for Studio, which uses no MCP tools).
        mcp_here = {**STUDIO, **MCP_HEADERS, "Host": f"localhost:{port}"}
        answered_here = http.post("/mcp", json=MCP_LIST, headers=mcp_here)
        assert answered_here.status_code == 401, answered_here.text
        assert "DNS rebinding" not in answered_here.text
