import copy
from typing import Any

import pytest

from codeweaver_schema import DocsMeta
from codeweaver_search.sources.doc_domains import docs_domains, github_language
from codeweaver_search.sources.docs import MAX_QUERY_CHARS

from .helpers import DOCS
from .replay import ReplayServer, Reply, fixture

DUMMY = fixture("tavily", "tavily_python_test_dummy_response.json")
OPENAPI = fixture("tavily", "search_openapi_example.json")
source, ask, refusal = DOCS.source, DOCS.ask, DOCS.refusal


@pytest.fixture(autouse=True)
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-test")


def on_python_docs(response: dict[str, Any]) -> dict[str, Any]:
    body = copy.deepcopy({k: v for k, v in response.items() if not k.startswith("_")})
    body["results"][0]["url"] = "https://docs.python.org/3/library/functions.html#reversed"
    return body


async def test_success_restricted_to_official_domains(server: ReplayServer) -> None:
    server.route("POST", "/search", Reply(body=on_python_docs(DUMMY)))
    evidence = await ask(source(server))
    assert len(evidence) == 1
    item = evidence[0]
    assert isinstance(item.meta, DocsMeta)
    assert item.meta.domain == "docs.python.org"
    assert item.meta.section == "reversed"
    assert item.score == 0.99
    request = server.requests[0]
    assert request.headers["authorization"] == "Bearer tvly-test"
    assert request.json()["include_domains"] == ["docs.python.org"]


async def test_results_outside_the_official_domains_are_dropped(server: ReplayServer) -> None:
    server.route("POST", "/search", Reply(body=OPENAPI["response_200_example"]))
    assert await ask(source(server)) == []


async def test_query_is_cut_to_tavily_limit(server: ReplayServer) -> None:
    server.route("POST", "/search", Reply(body={**DUMMY, "results": []}))
    await ask(source(server), "python " * 200)
    assert len(server.requests[0].json()["query"]) <= MAX_QUERY_CHARS


@pytest.mark.parametrize(
    ("status", "kind", "retryable"),
    [
        (400, "http", False),
        (401, "http", False),
        (429, "rate_limited", True),
        (432, "rate_limited", False),
        (433, "rate_limited", False),
        (500, "http", True),
    ],
)
async def test_error_examples(
    server: ReplayServer, status: int, kind: str, retryable: bool
) -> None:
    example = OPENAPI["error_examples"][str(status)]["example"]
    server.route("POST", "/search", Reply(status, example))
    error = await refusal(source(server))
    assert error.kind == kind
    assert error.retryable is retryable
    assert example["detail"]["error"] in error.message


def test_domains_follow_languages_and_libraries() -> None:
    assert docs_domains("Django ORM select_related vs prefetch_related") == [
        "docs.djangoproject.com"
    ]
    assert "react.dev" in docs_domains("React useEffect runs twice")
    assert "developer.mozilla.org" in docs_domains("javascript fetch abort")
    assert "en.cppreference.com" in docs_domains("What does std::move do in C++?")
    assert "docs.python.org" in docs_domains("how to write good code")
    assert github_language("pandas groupby in python") == "Python"
    assert github_language("python and rust ffi") is None


@pytest.mark.parametrize(("status", "limit"), [(432, "plan"), (433, "pay-as-you-go")])
async def test_usage_limit_pauses_docs_search(
    server: ReplayServer, status: int, limit: str
) -> None:
    example = OPENAPI["error_examples"][str(status)]["example"]
    server.route("POST", "/search", Reply(status, example))
    docs = source(server)
    error = await refusal(docs)
    assert error.message.startswith(f"Tavily {limit} usage limit reached")
    reason = docs.rate_limit_reason() or ""
    assert f"Tavily {limit} usage limit reached" in reason
    assert "(in 60 min)" in reason or "(in 59 min)" in reason
    assert f"Tavily {limit} usage limit" in (docs.unavailable_reason() or "")
    await refusal(docs)
    assert len(server.requests) == 1


async def test_rate_limit_with_a_long_retry_after_pauses_docs_search(server: ReplayServer) -> None:
    example = OPENAPI["error_examples"]["429"]["example"]
    server.route("POST", "/search", Reply(429, example, headers={"retry-after": "120"}))
    docs = source(server)
    error = await refusal(docs)
    assert error.kind == "rate_limited"
    assert not error.retryable
    assert "Tavily rate limit reached" in (docs.rate_limit_reason() or "")
