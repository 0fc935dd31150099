import time

import pytest

from codeweaver_schema import StackOverflowMeta
from codeweaver_search.sources import StackOverflowSource

from .helpers import STACKOVERFLOW
from .replay import ReplayServer, Reply, fixture

QUESTIONS = fixture("stackexchange", "questions_11227809_withbody.json")
ANSWERS = fixture("stackexchange", "answers_11227902_withbody.json")
SEARCH_2016 = fixture("stackexchange", "search_advanced_default_filter_gaea_2016.json")
source, ask, refusal = STACKOVERFLOW.source, STACKOVERFLOW.ask, STACKOVERFLOW.refusal


def throttled(seconds: int) -> Reply:
    """Stack Exchange's reply to too many requests: no more for `seconds`."""
    message = f"too many requests from this IP, more requests available in {seconds} seconds"
    body = {"error_id": 502, "error_name": "throttle_violation", "error_message": message}
    return Reply(400, body)


async def test_search_then_answers_with_bodies(
    server: ReplayServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STACKEXCHANGE_KEY", "k3y")
    server.route("GET", "/search/advanced", Reply(body=QUESTIONS))
    server.route("GET", "/questions/", Reply(body=ANSWERS))
    so = source(server)

    evidence = await ask(so)

    assert len(evidence) == 1
    item = evidence[0]
    assert item.url == "https://stackoverflow.com/a/11227902"
    assert item.title.startswith("Why is processing a sorted array faster")
    assert isinstance(item.meta, StackOverflowMeta)
    assert item.meta.is_accepted
    assert item.meta.score == 35276
    assert item.meta.author == "Mysticial"
    assert item.meta.license == "CC BY-SA 4.0"
    assert "branch-prediction" in item.meta.tags
    assert item.meta.created == 1340805402
    assert "```\nif (data[c] >= 128)" in item.content
    assert "<p>" not in item.content
    search, answers = server.requests
    assert search.query["site"] == "stackoverflow"
    assert search.query["key"] == "k3y"
    assert search.query["q"] == "why is a sorted array faster"
    assert answers.path == "/questions/11227809/answers"
    assert answers.query["filter"] == "withbody"
    assert so.quota_remaining == 298


async def test_older_search_page_parses_and_questions_without_answers_give_nothing(
    server: ReplayServer,
) -> None:
    server.route("GET", "/search/advanced", Reply(body=SEARCH_2016))
    server.route("GET", "/questions/", Reply(body={"items": [], "quota_remaining": 246}))
    so = source(server)
    assert await ask(so) == []
    assert server.requests[1].path.count(";") == 9
    assert so.quota_remaining == 246


async def test_empty_search_makes_one_request(server: ReplayServer) -> None:
    server.route("GET", "/search/advanced", Reply(body={"items": [], "has_more": False}))
    assert await ask(source(server)) == []
    assert len(server.requests) == 1


async def test_error_body_is_a_non_retryable_http_error(server: ReplayServer) -> None:
    body = {"error_id": 400, "error_name": "bad_parameter", "error_message": "site is required"}
    server.route("GET", "/search/advanced", Reply(400, body))
    error = await refusal(source(server))
    assert error.kind == "http"
    assert not error.retryable
    assert "bad_parameter" in error.message


async def test_internal_error_is_retryable(server: ReplayServer) -> None:
    body = {"error_id": 500, "error_name": "internal_error", "error_message": "oops"}
    server.route("GET", "/search/advanced", Reply(500, body))
    error = await refusal(source(server))
    assert error.retryable


async def test_throttle_violation_is_rate_limited_with_its_wait(server: ReplayServer) -> None:
    server.route("GET", "/search/advanced", throttled(1))
    so = source(server)
    asked = time.monotonic()
    error = await refusal(so)
    assert error.kind == "rate_limited"
    assert error.retry_after == 1
    assert error.retryable
    # The gate holds the next request until a full second after the throttled reply.
    assert so.gate.not_before >= asked + 1


async def test_backoff_is_honoured_before_the_next_request(server: ReplayServer) -> None:
    server.route("GET", "/search/advanced", Reply(body={**QUESTIONS, "backoff": 1}))
    server.route("GET", "/questions/", Reply(body=ANSWERS))
    so = source(server)
    started = time.perf_counter()
    await ask(so)
    # The answers request waited out the backoff the search response asked for.
    assert time.perf_counter() - started >= 0.95


async def test_backoff_longer_than_the_budget_fails_fast(server: ReplayServer) -> None:
    server.route("GET", "/search/advanced", Reply(body={**QUESTIONS, "backoff": 30}))
    so = source(server)
    error = await refusal(so)
    assert error.kind == "rate_limited"
    assert len(server.requests) == 1


async def test_body_without_items_is_malformed(server: ReplayServer) -> None:
    server.route("GET", "/search/advanced", Reply(body={"quota_remaining": 5}))
    error = await refusal(source(server))
    assert error.kind == "malformed"


async def test_exhausted_quota_makes_the_source_unavailable(server: ReplayServer) -> None:
    server.route("GET", "/search/advanced", Reply(body={"items": [], "quota_remaining": 0}))
    so = source(server)
    await ask(so)
    assert "quota" in (so.unavailable_reason() or "")


async def test_circuit_opens_after_repeated_failures(server: ReplayServer) -> None:
    server.route("GET", "/search/advanced", Reply(503, {"error_id": 503, "error_name": "x"}))
    so = source(server)
    assert so.unavailable_reason() is None
    for _ in range(3):
        await refusal(so)
    assert "circuit open" in (so.unavailable_reason() or "")


async def test_no_network_is_a_skip_not_a_failure() -> None:
    # `.invalid` never resolves (RFC 6761): this is what an offline machine sees for any host.
    so = StackOverflowSource(base_url="http://api.stackexchange.invalid/2.3", timeout_s=2.0)
    error = await refusal(so)
    assert error.kind == "skipped"
    assert "cannot be resolved" in error.message


async def test_used_up_quota_is_a_clear_rate_limit_until_midnight(server: ReplayServer) -> None:
    # The last request of the day succeeds and says so: quota_remaining 0.
    server.route("GET", "/search/advanced", Reply(body={**QUESTIONS, "quota_remaining": 1}))
    server.route("GET", "/questions/", Reply(body={**ANSWERS, "quota_remaining": 0}))
    so = source(server)
    assert await ask(so)
    reason = so.rate_limit_reason() or ""
    assert "Stack Overflow daily quota exhausted" in reason
    assert "STACKEXCHANGE_KEY" in reason
    assert "UTC" in reason
    assert "daily quota exhausted" in (so.unavailable_reason() or "")
    # Asked anyway, it refuses without a request rather than spend one on a known refusal.
    sent = len(server.requests)
    error = await refusal(so)
    assert error.kind == "rate_limited"
    assert error.message.startswith("Stack Overflow daily quota exhausted")
    assert len(server.requests) == sent


async def test_a_throttle_of_hours_is_the_daily_quota(
    server: ReplayServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STACKEXCHANGE_KEY", "se-key")
    server.route("GET", "/search/advanced", throttled(82216))
    so = source(server)
    error = await refusal(so)
    assert error.kind == "rate_limited"
    assert not error.retryable
    assert error.message.startswith("Stack Overflow daily quota exhausted; next request")
    assert "throttle_violation" in error.message
    reason = so.rate_limit_reason() or ""
    assert "daily quota exhausted" in reason
    assert "STACKEXCHANGE_KEY" not in reason  # a key is set: no advice to set one
    assert "(in 22 h" in reason


async def test_a_short_throttle_does_not_make_the_source_unavailable(
    server: ReplayServer,
) -> None:
    server.route("GET", "/search/advanced", throttled(1))
    so = source(server)
    await refusal(so)
    assert so.rate_limit_reason() is None
