import time

import pytest

from codeweaver_schema import GitHubMeta
from codeweaver_search.sources import SourceError
from codeweaver_search.sources.base import RateLimiter
from codeweaver_search.sources.github import MAX_QUERY_CHARS, TEXT_MATCH, code_query

from .helpers import GITHUB
from .replay import ReplayServer, Reply, fixture

HIGHLIGHTED = fixture("github", "Search.testSearchHighlightingCode.0.json")["body"]
OLD_SHAPE = fixture("github", "Search.testSearchCode.0.json")["body"]
OPENAPI = fixture("github", "openapi_search_code_example.json")["example"]
source, ask, refusal = GITHUB.source, GITHUB.ask, GITHUB.refusal


@pytest.fixture(autouse=True)
def token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_test")


async def test_text_matches_become_fragments(server: ReplayServer) -> None:
    server.route("GET", "/search/code", Reply(body=HIGHLIGHTED))
    evidence = await ask(source(server))
    assert evidence
    first = evidence[0]
    assert isinstance(first.meta, GitHubMeta)
    assert first.meta.repository == "jacquev6/MockMockMock"
    assert first.meta.path == "MockMockMock/tests/record_replay.py"
    assert first.url
    assert first.url.startswith("https://github.com/jacquev6/MockMockMock/blob/")
    assert first.meta.fragments
    assert "toto=46" in first.meta.fragments[0]
    assert first.content.startswith("```\n")
    request = server.requests[0]
    assert request.headers["accept"] == TEXT_MATCH
    assert request.headers["authorization"] == "Bearer ghp_test"
    assert "language:Python" in request.query["q"]


async def test_old_shape_without_text_matches_parses(server: ReplayServer) -> None:
    server.route("GET", "/search/code", Reply(body=OLD_SHAPE))
    evidence = await ask(source(server))
    assert len(evidence) == 5
    assert all(e.content == "" and e.url for e in evidence)
    assert evidence[0].meta.kind == "github"


async def test_current_openapi_shape_parses(server: ReplayServer) -> None:
    server.route("GET", "/search/code", Reply(body=OPENAPI))
    evidence = await ask(source(server))
    assert evidence[0].title == "jquery/jquery: src/attributes/classes.js"


async def test_long_query_is_cut_to_github_limit(server: ReplayServer) -> None:
    server.route("GET", "/search/code", Reply(body={"total_count": 0, "items": []}))
    long_question = " ".join(f"identifier_{i}" for i in range(200))
    assert await ask(source(server), long_question) == []
    assert len(server.requests[0].query["q"]) <= MAX_QUERY_CHARS
    assert len(code_query(long_question * 5)) <= MAX_QUERY_CHARS


async def test_rate_limit_403_with_far_reset_is_not_retried(server: ReplayServer) -> None:
    server.route(
        "GET",
        "/search/code",
        Reply(
            403,
            {"message": "API rate limit exceeded"},
            headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": "9999999999"},
        ),
    )
    gh = source(server)
    error = await refusal(gh)
    assert error.kind == "rate_limited"
    assert not error.retryable
    assert "rate limit" in (gh.unavailable_reason() or "")


async def test_429_with_short_retry_after_is_retryable(server: ReplayServer) -> None:
    server.route(
        "GET", "/search/code", Reply(429, {"message": "slow down"}, headers={"retry-after": "1"})
    )
    error = await refusal(source(server))
    assert error.kind == "rate_limited"
    assert error.retryable


async def test_validation_error_is_not_retryable(server: ReplayServer) -> None:
    server.route("GET", "/search/code", Reply(422, {"message": "Validation Failed"}))
    error = await refusal(source(server))
    assert error.kind == "http"
    assert not error.retryable


async def test_server_error_is_retryable(server: ReplayServer) -> None:
    server.route("GET", "/search/code", Reply(502, raw=b"<html>Bad gateway</html>"))
    error = await refusal(source(server))
    assert error.retryable
    assert "Bad gateway" in error.message


async def test_limiter_allows_ten_a_minute() -> None:
    limiter = RateLimiter("github", max_calls=10)
    for _ in range(10):
        await limiter.acquire(0.0)
    with pytest.raises(SourceError) as caught:
        await limiter.acquire(0.1)
    assert caught.value.kind == "rate_limited"


async def test_primary_limit_names_its_reset_time(server: ReplayServer) -> None:
    reset = int(time.time()) + 1800
    server.route(
        "GET",
        "/search/code",
        Reply(
            403,
            {
                "message": "API rate limit exceeded for user ID 1.",
                "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
            },
            headers={
                "x-ratelimit-limit": "10",
                "x-ratelimit-remaining": "0",
                "x-ratelimit-reset": str(reset),
                "x-ratelimit-resource": "code_search",
            },
        ),
    )
    gh = source(server)
    error = await refusal(gh)
    assert error.message.startswith("GitHub rate limit reached; next request allowed at")
    assert "API rate limit exceeded" in error.message
    reason = gh.rate_limit_reason() or ""
    assert "(in 30 min)" in reason or "(in 29 min)" in reason
    # Later searches are skipped without a request until the reset.
    await refusal(gh)
    assert len(server.requests) == 1


async def test_secondary_rate_limit_without_headers_waits_a_minute(server: ReplayServer) -> None:
    server.route(
        "GET",
        "/search/code",
        Reply(
            403,
            {
                "message": "You have exceeded a secondary rate limit. Please wait a few minutes "
                "before you try again. If you reach out to GitHub Support for help, please "
                "include the request ID 0000:1111:2222:3333:44444444.",
                "documentation_url": "https://docs.github.com/free-pro-team@latest/rest/overview/"
                "rate-limits-for-the-rest-api#about-secondary-rate-limits",
            },
        ),
    )
    gh = source(server)
    error = await refusal(gh)
    assert error.kind == "rate_limited"
    assert not error.retryable
    assert error.retry_after == 60
    assert "GitHub secondary rate limit reached" in (gh.rate_limit_reason() or "")


async def test_forbidden_without_a_limit_is_an_http_error(server: ReplayServer) -> None:
    server.route("GET", "/search/code", Reply(403, {"message": "Resource not accessible"}))
    gh = source(server)
    error = await refusal(gh)
    assert error.kind == "http"
    assert gh.rate_limit_reason() is None
