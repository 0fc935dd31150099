"""What the web sources do alike: skipped without a key; slow, unreadable or huge replies."""

from collections.abc import Callable
from typing import Any

import pytest

from codeweaver_search.sources import (
    GitHubCodeSource,
    Source,
    TavilyDocsSource,
)

from .helpers import DOCS, GITHUB, STACKOVERFLOW, Replayed
from .replay import ReplayServer, Reply, fixture


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-test")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_test")


@pytest.mark.parametrize(
    ("make", "variable"),
    [(TavilyDocsSource, "TAVILY_API_KEY"), (GitHubCodeSource, "GITHUB_TOKEN")],
)
def test_without_its_key_a_source_is_skipped_with_a_reason(
    monkeypatch: pytest.MonkeyPatch, make: Callable[[], Source], variable: str
) -> None:
    monkeypatch.delenv(variable)
    assert variable in (make().unavailable_reason() or "")


MB = 1024 * 1024
DOCS_REPLY = fixture("tavily", "tavily_python_test_dummy_response.json")
GITHUB_REPLY = fixture("github", "openapi_search_code_example.json")["example"]
STACKOVERFLOW_REPLY = fixture("stackexchange", "questions_11227809_withbody.json")


@pytest.mark.parametrize(
    ("api", "reply", "kind", "says"),
    [
        pytest.param(DOCS, Reply(body=DOCS_REPLY, delay_s=2), "timeout", "", id="docs-slow"),
        pytest.param(GITHUB, Reply(body=GITHUB_REPLY, delay_s=2), "timeout", "", id="github-slow"),
        pytest.param(
            STACKOVERFLOW,
            Reply(body=STACKOVERFLOW_REPLY, delay_s=2),
            "timeout",
            "",
            id="stackoverflow-slow",
        ),
        pytest.param(DOCS, Reply(raw=b"<html>"), "malformed", "", id="docs-not-json"),
        pytest.param(GITHUB, Reply(raw=b"not json"), "malformed", "", id="github-not-json"),
        pytest.param(
            STACKOVERFLOW,
            Reply(raw=b'{"items": [ {"question_id": 1'),
            "malformed",
            "",
            id="stackoverflow-not-json",
        ),
        pytest.param(DOCS, Reply(stream_bytes=5 * MB), "malformed", "exceeds", id="docs-huge"),
        pytest.param(
            STACKOVERFLOW,
            Reply(stream_bytes=6 * MB),
            "malformed",
            "exceeds",
            id="stackoverflow-huge",
        ),
    ],
)
async def test_a_slow_unreadable_or_huge_reply_is_a_clear_error(
    server: ReplayServer, api: Replayed[Any], reply: Reply, kind: str, says: str
) -> None:
    server.route(api.method, api.path, reply)
    # A slow reply against a timeout it outlasts; the others with time to spare.
    error = await api.refusal(api.source(server, timeout_s=0.3 if reply.delay_s else 2.0))
    assert error.kind == kind
    assert says in error.message
