"""The chat page's logic without a browser: stream interpretation, panels, a server that is down."""

from __future__ import annotations

import http.server
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from codeweaver.ui.app import ask_in_thread, open_thread, report_wrong
from codeweaver.ui.render import details_html, sources_html
from codeweaver.ui.session import (
    ANSWER_TAG,
    ChatServer,
    Citation,
    ServerError,
    ThreadSnapshot,
    TurnView,
)
from codeweaver.workflows.orchestration.nodes import answering
from tests.support import free_port, serving


def token(text: str, message_id: str, tags: list[str]) -> list[Any]:
    return [{"content": text, "id": message_id, "type": "AIMessageChunk"}, {"tags": tags}]


WORKER_A = "messages|multi_question:1|worker:a"
WORKER_B = "messages|multi_question:1|worker:b"


def streamed(*tokens: tuple[str, str, str]) -> TurnView:
    """A turn's view after these answer tokens (namespace, text, message id) streamed in."""
    view = TurnView()
    for namespace, text, message_id in tokens:
        view.apply(namespace, token(text, message_id, [ANSWER_TAG]))
    return view


def test_the_ui_filters_on_the_tag_the_answer_node_uses() -> None:
    assert answering.ANSWER_TAG == ANSWER_TAG


def test_only_answer_tokens_reach_the_page() -> None:
    view = TurnView()
    view.apply("messages|search:1", token("internal judge output", "a", ["codeweaver:internal"]))
    view.apply("messages", token("Use ", "b", [ANSWER_TAG]))
    view.apply("messages", token("`reversed()` [1]", "b", [ANSWER_TAG]))
    assert view.text() == "Use `reversed()` [1]"


def test_a_regenerated_answer_replaces_the_rejected_one() -> None:
    view = streamed(("messages", "first draft", "one"), ("messages", "second draft", "two"))
    assert view.text() == "second draft"


def test_parallel_workers_stream_into_separate_sections() -> None:
    view = streamed((WORKER_A, "alpha", "x"), (WORKER_B, "beta", "y"), (WORKER_A, " more", "x"))
    assert view.text() == "alpha more\n\n---\n\nbeta"


def test_the_combined_answer_replaces_the_workers_drafts() -> None:
    drafts = [(WORKER_A, "alpha", "x"), (WORKER_B, "beta", "y")]
    combined = [("messages", "## 1. alpha\n", "z"), ("messages", "## 2. beta", "z")]
    assert streamed(*drafts, *combined).text() == "## 1. alpha\n## 2. beta"


def test_progress_follows_running_nodes_and_a_written_answer_shows_whole() -> None:
    view = TurnView()
    view.apply("tasks|search:1", {"id": "1", "name": "search_stackoverflow", "input": {}})
    view.apply("tasks|search:1", {"id": "2", "name": "judge", "input": {}})
    assert view.status() == "searching Stack Overflow… · judging evidence…"
    view.apply("tasks|search:1", {"id": "1", "name": "search_stackoverflow", "result": {}})
    assert view.status() == "judging evidence…"
    # A subgraph's answer is not the turn's answer; a top-level node's is.
    view.apply("tasks|w:1", {"id": "3", "name": "answer", "result": {"answer": {"text": "no"}}})
    assert view.text() == ""
    view.apply("tasks", {"id": "4", "name": "answer", "result": {"answer": {"text": "Yes [1]"}}})
    assert view.text() == "Yes [1]"


def test_a_failed_run_says_so() -> None:
    view = TurnView()
    view.apply("error", {"error": "NodeError", "message": "search exploded"})
    assert view.status() == "The run failed: search exploded"


STATE: dict[str, Any] = {
    "messages": [
        {"type": "human", "content": "How do I reverse a list?"},
        {"type": "ai", "content": "Use `reversed()` [1]"},
    ],
    "answer": {
        "text": "Use `reversed()` [1]",
        "citations": [
            {
                "n": 1,
                "evidence_id": "e1",
                "title": "<script>alert(1)</script> **bold**",
                "source": "stackoverflow",
                "url": "javascript:alert(1)",
                "file": None,
                "locator": "answer 42",
            },
            {
                "n": 2,
                "evidence_id": "e2",
                "title": "Sequence types",
                "source": "local",
                "url": None,
                "file": "docs/<seq>.md",
                "locator": "",
            },
        ],
        "warning": None,
    },
    "routing": {"route": "single", "reason": "one <question>"},
    "analysis": {"standalone_question": "How do I reverse a list in Python?"},
    "cache_decision": {"hit": True, "reason": "verified", "entry_id": "abc", "similarity": 0.97},
    "errors": [{"node": "search_github", "message": "no GITHUB_TOKEN"}],
}


def test_a_thread_state_becomes_the_page() -> None:
    snapshot = ThreadSnapshot.from_state("t1", STATE)
    assert [m["role"] for m in snapshot.messages] == ["user", "assistant"]
    assert snapshot.route == "single"
    assert snapshot.cache_hit
    assert snapshot.cache_entry_id == "abc"
    assert snapshot.cache_key == "How do I reverse a list in Python?"
    details = details_html(snapshot)
    assert "Served from the cache" in details
    assert "0.97" in details
    assert "one &lt;question&gt;" in details
    assert "search_github: no GITHUB_TOKEN" in details


def test_sources_are_escaped_and_only_web_links_are_links() -> None:
    html = sources_html(ThreadSnapshot.from_state("t1", STATE).citations)
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "href=" not in html  # a javascript: URL is shown, never linked
    assert "docs/&lt;seq&gt;.md" in html
    assert "Stack Overflow" in html
    assert "Local documents" in html
    linked = sources_html([Citation(1, "T", "docs", "https://docs.python.org/3/", None, "")])
    assert 'href="https://docs.python.org/3/"' in linked
    assert 'rel="noopener noreferrer"' in linked


@pytest.fixture
def down() -> ChatServer:
    return ChatServer(url=f"http://127.0.0.1:{free_port()}")


async def test_asking_while_the_server_is_down_says_how_to_start_it(down: ChatServer) -> None:
    shown = [item async for item in ask_in_thread(down, "How do I reverse a list?", "", None)]
    messages, status, _, _, thread_id, last = shown[-1]
    assert "Cannot reach LangGraph Server" in status
    assert "codeweaver serve" in status
    assert messages == []
    assert thread_id == ""
    assert last is None


async def test_opening_a_thread_while_the_server_is_down_keeps_its_id(down: ChatServer) -> None:
    messages, status, _, _, thread_id, _ = await open_thread(down, "t-123")
    assert thread_id == "t-123"
    assert messages == []
    assert "Cannot reach LangGraph Server" in status


async def test_reporting_while_the_server_is_down_is_a_clear_error(down: ChatServer) -> None:
    snapshot = ThreadSnapshot.from_state("t1", STATE)
    assert "Cannot reach LangGraph Server" in await report_wrong(down, snapshot)
    assert "Ask a question first" in await report_wrong(down, None)


async def test_an_empty_question_is_not_sent(down: ChatServer) -> None:
    shown = [item async for item in ask_in_thread(down, "   ", "", None)]
    assert len(shown) == 1
    assert "Type a question first" in shown[0][1]


class Gatekeeper(http.server.BaseHTTPRequestHandler):
    """A server that is up (`/ok`) but accepts only one bearer token, recording what came."""

    accepted = "Bearer ui-token-0123456789abcdef"
    seen: ClassVar[list[str | None]] = []

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def _answer(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        self.rfile.read(length)
        if self.path != "/ok":
            self.seen.append(self.headers.get("authorization"))
        allowed = self.path == "/ok" or self.headers.get("authorization") == self.accepted
        body = b"[]" if allowed else b'{"detail":"Invalid token."}'
        self.send_response(200 if allowed else 401)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@pytest.fixture
def gatekeeper() -> Iterator[str]:
    Gatekeeper.seen = []
    with serving(Gatekeeper) as url:
        yield url


async def test_every_request_carries_the_token(gatekeeper: str) -> None:
    server = ChatServer(url=gatekeeper, token=Gatekeeper.accepted.split()[1])
    await server.check_token()
    assert Gatekeeper.seen == [Gatekeeper.accepted]
    assert Gatekeeper.accepted.split()[1] not in repr(server)


async def test_a_refused_token_says_what_to_do(gatekeeper: str) -> None:
    server = ChatServer(url=gatekeeper, token="someone-elses-token-0123")
    with pytest.raises(ServerError, match="did not accept this client's token") as refused:
        await server.check_token()
    assert "CODEWEAVER_TOKEN" in str(refused.value)
    shown = [item async for item in ask_in_thread(server, "How do I reverse a list?", "", None)]
    assert "HTTP 401" in shown[-1][1]
    assert Gatekeeper.seen[-1] == "Bearer someone-elses-token-0123"
